/* run.h — linting a list of files on worker threads.
 *
 * Each worker owns one GlLinter and takes the next job until none is left
 * (with several workers and no cache, the largest file first); results
 * land in their job, so the output order does not depend on the number of
 * workers or on the order they ran in. */
#ifndef GPULINT_RUN_H
#define GPULINT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "gpulint.h"

typedef struct {
  char *path;            /* as shown and as given to the engine; owned */
  GlRuleSet rules;
  GlRuleSet fixable;     /* the rules whose fixes apply; others' fixes are dropped */
  char *input;           /* bytes already read (standard input), or NULL to read `path`; owned */
  size_t input_length;
  GlFileResult *result;  /* set by run_jobs (or before, to an error: then the
                            job is not linted); owned */
  char **lines;          /* each finding's line, when asked for; owned */
  char **fix_diffs;      /* each finding's fix as diff hunks (or NULL), when asked for; owned */
} LintJob;

/* Lints every job with up to `threads` workers, each with a linter over
 * `workspace` (borrowed: the projects' indexes, shared). With `want_lines`,
 * also fills each job's `lines` (for `full` output and fingerprints). With
 * a `cache` (borrowed; NULL for none), a file read from disk takes its
 * result from the cache when it holds one whose dependencies are unchanged,
 * and stores it otherwise; standard input is always linted. */
void run_jobs(LintJob *jobs, size_t count, uint32_t threads, bool want_lines, Cache *cache, GlWorkspace *workspace);

/* Reads the file at `path` whole (a regular file within the engine's
 * size limit); NULL with `*error` set (the caller frees both). */
char *run_read(const char *path, size_t *length, char **error);

/* The number of online CPUs (at least 1). */
uint32_t run_default_threads(void);

/* Frees what the job owns. */
void lint_job_clear(LintJob *self);

#endif
