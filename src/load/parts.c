/* parts.c — a large file cut into parts of whole top-level statements
 * (parts.h). */
#include "parts.h"

#include <string.h>

/* A top-level statement: its first byte and 0-based line. */
typedef struct {
  uint32_t start;
  uint32_t row;
} Statement;

typedef Array(Statement) Statements;

/* The scan's state between lines. */
typedef struct {
  const char *bytes;
  uint32_t length;
  uint32_t at;    /* the next byte */
  uint32_t row;   /* its line */
  uint32_t depth; /* brackets open */
  char quote;     /* the open string's quote; 0 outside strings */
  bool triple;    /* ... a triple-quoted one */
  bool continued; /* the last line ended with a backslash */
} Scan;

/* ---- The scan ----------------------------------------------------------------- */

static bool parts__name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether `text` starts with the word `word` (not a longer name). */
static bool parts__word(const char *text, uint32_t left, const char *word) {
  size_t length = strlen(word);
  return left > length && memcmp(text, word, length) == 0 && !parts__name_char(text[length]);
}

/* else, elif, except, finally: a clause of the statement above, not a statement. */
static bool parts__clause(const char *text, uint32_t left) {
  return parts__word(text, left, "else") || parts__word(text, left, "elif") || parts__word(text, left, "except") ||
         parts__word(text, left, "finally");
}

/* Inside a string: past its end, an escape, or the line's end. */
static void parts__string_byte(Scan *scan) {
  const char *bytes = scan->bytes;
  char c = bytes[scan->at];
  if (c == '\\' && scan->at + 1 < scan->length) {
    scan->row += bytes[scan->at + 1] == '\n';
    scan->at += 2;
  } else if (c == scan->quote && (!scan->triple || (scan->at + 2 < scan->length && bytes[scan->at + 1] == c &&
                                                    bytes[scan->at + 2] == c))) {
    scan->at += scan->triple ? 3 : 1;
    scan->quote = 0;
  } else {
    scan->at++;
  }
}

/* Whether a backslash at `at` continues the line; moves past it. */
static bool parts__continuation(Scan *scan) {
  uint32_t next = scan->at + 1;
  if (next < scan->length && scan->bytes[next] == '\r') next++;
  if (next >= scan->length || scan->bytes[next] != '\n') return false;
  scan->at = next + 1;
  scan->row++;
  return true;
}

/* Scans one line from `at` to past its newline: brackets, strings (a
 * string that a newline leaves open is closed there unless triple-quoted),
 * comments and a closing backslash. */
static void parts__line(Scan *scan) {
  scan->continued = false;
  while (scan->at < scan->length) {
    char c = scan->bytes[scan->at];
    if (scan->quote && c != '\n') {
      parts__string_byte(scan);
      continue;
    }
    if (c == '\n') {
      scan->at++;
      scan->row++;
      if (!scan->triple) scan->quote = 0;
      return;
    }
    if (c == '#') {
      while (scan->at < scan->length && scan->bytes[scan->at] != '\n') scan->at++;
      continue;
    }
    if (c == '\\' && parts__continuation(scan)) {
      scan->continued = true;
      return;
    }
    if (c == '\'' || c == '"') {
      scan->triple = scan->at + 2 < scan->length && scan->bytes[scan->at + 1] == c && scan->bytes[scan->at + 2] == c;
      scan->quote = c;
      scan->at += scan->triple ? 3 : 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') scan->depth++;
    if ((c == ')' || c == ']' || c == '}') && scan->depth > 0) scan->depth--;
    scan->at++;
  }
}

/* The top-level statements of the text, in order: lines that start at
 * column 0 outside brackets, strings and continued lines, other than
 * comments, blank lines, clauses (`else:`) and what decorators lead to. */
static void parts__statements(const char *bytes, uint32_t length, Statements *out) {
  Scan scan = {.bytes = bytes, .length = length};
  bool decorated = false;
  while (scan.at < length) {
    uint32_t start = scan.at, row = scan.row;
    char c = bytes[start];
    bool open = scan.depth == 0 && !scan.quote && !scan.continued;
    if (open && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '#' &&
        !parts__clause(bytes + start, length - start)) {
      if (!decorated) array_push(out, ((Statement){start, row}));
      decorated = c == '@';
    }
    parts__line(&scan);
  }
}

/* ---- Context ------------------------------------------------------------------ */

/* `name = ...`, `a, b = ...`, `self.x: T = ...`: an assignment, not a
 * comparison or an augmented assignment. */
static bool parts__assignment(const char *text, uint32_t length) {
  uint32_t i = 0;
  if (length == 0 || !parts__name_char(text[0]) || (text[0] >= '0' && text[0] <= '9')) return false;
  while (i < length && (parts__name_char(text[i]) || text[i] == '.' || text[i] == ',' || text[i] == ' ')) i++;
  if (i < length && text[i] == ':') {
    while (i < length && text[i] != '=' && text[i] != '\n') i++;
  }
  return i + 1 < length && text[i] == '=' && text[i + 1] != '=';
}

/* The first line of a statement that is no decorator. */
static uint32_t parts__after_decorators(const char *text, uint32_t length) {
  uint32_t at = 0;
  while (at < length && text[at] == '@') {
    while (at < length && text[at] != '\n') at++;
    if (at < length) at++;
  }
  return at;
}

/* Whether a top-level statement is context for every part: an import (or
 * a `try:` around imports), a class definition, or an assignment. */
static bool parts__context(const char *text, uint32_t length) {
  if (parts__word(text, length, "import") || parts__word(text, length, "from")) return true;
  if (parts__word(text, length, "try")) {
    for (uint32_t i = 0; i + 7 < length; i++) {
      if (memcmp(text + i, "import ", 7) == 0) return true;
    }
    return false;
  }
  uint32_t at = parts__after_decorators(text, length);
  if (parts__word(text + at, length - at, "class")) return true;
  return at == 0 && parts__assignment(text, length);
}

/* ---- Parts -------------------------------------------------------------------- */

static TSRange parts__range(uint32_t start, uint32_t start_row, uint32_t end, TSPoint end_point) {
  return (TSRange){.start_point = {start_row, 0}, .end_point = end_point, .start_byte = start, .end_byte = end};
}

/* The point of the text's end: its last line and the bytes on it. */
static TSPoint parts__end_point(const char *bytes, uint32_t length, uint32_t rows) {
  uint32_t line_start = length;
  while (line_start > 0 && bytes[line_start - 1] != '\n') line_start--;
  return (TSPoint){rows, length - line_start};
}

void parts_split(const char *bytes, uint32_t length, Parts *out) {
  *out = (Parts){array_new(), array_new()};
  Statements statements = array_new();
  if (length >= PARTS_MIN_BYTES) parts__statements(bytes, length, &statements);
  uint32_t rows = 0;
  for (uint32_t i = 0; i < length; i++) rows += bytes[i] == '\n';
  TSPoint end = parts__end_point(bytes, length, rows);
  uint32_t start = 0, start_row = 0, context = 0;
  for (uint32_t i = 0; i < statements.size; i++) {
    const Statement *statement = array_get(&statements, i);
    if (statement->start > start && statement->start - start >= PARTS_BYTES) {
      array_push(&out->parts, parts__range(start, start_row, statement->start, (TSPoint){statement->row, 0}));
      start = statement->start;
      start_row = statement->row;
    }
    bool last = i + 1 == statements.size;
    uint32_t stop = last ? length : statements.contents[i + 1].start;
    TSPoint stop_point = last ? end : (TSPoint){statements.contents[i + 1].row, 0};
    uint32_t size = stop - statement->start;
    if (size <= PARTS_CONTEXT_STATEMENT_BYTES && context + size <= PARTS_CONTEXT_BYTES &&
        parts__context(bytes + statement->start, size)) {
      array_push(&out->context, parts__range(statement->start, statement->row, stop, stop_point));
      context += size;
    }
  }
  array_push(&out->parts, parts__range(start, start_row, length, end));
  array_delete(&statements);
}

/* Appends `range`, merged into the last one when they touch. */
static void parts__append(PartRanges *out, TSRange range) {
  TSRange *last = out->size ? array_back(out) : NULL;
  if (last && last->end_byte == range.start_byte) {
    last->end_byte = range.end_byte;
    last->end_point = range.end_point;
  } else {
    array_push(out, range);
  }
}

void parts_ranges(const Parts *self, uint32_t index, PartRanges *out) {
  out->size = 0;
  const TSRange *part = array_get(&self->parts, index);
  bool placed = false;
  for (uint32_t i = 0; i < self->context.size; i++) {
    const TSRange *context = array_get(&self->context, i);
    if (context->start_byte >= part->start_byte && context->end_byte <= part->end_byte) continue;
    if (!placed && context->start_byte >= part->end_byte) {
      parts__append(out, *part);
      placed = true;
    }
    parts__append(out, *context);
  }
  if (!placed) parts__append(out, *part);
}

void parts_delete(Parts *self) {
  array_delete(&self->parts);
  array_delete(&self->context);
}
