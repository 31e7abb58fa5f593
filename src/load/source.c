/* source.c — bytes, the line index, and position mapping. */
#include "source.h"

#include <stdlib.h>
#include <string.h>

/* The line index, built on first use. The Source is used by one thread,
 * and the index is a cache of its bytes, so the const queries may fill it. */
static const Source *source__indexed(const Source *source) {
  if (source->line_starts.size > 0) return source;
  Source *self = (Source *)source;
  array_push(&self->line_starts, 0);
  const char *end = self->bytes + self->length;
  for (const char *at = self->bytes; (at = memchr(at, '\n', (size_t)(end - at))); at++) {
    array_push(&self->line_starts, (uint32_t)(at - self->bytes) + 1);
  }
  return self;
}

Source *source_new(const char *path, const char *bytes, size_t length) {
  Source *self = gl_calloc(1, sizeof(Source));
  self->path = gl_strdup(path);
  self->bytes = gl_strndup(bytes, length);
  self->length = (uint32_t)length;
  return self;
}

void source_delete(Source *self) {
  if (!self) return;
  free(self->path);
  free(self->bytes);
  array_delete(&self->line_starts);
  array_delete(&self->cells);
  free(self);
}

/* The length of the UTF-8 sequence at `s`, or 0 if it is malformed. */
static size_t source__utf8_length(const unsigned char *s, size_t left) {
  if (s[0] < 0x80) return 1;
  size_t need = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (need == 0 || need > left) return 0;
  for (size_t i = 1; i < need; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
  }
  uint32_t cp = need == 2 ? s[0] & 0x1F : need == 3 ? s[0] & 0x0F : s[0] & 0x07;
  for (size_t i = 1; i < need; i++) cp = (cp << 6) | (s[i] & 0x3F);
  static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return need;
}

/* The length of the run at `s` of 8-byte words that are all ASCII without
 * a NUL byte: the common case, checked a word at a time. */
static size_t source__ascii_run(const unsigned char *s, size_t left) {
  size_t run = 0;
  for (uint64_t word; run + 8 <= left; run += 8) {
    memcpy(&word, s + run, 8);
    bool high = word & 0x8080808080808080u;
    bool zero = (word - 0x0101010101010101u) & ~word & 0x8080808080808080u;
    if (high || zero) break;
  }
  return run;
}

const char *source_check_text(const char *bytes, size_t length, size_t *bad_offset) {
  const unsigned char *s = (const unsigned char *)bytes;
  for (size_t i = 0; i < length;) {
    i += source__ascii_run(s + i, length - i);
    if (i >= length) break;
    if (s[i] == 0) {
      *bad_offset = i;
      return "contains a NUL byte (binary file?)";
    }
    size_t n = source__utf8_length(s + i, length - i);
    if (n == 0) {
      *bad_offset = i;
      return "is not valid UTF-8";
    }
    i += n;
  }
  return NULL;
}

uint32_t source_line_of(const Source *self, uint32_t byte) {
  self = source__indexed(self);
  uint32_t low = 0, high = self->line_starts.size;
  while (high - low > 1) {
    uint32_t mid = (low + high) / 2;
    if (self->line_starts.contents[mid] <= byte) low = mid;
    else high = mid;
  }
  return low + 1;
}

static uint32_t source__count_code_points(const char *text, uint32_t length) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < length; i++) {
    if (((unsigned char)text[i] & 0xC0) != 0x80) count++;
  }
  return count;
}

GlPosition source_position(const Source *self, uint32_t byte, uint32_t *cell) {
  self = source__indexed(self);
  if (byte > self->length) byte = self->length;
  uint32_t line = source_line_of(self, byte);
  uint32_t start = self->line_starts.contents[line - 1];
  GlPosition position = {line, source__count_code_points(self->bytes + start, byte - start) + 1};
  *cell = 0;
  for (uint32_t i = self->cells.size; i > 0; i--) {
    const CellSpan *span = array_get(&self->cells, i - 1);
    if (span->first_line <= line) {
      *cell = span->cell;
      position.line = line - span->first_line + 1;
      break;
    }
  }
  return position;
}

const char *source_line_text(const Source *self, uint32_t line, uint32_t *length) {
  self = source__indexed(self);
  if (line == 0 || line > self->line_starts.size) {
    *length = 0;
    return "";
  }
  uint32_t start = self->line_starts.contents[line - 1];
  uint32_t end = line < self->line_starts.size ? self->line_starts.contents[line] : self->length;
  while (end > start && (self->bytes[end - 1] == '\n' || self->bytes[end - 1] == '\r')) end--;
  *length = end - start;
  return self->bytes + start;
}
