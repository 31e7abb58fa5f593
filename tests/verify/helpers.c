/* helpers.c — shared pieces of the verify tests. */
#include "helpers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_assert_near(double actual, double wanted, double tolerance, const char *expression, const char *file,
                      int line) {
  if (fabs(actual - wanted) <= tolerance) return;
  fail_msg("%s:%d: %s is %.9g, wanted %.9g within %g", file, line, expression, actual, wanted, tolerance);
}

const char *test_env(const char *name) {
  const char *value = getenv(name);
  if (!value) fail_msg("%s is not set; run the test through meson", name);
  return value;
}

void test_add_step(Run *run, uint32_t step, double allocated_mb, double time_ms, const char *signals) {
  double bytes = allocated_mb * 1024 * 1024;
  char *line = gl_format("{\"step\": %u, \"allocated\": %.0f, \"reserved\": %.0f, \"peak\": %.0f, "
                         "\"time_ms\": %g%s%s}",
                         step, bytes, bytes, bytes, time_ms, signals ? ", " : "", signals ? signals : "");
  run_add_line(run, line, step * 100.0);
  free(line);
}

void test_make_run(Run *run, uint32_t steps, double mb_per_step, double time_ms) {
  run_init(run);
  run->spawned = true;
  run_add_line(run, "{\"event\": \"start\", \"torch\": \"2.11\", \"device\": \"GPU\", \"baseline\": 0}", 0);
  for (uint32_t k = 1; k <= steps; k++) test_add_step(run, k, 10 + mb_per_step * k, time_ms, NULL);
  run_add_line(run, "{\"event\": \"end\", \"steps\": 1}", steps * 100.0 + 1);
  run_finish(run);
}

void test_load_verify_repros(ReproList *repros) {
  char *error = NULL;
  bool ok = repro_list_load(repros, test_env("GPULINT_TEST_VERIFY_DIR"), &error);
  if (!ok) fail_msg("%s", error);
}

/* The trace of `script` in `dir`: NAME_bad.jsonl for NAME_bad.py. Caller frees. */
static char *replay__path(const char *dir, const Script *script) {
  const char *slash = strrchr(script->path, '/');
  const char *name = slash ? slash + 1 : script->path;
  return gl_format("%s/%.*s.jsonl", dir, (int)(strlen(name) - 3), name);
}

static void replay__run(const char *dir, const Script *script, Run *run) {
  char *path = replay__path(dir, script);
  char *error = NULL;
  if (!run_load(run, path, &error)) fail_msg("%s", error);
  free(path);
}

/* Whether `dir` holds the bad run of `repro`. */
static bool replay__recorded(const char *dir, const Repro *repro) {
  char *path = replay__path(dir, &repro->bad);
  bool found = access(path, F_OK) == 0;
  free(path);
  return found;
}

void test_replay(const ReproList *repros, const char *dir, CaseResults *results) {
  for (uint32_t i = 0; i < repros->size; i++) {
    if (!replay__recorded(dir, &repros->contents[i])) continue;
    CaseResult result = {.repro = &repros->contents[i]};
    replay__run(dir, &result.repro->bad, &result.bad);
    replay__run(dir, &result.repro->good, &result.good);
    result.outcome = outcome_judge(result.repro, &result.bad, &result.good);
    array_push(results, result);
  }
}
