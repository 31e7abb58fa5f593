/* fixing.h — the fix phase of `gpulint check`: `--fix`, `--unsafe-fixes`,
 * `--diff`, `--show-fixes`, `--fix-only` and `--add-noqa`.
 *
 * After the lint, each file with a fix to apply is fixed by the engine
 * (gl_linter_fix_buffer: passes of non-overlapping fixes, a pass that
 * would parse worse refused) and then written, or shown as a diff. A write
 * is atomic (a temporary file in the same folder, renamed over the file),
 * keeps the file's mode, and is refused when the file changed on disk
 * since it was read. Standard input gets the fixed source on the output.
 * The job's result becomes what is left in the fixed file. */
#ifndef GPULINT_FIXING_H
#define GPULINT_FIXING_H

#include <stdbool.h>
#include <stdio.h>

#include "run.h"

typedef struct {
  bool fix;        /* apply fixes (--fix, --fix-only, `fix = true`) */
  bool unsafe;     /* unsafe ones too */
  bool diff;       /* print what would change, change nothing */
  bool add_noqa;   /* append `# noqa: CODE` to every reported line */
  bool show_fixes; /* list what was fixed, per file and rule, on stderr */
  bool want_lines; /* refill the jobs' lines after a fix (full, sarif, gitlab) */
} FixMode;

typedef struct {
  uint32_t applied[GL_MAX_RULES]; /* fixes applied (or that --diff would apply), per rule */
  uint32_t applied_count;
  uint32_t files_changed;
  uint32_t noqa_added;
  bool failed; /* a file could not be read or written */
} FixOutcome;

/* Runs the fix phase over `jobs` (results already linted). Diffs and the
 * fixed standard input go to `out`; errors to stderr. */
void fixing_run(LintJob *jobs, size_t count, GlWorkspace *workspace, const FixMode *mode, FILE *out,
                FixOutcome *outcome);

#endif
