/* cache.h — a content-addressed cache of lint results.
 *
 * An entry's key is a 128-bit hash of everything a file's result depends
 * on: the entry format, gpulint's version, the build id (a hash of the
 * engine's, the rules' and the pinned grammar's sources taken when gpulint
 * was built, so that a binary with changed rules never reads another's
 * entries), the file name's extension (it decides .py or .ipynb), the
 * rules that run on it (the
 * selection after per-file ignores: the engine's only setting) and the
 * file's bytes. The value is the result: the findings, and the load error
 * or note.
 *
 *   DIR/CACHEDIR.TAG, DIR/.gitignore      written when DIR is created
 *   DIR/ab/cdef...                        one entry: compact JSON
 *
 * An entry is written to a temporary file and renamed into place, so a
 * reader sees a whole entry or none, whatever other runs do at the same
 * time. An entry that cannot be read or parsed, or that names another key,
 * is a miss (and is replaced). Nothing here fails a lint: a cache that
 * cannot be created, read or written is passed over. */
#ifndef GPULINT_CACHE_H
#define GPULINT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpulint.h"

/* The folder name under a project's root. */
#define CACHE_FOLDER ".gpulint_cache"

typedef struct {
  uint64_t high;
  uint64_t low;
} CacheKey;

typedef struct Cache Cache;

/* Opens the cache in `directory`, creating it (and its parents) when
 * missing; NULL when it cannot be created or written. Copies `directory`. */
Cache *cache_new(const char *directory);

/* The cache of a project: `project`/.gpulint_cache, else (when that cannot
 * be written) $XDG_CACHE_HOME/gpulint or ~/.cache/gpulint; NULL when
 * neither can be used. */
Cache *cache_new_for_project(const char *project);

/* Deleting NULL is fine. */
void cache_delete(Cache *self);

/* The folder the cache uses; borrowed. */
const char *cache_directory(const Cache *self);

/* The key of `length` bytes (borrowed) linted as `path` with `rules`. */
CacheKey cache_key(const char *path, const char *bytes, size_t length, const GlRuleSet *rules);

/* The result stored under `key`, with its path set to `path`, or NULL. The
 * caller deletes it. Safe to call from several threads. */
GlFileResult *cache_get(const Cache *self, CacheKey key, const char *path);

/* Stores `result` (borrowed) under `key`; failures are ignored. Safe to call
 * from several threads and processes. */
void cache_put(Cache *self, CacheKey key, const GlFileResult *result);

#endif
