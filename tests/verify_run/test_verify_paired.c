/* The with/without comparison of step times (paired.h) on scripted series
 * shaped like real training scripts: a warm-up, a slow step every fourth
 * step (logging, evaluation, a checkpoint), a true effect, no effect, and
 * noise whose pairs disagree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "paired.h"

#define WINDOW 6

/* A scripted run: `count` steps; steps before `warmup` take 100 ms, every
 * fourth step 100 ms, the others `with` ms as written and `without` ms
 * with the thing switched off. Windows of WINDOW steps alternate from
 * step `start` (with first); `jitter` adds a deterministic wobble of up
 * to that share per window, in alternating directions. */
typedef struct {
  uint32_t count, warmup, start;
  double with, without, jitter;
} Script;

static PairedStep *script__steps(const Script *script) {
  PairedStep *steps = calloc(script->count, sizeof *steps);
  for (uint32_t i = 0; i < script->count; i++) {
    int arm = i < script->start ? -1 : (int)((i - script->start) / WINDOW % 2);
    uint32_t window = i < script->start ? 0 : (i - script->start) / WINDOW;
    double wobble = 1 + script->jitter * ((window / 2) % 2 ? 1 : -1) * (arm == 1 ? -1 : 1);
    double time = arm == 1 ? script->without : script->with;
    if (i < script->warmup || i % 4 == 3) time = 100;
    steps[i] = (PairedStep){time * wobble, arm};
  }
  return steps;
}

static PairedResult script__compare(const Script *script) {
  PairedStep *steps = script__steps(script);
  PairedResult result = paired_compare(steps, script->count, 1.05);
  free(steps);
  return result;
}

/* The run of the report: 12.5 ms with empty_cache(), 8.25 ms without,
 * a warm-up of 12 steps and every fourth step 100 ms: the windows after
 * the warm-up agree on +52%. */
static void test_effect_through_slow_steps(void **state) {
  (void)state;
  Script script = {.count = 70, .warmup = 12, .start = 16, .with = 12.5, .without = 8.25};
  PairedResult result = script__compare(&script);
  assert_int_equal(result.verdict, PAIRED_EFFECT);
  assert_int_equal(result.pairs, 4);
  assert_true(fabs(result.ratio_median - 12.5 / 8.25) < 1e-9);
  assert_true(fabs(result.with_ms - 12.5) < 1e-9 && fabs(result.without_ms - 8.25) < 1e-9);
  assert_true(result.steps_dropped > 0); /* the 100 ms steps */
}

/* The schedule of the report: windows of 5 from the first call (step 1),
 * with 100 ms steps up to step 12. Compared in one pool the steps said
 * "-81%"; pair by pair the first pair (both in the warm-up) shows nothing
 * and the second the effect, which is no NOT OBSERVED. */
static void test_warmup_in_a_window_is_not_no_effect(void **state) {
  (void)state;
  PairedStep steps[21];
  for (uint32_t n = 0; n < 21; n++) {
    int arm = n == 0 ? -1 : (int)((n - 1) / 5 % 2);
    double time = n <= 12 || n % 4 == 0 ? 100 : arm == 1 ? 8.25 : 12.5;
    steps[n] = (PairedStep){time, arm};
  }
  PairedResult result = paired_compare(steps, 21, 1.05);
  assert_int_equal(result.pairs, 2);
  assert_true(fabs(result.ratio_min - 1) < 1e-9);
  assert_int_not_equal(result.verdict, PAIRED_NO_EFFECT);
}

/* Two pairs, one each way: INCONCLUSIVE with the spread. */
static void test_pairs_that_disagree(void **state) {
  (void)state;
  Script script = {.count = 16 + 4 * WINDOW, .warmup = 0, .start = 16, .with = 12, .without = 10};
  PairedStep *steps = script__steps(&script);
  for (uint32_t i = 16 + 2 * WINDOW; i < 16 + 3 * WINDOW; i++) steps[i].time_ms = 9; /* with it faster */
  PairedResult result = paired_compare(steps, script.count, 1.05);
  free(steps);
  assert_int_equal(result.pairs, 2);
  assert_int_equal(result.verdict, PAIRED_INCONCLUSIVE);
  assert_true(fabs(result.ratio_min - 0.9) < 1e-9 && fabs(result.ratio_max - 1.2) < 1e-9);
}

static void test_no_effect(void **state) {
  (void)state;
  Script script = {.count = 70, .warmup = 12, .start = 16, .with = 10, .without = 10, .jitter = 0.01};
  PairedResult result = script__compare(&script);
  assert_int_equal(result.verdict, PAIRED_NO_EFFECT);
  assert_true(result.ratio_high < 1.05);
}

/* Pairs that swing from -20% to +20%: the spread is reported, no verdict. */
static void test_noise_is_inconclusive(void **state) {
  (void)state;
  Script script = {.count = 70, .warmup = 12, .start = 16, .with = 10, .without = 10, .jitter = 0.1};
  PairedResult result = script__compare(&script);
  assert_int_equal(result.verdict, PAIRED_INCONCLUSIVE);
  assert_true(result.ratio_min < 0.9 && result.ratio_max > 1.1);
}

/* A quarter of the pairs may disagree (a checkpoint in one window). */
static void test_one_pair_in_four_may_disagree(void **state) {
  (void)state;
  Script script = {.count = 16 + 8 * WINDOW, .warmup = 12, .start = 16, .with = 12, .without = 10};
  PairedStep *steps = script__steps(&script);
  for (uint32_t i = 16 + 3 * WINDOW; i < 16 + 4 * WINDOW; i++) steps[i].time_ms = 30; /* a slow no-op window */
  PairedResult result = paired_compare(steps, script.count, 1.05);
  free(steps);
  assert_int_equal(result.pairs, 4);
  assert_true(result.ratio_min < 1);
  assert_int_equal(result.verdict, PAIRED_EFFECT);
}

static void test_too_few_pairs(void **state) {
  (void)state;
  Script script = {.count = 16 + WINDOW + 2, .warmup = 12, .start = 16, .with = 12.5, .without = 8.25};
  PairedResult result = script__compare(&script);
  assert_int_equal(result.pairs, 0); /* the second window has one step left */
  assert_int_equal(result.verdict, PAIRED_INCONCLUSIVE);
  assert_true(isnan(result.ratio_median));
  script.count = 16 + 2 * WINDOW;
  result = script__compare(&script);
  assert_int_equal(result.pairs, 1);
  assert_int_equal(result.verdict, PAIRED_INCONCLUSIVE); /* one pair, however clear */
  PairedResult none = paired_compare(NULL, 0, 1.05);
  assert_int_equal(none.verdict, PAIRED_INCONCLUSIVE);
}

static void test_window_value(void **state) {
  (void)state;
  uint32_t kept;
  double times[] = {40, 12.5, 100, 12.5, 100, 100}; /* the switch, then three slow steps of five */
  assert_true(fabs(paired_window_value(times, 6, &kept) - 12.5) < 1e-12);
  assert_int_equal(kept, 2);
  double spread[] = {9, 10, 11, 10.5, 9.5, 12, 13, 9.8, 10.2};
  assert_true(fabs(paired_window_value(spread, 9, &kept) - 9.875) < 1e-12); /* 9.5, 9.8, 10, 10.2 */
  assert_int_equal(kept, 4);
  assert_true(isnan(paired_window_value(times, 2, &kept)));
}

/* The H200 run of warmup_cache.py: an evaluation every fourth step and a
 * checkpoint every 25th left some windows with 3 slow steps of 5; the
 * rule over each arm's steps drops them all (no effect: 7.64 ms both). */
static void test_windows_with_several_slow_steps(void **state) {
  (void)state;
  PairedStep steps[48];
  for (uint32_t i = 0; i < 48; i++) {
    bool slow = i % 4 == 3 || i == 20 || i == 45;
    steps[i] = (PairedStep){slow ? 10.7 : 7.64, (int)(i / 6 % 2)};
  }
  PairedResult result = paired_compare(steps, 48, 1.05);
  assert_int_equal(result.pairs, 4);
  assert_int_equal(result.verdict, PAIRED_NO_EFFECT);
  assert_true(fabs(result.ratio_median - 1) < 1e-9);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_effect_through_slow_steps), cmocka_unit_test(test_warmup_in_a_window_is_not_no_effect),
      cmocka_unit_test(test_pairs_that_disagree),
      cmocka_unit_test(test_no_effect),  cmocka_unit_test(test_noise_is_inconclusive),
      cmocka_unit_test(test_one_pair_in_four_may_disagree), cmocka_unit_test(test_too_few_pairs),
      cmocka_unit_test(test_window_value), cmocka_unit_test(test_windows_with_several_slow_steps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
