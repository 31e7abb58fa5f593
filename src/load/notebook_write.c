/* notebook_write.c — edits of a notebook's joined code written back into
 * its JSON: only the changed code cells' `source` values are replaced,
 * in the style they were written in (a string, or an array of lines with
 * the file's own indentation); every other byte stays as it was. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edits.h"
#include "notebook.h"

typedef Array(char) Buffer;

/* ---- Finding the `source` values in the raw text ------------------------------ */

typedef struct {
  const char *at, *end;
  bool ok;
} Scan;

static void scan__blanks(Scan *self) {
  while (self->at < self->end && (*self->at == ' ' || *self->at == '\t' || *self->at == '\n' || *self->at == '\r')) {
    self->at++;
  }
}

/* Past a string; `self->at` on its opening quote. */
static void scan__string(Scan *self) {
  for (self->at++; self->at < self->end; self->at++) {
    if (*self->at == '\\') self->at++;
    else if (*self->at == '"') {
      self->at++;
      return;
    }
  }
  self->ok = false;
}

/* Past any value: a string, a container (strings followed, brackets
 * counted), or a scalar up to the next delimiter. */
static void scan__value(Scan *self) {
  scan__blanks(self);
  if (self->at >= self->end) {
    self->ok = false;
    return;
  }
  if (*self->at == '"') {
    scan__string(self);
    return;
  }
  if (*self->at != '{' && *self->at != '[') {
    while (self->at < self->end && !strchr(",}] \t\r\n", *self->at)) self->at++;
    return;
  }
  for (uint32_t depth = 0; self->at < self->end && self->ok;) {
    char c = *self->at;
    if (c == '"') {
      scan__string(self);
      continue;
    }
    if (c == '{' || c == '[') depth++;
    if ((c == '}' || c == ']') && --depth == 0) {
      self->at++;
      return;
    }
    self->at++;
  }
  self->ok = false;
}

/* Whether the key at `self->at` (a string) is `name`; moves past it and
 * its colon. */
static bool scan__key(Scan *self, const char *name) {
  scan__blanks(self);
  const char *start = self->at + 1;
  if (self->at >= self->end || *self->at != '"') {
    self->ok = false;
    return false;
  }
  scan__string(self);
  size_t length = (size_t)(self->at - 1 - start);
  scan__blanks(self);
  if (self->at < self->end && *self->at == ':') self->at++;
  else self->ok = false;
  return self->ok && length == strlen(name) && memcmp(start, name, length) == 0;
}

/* Walks the members of the object at `self->at`, calling `member` at each
 * value (after its key); a member that does not move past its value is
 * skipped. */
typedef bool (*Member)(Scan *scan, bool named, void *state);

static void scan__object(Scan *self, const char *name, Member member, void *state) {
  scan__blanks(self);
  if (self->at >= self->end || *self->at != '{') {
    self->ok = false;
    return;
  }
  self->at++;
  for (;;) {
    scan__blanks(self);
    if (self->at < self->end && *self->at == '}') {
      self->at++;
      return;
    }
    bool named = scan__key(self, name);
    if (!self->ok) return;
    scan__blanks(self);
    const char *before = self->at;
    if (!member(self, named, state) || self->at == before) scan__value(self);
    if (!self->ok) return;
    scan__blanks(self);
    if (self->at < self->end && *self->at == ',') self->at++;
  }
}

typedef struct {
  const char **starts, **ends; /* the span of each cell's `source` value, by cell index */
  uint32_t count, capacity;
} Spans;

static bool scan__source(Scan *self, bool named, void *state) {
  Spans *spans = state;
  if (!named) return false;
  spans->starts[spans->count] = self->at;
  scan__value(self);
  spans->ends[spans->count] = self->at;
  return true;
}

static bool scan__cells(Scan *self, bool named, void *state) {
  Spans *spans = state;
  if (!named || *self->at != '[') return false;
  self->at++;
  for (;;) {
    scan__blanks(self);
    if (self->at < self->end && *self->at == ']') {
      self->at++;
      return true;
    }
    if (spans->count == spans->capacity) {
      spans->capacity = spans->capacity ? spans->capacity * 2 : 16;
      spans->starts = gl_realloc(spans->starts, spans->capacity * sizeof(char *));
      spans->ends = gl_realloc(spans->ends, spans->capacity * sizeof(char *));
    }
    spans->starts[spans->count] = spans->ends[spans->count] = NULL;
    scan__object(self, "source", scan__source, spans);
    if (!self->ok) return true;
    spans->count++;
    scan__blanks(self);
    if (self->at < self->end && *self->at == ',') self->at++;
  }
}

/* ---- Writing a cell's source ------------------------------------------------------ */

static void write__text(Buffer *out, const char *bytes, size_t length) {
  uint32_t wanted = out->size + (uint32_t)length;
  if (wanted > out->capacity) array_reserve(out, wanted > out->capacity * 2 ? wanted : out->capacity * 2);
  memcpy(out->contents + out->size, bytes, length);
  out->size = wanted;
}

/* A JSON string as Python's json module writes it with ensure_ascii=False. */
static void write__string(Buffer *out, const char *bytes, size_t length) {
  write__text(out, "\"", 1);
  for (size_t i = 0; i < length; i++) {
    unsigned char c = (unsigned char)bytes[i];
    const char *escape = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                       : c == '\t' ? "\\t" : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
    char hex[8];
    if (!escape && c < 0x20) {
      snprintf(hex, sizeof hex, "\\u%04x", c);
      escape = hex;
    }
    if (escape) write__text(out, escape, strlen(escape));
    else write__text(out, (const char *)&bytes[i], 1);
  }
  write__text(out, "\"", 1);
}

/* How an array value was laid out: the blanks after `[`, between
 * elements (with the comma), and before `]`. */
typedef struct {
  const char *open, *open_end, *between, *between_end, *close, *close_end;
} Layout;

static Layout write__layout(const char *old, const char *old_end) {
  const char *close_end = old_end - 1; /* on the `]` */
  Scan scan = {old + 1, close_end, true};
  scan__blanks(&scan);
  Layout layout = {old + 1, scan.at, ", ", ", " + 2, scan.at, scan.at};
  if (scan.at >= close_end || *scan.at != '"') return layout; /* `[]` */
  scan__string(&scan);
  const char *after_first = scan.at;
  scan__blanks(&scan);
  if (scan.at < close_end && *scan.at == ',') { /* a second element: copy the separator */
    scan.at++;
    scan__blanks(&scan);
    layout.between = after_first;
    layout.between_end = scan.at;
  } else { /* one element: one per line as the first was placed */
    layout.between = NULL;
  }
  const char *last = close_end;
  while (last > old && last[-1] != '"') last--;
  layout.close = last;
  layout.close_end = close_end;
  return layout;
}

/* The new `source` value for `text`, shaped like the old one (`old` to
 * `old_end`): a string stays a string; an array gets one string per line,
 * laid out as its elements were. */
static void write__source(Buffer *out, const char *old, const char *old_end, const char *text, size_t length) {
  if (*old == '"') {
    write__string(out, text, length);
    return;
  }
  Layout layout = write__layout(old, old_end);
  write__text(out, "[", 1);
  write__text(out, layout.open, (size_t)(layout.open_end - layout.open));
  bool any = false;
  for (size_t start = 0, i = 0; i <= length; i++) {
    if (i < length && text[i] != '\n') continue;
    size_t end = i < length ? i + 1 : i;
    if (end > start) {
      if (any && layout.between) write__text(out, layout.between, (size_t)(layout.between_end - layout.between));
      if (any && !layout.between) {
        write__text(out, ",", 1);
        write__text(out, layout.open, (size_t)(layout.open_end - layout.open));
      }
      write__string(out, text + start, end - start);
      any = true;
    }
    start = end;
  }
  write__text(out, layout.close, (size_t)(layout.close_end - layout.close));
  write__text(out, "]", 1);
}

/* ---- Mapping edits to cells --------------------------------------------------------- */

/* A cell's text as the notebook holds it (unmasked), joined. */
static char *notebook__cell_text(const cJSON *source, size_t *length) {
  Buffer text = {0};
  if (cJSON_IsString(source)) {
    write__text(&text, source->valuestring, strlen(source->valuestring));
  } else {
    for (const cJSON *part = source ? source->child : NULL; part; part = part->next) {
      if (cJSON_IsString(part)) write__text(&text, part->valuestring, strlen(part->valuestring));
    }
  }
  write__text(&text, "", 1);
  *length = text.size - 1;
  return text.contents;
}

/* Byte where code cell span `k` starts in the joined code. */
static uint32_t notebook__span_start(const Source *code, uint32_t k) {
  uint32_t length = 0;
  const char *line = source_line_text(code, code->cells.contents[k].first_line, &length);
  return (uint32_t)(line - code->bytes);
}

/* The fixed cell's length, without the newline that an edit left at its
 * end when the cell had none: the engine joins cells with a newline after
 * each, so a fix that ends a line (or deletes the cell's last one) ends
 * with one. */
static size_t notebook__keep_last_line(const char *old, size_t old_length, const char *fixed, size_t length) {
  if (old_length > 0 && old[old_length - 1] == '\n') return length;
  if (length > 0 && fixed[length - 1] == '\n') length--;
  if (length > 0 && fixed[length - 1] == '\r') length--;
  return length;
}

char *notebook_apply_edits(const char *json, size_t length, const Source *code, const GlEdit *const *edits,
                           uint32_t count, size_t *new_length) {
  Spans spans = {0};
  Scan scan = {json, json + length, true};
  scan__object(&scan, "cells", scan__cells, &spans);
  cJSON *root = cJSON_ParseWithLength(json, length);
  const cJSON *cells = cJSON_GetObjectItemCaseSensitive(root, "cells");
  bool ok = scan.ok && root && cJSON_GetArraySize(cells) == (int)spans.count;
  Buffer out = {0};
  const char *copied = json;
  uint32_t next = 0; /* the next edit */
  for (uint32_t k = 0; ok && k < code->cells.size && next < count; k++) {
    uint32_t cell = code->cells.contents[k].cell - 1;
    uint32_t start = notebook__span_start(code, k);
    uint32_t end = k + 1 < code->cells.size ? notebook__span_start(code, k + 1) : code->length;
    if (edits[next]->start_byte >= end) continue;
    size_t cell_length = 0;
    char *text = notebook__cell_text(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cells, (int)cell), "source"),
                                     &cell_length);
    EditList mine = array_new();
    GlEdit *moved = gl_calloc(count, sizeof(GlEdit));
    for (; next < count && edits[next]->start_byte < end; next++) {
      const GlEdit *edit = edits[next];
      if (edit->start_byte < start || edit->end_byte > end) ok = false; /* across cells */
      uint32_t from = edit->start_byte - start, to = edit->end_byte - start;
      if (to > cell_length) to = (uint32_t)cell_length; /* the newline the engine added after the cell */
      if (from > to) from = to;
      uint32_t index = mine.size;
      moved[index] = (GlEdit){.start_byte = from, .end_byte = to, .content = edit->content};
      array_push(&mine, &moved[index]);
    }
    if (ok && spans.starts[cell]) {
      size_t fixed_length = 0;
      char *fixed = edits_apply(text, cell_length, &mine, &fixed_length);
      fixed_length = notebook__keep_last_line(text, cell_length, fixed, fixed_length);
      write__text(&out, copied, (size_t)(spans.starts[cell] - copied));
      write__source(&out, spans.starts[cell], spans.ends[cell], fixed, fixed_length);
      copied = spans.ends[cell];
      free(fixed);
    } else {
      ok = false;
    }
    array_delete(&mine);
    free(moved);
    free(text);
  }
  cJSON_Delete(root);
  free(spans.starts);
  free(spans.ends);
  if (!ok || next < count) {
    array_delete(&out);
    return NULL;
  }
  write__text(&out, copied, (size_t)(json + length - copied));
  write__text(&out, "", 1);
  *new_length = out.size - 1;
  return out.contents;
}
