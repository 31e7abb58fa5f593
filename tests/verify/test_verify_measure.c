/* Harness lines, slopes and medians, the metrics, and the verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* ---- Statistics --------------------------------------------------------- */

static void test_fit_slope(void **state) {
  (void)state;
  double x[] = {1, 2, 3, 4, 5};
  double line[] = {10, 12, 14, 16, 18};
  assert_near(fit_slope(x, line, 5), 2.0, 1e-12);
  double noisy[] = {1, 3, 2, 5, 4}; /* least squares: 0.8 */
  assert_near(fit_slope(x, noisy, 5), 0.8, 1e-12);
  double same[] = {3, 3, 3};
  assert_true(isnan(fit_slope(same, line, 3)));
  assert_true(isnan(fit_slope(x, line, 1)));
}

static void test_median(void **state) {
  (void)state;
  double odd[] = {5, 1, 3};
  assert_near(median(odd, 3), 3, 0);
  double even[] = {4, 1, 3, 2};
  assert_near(median(even, 4), 2.5, 0);
  assert_true(isnan(median(even, 0)));
}

/* ---- Harness lines ------------------------------------------------------ */

static void test_reads_harness_lines(void **state) {
  (void)state;
  Run run;
  run_init(&run);
  run_add_line(&run, "{\"event\":\"start\",\"torch\":\"2.11.0\",\"device\":\"H\",\"baseline\":1048576}", 1);
  run_add_line(&run, "/usr/lib/python3/warnings.py:1: UserWarning: not ours", 2);
  run_add_line(&run, "{\"step\":1,\"allocated\":2097152,\"reserved\":4194304,\"peak\":3145728,"
                     "\"peak_reserved\":4194304,\"time_ms\":1.5,\"grad_norm\":0.5,\"loss\":2,"
                     "\"graph_nodes\":30,\"rss\":1000,\"param_change\":0.25,\"stats_change\":0.5}", 3);
  run_add_line(&run, "  {\"step\":2,\"allocated\":1,\"reserved\":1,\"peak\":1,\"time_ms\":1}", 4);
  run_add_line(&run, "{\"event\":\"error\",\"step\":3,\"type\":\"RuntimeError\",\"message\":\"boom\"}", 5);
  run_finish(&run);
  assert_true(run.started);
  assert_string_equal(run.torch_version, "2.11.0");
  assert_string_equal(run.device_name, "H");
  assert_near(run.baseline, 1048576, 0);
  assert_int_equal(run.steps.size, 2);
  Step *first = &run.steps.contents[0];
  assert_int_equal(first->step, 1);
  assert_near(first->peak, 3145728, 0);
  assert_near(first->grad_norm, 0.5, 0);
  assert_near(step_field(first, "graph_nodes"), 30, 0);
  assert_near(step_field(first, "param_change"), 0.25, 0);
  assert_near(step_field(first, "stats_change"), 0.5, 0);
  assert_true(isnan(run.steps.contents[1].stats_change));
  assert_true(isnan(run.steps.contents[1].grad_norm));
  assert_true(isnan(run.steps.contents[1].peak_reserved));
  assert_true(run.raised);
  assert_int_equal(run.error_step, 3);
  assert_string_equal(run.error_type, "RuntimeError");
  assert_string_equal(run.error_message, "boom");
  assert_false(run.ended);
  assert_int_equal(run.malformed, 0);
  assert_int_equal(run.lines.size, 5);
  run_delete(&run);
}

static void test_counts_lines_that_are_no_harness_lines(void **state) {
  (void)state;
  Run run;
  run_init(&run);
  run_add_line(&run, "{\"step\": 1, \"allocated\": 1}", 1); /* no time_ms etc. */
  run_add_line(&run, "{not json", 2);
  run_add_line(&run, "{\"event\": \"party\"}", 3);
  run_add_line(&run, "[1, 2]", 4); /* not '{': ignored like a print */
  assert_int_equal(run.malformed, 3);
  assert_string_equal(run.first_malformed, "{\"step\": 1, \"allocated\": 1}");
  assert_int_equal(run.steps.size, 0);
  run_delete(&run);
}

/* A sample belongs to the step that was running when it was taken. */
static void test_assigns_samples_to_steps(void **state) {
  (void)state;
  Run run;
  run_init(&run);
  run_add_sample(&run, 50, 7);     /* setup: counted in step 1 */
  test_add_step(&run, 1, 1, 1, NULL); /* arrives at 100 ms */
  run_add_sample(&run, 120, 9);
  run_add_sample(&run, 150, 8);
  test_add_step(&run, 2, 1, 1, NULL); /* 200 ms */
  test_add_step(&run, 3, 1, 1, NULL); /* 300 ms: no sample */
  run_add_sample(&run, 400, 100); /* after the last step: dropped */
  run_finish(&run);
  assert_near(run.steps.contents[0].device_used, 7, 0);
  assert_near(run.steps.contents[1].device_used, 9, 0);
  assert_true(isnan(run.steps.contents[2].device_used));
  run_delete(&run);
}

/* ---- Metrics ------------------------------------------------------------ */

static void test_steady_steps(void **state) {
  (void)state;
  Run run;
  test_make_run(&run, 10, 1, 1);
  assert_int_equal(steady_begin(&run, 0), 0);
  assert_int_equal(steady_begin(&run, 4), 4);
  assert_int_equal(steady_begin(&run, 8), 5); /* 2 left: the second half instead */
  run_delete(&run);
}

static void test_metrics(void **state) {
  (void)state;
  Run run;
  run_init(&run);
  run.spawned = true;
  run_add_line(&run, "{\"event\":\"start\",\"baseline\":10485760}", 0);
  for (uint32_t k = 1; k <= 8; k++) {
    run_add_sample(&run, k * 100.0 - 50, (100.0 + 2 * k) * 1024 * 1024);
    char *signals = gl_format("\"grad_norm\": %u, \"param_change\": %g, \"stats_change\": %g, "
                              "\"graph_nodes\": %u, \"rss\": %u",
                              k, k <= 2 ? 100.0 : 1.0, k <= 2 ? 0.5 : k % 2 ? 0 : 0.25, 18 * k, 1024 * 3 * k);
    test_add_step(&run, k, 20 + 4.0 * k + (k == 1 ? 50 : 0), k == 8 ? 90 : 10 + k % 2, signals);
    free(signals);
  }
  run_finish(&run);
  const char *why;
  assert_near(measure_run(&run, 2, METRIC_ALLOC_SLOPE, &why), 4, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_DEVICE_SLOPE, &why), 2, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_GRAPH_NODES, &why), 18, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_RSS_SLOPE, &why), 3, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_PEAK, &why), 20 + 4 + 50 - 10, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_STEP_TIME, &why), 11, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_GRAD_GROWTH, &why), 8.0 / 3, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_PARAM_CHANGE, &why), 1, 1e-9);
  assert_near(measure_run(&run, 2, METRIC_STATS_CHANGE, &why), 0.125, 1e-9); /* mean of steps 3-8 */
  assert_near(measure_run(&run, 0, METRIC_GRAD_GROWTH, &why), 8, 1e-9);
  assert_near(measure_run(&run, 0, METRIC_CRASH, &why), 0, 0);
  run_delete(&run);
}

static void test_metrics_say_why_they_cannot_measure(void **state) {
  (void)state;
  Run run;
  test_make_run(&run, 6, 1, 1);
  const char *why = NULL;
  assert_true(isnan(measure_run(&run, 0, METRIC_GRAPH_NODES, &why)));
  assert_non_null(why);
  assert_true(isnan(measure_run(&run, 0, METRIC_DEVICE_SLOPE, &why)));
  assert_true(isnan(measure_run(&run, 0, METRIC_GRAD_GROWTH, &why)));
  assert_string_equal(why, "no positive grad_norm in the steps");
  assert_true(isnan(measure_run(&run, 0, METRIC_STATS_CHANGE, &why)));
  assert_string_equal(why, "no steady step carries this signal");
  run_delete(&run);
}

static void test_ratios_and_formats(void **state) {
  (void)state;
  assert_near(ratio_of(6, 3), 2, 0);
  assert_true(isinf(ratio_of(6, 0)));
  assert_true(isnan(ratio_of(0, 0)));
  assert_near(ratio_of(0, 3), 0, 0);
  static const struct {
    Metric metric;
    double value;
    const char *text;
  } CASES[] = {
      {METRIC_ALLOC_SLOPE, 48.04, "48.0 MB/step"}, {METRIC_ALLOC_SLOPE, -0.01, "0.0 MB/step"},
      {METRIC_GRAPH_NODES, 19, "19.0 nodes/step"}, {METRIC_PEAK, 5281.6, "5282 MB"},
      {METRIC_STEP_TIME, 15.214, "15.21 ms"},      {METRIC_GRAD_GROWTH, 39.97, "norm x39.97"},
      {METRIC_PARAM_CHANGE, 0, "0/step"},          {METRIC_STATS_CHANGE, 0.19512, "0.195/step"},
      {METRIC_STATS_CHANGE, -0.0, "0/step"},       {METRIC_CRASH, 2, "raised at step 2"},
      {METRIC_CRASH, 0, "did not raise"},          {METRIC_PEAK, NAN, "-"},
  };
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    char *text = metric_format(CASES[i].metric, CASES[i].value);
    assert_string_equal(text, CASES[i].text);
    free(text);
  }
  static const struct {
    double ratio;
    const char *text;
  } RATIOS[] = {{1.125, "1.12x"}, {40.04, "40.0x"}, {250, "250x"}, {5000, ">999x"}, {INFINITY, "inf"}, {NAN, "-"}};
  for (size_t i = 0; i < sizeof RATIOS / sizeof RATIOS[0]; i++) {
    char *text = ratio_format(RATIOS[i].ratio);
    assert_string_equal(text, RATIOS[i].text);
    free(text);
  }
}

/* ---- Verdicts ----------------------------------------------------------- */

static Repro growth_repro(void) {
  static const char BAD[] =
      "# verify: rule GPU101\n# verify: case c\n# verify: role bad\n# verify: title t\n"
      "# verify: effect gpu-growth\n# verify: metric alloc-slope\n# verify: steps 10\n# verify: steady 2\n"
      "# verify: expect bad >= 10\n# verify: expect good <= 1\n# verify: expect step-time ratio <= 1.5\n";
  static const char GOOD[] = "# verify: rule GPU101\n# verify: case c\n# verify: role good\n# verify: title t\n";
  Repro repro;
  char *error = NULL;
  assert_true(script_parse(&repro.bad, "c_bad.py", BAD, &error));
  assert_true(script_parse(&repro.good, "c_good.py", GOOD, &error));
  return repro;
}

static Repro crash_repro(void) {
  static const char BAD[] =
      "# verify: rule GPU102\n# verify: case c\n# verify: role bad\n# verify: title t\n"
      "# verify: effect crash\n# verify: metric crash\n# verify: steps 5\n"
      "# verify: raises backward through the graph a second time\n";
  static const char GOOD[] = "# verify: rule GPU102\n# verify: case c\n# verify: role good\n# verify: title t\n";
  Repro repro;
  char *error = NULL;
  assert_true(script_parse(&repro.bad, "c_bad.py", BAD, &error));
  assert_true(script_parse(&repro.good, "c_good.py", GOOD, &error));
  return repro;
}

static void repro_delete(Repro *repro) {
  script_delete(&repro->bad);
  script_delete(&repro->good);
}

/* Judges `bad` against `good`, checks the verdict and that the reason
 * contains `wanted` (NULL: no reason). */
static void expect_verdict(const Repro *repro, Run *bad, Run *good, Verdict verdict, const char *wanted) {
  Outcome outcome = outcome_judge(repro, bad, good);
  if (outcome.verdict != verdict) fail_msg("%s: %s", verdict_name(outcome.verdict), outcome.reason);
  if (!wanted) assert_null(outcome.reason);
  else if (!outcome.reason || !strstr(outcome.reason, wanted)) fail_msg("reason \"%s\" lacks \"%s\"", outcome.reason, wanted);
  outcome_delete(&outcome);
  run_delete(bad);
  run_delete(good);
}

static void test_growth_verdicts(void **state) {
  (void)state;
  Repro repro = growth_repro();
  Run bad, good;
  test_make_run(&bad, 10, 48, 10);
  test_make_run(&good, 10, 0, 10);
  Outcome outcome = outcome_judge(&repro, &bad, &good);
  assert_int_equal(outcome.verdict, VERDICT_CONFIRMED);
  assert_near(outcome.bad, 48, 1e-9);
  assert_near(outcome.good, 0, 1e-9);
  assert_true(isinf(outcome.ratio));
  outcome_delete(&outcome);
  run_delete(&bad);
  run_delete(&good);

  test_make_run(&bad, 10, 3, 10);
  test_make_run(&good, 10, 0, 10);
  expect_verdict(&repro, &bad, &good, VERDICT_NOT_CONFIRMED, "expected bad >= 10 MB/step, measured 3.0 MB/step");

  test_make_run(&bad, 10, 48, 30);
  test_make_run(&good, 10, 0, 10);
  expect_verdict(&repro, &bad, &good, VERDICT_NOT_CONFIRMED, "expected step-time ratio <= 1.5x, measured 3.00x");
  repro_delete(&repro);
}

static void test_errors_when_a_run_cannot_be_judged(void **state) {
  (void)state;
  Repro repro = growth_repro();
  Run bad, good;
  test_make_run(&bad, 10, 48, 10);
  test_make_run(&good, 10, 0, 10);
  bad.timed_out = true;
  bad.wall_ms = 240000;
  expect_verdict(&repro, &bad, &good, VERDICT_ERROR, "the bad script timed out after 240 s");

  test_make_run(&bad, 10, 48, 10);
  test_make_run(&good, 10, 0, 10);
  run_add_line(&bad, "{\"event\":\"error\",\"step\":4,\"type\":\"OutOfMemoryError\",\"message\":\"CUDA out of memory\"}", 9);
  expect_verdict(&repro, &bad, &good, VERDICT_ERROR, "the bad script raised OutOfMemoryError at step 4");

  run_init(&bad);
  bad.spawned = true;
  bad.exit_code = 1;
  bad.stderr_tail = gl_strdup("Traceback\nModuleNotFoundError: No module named 'torch'\n");
  test_make_run(&good, 10, 0, 10);
  expect_verdict(&repro, &bad, &good, VERDICT_ERROR, "printed no start line (exit 1): ModuleNotFoundError");

  test_make_run(&bad, 10, 48, 10);
  test_make_run(&good, 10, 0, 10);
  good.ended = false;
  good.term_signal = 9;
  expect_verdict(&repro, &bad, &good, VERDICT_ERROR, "the good script stopped after 10 steps (exit 0, signal 9)");

  test_make_run(&bad, 10, 48, 10);
  test_make_run(&good, 10, 0, 10);
  run_add_line(&good, "{oops", 9);
  expect_verdict(&repro, &bad, &good, VERDICT_ERROR, "no harness line: {oops");

  test_make_run(&bad, 2, 48, 10);
  test_make_run(&good, 10, 0, 10);
  expect_verdict(&repro, &bad, &good, VERDICT_ERROR, "cannot measure alloc-slope");
  repro_delete(&repro);
}

static void crash_run(Run *run, const char *message) {
  run_init(run);
  run->spawned = true;
  run->exit_code = 3;
  run_add_line(run, "{\"event\":\"start\",\"baseline\":0}", 0);
  test_add_step(run, 1, 10, 5, NULL);
  char *line = gl_format("{\"event\":\"error\",\"step\":2,\"type\":\"RuntimeError\",\"message\":\"%s\"}", message);
  run_add_line(run, line, 250);
  free(line);
  run_finish(run);
}

static void test_crash_verdicts(void **state) {
  (void)state;
  Repro repro = crash_repro();
  Run bad, good;
  crash_run(&bad, "Trying to backward through the graph a second time (or ...)");
  test_make_run(&good, 5, 0, 5);
  Outcome outcome = outcome_judge(&repro, &bad, &good);
  assert_int_equal(outcome.verdict, VERDICT_CONFIRMED);
  assert_near(outcome.bad, 2, 0);
  outcome_delete(&outcome);
  run_delete(&bad);
  run_delete(&good);

  crash_run(&bad, "one of the variables needed for gradient computation has been modified by an inplace operation");
  test_make_run(&good, 5, 0, 5);
  expect_verdict(&repro, &bad, &good, VERDICT_NOT_CONFIRMED, "raised RuntimeError at step 2, not \"backward through");

  test_make_run(&bad, 5, 0, 5);
  test_make_run(&good, 5, 0, 5);
  expect_verdict(&repro, &bad, &good, VERDICT_NOT_CONFIRMED, "ran all 5 steps without raising");

  crash_run(&bad, "Trying to backward through the graph a second time");
  crash_run(&good, "Trying to backward through the graph a second time");
  expect_verdict(&repro, &bad, &good, VERDICT_ERROR, "the good script raised RuntimeError at step 2");
  repro_delete(&repro);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fit_slope),
      cmocka_unit_test(test_median),
      cmocka_unit_test(test_reads_harness_lines),
      cmocka_unit_test(test_counts_lines_that_are_no_harness_lines),
      cmocka_unit_test(test_assigns_samples_to_steps),
      cmocka_unit_test(test_steady_steps),
      cmocka_unit_test(test_metrics),
      cmocka_unit_test(test_metrics_say_why_they_cannot_measure),
      cmocka_unit_test(test_ratios_and_formats),
      cmocka_unit_test(test_growth_verdicts),
      cmocka_unit_test(test_errors_when_a_run_cannot_be_judged),
      cmocka_unit_test(test_crash_verdicts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
