/* fixes.c — building a finding's fix. */
#include "fixes.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void gl_fix_delete(GlFix *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->edit_count; i++) free(self->edits[i].content);
  free(self->edits);
  free(self->title);
  free(self);
}

GlFix *fix_new(GlFinding *finding, GlApplicability applicability, const char *title, ...) {
  if (!finding) return NULL;
  gl_fix_delete(finding->fix);
  GlFix *self = gl_calloc(1, sizeof(GlFix));
  self->applicability = applicability;
  va_list args;
  va_start(args, title);
  self->title = gl_vformat(title, args);
  va_end(args);
  finding->fix = self;
  return self;
}

void fix_replace(GlFix *self, const Source *source, uint32_t start, uint32_t end, const char *content) {
  if (!self || start > end || end > source->length) return;
  self->edits = gl_realloc(self->edits, (self->edit_count + 1) * sizeof(GlEdit));
  uint32_t start_cell = 0, end_cell = 0;
  GlEdit edit = {start, end, source_position(source, start, &start_cell), source_position(source, end, &end_cell),
                 gl_strdup(content)};
  self->edits[self->edit_count++] = edit;
}

/* ---- Style ---------------------------------------------------------------------- */

const char *fix_newline(const Source *source) {
  const char *newline = memchr(source->bytes, '\n', source->length);
  return newline && newline > source->bytes && newline[-1] == '\r' ? "\r\n" : "\n";
}

/* The first byte of the line holding `byte`. */
static uint32_t fix__line_start(const Source *source, uint32_t byte) {
  while (byte > 0 && source->bytes[byte - 1] != '\n') byte--;
  return byte;
}

/* The byte after the line holding `byte` (its newline included). */
static uint32_t fix__line_end(const Source *source, uint32_t byte) {
  while (byte < source->length && source->bytes[byte] != '\n') byte++;
  return byte < source->length ? byte + 1 : byte;
}

Text fix_indent_at(const Source *source, uint32_t byte) {
  uint32_t start = fix__line_start(source, byte), end = start;
  while (end < source->length && (source->bytes[end] == ' ' || source->bytes[end] == '\t')) end++;
  return (Text){source->bytes + start, end - start};
}

Text fix_indent_unit(const Source *source, TSNode root) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  Text unit = {"    ", 4};
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (node_is(node, K_BLOCK) && ts_node_named_child_count(node) > 0) {
      Text header = fix_indent_at(source, ts_node_start_byte(ts_node_parent(node)));
      Text body = fix_indent_at(source, ts_node_start_byte(ts_node_named_child(node, 0)));
      if (body.length > header.length && memcmp(body.ptr, header.ptr, header.length) == 0 &&
          fix__line_start(source, ts_node_start_byte(node)) != fix__line_start(source, ts_node_start_byte(ts_node_parent(node)))) {
        unit = (Text){body.ptr + header.length, body.length - header.length};
        break;
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cursor)) && ts_tree_cursor_goto_parent(&cursor)) {
    }
  }
  ts_tree_cursor_delete(&cursor);
  return unit;
}

/* ---- Statements ------------------------------------------------------------------ */

/* Whether only whitespace lies between `from` and `to` on their line. */
static bool fix__blank(const Source *source, uint32_t from, uint32_t to) {
  for (uint32_t i = from; i < to; i++) {
    char c = source->bytes[i];
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

/* The end of the statement's line, past a trailing comment; 0 when code
 * follows it on the line (`a(); b()`). */
static uint32_t fix__rest_of_line(const Source *source, uint32_t end) {
  uint32_t at = end;
  while (at < source->length && (source->bytes[at] == ' ' || source->bytes[at] == '\t')) at++;
  if (at < source->length && source->bytes[at] == '#') {
    while (at < source->length && source->bytes[at] != '\n') at++;
  }
  if (at < source->length && source->bytes[at] == '\r') at++;
  if (at < source->length && source->bytes[at] != '\n') return 0;
  return at < source->length ? at + 1 : at;
}

bool fix_remove_statement(GlFix *self, const Source *source, TSNode statement) {
  if (!self || ts_node_is_null(statement)) return false;
  uint32_t start = ts_node_start_byte(statement), end = ts_node_end_byte(statement);
  uint32_t line_start = fix__line_start(source, start);
  uint32_t line_end = fix__rest_of_line(source, end);
  if (!self || line_end == 0 || !fix__blank(source, line_start, start)) return false;
  TSNode block = ts_node_parent(statement);
  uint32_t statements = 0;
  for (uint32_t i = 0; node_is(block, K_BLOCK) && i < ts_node_named_child_count(block); i++) {
    statements += !node_is(ts_node_named_child(block, i), K_COMMENT);
  }
  bool alone = node_is(block, K_BLOCK) && statements == 1;
  if (alone) {
    fix_replace(self, source, start, end, "pass");
    return true;
  }
  fix_replace(self, source, line_start, line_end, "");
  return true;
}

TSNode fix_statement_of(TSNode node) {
  for (TSNode at = node; !ts_node_is_null(at); at = ts_node_parent(at)) {
    TSNode parent = ts_node_parent(at);
    if (node_is(parent, K_BLOCK) || node_is(parent, K_MODULE)) return at;
  }
  return (TSNode){0};
}

bool fix_insert_line_after(GlFix *self, const Source *source, TSNode statement, const char *text) {
  if (!self || ts_node_is_null(statement)) return false; /* e.g. a step inside an ERROR node */
  uint32_t after = fix__rest_of_line(source, ts_node_end_byte(statement));
  if (after == 0) return false;
  Text indent = fix_indent_at(source, ts_node_start_byte(statement));
  if (!fix__blank(source, ts_node_start_byte(statement) - indent.length, ts_node_start_byte(statement))) return false;
  bool ended = after > 0 && source->bytes[after - 1] == '\n';
  const char *newline = fix_newline(source);
  char *line = gl_format("%s%.*s%s%s", ended ? "" : newline, (int)indent.length, indent.ptr, text, ended ? newline : "");
  fix_replace(self, source, after, after, line);
  free(line);
  return true;
}

/* ---- Imports ----------------------------------------------------------------------- */

/* Whether a top-level `import torch` (or `import torch.nn`, which binds
 * `torch` too) is in the file. */
static bool fix__imports_torch(const Facts *facts) {
  for (uint32_t i = 0; i < facts->top_level.size; i++) {
    TSNode node = facts->top_level.contents[i];
    if (!node_is(node, K_IMPORT_STATEMENT)) continue;
    for (uint32_t k = 0; k < ts_node_named_child_count(node); k++) {
      TSNode name = ts_node_named_child(node, k);
      Text text = node_text(facts->source, name);
      if (node_is(name, K_DOTTED_NAME) && (text_is(text, "torch") || (text.length > 6 && memcmp(text.ptr, "torch.", 6) == 0))) {
        return true;
      }
    }
  }
  const Binding *bound = facts_import(facts, (Text){"torch", 5});
  return bound && text_is(bound->value, "torch");
}

void fix_import_torch(GlFix *self, const Facts *facts) {
  if (!self || fix__imports_torch(facts)) return;
  const Source *source = facts->source;
  uint32_t at = 0;
  for (uint32_t i = 0; i < facts->top_level.size; i++) {
    TSNode node = facts->top_level.contents[i];
    Kind kind = node_kind(node);
    bool docstring = i == 0 && kind == K_EXPRESSION_STATEMENT && node_is(ts_node_named_child(node, 0), K_STRING);
    bool import = kind == K_IMPORT_STATEMENT || kind == K_IMPORT_FROM_STATEMENT || kind == K_FUTURE_IMPORT_STATEMENT;
    if (docstring || import) at = fix__line_end(source, ts_node_end_byte(node));
  }
  char *line = gl_format("import torch%s", fix_newline(source));
  fix_replace(self, source, at, at, line);
  free(line);
}

/* ---- Finishing ------------------------------------------------------------------------ */

static int fix__edit_order(const void *a, const void *b) {
  const GlEdit *x = a, *y = b;
  if (x->start_byte != y->start_byte) return x->start_byte < y->start_byte ? -1 : 1;
  return x->end_byte < y->end_byte ? -1 : x->end_byte > y->end_byte;
}

void fix_finish(GlFinding *finding) {
  GlFix *self = finding ? finding->fix : NULL;
  if (!self) return;
  if (self->edit_count > 1) qsort(self->edits, self->edit_count, sizeof(GlEdit), fix__edit_order);
  bool overlap = self->edit_count == 0;
  for (uint32_t i = 1; i < self->edit_count && !overlap; i++) {
    const GlEdit *before = &self->edits[i - 1], *edit = &self->edits[i];
    overlap = edit->start_byte < before->end_byte ||
              (edit->start_byte == before->start_byte && edit->start_byte == edit->end_byte &&
               before->start_byte == before->end_byte); /* two insertions at one place: order unknown */
  }
  if (!overlap) return;
  gl_fix_delete(self);
  finding->fix = NULL;
}
