/* run.c — reading and linting files on a pool of threads. */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "snippet.h"

/* The engine refuses larger inputs. */
#define MAX_READ_BYTES (256u * 1024u * 1024u)

typedef struct {
  LintJob *jobs;
  uint32_t *order; /* the jobs' indices, largest file first; NULL: in turn */
  size_t count;
  size_t next;
  bool want_lines;
  Cache *cache; /* borrowed; NULL for none */
  GlWorkspace *workspace; /* borrowed; shared by every worker's linter */
  pthread_mutex_t lock;
} Pool;

uint32_t run_default_threads(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus > 0 ? (uint32_t)cpus : 1;
}

void lint_job_clear(LintJob *self) {
  uint32_t count = self->result ? self->result->finding_count : 0;
  snippet_lines_delete(self->lines, count);
  snippet_lines_delete(self->fix_diffs, count);
  gl_file_result_delete(self->result);
  free(self->path);
  free(self->input);
  memset(self, 0, sizeof *self);
}

/* Reads the rest of the open file `fd` into a new buffer, expecting about
 * `size_hint` bytes; NULL when it passes the limit or a read fails. A
 * regular file that gives exactly the size it had is taken as whole
 * without one more read to see the end. */
static char *run__read_all(int fd, size_t size_hint, size_t *length, bool *failed) {
  size_t capacity = size_hint + 1, used = 0;
  char *bytes = gl_malloc(capacity);
  for (;;) {
    ssize_t got = read(fd, bytes + used, capacity - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) *failed = true;
    if (got <= 0) break;
    used += (size_t)got;
    if (used > MAX_READ_BYTES) {
      free(bytes);
      return NULL;
    }
    if (used == size_hint && size_hint > 0) break;
    if (used == capacity) bytes = gl_realloc(bytes, capacity *= 2);
  }
  *length = used;
  return bytes;
}

/* Reads a regular file whole; NULL with `error` set (the caller frees
 * both). The file is opened without blocking, so a FIFO or a device
 * cannot stall the run; what is not a regular file is refused. */
char *run_read(const char *path, size_t *length, char **error) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat info;
  if (fd < 0 || fstat(fd, &info) != 0) {
    *error = gl_format("cannot read: %s", strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  char *bytes = NULL;
  bool failed = false;
  size_t size = (size_t)info.st_size;
  if (!S_ISREG(info.st_mode)) {
    *error = gl_strdup(S_ISDIR(info.st_mode) ? "is a directory" : "is not a regular file");
  } else if ((uint64_t)info.st_size > MAX_READ_BYTES || !(bytes = run__read_all(fd, size, length, &failed))) {
    *error = gl_format("file is too large to lint (the limit is %u bytes)", MAX_READ_BYTES);
  } else if (failed) {
    *error = gl_strdup("cannot read: I/O error");
    free(bytes);
    bytes = NULL;
  }
  close(fd);
  return bytes;
}

/* The result of the bytes: from the cache when it holds them (files only),
 * else from the engine, made on first use. */
static GlFileResult *run__lint(const Pool *pool, GlLinter **linter, const LintJob *job, const char *bytes,
                               size_t length) {
  Cache *cache = job->input ? NULL : pool->cache;
  CacheKey key = {0, 0};
  if (cache) {
    key = cache_key(job->path, bytes, length, &job->rules);
    GlFileResult *cached = cache_get(cache, key, job->path);
    if (cached) {
      gl_workspace_skip(pool->workspace, job->path);
      return cached;
    }
  }
  if (!*linter) *linter = gl_linter_new_in(pool->workspace);
  GlFileResult *result = gl_linter_lint_buffer(*linter, job->path, bytes, length, &job->rules);
  if (cache) cache_put(cache, key, result);
  return result;
}

static void run__job(const Pool *pool, GlLinter **linter, LintJob *job) {
  if (job->result) return; /* known not to be readable */
  size_t length = job->input_length;
  char *error = NULL;
  char *bytes = job->input ? job->input : run_read(job->path, &length, &error);
  if (!bytes) {
    job->result = gl_calloc(1, sizeof(GlFileResult));
    job->result->path = gl_strdup(job->path);
    job->result->error = error;
    return;
  }
  job->result = run__lint(pool, linter, job, bytes, length);
  gl_file_result_drop_fixes(job->result, &job->fixable);
  if (pool->want_lines && job->result->finding_count > 0) {
    job->lines = snippet_lines(bytes, length, job->result);
    job->fix_diffs = snippet_fix_diffs(bytes, length, job->result);
  }
  if (bytes != job->input) free(bytes);
}

static void *run__worker(void *argument) {
  Pool *pool = argument;
  GlLinter *linter = NULL; /* made by the first file the cache does not hold */
  for (;;) {
    pthread_mutex_lock(&pool->lock);
    size_t index = pool->next++;
    pthread_mutex_unlock(&pool->lock);
    if (index >= pool->count) break;
    run__job(pool, &linter, &pool->jobs[pool->order ? pool->order[index] : index]);
  }
  gl_linter_delete(linter);
  return NULL;
}

typedef struct {
  uint64_t size;
  uint32_t index;
} Sized;

static int run__larger_first(const void *a, const void *b) {
  const Sized *x = a, *y = b;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  return x->index < y->index ? -1 : 1;
}

/* The jobs' indices, largest input first, so that no worker is left with
 * a large file while the others have finished; the caller frees it. This
 * costs a stat per file: worth it when every file is parsed, not when most
 * come from the cache. */
static uint32_t *run__order(const LintJob *jobs, size_t count) {
  Sized *sized = gl_calloc(count, sizeof(Sized));
  for (size_t i = 0; i < count; i++) {
    struct stat info;
    bool unstated = jobs[i].input || stat(jobs[i].path, &info) != 0; /* stdin, or a file that will fail to read */
    sized[i] = (Sized){unstated ? jobs[i].input_length : (uint64_t)info.st_size, (uint32_t)i};
  }
  qsort(sized, count, sizeof(Sized), run__larger_first);
  uint32_t *order = gl_calloc(count, sizeof(uint32_t));
  for (size_t i = 0; i < count; i++) order[i] = sized[i].index;
  free(sized);
  return order;
}

void run_jobs(LintJob *jobs, size_t count, uint32_t threads, bool want_lines, Cache *cache, GlWorkspace *workspace) {
  Pool pool = {jobs, NULL, count, 0, want_lines, cache, workspace, PTHREAD_MUTEX_INITIALIZER};
  for (size_t i = 0; i < count; i++) { /* a file parsed first for another's question keeps that parse */
    if (!jobs[i].input && !jobs[i].result) gl_workspace_expect(workspace, jobs[i].path);
  }
  if (threads > count) threads = (uint32_t)count;
  if (threads <= 1) {
    run__worker(&pool);
    return;
  }
  if (!cache) pool.order = run__order(jobs, count);
  pthread_t *workers = gl_calloc(threads, sizeof(pthread_t));
  uint32_t started = 0;
  for (; started < threads; started++) {
    if (pthread_create(&workers[started], NULL, run__worker, &pool) != 0) break;
  }
  if (started == 0) run__worker(&pool); /* no thread could start: work here */
  for (uint32_t i = 0; i < started; i++) pthread_join(workers[i], NULL);
  free(workers);
  free(pool.order);
  pthread_mutex_destroy(&pool.lock);
}
