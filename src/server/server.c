/* server.c — `gpulint server`: the Language Server Protocol over stdio.
 *
 * Methods:
 *   requests       initialize, shutdown, textDocument/codeAction,
 *                  textDocument/hover (others: -32601; before initialize:
 *                  -32002; after shutdown: -32600)
 *   notifications  initialized, exit, $/cancelRequest (tolerated: requests
 *                  are answered in order, each at once), $/setTrace,
 *                  textDocument/didOpen|didChange|didSave|didClose,
 *                  notebookDocument/didOpen|didChange|didSave|didClose,
 *                  workspace/didChangeWatchedFiles,
 *                  workspace/didChangeConfiguration (others: ignored)
 *   sent           textDocument/publishDiagnostics (per cell URI in
 *                  notebooks), window/logMessage (config errors, dropped
 *                  messages), client/registerCapability (file watchers for
 *                  config files and Python files, when the client allows
 *                  dynamic registration)
 *
 * Capabilities advertised: positionEncoding (utf-8 when the client offers
 * it, else utf-16); textDocumentSync incremental (2) with openClose and
 * save; notebookDocumentSync for `*.ipynb` with Python cells;
 * codeActionProvider with kinds quickfix (each finding's fix, preferred
 * when safe; `# noqa: CODE`) and source.fixAll.gpulint (every safe fix);
 * hoverProvider (the finding's detail and the rule's page over a reported
 * range).
 *
 * Edits are linted after a burst: every message already waiting on the
 * input is read first, then, with `--debounce MS` (or initializationOptions
 * `debounceMs`; default 0), the server waits that long for more. Settings
 * come from the same config files as `gpulint check` (settings.h), read
 * again when one changes. Documents keep their syntax tree and re-parse
 * incrementally; an open Python file's unsaved text is what the files
 * importing it see. */
#include "server.h"

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "path.h"

#define ERROR_PARSE (-32700)
#define ERROR_INVALID_REQUEST (-32600)
#define ERROR_METHOD_NOT_FOUND (-32601)
#define ERROR_INVALID_PARAMS (-32602)
#define ERROR_NOT_INITIALIZED (-32002)

/* ---- Messages ------------------------------------------------------------------- */

void server_send(Server *self, cJSON *message) {
  cJSON_AddStringToObject(message, "jsonrpc", "2.0");
  if (!self->gone && !rpc_write(self->out, message)) self->gone = true;
  cJSON_Delete(message);
}

void server_notify(Server *self, const char *method, cJSON *params) {
  cJSON *message = cJSON_CreateObject();
  cJSON_AddStringToObject(message, "method", method);
  cJSON_AddItemToObject(message, "params", params);
  server_send(self, message);
}

void server_log(Server *self, int type, const char *format, ...) {
  va_list args;
  va_start(args, format);
  char *text = gl_vformat(format, args);
  va_end(args);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddNumberToObject(params, "type", type);
  cJSON_AddStringToObject(params, "message", text);
  server_notify(self, "window/logMessage", params);
  free(text);
}

/* A response to request `id` (borrowed): `result` (taken), or an error. */
static void server__respond(Server *self, const cJSON *id, cJSON *result, int code, const char *message) {
  cJSON *response = cJSON_CreateObject();
  cJSON_AddItemToObject(response, "id", id ? cJSON_Duplicate(id, false) : cJSON_CreateNull());
  if (message) {
    cJSON *error = cJSON_AddObjectToObject(response, "error");
    cJSON_AddNumberToObject(error, "code", code);
    cJSON_AddStringToObject(error, "message", message);
    cJSON_Delete(result);
  } else {
    cJSON_AddItemToObject(response, "result", result ? result : cJSON_CreateNull());
  }
  server_send(self, response);
}

/* ---- URIs ------------------------------------------------------------------------- */

static int server__hex(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *server_uri_path(const char *uri) {
  if (strncmp(uri, "file://", 7) != 0) return NULL;
  const char *at = uri + 7;
  if (*at != '/') { /* file://host/path: only the local host */
    if (strncmp(at, "localhost/", 10) != 0) return NULL;
    at += 9;
  }
  char *path = gl_malloc(strlen(at) + 1), *out = path;
  for (; *at && *at != '?' && *at != '#'; at++) {
    int high, low;
    if (*at == '%' && (high = server__hex(at[1])) >= 0 && (low = server__hex(at[2])) >= 0) {
      *out++ = (char)(high * 16 + low);
      at += 2;
    } else {
      *out++ = *at;
    }
  }
  *out = '\0';
  if (strlen(path) != (size_t)(out - path)) { /* a %00 inside */
    free(path);
    return NULL;
  }
  return path;
}

char *server_path_uri(const char *path) {
  static const char HEX[] = "0123456789ABCDEF";
  char *uri = gl_malloc(7 + 3 * strlen(path) + 1), *out = uri;
  memcpy(out, "file://", 7);
  out += 7;
  for (const unsigned char *at = (const unsigned char *)path; *at; at++) {
    if ((*at >= 'a' && *at <= 'z') || (*at >= 'A' && *at <= 'Z') || (*at >= '0' && *at <= '9') ||
        strchr("/-._~!$&'()*+,;=:@", *at)) {
      *out++ = (char)*at;
    } else {
      *out++ = '%';
      *out++ = HEX[*at >> 4];
      *out++ = HEX[*at & 15];
    }
  }
  *out = '\0';
  return uri;
}

/* The path the engine knows a document by: the file's, with its folder's
 * symbolic links resolved (as project listings and dependencies name
 * files), or the URI itself for other schemes. The caller frees it. */
char *server_doc_path(const char *uri) {
  char *path = server_uri_path(uri);
  if (!path) return gl_strdup(uri);
  char *slash = strrchr(path, '/');
  char *folder = NULL;
  if (slash && slash != path) {
    *slash = '\0';
    folder = realpath(path, NULL);
    *slash = '/';
  }
  if (!folder) return path;
  char *resolved = gl_format("%s/%s", folder, slash + 1);
  free(folder);
  free(path);
  return resolved;
}

/* ---- Documents ------------------------------------------------------------------------ */

Doc *server_find_doc(Server *self, const char *uri) {
  for (uint32_t i = 0; i < self->docs.size; i++) {
    if (strcmp(self->docs.contents[i]->uri, uri) == 0) return self->docs.contents[i];
  }
  return NULL;
}

const char *doc_text(const Doc *self, size_t *length) {
  if (!self->text) {
    *length = 0;
    return "";
  }
  return gl_document_text(self->text, length);
}

const LineIndex *doc_lines(Doc *self) {
  if (!self->lines_valid) {
    size_t length = 0;
    const char *text = doc_text(self, &length);
    line_index_build(&self->lines, text, length);
    self->lines_valid = true;
  }
  return &self->lines;
}

cJSON *doc_range(Doc *self, PositionEncoding encoding, size_t start, size_t end) {
  const LineIndex *lines = doc_lines(self);
  LspPosition from = line_index_position(lines, start, encoding), to = line_index_position(lines, end, encoding);
  cJSON *range = cJSON_CreateObject();
  cJSON *a = cJSON_AddObjectToObject(range, "start"), *b = cJSON_AddObjectToObject(range, "end");
  cJSON_AddNumberToObject(a, "line", from.line);
  cJSON_AddNumberToObject(a, "character", from.character);
  cJSON_AddNumberToObject(b, "line", to.line);
  cJSON_AddNumberToObject(b, "character", to.character);
  return range;
}

/* A non-negative integer member that fits in 32 bits. */
static bool server__uint(const cJSON *object, const char *name, uint32_t *value) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
  if (!cJSON_IsNumber(item) || item->valuedouble < 0 || item->valuedouble > (double)UINT32_MAX) return false;
  *value = (uint32_t)item->valuedouble;
  return true;
}

bool doc_offset(Doc *self, PositionEncoding encoding, const cJSON *position, size_t *offset) {
  LspPosition at;
  if (!cJSON_IsObject(position) || !server__uint(position, "line", &at.line) ||
      !server__uint(position, "character", &at.character)) {
    return false;
  }
  *offset = line_index_offset(doc_lines(self), at, encoding);
  return true;
}

/* Whether the engine lints a document of this language and path. */
static bool server__is_python(const char *language, const char *path) {
  size_t length = strlen(path);
  if (language && strcmp(language, "python") == 0) return true;
  return (length > 3 && strcmp(path + length - 3, ".py") == 0) ||
         (length > 4 && strcmp(path + length - 4, ".pyi") == 0) ||
         (length > 6 && strcmp(path + length - 6, ".ipynb") == 0);
}

static bool server__is_config(const char *path) {
  const char *name = path_basename(path);
  return strcmp(name, "pyproject.toml") == 0 || strcmp(name, "gpulint.toml") == 0 ||
         strcmp(name, ".gpulint.toml") == 0;
}

/* Whether other files can import the document (a .py file on disk). */
static bool server__importable(const Doc *doc) {
  size_t length = strlen(doc->path);
  return doc->path[0] == '/' && !doc->notebook && length > 3 && strcmp(doc->path + length - 3, ".py") == 0;
}

/* Tells the workspace the document's text (what importers see). */
static void server__overlay(Server *self, Doc *doc) {
  if (!server__importable(doc) || !doc->text) return;
  size_t length = 0;
  const char *text = doc_text(doc, &length);
  gl_workspace_set_overlay(self->workspace, doc->path, text, length);
}

static void doc__delete(Doc *self) {
  if (!self) return;
  free(self->uri);
  free(self->path);
  gl_document_delete(self->text);
  line_index_delete(&self->lines);
  doc_clear_result(self);
  array_delete(&self->spans);
  free(self);
}

Doc *server_doc_open(Server *self, const char *uri, const char *language, int64_t version, const char *text,
                     size_t length) {
  Doc *doc = server_find_doc(self, uri);
  if (!doc) {
    if (self->docs.size + self->notebooks.size >= SERVER_MAX_DOCUMENTS) return NULL;
    doc = gl_calloc(1, sizeof(Doc));
    doc->uri = gl_strdup(uri);
    doc->path = server_doc_path(uri);
    array_push(&self->docs, doc);
  }
  gl_document_delete(doc->text);
  doc->text = length <= SERVER_MAX_TEXT_BYTES ? gl_document_new(doc->path, text, length) : NULL;
  doc->lines_valid = false;
  array_clear(&doc->spans); /* they named the old text (or another notebook's result) */
  doc->notebook = NULL;
  doc->version = version;
  doc->python = server__is_python(language, doc->path);
  doc->dirty = doc->python;
  return doc;
}

void server_doc_close(Server *self, const char *uri) {
  for (uint32_t i = 0; i < self->docs.size; i++) {
    Doc *doc = self->docs.contents[i];
    if (strcmp(doc->uri, uri) != 0) continue;
    server_clear(self, doc);
    if (server__importable(doc)) {
      gl_workspace_set_overlay(self->workspace, doc->path, NULL, 0);
      server_mark_dependents(self, doc->path);
    }
    self->docs.contents[i] = self->docs.contents[--self->docs.size];
    doc__delete(doc);
    return;
  }
}

/* ---- Edits ------------------------------------------------------------------------------ */

/* Applies one TextDocumentContentChangeEvent; false when malformed. */
static bool server__apply_change(Server *self, Doc *doc, const cJSON *change) {
  const cJSON *text = cJSON_GetObjectItemCaseSensitive(change, "text");
  const cJSON *range = cJSON_GetObjectItemCaseSensitive(change, "range");
  if (!cJSON_IsString(text)) return false;
  size_t length = strlen(text->valuestring), current = 0;
  doc_text(doc, &current);
  size_t start = 0, end = current;
  if (range && (!doc_offset(doc, self->encoding, cJSON_GetObjectItemCaseSensitive(range, "start"), &start) ||
                !doc_offset(doc, self->encoding, cJSON_GetObjectItemCaseSensitive(range, "end"), &end))) {
    return false;
  }
  if (end < start) end = start;
  if (!doc->text) return true; /* dropped for size: wait for a reopen */
  if (current - (end - start) + length > SERVER_MAX_TEXT_BYTES) {
    gl_document_delete(doc->text);
    doc->text = NULL;
  } else if (!range) {
    gl_document_delete(doc->text);
    doc->text = gl_document_new(doc->path, text->valuestring, length);
  } else {
    gl_document_edit(doc->text, start, end, text->valuestring, length);
  }
  doc->lines_valid = false;
  return true;
}

bool server_doc_change(Server *self, Doc *doc, const cJSON *changes, int64_t version) {
  bool ok = cJSON_IsArray(changes);
  const cJSON *change;
  cJSON_ArrayForEach(change, changes) {
    if (ok && !server__apply_change(self, doc, change)) ok = false;
  }
  doc->version = version;
  if (doc->notebook) doc->notebook->dirty = true;
  else doc->dirty = doc->python;
  if (doc->python && server__importable(doc)) {
    server__overlay(self, doc);
    server_mark_dependents(self, doc->path);
  }
  return ok;
}

/* ---- Configuration ------------------------------------------------------------------------ */

/* A config file changed: settings are read again and every document is
 * linted again. */
static void server__config_changed(Server *self) {
  resolver_delete(self->resolver);
  self->resolver = NULL;
  free(self->config_error);
  self->config_error = NULL;
  server_mark_dependents(self, NULL);
}

/* A file changed on disk (type 1 created, 2 changed, 3 deleted). */
static void server__file_changed(Server *self, const char *uri, int type) {
  char *path = server_doc_path(uri);
  if (server__is_config(path)) {
    server__config_changed(self);
  } else if (strlen(path) > 3 && strcmp(path + strlen(path) - 3, ".py") == 0) {
    gl_workspace_forget(self->workspace, path); /* an open file's unsaved text still counts (its overlay) */
    server_mark_dependents(self, type == 2 ? path : NULL); /* a new or gone file may change what imports resolve to */
  }
  free(path);
}

/* ---- Text document sync -------------------------------------------------------------------- */

static const cJSON *server__member(const cJSON *object, const char *name) {
  return cJSON_GetObjectItemCaseSensitive(object, name);
}

static const char *server__string(const cJSON *object, const char *name) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
  return cJSON_IsString(item) ? item->valuestring : NULL;
}

static int64_t server__version(const cJSON *object) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, "version");
  return cJSON_IsNumber(item) ? (int64_t)item->valuedouble : 0;
}

/* The URI of params.textDocument, or NULL. */
static const char *server__document_uri(const cJSON *params) {
  return server__string(server__member(params, "textDocument"), "uri");
}

static void server__did_open(Server *self, const cJSON *params) {
  const cJSON *item = server__member(params, "textDocument");
  const char *uri = server__string(item, "uri"), *text = server__string(item, "text");
  if (!uri || !text) {
    server_log(self, 2, "gpulint: textDocument/didOpen without a uri and text: ignored");
    return;
  }
  Doc *doc = server_doc_open(self, uri, server__string(item, "languageId"), server__version(item), text, strlen(text));
  if (!doc) {
    server_log(self, 1, "gpulint: more than %u open documents: %s is not linted", SERVER_MAX_DOCUMENTS, uri);
    return;
  }
  if (doc->python && server__importable(doc)) {
    server__overlay(self, doc);
    server_mark_dependents(self, doc->path);
  }
}

static void server__did_change(Server *self, const cJSON *params) {
  const cJSON *item = server__member(params, "textDocument");
  const char *uri = server__string(item, "uri");
  Doc *doc = uri ? server_find_doc(self, uri) : NULL;
  if (!doc) {
    server_log(self, 2, "gpulint: textDocument/didChange for a document that is not open: ignored");
    return;
  }
  if (!server_doc_change(self, doc, server__member(params, "contentChanges"), server__version(item))) {
    server_log(self, 2, "gpulint: %s: a malformed change was skipped; the text may be out of step until reopened", uri);
  }
}

static void server__did_save(Server *self, const cJSON *params) {
  const char *uri = server__document_uri(params);
  Doc *doc = uri ? server_find_doc(self, uri) : NULL;
  if (!uri) return;
  char *path = doc ? gl_strdup(doc->path) : server_doc_path(uri);
  if (server__is_config(path)) server__config_changed(self);
  else if (doc && doc->python && !doc->notebook) {
    doc->dirty = true;
    if (server__importable(doc)) server_mark_dependents(self, doc->path);
  }
  free(path);
}

static void server__did_close(Server *self, const cJSON *params) {
  const char *uri = server__document_uri(params);
  if (uri) server_doc_close(self, uri);
}

static void server__watched_files(Server *self, const cJSON *params) {
  const cJSON *change;
  cJSON_ArrayForEach(change, server__member(params, "changes")) {
    const char *uri = server__string(change, "uri");
    const cJSON *type = server__member(change, "type");
    if (uri) server__file_changed(self, uri, cJSON_IsNumber(type) ? type->valueint : 2);
  }
}

/* ---- Lifecycle ---------------------------------------------------------------------------- */

/* Whether the JSON array `list` holds the string `wanted`. */
static bool server__has_string(const cJSON *list, const char *wanted) {
  const cJSON *item;
  cJSON_ArrayForEach(item, list) {
    if (cJSON_IsString(item) && strcmp(item->valuestring, wanted) == 0) return true;
  }
  return false;
}

/* The capability at a dotted path of the client's capabilities, or NULL. */
static const cJSON *server__capability(const cJSON *capabilities, const char *dotted) {
  char name[64];
  const cJSON *at = capabilities;
  for (const char *part = dotted; at && *part;) {
    size_t length = strcspn(part, ".");
    if (length >= sizeof name) return NULL;
    memcpy(name, part, length);
    name[length] = '\0';
    at = cJSON_IsObject(at) ? cJSON_GetObjectItemCaseSensitive(at, name) : NULL;
    part += length + (part[length] == '.');
  }
  return at;
}

/* The workspace folder: rootUri, the first workspace folder, rootPath. */
static void server__set_root(Server *self, const cJSON *params) {
  const char *uri = server__string(params, "rootUri");
  const cJSON *folders = server__member(params, "workspaceFolders");
  if (!uri && cJSON_IsArray(folders)) uri = server__string(cJSON_GetArrayItem(folders, 0), "uri");
  char *path = uri ? server_uri_path(uri) : NULL;
  if (!path && server__string(params, "rootPath")) path = gl_strdup(server__string(params, "rootPath"));
  if (path && path[0] == '/') {
    free(self->root);
    self->root = path;
  } else {
    free(path);
  }
}

static cJSON *server__capabilities(Server *self) {
  cJSON *capabilities = cJSON_CreateObject();
  cJSON_AddStringToObject(capabilities, "positionEncoding",
                          self->encoding == ENCODING_UTF8 ? "utf-8" : self->encoding == ENCODING_UTF32 ? "utf-32" : "utf-16");
  cJSON *sync = cJSON_AddObjectToObject(capabilities, "textDocumentSync");
  cJSON_AddBoolToObject(sync, "openClose", true);
  cJSON_AddNumberToObject(sync, "change", 2); /* incremental */
  cJSON_AddBoolToObject(cJSON_AddObjectToObject(sync, "save"), "includeText", false);
  cJSON *notebooks = cJSON_AddObjectToObject(capabilities, "notebookDocumentSync");
  cJSON *selector = cJSON_AddArrayToObject(notebooks, "notebookSelector"), *entry = cJSON_CreateObject();
  cJSON_AddStringToObject(cJSON_AddObjectToObject(entry, "notebook"), "pattern", "**/*.ipynb");
  cJSON *cell = cJSON_CreateObject();
  cJSON_AddStringToObject(cell, "language", "python");
  cJSON_AddItemToArray(cJSON_AddArrayToObject(entry, "cells"), cell);
  cJSON_AddItemToArray(selector, entry);
  cJSON_AddBoolToObject(notebooks, "save", true);
  cJSON *actions = cJSON_AddObjectToObject(capabilities, "codeActionProvider");
  cJSON *kinds = cJSON_AddArrayToObject(actions, "codeActionKinds");
  cJSON_AddItemToArray(kinds, cJSON_CreateString("quickfix"));
  cJSON_AddItemToArray(kinds, cJSON_CreateString("source.fixAll.gpulint"));
  cJSON_AddBoolToObject(actions, "resolveProvider", false);
  cJSON_AddBoolToObject(capabilities, "hoverProvider", true);
  return capabilities;
}

static cJSON *server__initialize(Server *self, const cJSON *params) {
  const cJSON *capabilities = server__member(params, "capabilities");
  const cJSON *encodings = server__capability(capabilities, "general.positionEncodings");
  self->encoding = server__has_string(encodings, "utf-8") ? ENCODING_UTF8 : ENCODING_UTF16;
  self->document_changes = cJSON_IsTrue(server__capability(capabilities, "workspace.workspaceEdit.documentChanges"));
  self->dynamic_watch =
      cJSON_IsTrue(server__capability(capabilities, "workspace.didChangeWatchedFiles.dynamicRegistration"));
  server__set_root(self, params);
  const cJSON *debounce = server__capability(server__member(params, "initializationOptions"), "debounceMs");
  if (cJSON_IsNumber(debounce) && debounce->valuedouble >= 0 && debounce->valuedouble <= 10000) {
    self->debounce_ms = (int)debounce->valuedouble;
  }
  self->initialized = true;
  cJSON *result = cJSON_CreateObject();
  cJSON_AddItemToObject(result, "capabilities", server__capabilities(self));
  cJSON *info = cJSON_AddObjectToObject(result, "serverInfo");
  cJSON_AddStringToObject(info, "name", "gpulint");
  cJSON_AddStringToObject(info, "version", gl_version());
  return result;
}

/* Asks the client to watch config files and Python files. */
static void server__register_watchers(Server *self) {
  static const char *const GLOBS[] = {"**/pyproject.toml", "**/gpulint.toml", "**/.gpulint.toml", "**/*.py"};
  if (!self->dynamic_watch) return;
  cJSON *watchers = cJSON_CreateArray();
  for (size_t i = 0; i < sizeof GLOBS / sizeof GLOBS[0]; i++) {
    cJSON *watcher = cJSON_CreateObject();
    cJSON_AddStringToObject(watcher, "globPattern", GLOBS[i]);
    cJSON_AddItemToArray(watchers, watcher);
  }
  cJSON *registration = cJSON_CreateObject();
  cJSON_AddStringToObject(registration, "id", "gpulint-watched-files");
  cJSON_AddStringToObject(registration, "method", "workspace/didChangeWatchedFiles");
  cJSON_AddItemToObject(cJSON_AddObjectToObject(registration, "registerOptions"), "watchers", watchers);
  cJSON *params = cJSON_CreateObject();
  cJSON_AddItemToArray(cJSON_AddArrayToObject(params, "registrations"), registration);
  cJSON *request = cJSON_CreateObject();
  cJSON_AddNumberToObject(request, "id", ++self->next_id);
  cJSON_AddStringToObject(request, "method", "client/registerCapability");
  cJSON_AddItemToObject(request, "params", params);
  server_send(self, request);
}

/* ---- Dispatch ------------------------------------------------------------------------------ */

typedef enum { RUN, EXIT_AFTER_SHUTDOWN, EXIT_WITHOUT_SHUTDOWN } Next;

static void server__notification(Server *self, const char *method, const cJSON *params) {
  if (!self->initialized || self->shutting_down) return; /* dropped, as the protocol says */
  if (strcmp(method, "initialized") == 0) server__register_watchers(self);
  else if (strcmp(method, "textDocument/didOpen") == 0) server__did_open(self, params);
  else if (strcmp(method, "textDocument/didChange") == 0) server__did_change(self, params);
  else if (strcmp(method, "textDocument/didSave") == 0) server__did_save(self, params);
  else if (strcmp(method, "textDocument/didClose") == 0) server__did_close(self, params);
  else if (strcmp(method, "notebookDocument/didOpen") == 0) server_notebook_open(self, params);
  else if (strcmp(method, "notebookDocument/didChange") == 0) server_notebook_change(self, params);
  else if (strcmp(method, "notebookDocument/didClose") == 0) server_notebook_close(self, params);
  else if (strcmp(method, "workspace/didChangeWatchedFiles") == 0) server__watched_files(self, params);
  /* notebookDocument/didSave, didChangeConfiguration, $/cancelRequest, $/setTrace: nothing to do */
}

static void server__request(Server *self, const cJSON *id, const char *method, const cJSON *params) {
  if (strcmp(method, "initialize") == 0) {
    if (self->initialized) {
      server__respond(self, id, NULL, ERROR_INVALID_REQUEST, "already initialized");
      return;
    }
    server__respond(self, id, server__initialize(self, params), 0, NULL);
    return;
  }
  if (!self->initialized) {
    server__respond(self, id, NULL, ERROR_NOT_INITIALIZED, "not initialized");
    return;
  }
  if (self->shutting_down) {
    server__respond(self, id, NULL, ERROR_INVALID_REQUEST, "shutting down");
    return;
  }
  if (strcmp(method, "shutdown") == 0) {
    self->shutting_down = true;
    server__respond(self, id, NULL, 0, NULL);
    return;
  }
  bool actions = strcmp(method, "textDocument/codeAction") == 0, hover = strcmp(method, "textDocument/hover") == 0;
  if (!actions && !hover) {
    server__respond(self, id, NULL, ERROR_METHOD_NOT_FOUND, "method not found");
    return;
  }
  if (!cJSON_IsObject(params) || !server__document_uri(params)) {
    server__respond(self, id, NULL, ERROR_INVALID_PARAMS, "params.textDocument.uri is missing");
    return;
  }
  if (!server_find_doc(self, server__document_uri(params))) {
    server__respond(self, id, NULL, ERROR_INVALID_PARAMS, "the document is not open");
    return;
  }
  server_lint_dirty(self); /* answer from the current text */
  server__respond(self, id, actions ? server_code_actions(self, params) : server_hover(self, params), 0, NULL);
}

/* Handles one message body. */
static Next server__handle(Server *self, const char *body, size_t length) {
  cJSON *message = cJSON_ParseWithLength(body, length);
  if (!message) {
    server__respond(self, NULL, NULL, ERROR_PARSE, "parse error: the body is not JSON");
    return RUN;
  }
  const cJSON *id = server__member(message, "id"), *method = server__member(message, "method");
  bool good_id = !id || cJSON_IsNumber(id) || cJSON_IsString(id);
  Next next = RUN;
  if (!cJSON_IsObject(message) || !good_id || (method && !cJSON_IsString(method))) {
    server__respond(self, good_id ? id : NULL, NULL, ERROR_INVALID_REQUEST, "invalid request");
  } else if (!method) {
    /* a response to a request of ours (client/registerCapability): nothing to do */
  } else if (strcmp(method->valuestring, "exit") == 0) {
    next = self->shutting_down ? EXIT_AFTER_SHUTDOWN : EXIT_WITHOUT_SHUTDOWN;
  } else if (id) {
    server__request(self, id, method->valuestring, server__member(message, "params"));
  } else {
    server__notification(self, method->valuestring, server__member(message, "params"));
  }
  cJSON_Delete(message);
  return next;
}

/* ---- The loop ------------------------------------------------------------------------------ */

/* Reads and handles messages until `exit` or the end of input; lints
 * when no message is waiting (after the debounce delay). */
static int server__run(Server *self) {
  for (;;) {
    if (!reader_ready(self->reader, 0) && (self->debounce_ms == 0 || !reader_ready(self->reader, self->debounce_ms))) {
      server_lint_dirty(self);
    }
    if (self->gone) return 1;
    const char *body = NULL;
    size_t length = 0;
    RpcStatus status = reader_next(self->reader, &body, &length);
    if (status == RPC_END) return self->shutting_down ? 0 : 1;
    if (status == RPC_BAD_HEADER) {
      server_log(self, 1, "gpulint: a message without a valid Content-Length header was dropped");
    } else if (status == RPC_TOO_LARGE) {
      server_log(self, 1, "gpulint: a message larger than %u bytes was dropped", RPC_MAX_BODY);
    } else {
      Next next = server__handle(self, body, length);
      if (next != RUN) return next == EXIT_AFTER_SHUTDOWN ? 0 : 1;
    }
  }
}

static Server *server__new(void) {
  Server *self = gl_calloc(1, sizeof(Server));
  self->reader = reader_new(STDIN_FILENO);
  self->out = STDOUT_FILENO;
  self->workspace = gl_workspace_new();
  self->linter = gl_linter_new_in(self->workspace);
  self->root = path_current_directory();
  if (!self->root) self->root = gl_strdup("/");
  config_init(&self->flags);
  return self;
}

static void server__delete(Server *self) {
  for (uint32_t i = 0; i < self->docs.size; i++) doc__delete(self->docs.contents[i]);
  array_delete(&self->docs);
  for (uint32_t i = 0; i < self->notebooks.size; i++) notebook_delete(self->notebooks.contents[i]);
  array_delete(&self->notebooks);
  resolver_delete(self->resolver);
  config_clear(&self->flags);
  gl_linter_delete(self->linter);
  gl_workspace_delete(self->workspace);
  reader_delete(self->reader);
  free(self->config_error);
  free(self->root);
  free(self);
}

static const char SERVER_USAGE[] =
    "usage: gpulint server [--debounce MS]\n"
    "\n"
    "Speaks the Language Server Protocol on standard input and output.\n"
    "  --debounce MS  after an edit, wait MS milliseconds for more before linting (default 0)\n";

int server_main(int argc, char **argv) {
  int debounce = 0;
  for (int i = 2; i < argc; i++) {
    char *end = NULL;
    if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      fputs(SERVER_USAGE, stdout);
      return 0;
    }
    if (strcmp(argv[i], "--stdio") == 0) continue; /* what many clients pass */
    if (strcmp(argv[i], "--debounce") == 0 && i + 1 < argc && (debounce = (int)strtol(argv[i + 1], &end, 10), *end == '\0') &&
        debounce >= 0 && debounce <= 10000) {
      i++;
      continue;
    }
    fprintf(stderr, "gpulint server: unknown or malformed argument %s\n%s", argv[i], SERVER_USAGE);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN); /* a client that went away ends the loop through write() */
  Server *self = server__new();
  self->debounce_ms = debounce;
  int status = server__run(self);
  server__delete(self);
  return status;
}

/* ---- Workspace edits ---------------------------------------------------------------------- */

cJSON *server_edit_new(void) { return cJSON_CreateObject(); }

/* The list of TextEdits for `doc` in `edit`, made when missing. */
static cJSON *server__edits_for(Server *self, cJSON *edit, Doc *doc) {
  if (!self->document_changes) {
    cJSON *changes = cJSON_GetObjectItemCaseSensitive(edit, "changes");
    if (!changes) changes = cJSON_AddObjectToObject(edit, "changes");
    cJSON *list = cJSON_GetObjectItemCaseSensitive(changes, doc->uri);
    return list ? list : cJSON_AddArrayToObject(changes, doc->uri);
  }
  cJSON *changes = cJSON_GetObjectItemCaseSensitive(edit, "documentChanges"), *entry;
  if (!changes) changes = cJSON_AddArrayToObject(edit, "documentChanges");
  cJSON_ArrayForEach(entry, changes) {
    if (strcmp(server__string(server__member(entry, "textDocument"), "uri"), doc->uri) == 0) {
      return cJSON_GetObjectItemCaseSensitive(entry, "edits");
    }
  }
  entry = cJSON_CreateObject();
  cJSON *identifier = cJSON_AddObjectToObject(entry, "textDocument");
  cJSON_AddStringToObject(identifier, "uri", doc->uri);
  cJSON_AddNumberToObject(identifier, "version", (double)doc->version);
  cJSON_AddItemToArray(changes, entry);
  return cJSON_AddArrayToObject(entry, "edits");
}

void server_edit_add(Server *self, cJSON *edit, Doc *doc, size_t start, size_t end, const char *content,
                     size_t length) {
  cJSON *text_edit = cJSON_CreateObject();
  cJSON_AddItemToObject(text_edit, "range", doc_range(doc, self->encoding, start, end));
  char *copy = gl_strndup(content, length);
  cJSON_AddStringToObject(text_edit, "newText", copy);
  free(copy);
  cJSON_AddItemToArray(server__edits_for(self, edit, doc), text_edit);
}

bool server_kind_wanted(const cJSON *only, const char *kind) {
  if (!cJSON_IsArray(only)) return true;
  const cJSON *item;
  cJSON_ArrayForEach(item, only) {
    if (!cJSON_IsString(item)) continue;
    size_t length = strlen(item->valuestring);
    if (strncmp(kind, item->valuestring, length) == 0 && (kind[length] == '\0' || kind[length] == '.')) return true;
  }
  return false;
}
