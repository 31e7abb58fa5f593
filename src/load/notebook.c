/* notebook.c — nbformat 4 JSON to one Python buffer with a cell map, and
 * the masking of IPython syntax (see notebook.h for the shapes). */
#include "notebook.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Masking IPython syntax ------------------------------------------------ */

/* Cell magics whose body is Python: the body is linted. */
static const char *const TRANSPARENT_CELL_MAGICS[] = {"capture", "debug", "ipytest", "prun", "time", "timeit", NULL};
/* Magics whose argument is a Python statement that runs in the notebook. */
static const char *const TIMED_LINE_MAGICS[] = {"prun", "time", "timeit", NULL};
static const char *const TIMED_CELL_MAGICS[] = {"timeit", NULL}; /* its line is setup code */
/* Magics IPython runs without their `%` (automagic). */
static const char *const AUTOMAGICS[] = {
    "aimport", "alias", "autoawait", "autoreload", "bookmark", "cd", "conda", "config", "debug", "env",
    "history", "load", "load_ext", "logstart", "mamba", "matplotlib", "pdb", "pip", "precision", "prun",
    "psearch", "pylab", "reload_ext", "reset", "run", "save", "store", "time", "timeit", "unalias",
    "unload_ext", "who", "whos", "xmode", NULL};
/* Words that may follow a name in a Python expression (`time if fast else slow`). */
static const char *const EXPRESSION_KEYWORDS[] = {"and", "else", "if", "in", "is", "not", "or", NULL};
/* Statements that cannot follow `0;` on one line. */
static const char *const COMPOUND_KEYWORDS[] = {"async", "class", "def", "elif", "else", "except", "finally",
                                               "for", "if", "try", "while", "with", NULL};

/* One physical line; `end` stops before "\n" or "\r\n". */
typedef struct {
  char *start;
  char *end;
} Line;

/* What the scan knows at the end of a line: whether the next one starts a
 * statement. */
typedef struct {
  uint32_t depth; /* open brackets */
  char quote;     /* the open string's quote character, or 0 */
  bool triple;    /* the open string is triple-quoted */
  bool continued; /* the line ended in a backslash */
} Scan;

static bool mask__is_blank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

static bool mask__is_word_byte(char c) {
  unsigned char u = (unsigned char)c;
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u >= 0x80;
}

static char *mask__skip_blanks(char *p, char *end) {
  while (p < end && mask__is_blank(*p)) p++;
  return p;
}

static char *mask__word_end(char *p, char *end) {
  while (p < end && mask__is_word_byte(*p)) p++;
  return p;
}

/* Whether the bytes from `start` to `end` spell one of the NULL-terminated
 * `words`. */
static bool mask__word_in(const char *start, const char *end, const char *const *words) {
  size_t length = (size_t)(end - start);
  for (; *words; words++) {
    if (strlen(*words) == length && memcmp(*words, start, length) == 0) return true;
  }
  return false;
}

/* Turns the line from `first` on into a comment. Unindented, `first`
 * becomes '#'; indented (a magic as the body of an `if` or `try`), "0#",
 * so that the block still holds a statement. */
static void mask__comment_out(Line line, char *first) {
  if (first == line.start) {
    *first = '#';
    return;
  }
  first[0] = '0';
  if (first + 1 == line.end) return;
  if ((unsigned char)first[1] < 0x80) first[1] = '#';
  else memset(first + 1, ' ', (size_t)(line.end - first - 1));
}

/* `%time stmt` → `0;    stmt`: a no-op statement, then the timed one in
 * its own columns. The magic and its blanks are ASCII, at least 2 bytes. */
static void mask__keep_statement(char *first, char *statement) {
  first[0] = '0';
  first[1] = ';';
  memset(first + 2, ' ', (size_t)(statement - first - 2));
}

/* After a timing magic's name: where its statement starts, or NULL when
 * there is none or it cannot follow `0;` (options, `for ...:`, `@`). */
static char *mask__timed_statement(char *name_end, char *end) {
  char *statement = mask__skip_blanks(name_end, end);
  if (statement == name_end || statement == end || strchr("-@#%!?", *statement)) return NULL;
  if (mask__word_in(statement, mask__word_end(statement, end), COMPOUND_KEYWORDS)) return NULL;
  return statement;
}

/* `name?`, `name??`, `obj.attr?`, `torch.*load*?`: help by a trailing `?`. */
static bool mask__is_help(char *p, char *end) {
  char *q = p;
  while (q < end && (mask__is_word_byte(*q) || *q == '.' || *q == '*')) q++;
  if (q == p || q == end || *q != '?') return false;
  q++;
  if (q < end && *q == '?') q++;
  return mask__skip_blanks(q, end) == end;
}

/* `files = !ls`, `out, err = %sx cmd`: a shell or magic call assigned to names. */
static bool mask__is_shell_assignment(char *p, char *end) {
  char *q = p;
  while (q < end && (mask__is_word_byte(*q) || *q == '.' || *q == ',' || mask__is_blank(*q))) q++;
  if (q == p || q == end || *q != '=' || (q + 1 < end && q[1] == '=')) return false;
  q = mask__skip_blanks(q + 1, end);
  return q < end && (*q == '!' || *q == '%');
}

/* `pip install timm`, `cd data`, `load_ext autoreload`: a magic typed
 * without its `%`, then a word, which Python never allows after a name.
 * Returns the end of the magic's name, or NULL. */
static char *mask__automagic(char *p, char *end) {
  char *name_end = mask__word_end(p, end);
  if (!mask__word_in(p, name_end, AUTOMAGICS)) return NULL;
  char *next = mask__skip_blanks(name_end, end);
  if (next == name_end || next == end) return NULL;
  if (!mask__is_word_byte(*next) && !strchr("\"'~", *next)) return NULL;
  if (mask__word_in(next, mask__word_end(next, end), EXPRESSION_KEYWORDS)) return NULL;
  return name_end;
}

/* A magic whose name runs from `name` to `name_end`: keeps the statement of
 * a timing magic from `timed`, comments the rest out. Returns where Python
 * scanning resumes. */
static char *mask__magic(Line line, char *first, char *name, char *name_end, const char *const *timed) {
  char *statement = mask__word_in(name, name_end, timed) ? mask__timed_statement(name_end, line.end) : NULL;
  if (statement) {
    mask__keep_statement(first, statement);
    return statement;
  }
  mask__comment_out(line, first);
  return line.end;
}

/* A line that starts a statement at `first`, its first non-blank byte:
 *   %magic args | !cmd | ?obj | obj? | x = !cmd | automagic args
 * Masks it when it is IPython syntax; returns where Python scanning resumes. */
static char *mask__statement(Line line, char *first) {
  if (*first == '%') {
    char *name = first + (first + 1 < line.end && first[1] == '%' ? 2 : 1);
    return mask__magic(line, first, name, mask__word_end(name, line.end), TIMED_LINE_MAGICS);
  }
  char *automagic_end = mask__automagic(first, line.end);
  if (automagic_end) return mask__magic(line, first, first, automagic_end, TIMED_LINE_MAGICS);
  if (*first == '!' || *first == '?' || mask__is_help(first, line.end) ||
      mask__is_shell_assignment(first, line.end)) {
    mask__comment_out(line, first);
    return line.end;
  }
  return first;
}

/* The cell's first non-blank line, starting with `%%name`. Masks it and
 * returns where Python scanning resumes, or NULL when the body is not Python. */
static char *mask__cell_magic(Line line, char *first) {
  char *name = first + 2;
  char *name_end = mask__word_end(name, line.end);
  if (!mask__word_in(name, name_end, TRANSPARENT_CELL_MAGICS)) return NULL;
  return mask__magic(line, first, name, name_end, TIMED_CELL_MAGICS);
}

/* Inside a string at `p`: handles escapes and the closing quote. Returns
 * the last byte consumed. */
static char *mask__scan_string(Scan *scan, char *p, char *end) {
  if (*p == '\\') {
    if (p + 1 == end) scan->continued = true;
    return p + 1 < end ? p + 1 : p;
  }
  if (*p != scan->quote) return p;
  if (!scan->triple) {
    scan->quote = 0;
  } else if (end - p >= 3 && p[1] == *p && p[2] == *p) {
    scan->quote = 0;
    return p + 2;
  }
  return p;
}

/* Outside strings at `p`: opens strings, counts brackets, notes a final
 * backslash. Returns the last byte consumed. */
static char *mask__scan_code(Scan *scan, char *p, char *end) {
  char c = *p;
  if (c == '"' || c == '\'') {
    scan->quote = c;
    scan->triple = end - p >= 3 && p[1] == c && p[2] == c;
    return scan->triple ? p + 2 : p;
  }
  if (c == '(' || c == '[' || c == '{') scan->depth++;
  else if ((c == ')' || c == ']' || c == '}') && scan->depth > 0) scan->depth--;
  else if (c == '\\' && p + 1 == end) scan->continued = true;
  return p;
}

/* Follows strings, brackets, comments and backslashes from `p` to the end
 * of the line, so that the next line is known to start a statement or not. */
static void mask__scan(Scan *scan, char *p, char *end) {
  scan->continued = false;
  for (; p < end; p++) {
    if (scan->quote) p = mask__scan_string(scan, p, end);
    else if (*p == '#') break;
    else p = mask__scan_code(scan, p, end);
  }
  if (scan->quote && !scan->triple && !scan->continued) scan->quote = 0; /* unterminated: ends with the line */
}

static bool mask__starts_statement(const Scan *scan) {
  return scan->depth == 0 && !scan->quote && !scan->continued;
}

/* `!pip install -U \` goes on over the lines that follow while each ends
 * in a backslash: IPython passes them to the shell. Blanks one such line
 * (a blank line fits anywhere); returns whether the next goes on too. */
static bool mask__blank_continuation(Line line) {
  bool more = line.end > line.start && line.end[-1] == '\\';
  memset(line.start, ' ', (size_t)(line.end - line.start));
  return more;
}

static Line mask__line_at(char *p, char *end) {
  char *newline = memchr(p, '\n', (size_t)(end - p));
  Line line = {p, newline ? newline : end};
  if (line.end > line.start && line.end[-1] == '\r') line.end--;
  return line;
}

bool notebook_mask_cell(char *text, size_t length) {
  char *end = text + length;
  Scan scan = {0, 0, false, false};
  bool seen_code = false;
  bool magic_continues = false; /* a masked magic or shell line ended in a backslash */
  for (char *p = text; p < end;) {
    Line line = mask__line_at(p, end);
    char *newline = memchr(line.end, '\n', (size_t)(end - line.end));
    p = newline ? newline + 1 : end;
    if (magic_continues) {
      magic_continues = mask__blank_continuation(line);
      continue;
    }
    char *resume = line.start;
    char *first = mask__skip_blanks(line.start, line.end);
    if (first < line.end && mask__starts_statement(&scan)) {
      if (!seen_code && line.end - first >= 2 && first[0] == '%' && first[1] == '%') {
        resume = mask__cell_magic(line, first);
        if (!resume) return false;
      } else {
        resume = mask__statement(line, first);
      }
      seen_code = true;
      magic_continues = resume == line.end && line.end[-1] == '\\';
    }
    mask__scan(&scan, resume, line.end);
  }
  return true;
}

/* ---- Reading the notebook -------------------------------------------------- */

typedef Array(char) Text;

typedef struct {
  Text text;              /* the Python code cells, masked */
  Array(CellSpan) cells;  /* where each of them starts */
  uint32_t next_line;     /* 1-based buffer line of the next cell */
} Builder;

bool notebook_path_matches(const char *path) {
  size_t length = strlen(path);
  return length >= 6 && strcasecmp(path + length - 6, ".ipynb") == 0;
}

static const char *notebook__type_name(const cJSON *item) {
  if (cJSON_IsString(item)) return "a string";
  if (cJSON_IsNumber(item)) return "a number";
  if (cJSON_IsBool(item)) return "a boolean";
  if (cJSON_IsNull(item)) return "null";
  if (cJSON_IsArray(item)) return "an array";
  return "an object";
}

static const cJSON *notebook__get(const cJSON *object, const char *key) {
  return cJSON_IsObject(object) ? cJSON_GetObjectItemCaseSensitive(object, key) : NULL;
}

/* Where cJSON stopped (moved back to the start of its character), as a
 * 1-based line and code-point column. The caller frees the message. */
static char *notebook__json_error(const char *bytes, size_t length, const char *at, const char *what) {
  size_t offset = at && at >= bytes && at <= bytes + length ? (size_t)(at - bytes) : 0;
  while (offset > 0 && offset < length && ((unsigned char)bytes[offset] & 0xC0) == 0x80) offset--;
  unsigned line = 1, column = 1;
  for (size_t i = 0; i < offset; i++) {
    if (bytes[i] == '\n') line++, column = 1;
    else if (((unsigned char)bytes[i] & 0xC0) != 0x80) column++;
  }
  return gl_format("invalid JSON at line %u, column %u%s", line, column, what);
}

static bool notebook__is_blank(const char *p, const char *end) {
  for (; p < end; p++) {
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') return false;
  }
  return true;
}

/* Parses the whole document; NULL with *message set when it is not one
 * JSON value. */
static cJSON *notebook__parse(const char *bytes, size_t length, char **message) {
  if (notebook__is_blank(bytes, bytes + length)) {
    *message = gl_strdup("not a notebook: the file is empty");
    return NULL;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(bytes, length, &end, false);
  if (!root) {
    *message = notebook__json_error(bytes, length, end, "");
  } else if (!notebook__is_blank(end, bytes + length)) {
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r') end++;
    *message = notebook__json_error(bytes, length, end, ": unexpected text after the notebook");
    cJSON_Delete(root);
    root = NULL;
  }
  return root;
}

/* An object with `nbformat` 4 and an array of `cells`. */
static bool notebook__check_format(const cJSON *root, char **message) {
  if (!cJSON_IsObject(root)) {
    *message = gl_format("not a notebook: the top level is %s, expected an object", notebook__type_name(root));
    return false;
  }
  const cJSON *version = notebook__get(root, "nbformat");
  const cJSON *cells = notebook__get(root, "cells");
  if (!version) *message = gl_strdup("not a notebook: no `nbformat` key");
  else if (!cJSON_IsNumber(version)) *message = gl_format("`nbformat` is %s, expected 4", notebook__type_name(version));
  else if (version->valuedouble != 4.0)
    *message = gl_format("nbformat %g is not supported, only nbformat 4 (`jupyter nbconvert --to notebook` upgrades it)",
                         version->valuedouble);
  else if (!cells) *message = gl_strdup("not a notebook: no `cells` key");
  else if (!cJSON_IsArray(cells)) *message = gl_format("`cells` is %s, expected an array", notebook__type_name(cells));
  return *message == NULL;
}

/* The kernel language: `metadata.language_info.name`, else
 * `metadata.kernelspec.language`; NULL when neither is given. Borrowed. */
static const char *notebook__language(const cJSON *root) {
  const cJSON *metadata = notebook__get(root, "metadata");
  const char *name = cJSON_GetStringValue(notebook__get(notebook__get(metadata, "language_info"), "name"));
  if (name && *name) return name;
  name = cJSON_GetStringValue(notebook__get(notebook__get(metadata, "kernelspec"), "language"));
  return name && *name ? name : NULL;
}

/* "skipped: kernel language is R", with the name cut to printable ASCII. */
static char *notebook__skip_note(const char *language) {
  char shown[41];
  size_t n = 0;
  for (; language[n] && n < sizeof shown - 1; n++) {
    shown[n] = language[n] >= 0x20 && language[n] < 0x7F ? language[n] : '?';
  }
  shown[n] = '\0';
  return gl_format("skipped: kernel language is %s", shown);
}

/* A cell's `source`: a string or an array of strings. */
static bool notebook__check_source(const cJSON *source, uint32_t number, char **message) {
  if (!source) {
    *message = gl_format("cell %u has no `source`", number);
    return false;
  }
  if (cJSON_IsString(source)) return true;
  if (!cJSON_IsArray(source)) {
    *message = gl_format("cell %u: `source` is %s, expected a string or an array of strings", number,
                         notebook__type_name(source));
    return false;
  }
  int index = 0;
  for (const cJSON *part = source->child; part; part = part->next, index++) {
    if (cJSON_IsString(part)) continue;
    *message = gl_format("cell %u: `source[%d]` is %s, expected a string", number, index,
                         notebook__type_name(part));
    return false;
  }
  return true;
}

static void notebook__append(Text *self, const char *bytes, size_t length) {
  uint32_t wanted = self->size + (uint32_t)length;
  if (wanted > self->capacity) array_reserve(self, wanted > self->capacity * 2 ? wanted : self->capacity * 2);
  memcpy(self->contents + self->size, bytes, length);
  self->size = wanted;
}

/* Appends a checked `source` to `text`. */
static void notebook__append_source(Text *text, const cJSON *source) {
  if (cJSON_IsString(source)) {
    notebook__append(text, source->valuestring, strlen(source->valuestring));
    return;
  }
  for (const cJSON *part = source->child; part; part = part->next) {
    notebook__append(text, part->valuestring, strlen(part->valuestring));
  }
}

/* A code cell that VS Code does not mark as another language. */
static bool notebook__is_python_cell(const cJSON *cell, const char *type) {
  if (strcmp(type, "code") != 0) return false;
  const cJSON *vscode = notebook__get(notebook__get(cell, "metadata"), "vscode");
  const char *language = cJSON_GetStringValue(notebook__get(vscode, "languageId"));
  return !language || strcmp(language, "python") == 0;
}

/* Appends the masked text of a Python code cell and records its span; a
 * cell whose body is not Python (%%bash) is left out. */
static void notebook__add_code(Builder *self, const cJSON *source, uint32_t number) {
  uint32_t start = self->text.size;
  notebook__append_source(&self->text, source);
  if (self->text.size == start || self->text.contents[self->text.size - 1] != '\n') {
    notebook__append(&self->text, "\n", 1);
  }
  char *text = self->text.contents + start;
  uint32_t length = self->text.size - start;
  if (!notebook_mask_cell(text, length)) {
    self->text.size = start;
    return;
  }
  array_push(&self->cells, ((CellSpan){self->next_line, number}));
  for (uint32_t i = 0; i < length; i++) self->next_line += text[i] == '\n';
}

/* Checks cell `number` (1-based, every cell type counted) and adds it when
 * it is Python code. */
static bool notebook__add_cell(Builder *self, const cJSON *cell, uint32_t number, char **message) {
  if (!cJSON_IsObject(cell)) {
    *message = gl_format("cell %u is %s, expected an object", number, notebook__type_name(cell));
    return false;
  }
  const cJSON *type = notebook__get(cell, "cell_type");
  if (!cJSON_IsString(type)) {
    *message = type ? gl_format("cell %u: `cell_type` is %s, expected a string", number, notebook__type_name(type))
                    : gl_format("cell %u has no `cell_type`", number);
    return false;
  }
  const cJSON *source = notebook__get(cell, "source");
  if (!notebook__check_source(source, number, message)) return false;
  if (notebook__is_python_cell(cell, type->valuestring)) notebook__add_code(self, source, number);
  return true;
}

/* The Source of the checked notebook's code cells; NULL with *message set
 * when a cell is malformed. */
static Source *notebook__build(const char *path, const cJSON *root, char **message) {
  Builder builder = {array_new(), array_new(), 1};
  array_reserve(&builder.text, 4096);
  uint32_t number = 1;
  bool ok = true;
  for (const cJSON *cell = notebook__get(root, "cells")->child; cell && ok; cell = cell->next, number++) {
    ok = notebook__add_cell(&builder, cell, number, message);
  }
  Source *source = NULL;
  if (ok) {
    source = source_new(path, builder.text.contents, builder.text.size);
    source->cells.contents = builder.cells.contents; /* the source takes the spans */
    source->cells.size = builder.cells.size;
    source->cells.capacity = builder.cells.capacity;
  } else {
    array_delete(&builder.cells);
  }
  array_delete(&builder.text);
  return source;
}

Source *notebook_load(const char *path, const char *bytes, size_t length, NotebookStatus *status,
                      char **message) {
  *status = NOTEBOOK_INVALID;
  *message = NULL;
  cJSON *root = notebook__parse(bytes, length, message);
  if (!root || !notebook__check_format(root, message)) {
    cJSON_Delete(root);
    return NULL;
  }
  const char *language = notebook__language(root);
  Source *source = NULL;
  if (language && strncasecmp(language, "python", 6) != 0) {
    *status = NOTEBOOK_NOT_PYTHON;
    *message = notebook__skip_note(language);
  } else {
    source = notebook__build(path, root, message);
    if (source) *status = NOTEBOOK_OK;
  }
  cJSON_Delete(root);
  return source;
}
