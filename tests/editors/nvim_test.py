#!/usr/bin/env python3
"""gpulint server in a real editor: Neovim's built-in LSP client.

    nvim_test.py --gpulint BINARY --source REPO CASE
    nvim_test.py --list

Each case makes a project in a fresh temporary directory (pyproject.toml and
train.py, a training loop with three known findings), runs

    nvim --headless --clean -u tests/editors/nvim_init.lua train.py

and reads what the Lua session recorded (nvim_init.lua says what it does):
the diagnostics Neovim received and shows, the code actions it was offered,
and the diagnostics after it applied one action and wrote the file. The
case asserts the exact codes and positions before, the file's content after
and the diagnostics after. The messages and severities must be the ones
`gpulint check --output-format json` gives for the same file.

The docs_* cases and nvim_docs_snippet check docs/editors.md: its Neovim
0.7 setup runs as written, its Helix and VS Code settings parse and start
the server, its by-hand shell lines get the initialize reply.

Exit 0 when the case holds, 77 (meson's skip) when a case needs `nvim` and
it is not installed,
1 otherwise. Neovim and the server run in their own process group, killed
when the case runs past LIMIT_S: a hang is a failure, never a stuck test.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

SKIP = 77
LIMIT_S = 60
WAIT_MS = 10000  # the longest any one wait inside Neovim may take

TRAIN = """import torch


def train(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss)
        torch.cuda.empty_cache()
    print(len(losses))
"""

# (code, line, column), 1-based as gpulint prints them.
BEFORE = [("GPU001", 8, 9), ("GPU101", 10, 9), ("GPU201", 11, 9)]

RULE_NAMES = {"GPU001": "missing-zero-grad", "GPU101": "tensor-kept-with-graph",
              "GPU201": "empty-cache-in-loop"}


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# Running Neovim ----------------------------------------------------------------

def make_project(folder, text):
    with open(os.path.join(folder, "pyproject.toml"), "w") as file:
        file.write("[project]\nname = \"demo\"\n\n[tool.gpulint]\n")
    with open(os.path.join(folder, "train.py"), "w") as file:
        file.write(text)


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_nvim(args, folder, mode, code, **extra):
    """Runs one Neovim session in `folder`; returns its JSON record."""
    out = os.path.join(folder, "record.json")
    env = dict(os.environ, **extra, GPULINT=os.path.abspath(args.gpulint), GPULINT_NVIM_OUT=out,
               GPULINT_NVIM_MODE=mode, GPULINT_NVIM_CODE=code or "",
               GPULINT_NVIM_WAIT_MS=str(WAIT_MS), GPULINT_NO_CACHE="1")
    init = os.path.join(os.path.abspath(args.source), "tests", "editors", "nvim_init.lua")
    # Neovim's LSP log and state go into the case's folder, not $HOME.
    env["XDG_STATE_HOME"] = env["XDG_CACHE_HOME"] = env["XDG_DATA_HOME"] = os.path.join(folder, ".xdg")
    process = subprocess.Popen(["nvim", "--headless", "--clean", "-n", "-u", init, "train.py"],
                               cwd=folder, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        output, _ = process.communicate()
        raise Failure(f"nvim ran past {LIMIT_S} s and was killed; it printed:\n{output.decode(errors='replace')}")
    finally:
        kill_group(process.pid)  # a server left behind by nvim
    check(os.path.exists(out), f"nvim exited {process.returncode} without a record; it printed:\n"
          + output.decode(errors="replace"))
    with open(out) as file:
        record = json.load(file)
    print(json.dumps(record, indent=1))
    check("error" not in record, f"the session failed: {record.get('error')}")
    check(process.returncode == 0, f"nvim exited {process.returncode}")
    check(record.get("server_exit") == 0, f"the server exited {record.get('server_exit')} after shutdown and exit")
    return record


def cli_findings(args, folder):
    """What `gpulint check --output-format json` reports for train.py now."""
    result = subprocess.run([os.path.abspath(args.gpulint), "check", "--output-format", "json", "train.py"], cwd=folder,
                            capture_output=True, text=True, timeout=LIMIT_S,
                            env=dict(os.environ, GPULINT_NO_CACHE="1"))
    check(result.returncode in (0, 1), f"gpulint check exited {result.returncode}: {result.stderr}")
    return json.loads(result.stdout)


# Assertions ------------------------------------------------------------------

LSP_SEVERITY = {"error": 1, "warning": 2}


def check_diagnostics(publish, shown, expected, findings):
    """The published diagnostics are exactly `expected` (code, line, column)
    with the CLI's messages and severities, and Neovim shows the same."""
    diagnostics = sorted(publish["diagnostics"], key=lambda d: (d["range"]["start"]["line"], d["range"]["start"]["character"]))
    got = [(d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1) for d in diagnostics]
    check(got == expected, f"diagnostics: expected {expected}, got {got}")
    check(publish["uri"].endswith("/train.py"), f"published for {publish['uri']}")
    by_position = {(f["code"], f["line"], f["column"]): f for f in findings}
    check(sorted(by_position) == sorted(expected), f"gpulint check disagrees: {sorted(by_position)}")
    for diagnostic, key in zip(diagnostics, got):
        finding = by_position[key]
        check(diagnostic["message"] == finding["message"],
              f"{key}: message {diagnostic['message']!r} is not the CLI's {finding['message']!r}")
        check(diagnostic["severity"] == LSP_SEVERITY[finding["severity"]],
              f"{key}: severity {diagnostic['severity']} for a finding of severity {finding['severity']}")
        end = (diagnostic["range"]["end"]["line"] + 1, diagnostic["range"]["end"]["character"] + 1)
        check(end == (finding["end_line"], finding["end_column"]), f"{key}: range ends at {end}")
        check(diagnostic.get("source") == "gpulint", f"{key}: source {diagnostic.get('source')!r}")
        href = (diagnostic.get("codeDescription") or {}).get("href")
        check(href == finding.get("url"), f"{key}: codeDescription {href!r}, the rule page is {finding.get('url')!r}")
    shown_keys = [(d["code"], d["line"], d["col"]) for d in shown]
    check(shown_keys == expected, f"Neovim shows {shown_keys}, expected {expected}")


def check_file(folder, expected):
    with open(os.path.join(folder, "train.py")) as file:
        text = file.read()
    check(text == expected, f"train.py after the action:\n{text}\nexpected:\n{expected}")


def replace_line(text, number, line):
    lines = text.split("\n")
    lines[number - 1] = line
    return "\n".join(lines)


# Cases -----------------------------------------------------------------------

def act_and_check(args, mode, code, expected_text, expected_after):
    """One session that applies an action; checks before, file, after."""
    with tempfile.TemporaryDirectory(prefix="gpulint-nvim-") as folder:
        make_project(folder, TRAIN)
        findings = cli_findings(args, folder)
        record = run_nvim(args, folder, mode, code)
        check_diagnostics(record["before"], record["before_shown"], BEFORE, findings)
        check_file(folder, expected_text)
        check_diagnostics(record["after"], record["after_shown"], expected_after, cli_findings(args, folder))
        return record


def case_quickfix(args):
    """The preferred quick fix for GPU101 (safe: `losses` is a local list the
    function does not return) keeps the loss without its graph."""
    record = act_and_check(args, "quickfix", "GPU101",
                           replace_line(TRAIN, 10, "        losses.append(loss.detach())"),
                           [("GPU001", 8, 9), ("GPU201", 11, 9)])
    offered = [a for a in record["actions"] if "GPU101" in a["codes"] and a["kind"].startswith("quickfix")]
    preferred = [a for a in offered if a["isPreferred"]]
    check(len(preferred) == 1, f"one preferred quick fix for GPU101, got {offered}")


def case_noqa(args):
    """"Suppress with `# noqa: GPU001`" on the backward() line."""
    record = act_and_check(args, "noqa", "GPU001",
                           replace_line(TRAIN, 8, "        loss.backward()  # noqa: GPU001"),
                           [("GPU101", 10, 9), ("GPU201", 11, 9)])
    # GPU001's own fix is unsafe: offered, but never the preferred one.
    for action in record["actions"]:
        check(not action["isPreferred"], f"an action for the unsafe GPU001 fix is preferred: {action}")


def case_fix_all(args):
    """source.fixAll.gpulint applies the safe fixes (GPU101, GPU201) and
    leaves the unsafe one (GPU001) as a finding."""
    text = replace_line(TRAIN, 10, "        losses.append(loss.detach())")
    text = text.replace("        torch.cuda.empty_cache()\n", "")
    act_and_check(args, "fixall", None, text, [("GPU001", 8, 9)])


def case_config(args):
    """`ignore = ["GPU101"]` added to pyproject.toml and saved in the editor:
    the server reads its config again and train.py loses that finding."""
    with tempfile.TemporaryDirectory(prefix="gpulint-nvim-") as folder:
        make_project(folder, TRAIN)
        findings = cli_findings(args, folder)
        record = run_nvim(args, folder, "config", "GPU101")
        check_diagnostics(record["before"], record["before_shown"], BEFORE, findings)
        with open(os.path.join(folder, "pyproject.toml")) as file:
            config = file.read()
        check(config.endswith('[tool.gpulint]\nignore = ["GPU101"]\n'), f"pyproject.toml after the edit:\n{config}")
        check_diagnostics(record["after"], record["after_shown"], [("GPU001", 8, 9), ("GPU201", 11, 9)],
                          cli_findings(args, folder))


def case_dependent(args):
    """A finding that rests on another file (tests/projects/
    report_meter_defined_in_utils: `losses.update(loss)` where
    AverageMeter.update keeps its argument) carries that file as related
    information; replacing the meter's text in the editor, unsaved, with
    one that converts to float takes the finding away from train.py."""
    projects = os.path.join(os.path.abspath(args.source), "tests", "projects")
    with tempfile.TemporaryDirectory(prefix="gpulint-nvim-") as folder:
        folder = os.path.realpath(folder)
        project = os.path.join(folder, "project")
        shutil.copytree(os.path.join(projects, "report_meter_defined_in_utils"), project)
        converting = os.path.join(projects, "ok_meter_in_utils_converts", "utils", "meters.py")
        findings = cli_findings(args, project)
        expected = [("GPU101", 18, 9)]
        check(sorted((f["code"], f["line"], f["column"]) for f in findings) == expected,
              f"gpulint check on the project: {findings}")
        record = run_nvim(args, project, "dependent", "GPU101", GPULINT_NVIM_OTHER="utils/meters.py",
                          GPULINT_NVIM_OTHER_TEXT=converting)
        check_diagnostics(record["before"], record["before_shown"], expected, findings)
        related = record["before"]["diagnostics"][0].get("relatedInformation") or []
        locations = [(r["location"]["uri"], r["location"]["range"]["start"]["line"] + 1) for r in related]
        meters = "file://" + os.path.join(project, "utils", "meters.py")
        check(locations == [(meters, findings[0]["related"]["line"])], f"related information {locations}")
        check(record["after"]["diagnostics"] == [], f"after the meter converts: {record['after']['diagnostics']}")
        check(record["after_shown"] == [], f"Neovim still shows {record['after_shown']}")
        with open(os.path.join(project, "utils", "meters.py")) as file:
            check("float(val)" not in file.read(), "the unsaved buffer was written to disk")


def case_hover(args):
    """Hover on a reported range shows the finding's detail (as
    `gpulint check --output-format json` gives it), then the rule's page:
    the text of `gpulint rule GPU101`, which is rules/gpu101_*.md, over the
    finding's range."""
    with tempfile.TemporaryDirectory(prefix="gpulint-nvim-") as folder:
        make_project(folder, TRAIN)
        record = run_nvim(args, folder, "hover", "GPU101")
        findings = cli_findings(args, folder)
        check_diagnostics(record["before"], record["before_shown"], BEFORE, findings)
        hover = record.get("hover")
        check(hover is not None, "no hover at the GPU101 finding")
        contents = hover["contents"]
        check(isinstance(contents, dict) and contents.get("kind") == "markdown", f"hover contents: {contents}")
        text = contents["value"]
        page = rule_page(args, "gpu101_tensor_kept_with_graph.md")
        heading = page.split("\n", 1)[0]
        detail = [f for f in findings if f["code"] == "GPU101"][0]["detail"]
        check(text.startswith("**GPU101** " + detail + "\n\n---\n\n" + heading + "\n"),
              f"hover is not the finding's detail, then the page's heading {heading!r}:\n{text}")
        first = page.split("## What it does\n", 1)[1].split("\n", 1)[0]
        check(first in text, f"hover lacks the page's first line of 'What it does' {first!r}:\n{text}")
        rule = subprocess.run([os.path.abspath(args.gpulint), "rule", "GPU101"], capture_output=True, text=True,
                              timeout=LIMIT_S)
        check(text.split("\n\n---\n\n", 1)[1].strip() == rule.stdout.strip(), "hover's page differs from `gpulint rule GPU101`")
        finding = [d for d in record["before"]["diagnostics"] if d["code"] == "GPU101"][0]
        check(hover.get("range") == finding["range"], f"hover range {hover.get('range')}, finding {finding['range']}")


def rule_page(args, name):
    with open(os.path.join(args.source, "rules", name)) as file:
        return file.read()


# docs/editors.md ---------------------------------------------------------------

SNIPPET_PROLOGUE = """-- Added by nvim_test.py: no provider probing (it adds seconds).
vim.g.loaded_python3_provider = 0
"""

SNIPPET_EPILOGUE = """
-- Added by nvim_test.py: wait for the diagnostics and record them; ignore
-- GPU101 in pyproject.toml, save it, wait for it to go; record; quit.
local function shown()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(1)) do
    table.insert(out, { code = d.code, line = d.lnum + 1, col = d.col + 1 })
  end
  return out
end
local function has_gpu101()
  for _, d in ipairs(vim.diagnostic.get(1)) do if d.code == 'GPU101' then return true end end
  return false
end
vim.api.nvim_create_autocmd('VimEnter', { once = true, callback = function() vim.schedule(function()
  local record = { roots = {} }
  record.waited = vim.wait(%d, has_gpu101, 20)
  record.before = shown()
  vim.cmd('split ../pyproject.toml')
  vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'ignore = ["GPU101"]' })
  vim.cmd('silent write')
  record.config_taken = vim.wait(%d, function() return not has_gpu101() end, 20)
  vim.wait(300)
  record.after = shown()
  for _, client in pairs(vim.lsp.get_active_clients()) do
    table.insert(record.roots, client.config.root_dir)
    record.attached = vim.tbl_count(client.attached_buffers or {})
  end
  local file = assert(io.open(vim.env.GPULINT_NVIM_OUT, 'w'))
  file:write(vim.json.encode(record))
  file:close()
  vim.cmd('qall!')
end) end })
""" % (WAIT_MS, WAIT_MS)


def doc_blocks(args, language):
    """The fenced code blocks of docs/editors.md in `language`."""
    with open(os.path.join(args.source, "docs", "editors.md")) as file:
        text = file.read()
    blocks, fence = [], "```" + language + "\n"
    for part in text.split(fence)[1:]:
        blocks.append(part.split("\n```", 1)[0] + "\n")
    check(blocks, f"docs/editors.md has no {language} block")
    return blocks


def doc_block(args, language, marker):
    """The one block in `language` that contains `marker`."""
    found = [block for block in doc_blocks(args, language) if marker in block]
    check(len(found) == 1, f"docs/editors.md: {len(found)} {language} blocks contain {marker!r}")
    return found[0]


def case_docs_snippet(args):
    """The Neovim 0.7 setup of docs/editors.md, run as it is written with
    `gpulint` on the PATH: a file below the project's root is linted, the
    client's root is the folder of pyproject.toml, and `ignore` saved in
    pyproject.toml from Neovim takes the finding away."""
    snippet = doc_block(args, "lua", "vim.lsp.start_client")
    with tempfile.TemporaryDirectory(prefix="gpulint-nvim-") as folder:
        folder = os.path.realpath(folder)
        make_project(folder, TRAIN)
        package = os.path.join(folder, "pkg")
        os.mkdir(package)
        os.rename(os.path.join(folder, "train.py"), os.path.join(package, "train.py"))
        init = os.path.join(folder, "init.lua")
        with open(init, "w") as file:
            file.write(SNIPPET_PROLOGUE + snippet + SNIPPET_EPILOGUE)
        out = os.path.join(folder, "record.json")
        env = dict(os.environ, GPULINT_NVIM_OUT=out, GPULINT_NO_CACHE="1",
                   PATH=os.path.dirname(os.path.abspath(args.gpulint)) + os.pathsep + os.environ.get("PATH", ""))
        env["XDG_STATE_HOME"] = env["XDG_CACHE_HOME"] = env["XDG_DATA_HOME"] = os.path.join(folder, ".xdg")
        process = subprocess.Popen(["nvim", "--headless", "--clean", "-n", "-u", init, "train.py"], cwd=package,
                                   env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            output, _ = process.communicate(timeout=LIMIT_S)
        except subprocess.TimeoutExpired:
            kill_group(process.pid)
            raise Failure(f"nvim ran past {LIMIT_S} s and was killed")
        finally:
            kill_group(process.pid)
        check(os.path.exists(out), "nvim left no record; it printed:\n" + output.decode(errors="replace"))
        with open(out) as file:
            record = json.load(file)
        print(json.dumps(record))
        check(record["waited"], "no diagnostics within the wait")
        check(record["roots"] == [folder], f"client roots {record['roots']}, expected [{folder!r}]")
        got = sorted((d["code"], d["line"], d["col"]) for d in record["before"])
        check(got == BEFORE, f"Neovim shows {got}, expected {BEFORE}")
        check(record["attached"] == 2, f"{record['attached']} buffers attached, expected train.py and pyproject.toml")
        check(record["config_taken"], "GPU101 still shown after `ignore` was saved in pyproject.toml")
        got = sorted((d["code"], d["line"], d["col"]) for d in record["after"])
        check(got == [("GPU001", 8, 9), ("GPU201", 11, 9)], f"after the config change Neovim shows {got}")


def case_docs_helix(args):
    """The Helix languages.toml of docs/editors.md parses and declares the
    server with the command that starts it."""
    import tomllib
    config = tomllib.loads(doc_block(args, "toml", "[language-server.gpulint]"))
    server = config["language-server"]["gpulint"]
    check([server["command"], *server["args"]] == ["gpulint", "server"], f"the server entry: {server}")
    python = [language for language in config["language"] if language["name"] == "python"]
    check(len(python) == 1 and "gpulint" in python[0]["language-servers"], f"the python entry: {python}")


def case_docs_vscode(args):
    """The VS Code settings of docs/editors.md are JSON and start the server."""
    settings = json.loads(doc_block(args, "json", "glspc.server.command"))
    command = [settings["glspc.server.command"], *settings["glspc.server.commandArguments"]]
    check(command == ["gpulint", "server"], f"the command: {command}")
    check(settings["glspc.server.languageId"] == ["python"], f"languageId: {settings['glspc.server.languageId']}")
    check(isinstance(settings["glspc.server.initializationOptions"], dict), "initializationOptions is not an object")


def case_docs_by_hand(args):
    """The shell lines of docs/editors.md that try the server by hand: the
    reply to initialize, then exit status 1 at the end of input."""
    script = doc_block(args, "sh", "gpulint server")
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(args.gpulint)) + os.pathsep + os.environ.get("PATH", ""))
    result = subprocess.run(["bash", "-c", "set -o pipefail\n" + script], capture_output=True, env=env, timeout=LIMIT_S)
    check(result.returncode == 1, f"exit status {result.returncode} (1 expected); stderr: {result.stderr!r}")
    header, _, body = result.stdout.partition(b"\r\n\r\n")
    check(header == b"Content-Length: %d" % len(body), f"a malformed reply: {result.stdout[:200]!r}")
    reply = json.loads(body)
    capabilities = reply["result"]["capabilities"]
    check(reply["id"] == 1 and capabilities["hoverProvider"] is True, f"the reply: {reply}")
    kinds = capabilities["codeActionProvider"]["codeActionKinds"]
    check(kinds == ["quickfix", "source.fixAll.gpulint"], f"code action kinds: {kinds}")


CASES = {"nvim_quickfix": case_quickfix, "nvim_noqa": case_noqa, "nvim_fix_all": case_fix_all,
         "nvim_hover": case_hover, "nvim_config": case_config, "nvim_dependent": case_dependent,
         "nvim_docs_snippet": case_docs_snippet,
         "docs_helix": case_docs_helix, "docs_vscode": case_docs_vscode, "docs_by_hand": case_docs_by_hand}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpulint")
    parser.add_argument("--source")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("case", nargs="?")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if args.case.startswith("nvim_") and shutil.which("nvim") is None:
        print("skipped: nvim is not installed (apt-get install neovim)")
        return SKIP
    try:
        CASES[args.case](args)
    except Failure as failure:
        print(f"FAIL {args.case}: {failure}")
        return 1
    print(f"ok {args.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
