/* binio.h — little binary records in memory: a growing buffer to write,
 * a bounded span to read back.
 *
 * Numbers are stored in the machine's own byte order: what is written is
 * read back by the same build on the same machine (a cache, not an
 * exchange format). A reader never reads past its span; after the first
 * short read it returns zeros and `ok` stays false. */
#ifndef GPULINT_BINIO_H
#define GPULINT_BINIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint8_t *bytes; /* owned */
  size_t length, capacity;
} BinWriter;

void bin_put(BinWriter *self, const void *bytes, size_t length);
void bin_put_u32(BinWriter *self, uint32_t value);
void bin_put_u64(BinWriter *self, uint64_t value);
/* A string as its length and bytes (NULL as an empty one). */
void bin_put_text(BinWriter *self, const char *text);
/* Zero bytes up to the next multiple of `alignment`. */
void bin_put_align(BinWriter *self, size_t alignment);
void bin_writer_free(BinWriter *self);

typedef struct {
  const uint8_t *base, *at, *end; /* borrowed */
  bool ok;
} BinReader;

BinReader bin_reader(const void *bytes, size_t length);
/* `length` bytes in place (NULL when they are not all there). */
const void *bin_get_span(BinReader *self, size_t length);
uint32_t bin_get_u32(BinReader *self);
uint64_t bin_get_u64(BinReader *self);
/* A string written by bin_put_text, copied; the caller frees it. NULL
 * when damaged. */
char *bin_get_text(BinReader *self);
/* Skips to the next multiple of `alignment` from the start of the span. */
void bin_get_align(BinReader *self, size_t alignment);
/* Whether `count` records of at least `size` bytes each can still follow:
 * guards counts read from a damaged span before anything is allocated. */
bool bin_can_hold(BinReader *self, uint64_t count, size_t size);

#endif
