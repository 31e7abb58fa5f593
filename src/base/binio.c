/* binio.c — little binary records in memory. */
#include "binio.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void bin_put(BinWriter *self, const void *bytes, size_t length) {
  if (self->length + length > self->capacity) {
    size_t capacity = self->capacity ? self->capacity : 4096;
    while (capacity < self->length + length) capacity *= 2;
    self->bytes = gl_realloc(self->bytes, capacity);
    self->capacity = capacity;
  }
  if (length) memcpy(self->bytes + self->length, bytes, length);
  self->length += length;
}

void bin_put_u32(BinWriter *self, uint32_t value) { bin_put(self, &value, sizeof value); }

void bin_put_u64(BinWriter *self, uint64_t value) { bin_put(self, &value, sizeof value); }

void bin_put_text(BinWriter *self, const char *text) {
  uint32_t length = text ? (uint32_t)strlen(text) : 0;
  bin_put_u32(self, length);
  bin_put(self, text, length);
}

void bin_put_align(BinWriter *self, size_t alignment) {
  static const uint8_t ZEROS[16] = {0};
  size_t over = self->length % alignment;
  if (over) bin_put(self, ZEROS, alignment - over);
}

void bin_writer_free(BinWriter *self) {
  free(self->bytes);
  *self = (BinWriter){0};
}

BinReader bin_reader(const void *bytes, size_t length) {
  const uint8_t *start = bytes;
  return (BinReader){start, start, start + length, bytes != NULL};
}

const void *bin_get_span(BinReader *self, size_t length) {
  if (!self->ok || (size_t)(self->end - self->at) < length) {
    self->ok = false;
    return NULL;
  }
  const void *span = self->at;
  self->at += length;
  return span;
}

uint32_t bin_get_u32(BinReader *self) {
  uint32_t value = 0;
  const void *span = bin_get_span(self, sizeof value);
  if (span) memcpy(&value, span, sizeof value);
  return value;
}

uint64_t bin_get_u64(BinReader *self) {
  uint64_t value = 0;
  const void *span = bin_get_span(self, sizeof value);
  if (span) memcpy(&value, span, sizeof value);
  return value;
}

char *bin_get_text(BinReader *self) {
  uint32_t length = bin_get_u32(self);
  const char *span = bin_get_span(self, length);
  return span ? gl_strndup(span, length) : NULL;
}

void bin_get_align(BinReader *self, size_t alignment) {
  size_t over = (size_t)(self->at - self->base) % alignment;
  if (over) bin_get_span(self, alignment - over);
}

bool bin_can_hold(BinReader *self, uint64_t count, size_t size) {
  if (self->ok && count <= (uint64_t)(self->end - self->at) / (size ? size : 1)) return true;
  self->ok = false;
  return false;
}
