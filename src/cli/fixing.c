/* fixing.c — the fix phase of `gpulint check`. */
#include "fixing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diff.h"
#include "snippet.h"

/* ---- Writing ------------------------------------------------------------------------ */

static bool fixing__write_all(int fd, const char *bytes, size_t length) {
  for (size_t done = 0; done < length;) {
    ssize_t wrote = write(fd, bytes + done, length - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    done += (size_t)wrote;
  }
  return true;
}

/* Why the file at `path` (its `info`) may not be rewritten, or NULL: a
 * file without write permission is the user's to keep as it is, even for
 * root, as editors and ruff treat it. */
static char *fixing__refusal(const char *path, const struct stat *info) {
  if (access(path, W_OK) == 0 && (info->st_mode & 0222) != 0) return NULL;
  return gl_format("read-only (mode %04o): not written; make it writable to fix it", (unsigned)(info->st_mode & 07777));
}

/* Replaces the file at `path` with `bytes`, unless it no longer holds
 * `original` (changed since it was read) or is read-only; NULL on success,
 * else why. A symbolic link stays a link: its target is rewritten. */
static char *fixing__write(const char *link, const char *original, size_t original_length, const char *bytes,
                           size_t length) {
  size_t now_length = 0;
  char *error = NULL;
  char *now = run_read(link, &now_length, &error);
  if (!now) return error;
  bool same = now_length == original_length && memcmp(now, original, original_length) == 0;
  free(now);
  if (!same) return gl_strdup("changed on disk since it was read: not written");
  char *path = realpath(link, NULL);
  struct stat info;
  if (!path || stat(path, &info) != 0) {
    free(path);
    return gl_format("cannot write: %s", strerror(errno));
  }
  if ((error = fixing__refusal(path, &info))) {
    free(path);
    return error;
  }
  const char *slash = strrchr(path, '/'); /* the file's own folder: a rename never crosses file systems */
  char *temporary = slash ? gl_format("%.*s/.gpulint-fix-XXXXXX", (int)(slash - path), path) : gl_strdup(".gpulint-fix-XXXXXX");
  int fd = mkstemp(temporary);
  bool ok = fd >= 0 && fixing__write_all(fd, bytes, length) && fchmod(fd, info.st_mode & 07777) == 0;
  if (fd >= 0) ok = close(fd) == 0 && ok;
  int saved = errno;
  ok = ok && rename(temporary, path) == 0;
  if (!ok) {
    saved = errno;
    unlink(temporary);
  }
  free(temporary);
  free(path);
  return ok ? NULL : gl_format("cannot write: %s", strerror(saved));
}

/* ---- Fixing one file ---------------------------------------------------------------- */

/* Whether the result holds a fix this run would apply. */
static bool fixing__has_fix(const GlFileResult *result, bool unsafe) {
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFix *fix = result->findings[i].fix;
    if (fix && (unsafe || fix->applicability == GL_FIX_SAFE)) return true;
  }
  return false;
}

/* The job's result becomes `result`; its lines follow when wanted. */
static void fixing__replace_result(LintJob *job, GlFileResult *result, const char *bytes, size_t length,
                                   bool want_lines) {
  snippet_lines_delete(job->lines, job->result->finding_count);
  snippet_lines_delete(job->fix_diffs, job->result->finding_count);
  job->lines = job->fix_diffs = NULL;
  gl_file_result_delete(job->result);
  job->result = result;
  if (want_lines && result->finding_count > 0) {
    job->lines = snippet_lines(bytes, length, result);
    job->fix_diffs = snippet_fix_diffs(bytes, length, result);
  }
}

static void fixing__report_error(const char *path, const char *error, FixOutcome *outcome) {
  fprintf(stderr, "gpulint: %s: %s\n", path, error);
  outcome->failed = true;
}

static void fixing__file(LintJob *job, GlLinter *linter, const FixMode *mode, FILE *out, FixOutcome *outcome) {
  size_t length = job->input_length;
  char *error = NULL;
  char *bytes = job->input ? job->input : run_read(job->path, &length, &error);
  if (!bytes) {
    fixing__report_error(job->path, error, outcome);
    free(error);
    return;
  }
  gl_linter_set_fixable(linter, &job->fixable);
  GlFixedFile *fixed = gl_linter_fix_buffer(linter, job->path, bytes, length, &job->rules, mode->unsafe);
  const char *after = fixed->bytes ? fixed->bytes : bytes;
  size_t after_length = fixed->bytes ? fixed->length : length;
  if (mode->diff) {
    diff_print(out, job->path, bytes, length, after, after_length);
  } else if (job->input) {
    fwrite(after, 1, after_length, out);
  } else if (fixed->bytes && (error = fixing__write(job->path, bytes, length, after, after_length))) {
    fixing__report_error(job->path, error, outcome);
    free(error);
    gl_fixed_file_delete(fixed);
    if (bytes != job->input) free(bytes);
    return;
  }
  for (uint32_t i = 0; i < GL_MAX_RULES; i++) outcome->applied[i] += fixed->applied[i];
  outcome->applied_count += fixed->applied_count;
  outcome->files_changed += fixed->bytes != NULL;
  if (mode->show_fixes && fixed->applied_count > 0) {
    if (outcome->files_changed == 1 && !mode->diff) fprintf(stderr, "Fixes applied:\n");
    fprintf(stderr, "%s:\n", job->path);
    for (uint32_t i = 0; i < gl_rule_count(); i++) {
      const GlRuleInfo *rule = gl_rule_info(i);
      if (fixed->applied[i]) fprintf(stderr, "    %u × %s (%s)\n", fixed->applied[i], rule->code, rule->name);
    }
  }
  if (!mode->diff) {
    fixing__replace_result(job, fixed->result, after, after_length, mode->want_lines);
    fixed->result = NULL;
  }
  gl_fixed_file_delete(fixed);
  if (bytes != job->input) free(bytes);
}

/* --add-noqa on one file (standard input: the new source on `out`). */
static void fixing__add_noqa(LintJob *job, GlLinter *linter, FILE *out, FixOutcome *outcome) {
  size_t length = job->input_length, new_length = 0;
  char *error = NULL;
  char *bytes = job->input ? job->input : run_read(job->path, &length, &error);
  if (!bytes) {
    fixing__report_error(job->path, error, outcome);
    free(error);
    return;
  }
  uint32_t added = 0;
  char *noqa = gl_linter_add_noqa(linter, job->path, bytes, length, job->result, &new_length, &added);
  if (job->input) {
    fwrite(noqa ? noqa : bytes, 1, noqa ? new_length : length, out);
  } else if (noqa && (error = fixing__write(job->path, bytes, length, noqa, new_length))) {
    fixing__report_error(job->path, error, outcome);
    free(error);
    added = 0;
  }
  outcome->noqa_added += added;
  outcome->files_changed += added > 0;
  free(noqa);
  if (bytes != job->input) free(bytes);
}

void fixing_run(LintJob *jobs, size_t count, GlWorkspace *workspace, const FixMode *mode, FILE *out,
                FixOutcome *outcome) {
  GlLinter *linter = NULL;
  if (mode->add_noqa) {
    for (size_t i = 0; i < count; i++) {
      if (!jobs[i].result || jobs[i].result->error || (jobs[i].result->finding_count == 0 && !jobs[i].input)) continue;
      if (!linter) linter = gl_linter_new_in(workspace);
      fixing__add_noqa(&jobs[i], linter, out, outcome);
    }
    gl_linter_delete(linter);
    return;
  }
  for (size_t i = 0; i < count; i++) {
    LintJob *job = &jobs[i];
    if (!job->result || job->result->error) continue;
    bool wanted = fixing__has_fix(job->result, mode->unsafe) || (job->input && !mode->diff);
    if (!wanted) continue;
    if (!linter) linter = gl_linter_new_in(workspace);
    fixing__file(job, linter, mode, out, outcome);
  }
  gl_linter_delete(linter);
}
