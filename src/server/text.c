/* text.c — LSP positions over a text: lines, UTF-16 or UTF-8 units. */
#include "text.h"

#include <string.h>

/* ---- Lines ----------------------------------------------------------------- */

void line_index_build(LineIndex *self, const char *text, size_t length) {
  self->text = text;
  self->length = length;
  array_clear(&self->starts);
  array_push(&self->starts, 0);
  for (const char *at = text, *end = text + length; at < end;) {
    const char *newline = memchr(at, '\n', (size_t)(end - at));
    if (!newline) break;
    array_push(&self->starts, (uint32_t)(newline + 1 - text));
    at = newline + 1;
  }
}

void line_index_delete(LineIndex *self) { array_delete(&self->starts); }

/* The end of line `line`'s content: before its LF or CR LF. */
static size_t line_index__line_end(const LineIndex *self, uint32_t line) {
  size_t end = line + 1 < self->starts.size ? self->starts.contents[line + 1] - 1 : self->length;
  if (line + 1 < self->starts.size && end > self->starts.contents[line] && self->text[end - 1] == '\r') end--;
  return end;
}

/* ---- Units ------------------------------------------------------------------ */

/* The byte length of the UTF-8 sequence that starts with `byte` (1 for a
 * stray continuation byte). */
static size_t text__sequence_length(unsigned char byte) {
  return byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
}

/* How many units of `encoding` the sequence counts. */
static uint32_t text__units(size_t sequence, PositionEncoding encoding) {
  if (encoding == ENCODING_UTF8) return (uint32_t)sequence;
  if (encoding == ENCODING_UTF16) return sequence == 4 ? 2 : 1;
  return 1;
}

size_t line_index_offset(const LineIndex *self, LspPosition position, PositionEncoding encoding) {
  if (position.line >= self->starts.size) return self->length;
  size_t at = self->starts.contents[position.line], end = line_index__line_end(self, position.line);
  for (uint32_t units = 0; at < end;) {
    size_t sequence = text__sequence_length((unsigned char)self->text[at]);
    uint32_t count = text__units(sequence, encoding);
    if (units + count > position.character) break; /* inside a pair or a sequence: stay before it */
    units += count;
    at += sequence;
  }
  return at < end ? at : end;
}

/* The 0-based line holding byte `offset`. */
static uint32_t line_index__line_of(const LineIndex *self, size_t offset) {
  uint32_t low = 0, high = self->starts.size;
  while (high - low > 1) {
    uint32_t mid = (low + high) / 2;
    if (self->starts.contents[mid] <= offset) low = mid;
    else high = mid;
  }
  return low;
}

LspPosition line_index_position(const LineIndex *self, size_t offset, PositionEncoding encoding) {
  if (offset > self->length) offset = self->length;
  uint32_t line = line_index__line_of(self, offset);
  uint32_t units = 0;
  for (size_t at = self->starts.contents[line]; at < offset;) {
    size_t sequence = text__sequence_length((unsigned char)self->text[at]);
    units += text__units(sequence, encoding);
    at += sequence;
  }
  return (LspPosition){line, units};
}

size_t line_index_column_offset(const LineIndex *self, uint32_t line, uint32_t column) {
  LspPosition position = {line > 0 ? line - 1 : 0, column > 0 ? column - 1 : 0};
  return line_index_offset(self, position, ENCODING_UTF32);
}

/* ---- Differences ------------------------------------------------------------------ */

bool text_difference(const char *old, size_t old_length, const char *new, size_t new_length, size_t *start,
                     size_t *end, size_t *new_end) {
  size_t prefix = 0, shorter = old_length < new_length ? old_length : new_length;
  while (prefix < shorter && old[prefix] == new[prefix]) prefix++;
  if (prefix == old_length && prefix == new_length) return false;
  while (prefix > 0 && prefix < old_length && ((unsigned char)old[prefix] & 0xC0) == 0x80) prefix--; /* at a code point */
  size_t suffix = 0;
  while (suffix < shorter - prefix && old[old_length - 1 - suffix] == new[new_length - 1 - suffix]) suffix++;
  while (suffix > 0 && ((unsigned char)old[old_length - suffix] & 0xC0) == 0x80) suffix--;
  *start = prefix;
  *end = old_length - suffix;
  *new_end = new_length - suffix;
  return true;
}
