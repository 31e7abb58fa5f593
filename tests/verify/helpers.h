/* helpers.h — what the verify tests share: paths from the environment,
 * synthetic runs, and the recorded H200 run loaded as case results. */
#ifndef GPULINT_TEST_VERIFY_HELPERS_H
#define GPULINT_TEST_VERIFY_HELPERS_H

#include "output.h"

/* Fails unless |actual - wanted| <= tolerance, in double precision
 * (cmocka's assert_float_equal works in float). */
#define assert_near(actual, wanted, tolerance) \
  test_assert_near((actual), (wanted), (tolerance), #actual, __FILE__, __LINE__)
void test_assert_near(double actual, double wanted, double tolerance, const char *expression, const char *file,
                      int line);

/* $NAME, which meson sets; aborts the test when it is missing. */
const char *test_env(const char *name);

/* Adds a harness step line to `run`, received at `step` * 100 ms. */
void test_add_step(Run *run, uint32_t step, double allocated_mb, double time_ms, const char *signals);
/* A run of `steps` steps growing `mb_per_step`, started and ended. */
void test_make_run(Run *run, uint32_t steps, double mb_per_step, double time_ms);

/* Loads the real reproductions (verify/) into `repros`. */
void test_load_verify_repros(ReproList *repros);
/* Judges every case of `repros` from the traces in `dir`; a case whose bad
 * run `dir` does not hold (one not recorded yet) is left out, as `gpulint
 * verify --replay` leaves it out. */
void test_replay(const ReproList *repros, const char *dir, CaseResults *results);

#endif
