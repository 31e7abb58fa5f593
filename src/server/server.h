/* server.h — `gpulint server`: the language server's state, shared by its
 * units (server.c: the loop, lifecycle and document sync; diagnostics.c:
 * linting and publishing; actions.c: code actions and hover; notebooks.c:
 * notebook documents). The engine is reached through gpulint.h; settings
 * through the command line's resolver (settings.h). */
#ifndef GPULINT_SERVER_H
#define GPULINT_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "array.h"
#include "gpulint.h"
#include "rpc.h"
#include "settings.h"
#include "text.h"

/* `gpulint server [--debounce MS]`: speaks LSP on standard input and
 * output until `exit` or the end of input. */
int server_main(int argc, char **argv);

/* A text larger than this is kept but not linted (one notice instead). */
#define SERVER_MAX_LINT_BYTES (4u * 1024u * 1024u)
/* A text that grows past this is dropped until the document is reopened. */
#define SERVER_MAX_TEXT_BYTES (64u * 1024u * 1024u)
/* Open documents and notebooks beyond this are refused. */
#define SERVER_MAX_DOCUMENTS 4096u

typedef struct Notebook Notebook;

/* A finding shown in a document: bytes of the document's text. */
typedef struct {
  uint32_t start, end;
  const GlFinding *finding; /* borrowed from the result it came from */
} Span;

/* An open text document: a Python file, another file (a config), or a
 * notebook's cell. */
typedef struct {
  char *uri;            /* owned */
  char *path;           /* the file it names (symbolic links of its folder resolved), or the URI; owned */
  int64_t version;
  GlDocument *text;     /* the text and its tree; NULL when dropped for size */
  LineIndex lines;      /* of the text; valid while `lines_valid` */
  bool lines_valid;
  bool python;          /* linted (a cell is linted through its notebook) */
  bool dirty;           /* changed since its last lint */
  bool shown;           /* diagnostics were published and not yet cleared */
  GlFileResult *result; /* its last lint (not for cells); owned */
  Array(Span) spans;    /* the findings shown in it */
  Notebook *notebook;   /* the notebook it is a cell of, or NULL; borrowed */
} Doc;

/* A cell of a notebook: its kind (1 markup, 2 code) and its document. */
typedef struct {
  char *uri;  /* owned */
  int kind;
} Cell;

struct Notebook {
  char *uri;            /* owned */
  char *path;           /* the .ipynb it names; owned */
  int64_t version;
  Array(Cell) cells;
  bool dirty;
  char *json;           /* the nbformat 4 content its last lint read (built from the cells); owned */
  size_t json_length;
  GlFileResult *result; /* owned */
};

typedef struct {
  Reader *reader;
  int out;                  /* standard output */
  GlWorkspace *workspace;
  GlLinter *linter;
  char *root;               /* the workspace folder (or the working directory); owned */
  Config flags;             /* empty: no command-line flags */
  Resolver *resolver;       /* NULL until needed again after a config change */
  char *config_error;       /* the last config error logged; owned */
  Array(Doc *) docs;
  Array(Notebook *) notebooks;
  PositionEncoding encoding;
  int debounce_ms;          /* wait this long for more edits before linting */
  int next_id;              /* of requests the server sends */
  bool initialized, shutting_down;
  bool gone;                /* the client stopped reading our output */
  bool document_changes;    /* the client takes WorkspaceEdit.documentChanges */
  bool dynamic_watch;       /* the client registers file watchers on request */
} Server;

/* ---- server.c ---- */

void server_send(Server *self, cJSON *message); /* deletes `message` */
void server_notify(Server *self, const char *method, cJSON *params);
/* window/logMessage; `type` 1 error, 2 warning, 3 info, 4 log. */
void server_log(Server *self, int type, const char *format, ...) __attribute__((format(printf, 3, 4)));
Doc *server_find_doc(Server *self, const char *uri);
/* The text's line index, built when needed. */
const LineIndex *doc_lines(Doc *self);
const char *doc_text(const Doc *self, size_t *length);
/* An LSP Range of bytes [start, end) of the document. */
cJSON *doc_range(Doc *self, PositionEncoding encoding, size_t start, size_t end);
/* The byte offset of an LSP Position object, or false when malformed. */
bool doc_offset(Doc *self, PositionEncoding encoding, const cJSON *position, size_t *offset);

/* ---- diagnostics.c ---- */

/* The rules for the file at `path`; false when its settings exclude it. */
bool server_rules_for(Server *self, const char *path, GlRuleSet *rules);
/* Lints every dirty document and notebook and publishes their diagnostics. */
void server_lint_dirty(Server *self);
/* Marks open documents dirty whose last lint read the file at `path`
 * (every Python document when `path` is NULL). */
void server_mark_dependents(Server *self, const char *path);
/* Publishes an empty list for `doc` when something was shown. */
void server_clear(Server *self, Doc *doc);
/* An LSP Diagnostic for a span of `doc`. */
cJSON *server_diagnostic(Server *self, Doc *doc, const Span *span);
/* Publishes the document's spans, after one notice (Information) when
 * `notice` is not NULL. */
void server_publish(Server *self, Doc *doc, const char *notice);
void doc_clear_result(Doc *self);

/* ---- actions.c ---- */

cJSON *server_code_actions(Server *self, const cJSON *params);
cJSON *server_hover(Server *self, const cJSON *params);

/* ---- notebooks.c ---- */

Notebook *server_find_notebook(Server *self, const char *uri);
void server_notebook_open(Server *self, const cJSON *params);
void server_notebook_change(Server *self, const cJSON *params);
void server_notebook_close(Server *self, const cJSON *params);
/* Lints the notebook's cells as one nbformat 4 notebook and publishes each
 * cell's diagnostics. */
void server_notebook_lint(Server *self, Notebook *notebook);
/* The edits (a WorkspaceEdit's `changes` or `documentChanges`) that turn
 * the notebook's cells into the cells of `json`, a notebook made from its
 * last content; NULL when nothing changes or `json` cannot be read. */
cJSON *server_notebook_edit(Server *self, Notebook *notebook, const char *json, size_t length);
void notebook_delete(Notebook *self);

/* ---- shared helpers (server.c) ---- */

/* The path the engine knows the document at `uri` by; the caller frees it. */
char *server_doc_path(const char *uri);
/* Opens a document (replacing one open under the same URI); NULL when
 * too many are open. */
Doc *server_doc_open(Server *self, const char *uri, const char *language, int64_t version, const char *text,
                     size_t length);
/* Closes the document at `uri` and clears its diagnostics. */
void server_doc_close(Server *self, const char *uri);
/* Applies `changes` (TextDocumentContentChangeEvents) to `doc` and marks
 * what must be linted again; false when one was malformed (skipped). */
bool server_doc_change(Server *self, Doc *doc, const cJSON *changes, int64_t version);

/* A WorkspaceEdit replacing bytes [start, end) of `doc` with `content`. */
void server_edit_add(Server *self, cJSON *edit, Doc *doc, size_t start, size_t end, const char *content,
                     size_t length);
cJSON *server_edit_new(void);
/* Whether `kind` passes the request's `only` filter (a list of kinds). */
bool server_kind_wanted(const cJSON *only, const char *kind);
/* A file: URI's path, decoded; NULL for other schemes. The caller frees it. */
char *server_uri_path(const char *uri);
/* A file: URI for an absolute path. The caller frees it. */
char *server_path_uri(const char *path);

#endif
