/* run.h — `gpulint verify --run -- python train.py ...`: lints the user's
 * script, runs the command with the probe of verify/run/ injected through
 * PYTHONPATH (sitecustomize), reads the trace it writes and judges each
 * finding on this script: CONFIRMED, INCONCLUSIVE, NOT REACHED, NOT
 * OBSERVED or NOT MEASURED, plus memory growth in a loop that no finding explains.
 *
 * The pieces the tests use are declared here too: finding the script in
 * the command, the loops of a source, and judging a trace. */
#ifndef GPULINT_VERIFY_RUN_H
#define GPULINT_VERIFY_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "text.h"

/* The probe's exit status when it stopped the run at the budget. */
#define RUN_EXIT_BUDGET 85

/* Whether `argv` asks for `verify --run` (`--run` before any `--`). */
bool verify_run_wanted(int argc, char **argv);
/* Runs `gpulint verify --run ...`; argv[0] is "verify". Exit status: 0
 * nothing confirmed, 1 a finding confirmed, growth no finding explains, or
 * a run that failed, 2 a setup error. */
int verify_run_main(int argc, char **argv);

/* ---- Pieces, for the tests --------------------------------------------- */

/* The Python script a command starts: the first `*.py` argument after the
 * program (or the program itself when it is one), or `-m MODULE` resolved
 * in `cwd` (MODULE.py or MODULE/__main__.py); a MODULE not there (a
 * launcher: `-m torch.distributed.run`) is passed over for the `*.py`
 * after it. Caller frees; NULL when the
 * command names none. */
char *run_script_of(char *const *command, uint32_t count, const char *cwd);

typedef struct {
  uint32_t start; /* the `for`/`while` line, 1-based */
  uint32_t end;   /* the body's last line */
} RunLoop;
typedef Array(RunLoop) RunLoops;

/* The loops of a Python source, by indentation (strings that span lines
 * are skipped), in line order. */
void run_loops_scan(RunLoops *self, const char *source);
/* The innermost loop holding `line`, or -1. */
int run_loops_innermost(const RunLoops *self, uint32_t line);

/* INCONCLUSIVE: a comparison ran and its pairs disagree (noise). */
typedef enum { RUN_CONFIRMED, RUN_NOT_REACHED, RUN_NOT_OBSERVED, RUN_NOT_MEASURED, RUN_INCONCLUSIVE } RunVerdict;

/* "CONFIRMED", "NOT REACHED", "NOT OBSERVED", "NOT MEASURED", "INCONCLUSIVE" */
const char *run_verdict_name(RunVerdict verdict);

/* Judges the trace text (the probe's JSON lines, with the runner's own
 * line where it saved one) and appends the report to `out` (text), or,
 * with `json`, sets `*json` to the JSON report (caller frees). Returns
 * the exit status (see verify_run_main); 2 when the trace holds no plan. */
int run_trace_judge(const char *trace, Text *out, char **json);

#endif
