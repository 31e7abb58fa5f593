/* store.h — a project's index kept between runs, in the cache folder.
 *
 * One file per project root: for each listed Python file, the size and
 * modification time it had, its content hash, the table of its identifier
 * hashes and its summary (summary.h). A later run maps the file and
 * reuses each entry whose file still has that size and time, so that a
 * run that changes one file reads and summarises that file only.
 *
 * The file is written whole to a temporary name and renamed over the old
 * one, so a reader never sees half of it. It belongs to one build of
 * gpulint (GPULINT_BUILD_ID) and one root; any other, or a damaged one, is
 * ignored as if absent. */
#ifndef GPULINT_STORE_H
#define GPULINT_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "binio.h"
#include "summary.h"

typedef struct {
  const char *path; /* absolute, not NUL-terminated: path_length bytes */
  uint32_t path_length;
  uint64_t size;
  int64_t mtime_sec, mtime_nsec;
  uint64_t hash;
  const uint64_t *slots;  /* the identifier table: `capacity` slots, 0 for empty */
  uint32_t capacity, count;
  const void *summary;    /* summary_write's bytes, or NULL */
  uint32_t summary_length;
} StoredFile;

typedef struct Store Store;

/* Maps the index at `file` for the project at `root`; NULL when there is
 * none, or it is another build's, another root's, or damaged. */
Store *store_open(const char *file, const char *root);
/* The next entry, pointing into the mapping; false at the end or at
 * damage (the entries before it stay usable). */
bool store_next(Store *self, StoredFile *out);
/* Unmaps it: every pointer store_next gave becomes invalid. */
void store_close(Store *self);

typedef struct {
  BinWriter out;
  uint32_t count;
  size_t count_at;
} StoreWriter;

void store_begin(StoreWriter *self, const char *root);
/* Adds an entry with `summary` (NULL: the stored bytes `file->summary`,
 * if any). */
void store_add(StoreWriter *self, const StoredFile *file, const Summary *summary);
/* Writes the index to `file` atomically and frees the writer; false when
 * it could not be written (the old one, if any, stays). */
bool store_save(StoreWriter *self, const char *file);

#endif
