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

#include "array.h"
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

/* ---- The listing ----------------------------------------------------------------------
 *
 * A second, small file per root: the project's listing (its Python files
 * in path order, its configuration files in listing order) with the
 * modification time of every folder the listing read, so that a later
 * run can take the listing again without reading the folders: while no
 * folder's time moved, no entry was added, removed or renamed in any of
 * them. The files' own sizes and times are not in it: a file changed in
 * place moves no folder's time, and the run takes them again. */

typedef struct {
  char *path; /* absolute; owned */
  int64_t mtime_sec, mtime_nsec;
} StoredFolder;

typedef Array(char *) StoredPaths; /* each owned */

typedef struct {
  int64_t listed_at;           /* the wall clock's seconds when the listing began */
  Array(StoredFolder) folders; /* every folder the listing read */
  StoredPaths files;           /* absolute, in path order */
  StoredPaths configs;         /* absolute, in listing order */
} StoredListing;

/* Reads the listing kept at `file` for `root` into `out` (empty on
 * entry); false, and `out` empty, when there is none or it is another
 * build's, another root's, or damaged. */
bool store_read_listing(const char *file, const char *root, StoredListing *out);
/* Writes `listing` to `file` atomically; false when it could not (the old
 * one, if any, stays). */
bool store_write_listing(const char *file, const char *root, const StoredListing *listing);
/* Frees what `self` owns and empties it. */
void store_listing_clear(StoredListing *self);

#endif
