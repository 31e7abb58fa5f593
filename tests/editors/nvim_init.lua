-- One editor session against `gpulint server`, run by nvim_test.py as
--
--   nvim --headless --clean -u nvim_init.lua FILE
--
-- Neovim's own LSP client (0.7+: vim.lsp.start_client, buf_attach_client)
-- opens FILE, waits for the server's diagnostics, asks for the code actions
-- (or the hover) at one finding, applies the chosen action's edit, writes
-- the buffer (didChange, didSave) and waits for the diagnostics again.
-- Everything it saw goes to GPULINT_NVIM_OUT as JSON; the driver asserts.
--
-- Environment:
--   GPULINT            the gpulint binary (started as `GPULINT server`)
--   GPULINT_NVIM_OUT   where the JSON record goes
--   GPULINT_NVIM_MODE  quickfix | noqa | fixall | hover | config | dependent
--   GPULINT_NVIM_OTHER, GPULINT_NVIM_OTHER_TEXT  (dependent) the imported file
--                      to open, and a file with the text to put in its buffer
--   GPULINT_NVIM_CODE  the code of the finding to act on (quickfix, noqa, hover),
--                      or to ignore in pyproject.toml (config)
--   GPULINT_NVIM_WAIT_MS  the longest any one wait may take (default 10000)
--
-- Every wait has a timeout; on any error the record says so and nvim quits
-- with status 1, so a broken server makes the test fail, never hang.

-- No provider probing (it runs Python at startup and adds seconds).
vim.g.loaded_python3_provider = 0

local env = vim.env
local wait_ms = tonumber(env.GPULINT_NVIM_WAIT_MS or '10000')
local record = { mode = env.GPULINT_NVIM_MODE, steps = {}, logs = {} }
local publishes = {}   -- every textDocument/publishDiagnostics, in order

local started = vim.loop.hrtime()
-- Records a step with the milliseconds since the start.
local function step(name)
  table.insert(record.steps, string.format('%s %d ms', name, (vim.loop.hrtime() - started) / 1e6))
end

local function save_record()
  local file = assert(io.open(env.GPULINT_NVIM_OUT, 'w'))
  file:write(vim.json.encode(record))
  file:close()
end

-- The client -----------------------------------------------------------------

-- Starts `gpulint server` for the project in the current directory; records
-- the raw diagnostics it publishes before Neovim's own handler shows them.
local function client_start()
  local handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      table.insert(publishes, result)
      return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
    end,
    ['window/logMessage'] = function(_, result)
      table.insert(record.logs, result.message)
    end,
    ['window/showMessage'] = function(_, result)
      table.insert(record.logs, result.message)
    end,
  }
  return vim.lsp.start_client({
    name = 'gpulint',
    cmd = { env.GPULINT, 'server' },
    root_dir = vim.fn.getcwd(),
    handlers = handlers,
    get_language_id = function() return 'python' end,
    on_exit = function(code) record.server_exit = code end,
  })
end

-- Waits until `predicate()` holds; an error names `what` on timeout or
-- when the server has ended meanwhile.
local function wait_for(what, predicate)
  local held = vim.wait(wait_ms, function() return predicate() or record.server_exit ~= nil end, 20)
  if record.server_exit ~= nil and not predicate() then
    error('the server exited with status ' .. record.server_exit .. ' while waiting for ' .. what)
  elseif not held then
    error('timed out after ' .. wait_ms .. ' ms waiting for ' .. what)
  end
end

-- Waits for a publish for `uri` after the `seen`-th publish, then until none
-- has come for 300 ms (a change and a save may each publish); returns the
-- last one for `uri`.
local function wait_for_publish(seen, uri)
  local function last()
    for i = #publishes, seen + 1, -1 do
      if publishes[i].uri == uri then return publishes[i] end
    end
  end
  wait_for('diagnostics for ' .. uri, function() return last() ~= nil end)
  local count = #publishes
  while true do
    vim.wait(300, function() return #publishes > count end, 20)
    if #publishes == count then break end
    count = #publishes
  end
  return last()
end

-- The diagnostics Neovim shows for the buffer, 1-based lines as a user sees.
local function shown_diagnostics(bufnr)
  local shown = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(shown, { line = d.lnum + 1, col = d.col + 1, code = d.code,
      severity = d.severity, message = d.message, source = d.source })
  end
  table.sort(shown, function(a, b) return a.line < b.line or (a.line == b.line and a.col < b.col) end)
  return shown
end

-- Actions --------------------------------------------------------------------

local function find_diagnostic(publish, code)
  for _, d in ipairs(publish.diagnostics) do
    if d.code == code then return d end
  end
  error('no ' .. code .. ' among the published diagnostics')
end

-- Asks for the code actions over `range` with `context`; returns the list.
local function request_actions(bufnr, range, context)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = range, context = context }
  local replies, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, wait_ms)
  if not replies then error('codeAction: ' .. tostring(err)) end
  for _, reply in pairs(replies) do
    if reply.error then error('codeAction: ' .. vim.inspect(reply.error)) end
    return reply.result or {}
  end
  return {}
end

-- The action the mode asks for: the preferred quick fix for the finding, the
-- noqa action, or the fix-all source action.
local function choose(actions, mode, code)
  for _, action in ipairs(actions) do
    local kind = action.kind or ''
    local about = action.diagnostics and action.diagnostics[1] and action.diagnostics[1].code
    if mode == 'quickfix' and action.isPreferred and kind:match('^quickfix') and about == code then
      return action
    elseif mode == 'noqa' and kind:match('^quickfix') and action.title:match('noqa') and about == code then
      return action
    elseif mode == 'fixall' and kind == 'source.fixAll.gpulint' then
      return action
    end
  end
  error('no action for mode ' .. mode .. ' among ' .. #actions)
end

-- Applies `action`: its edit, after resolving it if the server left it out,
-- then its command if it has one.
local function apply(client, bufnr, action)
  if not action.edit and not action.command and client.server_capabilities.codeActionProvider
      and type(client.server_capabilities.codeActionProvider) == 'table'
      and client.server_capabilities.codeActionProvider.resolveProvider then
    local reply = client.request_sync('codeAction/resolve', action, wait_ms, bufnr)
    if not reply or reply.err then error('codeAction/resolve failed') end
    action = reply.result
  end
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
  end
  local command = type(action.command) == 'table' and action.command or nil
  if command then
    local reply = client.request_sync('workspace/executeCommand', command, wait_ms, bufnr)
    if not reply or reply.err then error('executeCommand failed') end
  end
end

-- The session ----------------------------------------------------------------

local function action_summary(actions)
  local out = {}
  for _, a in ipairs(actions) do
    local codes = {}
    for _, d in ipairs(a.diagnostics or {}) do table.insert(codes, d.code) end
    table.insert(out, { title = a.title, kind = a.kind, isPreferred = a.isPreferred or false, codes = codes })
  end
  return out
end

local function hover(bufnr, diagnostic)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr),
    position = diagnostic.range.start }
  local replies = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, wait_ms)
  for _, reply in pairs(replies or {}) do
    if reply.error then error('hover: ' .. vim.inspect(reply.error)) end
    record.hover = reply.result
  end
end

local function session()
  local bufnr = vim.api.nvim_get_current_buf()
  local mode, code = env.GPULINT_NVIM_MODE, env.GPULINT_NVIM_CODE
  local client_id = client_start()
  if not client_id then error('vim.lsp.start_client failed') end
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  step('attached')
  local uri = vim.uri_from_bufnr(bufnr)
  local before = wait_for_publish(0, uri)
  record.before = before
  record.before_shown = shown_diagnostics(bufnr)
  step('diagnostics')
  if mode == 'config' then
    -- Ignore the finding's code in pyproject.toml, from the editor: the
    -- server reads the config again on its didSave and lints train.py anew.
    vim.cmd('split pyproject.toml')
    vim.lsp.buf_attach_client(vim.api.nvim_get_current_buf(), client_id)
    vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'ignore = ["' .. code .. '"]' })
    local seen = #publishes
    vim.cmd('silent write')
    step('config written')
    record.after = wait_for_publish(seen, uri)
    record.after_shown = shown_diagnostics(bufnr)
    step('diagnostics after')
    return client
  end
  if mode == 'dependent' then
    -- Replace the imported file's text in the editor, unsaved: the server
    -- lints the open files that import it against the new text.
    vim.cmd('split ' .. env.GPULINT_NVIM_OTHER)
    vim.lsp.buf_attach_client(vim.api.nvim_get_current_buf(), client_id)
    local lines = vim.fn.readfile(env.GPULINT_NVIM_OTHER_TEXT)
    local seen = #publishes
    vim.api.nvim_buf_set_lines(0, 0, -1, false, lines)
    step('imported file changed')
    record.after = wait_for_publish(seen, uri)
    record.after_shown = shown_diagnostics(bufnr)
    step('diagnostics after')
    return client
  end
  if mode == 'hover' then
    hover(bufnr, find_diagnostic(before, code))
    step('hover')
    return client
  end
  local range, context
  if mode == 'fixall' then
    range = { start = { line = 0, character = 0 },
      ['end'] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 } }
    context = { diagnostics = {}, only = { 'source.fixAll.gpulint' } }
  else
    local diagnostic = find_diagnostic(before, code)
    range = diagnostic.range
    context = { diagnostics = { diagnostic } }
  end
  local actions = request_actions(bufnr, range, context)
  record.actions = action_summary(actions)
  step('actions')
  local action = choose(actions, mode, code)
  record.applied = action.title
  local seen = #publishes
  apply(client, bufnr, action)
  vim.cmd('silent write')
  step('written')
  record.after = wait_for_publish(seen, uri)
  record.after_shown = shown_diagnostics(bufnr)
  step('diagnostics after')
  return client
end

-- Stops the client (shutdown, exit) and waits for the server to end.
local function stop(client)
  if not client then return end
  client.stop()
  local ended = vim.wait(wait_ms, function() return record.server_exit ~= nil end, 20)
  step('stopped')
  if not ended then record.error = (record.error or '') .. ' server did not exit after shutdown' end
end

local function main()
  local ok, result = pcall(session)
  if not ok then record.error = tostring(result) end
  stop(ok and result or nil)
  save_record()
  vim.cmd(record.error and 'cquit 1' or 'qall!')
end

vim.api.nvim_create_autocmd('VimEnter', { once = true, callback = function() vim.schedule(main) end })
