/* The `# verify:` headers: what they declare, what they reject (with the
 * file and line), and the reproductions shipped in verify/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static const char BAD[] =
    "# verify: rule GPU101\n"
    "# verify: case validation-loop\n"
    "# verify: role bad\n"
    "# verify: title `total += loss`\n"
    "# verify: effect gpu-growth\n"
    "# verify: metric alloc-slope\n"
    "# verify: steps 30\n"
    "# verify: steady 5\n"
    "# verify: expect bad >= 10\n"
    "# verify: expect good <= 1\n"
    "# verify: expect peak ratio > 2.5\n"
    "\"\"\"docs\"\"\"\n"
    "import torch\n";

static const char GOOD[] =
    "#!/usr/bin/env python3\n"
    "# verify: rule GPU101\n"
    "# verify: case validation-loop\n"
    "# verify: role good\n"
    "# verify: title `total += loss.item()`\n"
    "import torch\n";

/* Parses `text`, expecting failure with an error that contains `wanted`. */
static void expect_error(const char *text, const char *wanted) {
  Script script;
  char *error = NULL;
  bool ok = script_parse(&script, "x.py", text, &error);
  if (ok) script_delete(&script);
  assert_false(ok);
  assert_non_null(error);
  if (!strstr(error, wanted)) fail_msg("error \"%s\" lacks \"%s\"", error, wanted);
  free(error);
}

/* BAD with line `number` (1-based) replaced by `line` ("" drops it). */
static char *bad_with(int number, const char *line) {
  Text text = array_new();
  const char *p = BAD;
  for (int n = 1; *p; n++) {
    const char *end = strchr(p, '\n');
    if (n == number) {
      if (*line) text_append(&text, "%s\n", line);
    } else {
      text_append(&text, "%.*s\n", (int)(end - p), p);
    }
    p = end + 1;
  }
  return text_take(&text);
}

static void expect_bad_line_error(int number, const char *line, const char *wanted) {
  char *text = bad_with(number, line);
  expect_error(text, wanted);
  free(text);
}

static void test_parses_the_bad_header(void **state) {
  (void)state;
  Script script;
  char *error = NULL;
  assert_true(script_parse(&script, "x_bad.py", BAD, &error));
  assert_string_equal(script.rule, "GPU101");
  assert_string_equal(script.name, "validation-loop");
  assert_int_equal(script.role, ROLE_BAD);
  assert_string_equal(script.title, "`total += loss`");
  assert_int_equal(script.effect, GL_EFFECT_GPU_GROWTH);
  assert_int_equal(script.metric, METRIC_ALLOC_SLOPE);
  assert_int_equal(script.steps, 30);
  assert_int_equal(script.steady, 5);
  assert_null(script.raises);
  assert_int_equal(script.expectations.size, 3);
  Expectation *third = &script.expectations.contents[2];
  assert_int_equal(third->metric, METRIC_PEAK);
  assert_int_equal(third->subject, SUBJECT_RATIO);
  assert_int_equal(third->compare, COMPARE_GT);
  assert_true(third->threshold == 2.5);
  char *described = expectation_describe(&script.expectations.contents[0], script.metric);
  assert_string_equal(described, "bad >= 10 MB/step");
  free(described);
  described = expectation_describe(third, script.metric);
  assert_string_equal(described, "peak ratio > 2.5x");
  free(described);
  script_delete(&script);
}

static void test_parses_the_good_header_after_a_shebang(void **state) {
  (void)state;
  Script script;
  char *error = NULL;
  assert_true(script_parse(&script, "x_good.py", GOOD, &error));
  assert_int_equal(script.role, ROLE_GOOD);
  assert_string_equal(script.title, "`total += loss.item()`");
  assert_int_equal(script.expectations.size, 0);
  script_delete(&script);
}

static void test_rejects_unknown_repeated_and_empty_keys(void **state) {
  (void)state;
  expect_bad_line_error(4, "# verify: colour red", "x.py:4: unknown key: colour");
  expect_bad_line_error(4, "# verify: rule GPU102", "x.py:4: repeated key: rule");
  expect_bad_line_error(4, "# verify: title   ", "x.py:4: missing value for: title");
}

static void test_rejects_a_missing_key(void **state) {
  (void)state;
  expect_bad_line_error(7, "", "header lacks: steps");
  expect_bad_line_error(2, "", "header lacks: case");
  static const char NO_EXPECT[] =
      "# verify: rule GPU101\n# verify: case c\n# verify: role bad\n# verify: title t\n"
      "# verify: effect peak\n# verify: metric peak\n# verify: steps 5\n";
  expect_error(NO_EXPECT, "x.py:1: header lacks: expect");
}

static void test_rejects_a_directive_after_the_header(void **state) {
  (void)state;
  char *text = gl_format("%s# verify: steps 3\n", BAD);
  expect_error(text, "x.py:14: `# verify:` after the header");
  free(text);
}

static void test_rejects_bad_values(void **state) {
  (void)state;
  expect_bad_line_error(3, "# verify: role ugly", "role must be bad or good");
  expect_bad_line_error(5, "# verify: effect leaks", "unknown effect: leaks");
  expect_bad_line_error(6, "# verify: metric speed", "unknown metric: speed");
  expect_bad_line_error(6, "# verify: metric peak", "the metric does not measure the effect");
  expect_bad_line_error(6, "# verify: metric stats-change", "the metric does not measure the effect");
  expect_bad_line_error(7, "# verify: steps 0", "expected a step count: 0");
  expect_bad_line_error(7, "# verify: steps 3x", "expected a step count: 3x");
  expect_bad_line_error(8, "# verify: steady 30", "steady must be below steps");
}

static void test_rejects_bad_expectations(void **state) {
  (void)state;
  expect_bad_line_error(9, "# verify: expect bad", "expected `expect [METRIC] bad|good|ratio OP NUMBER`");
  expect_bad_line_error(9, "# verify: expect worse >= 1", "expect needs bad, good or ratio: worse");
  expect_bad_line_error(9, "# verify: expect bad == 1", "expect needs >=, >, <= or <: ==");
  expect_bad_line_error(9, "# verify: expect bad >= ten", "expect needs a number: ten");
  expect_bad_line_error(9, "# verify: expect speed bad >= 1", "unknown metric in expect: speed");
  expect_bad_line_error(9, "# verify: expect crash bad >= 1", "unknown metric in expect: crash");
  char *text = bad_with(6, "# verify: expect bad >= 1");
  expect_error(text, "`expect` must come after `metric`");
  free(text);
}

static void test_crash_needs_raises_and_only_crash_has_it(void **state) {
  (void)state;
  expect_bad_line_error(12, "# verify: raises Trying to backward", "`raises` goes with metric crash");
  static const char CRASH[] =
      "# verify: rule GPU102\n# verify: case c\n# verify: role bad\n# verify: title t\n"
      "# verify: effect crash\n# verify: metric crash\n# verify: steps 5\n";
  expect_error(CRASH, "`raises` goes with metric crash");
  char *with_raises = gl_format("%s# verify: raises Trying to backward\n", CRASH);
  Script script;
  char *error = NULL;
  assert_true(script_parse(&script, "c_bad.py", with_raises, &error));
  assert_string_equal(script.raises, "Trying to backward");
  script_delete(&script);
  free(with_raises);
}

/* stats-change (the running statistics' change per step) measures
 * wrong-gradients, as param-change does, in the same unit. */
static void test_parses_the_stats_change_metric(void **state) {
  (void)state;
  static const char STATS[] =
      "# verify: rule GPU004\n# verify: case c\n# verify: role bad\n# verify: title t\n"
      "# verify: effect wrong-gradients\n# verify: metric stats-change\n# verify: steps 30\n"
      "# verify: steady 5\n# verify: expect good > 0\n# verify: expect ratio <= 0.01\n";
  Script script;
  char *error = NULL;
  assert_true(script_parse(&script, "c_bad.py", STATS, &error));
  assert_int_equal(script.metric, METRIC_STATS_CHANGE);
  assert_string_equal(metric_name(script.metric), "stats-change");
  assert_int_equal(metric_from_name("stats-change"), METRIC_STATS_CHANGE);
  char *described = expectation_describe(&script.expectations.contents[0], script.metric);
  assert_string_equal(described, "good > 0/step");
  free(described);
  script_delete(&script);
}

static void test_good_scripts_declare_no_measurement(void **state) {
  (void)state;
  static const char GOOD_WITH_STEPS[] =
      "# verify: rule GPU101\n# verify: case c\n# verify: role good\n# verify: title t\n# verify: steps 3\n";
  expect_error(GOOD_WITH_STEPS, "only the bad script declares");
}

/* The `*_bad.py` scripts in `dir`: one per shipped case. */
static uint32_t test_count_bad_scripts(const char *dir) {
  DIR *folder = opendir(dir);
  if (!folder) fail_msg("cannot open %s", dir);
  uint32_t count = 0;
  for (struct dirent *entry; (entry = readdir(folder));) {
    size_t length = strlen(entry->d_name);
    count += length > 7 && strcmp(entry->d_name + length - 7, "_bad.py") == 0;
  }
  closedir(folder);
  return count;
}

/* The shipped reproductions: every bad script of verify/ loads as a case,
 * every rule listed has at least one, each names a rule the registry
 * knows, and the pairs load cleanly. */
static void test_loads_the_shipped_reproductions(void **state) {
  (void)state;
  ReproList repros = array_new();
  test_load_verify_repros(&repros);
  assert_int_equal(repros.size, test_count_bad_scripts(test_env("GPULINT_TEST_VERIFY_DIR")));
  static const char *const RULES[] = {"GPU001", "GPU002", "GPU003", "GPU004", "GPU005", "GPU101", "GPU102",
                                      "GPU103", "GPU104", "GPU201", "GPU302", "GPU401", "GPU501"};
  for (size_t r = 0; r < sizeof RULES / sizeof RULES[0]; r++) {
    uint32_t cases = 0;
    for (uint32_t i = 0; i < repros.size; i++) cases += strcmp(repros.contents[i].bad.rule, RULES[r]) == 0;
    if (cases == 0) fail_msg("no reproduction for %s", RULES[r]);
  }
  for (uint32_t i = 0; i < repros.size; i++) {
    assert_true(gl_rule_index(repros.contents[i].bad.rule) >= 0);
    assert_string_equal(repros.contents[i].bad.rule, repros.contents[i].good.rule);
  }
  repro_list_delete(&repros);
}

static void write_file(const char *dir, const char *name, const char *text) {
  char *path = gl_format("%s/%s", dir, name), *error = NULL;
  assert_true(text_write_file(path, text, strlen(text), &error));
  free(path);
}

static void expect_list_error(const char *dir, const char *wanted) {
  ReproList repros = array_new();
  char *error = NULL;
  assert_false(repro_list_load(&repros, dir, &error));
  if (!strstr(error, wanted)) fail_msg("error \"%s\" lacks \"%s\"", error, wanted);
  free(error);
}

static void test_rejects_unpaired_and_mismatched_scripts(void **state) {
  (void)state;
  char dir[] = "/tmp/gpulint-verify-XXXXXX";
  assert_non_null(mkdtemp(dir));
  expect_list_error(dir, "no reproductions");
  write_file(dir, "a_good.py", GOOD);
  expect_list_error(dir, "no ");
  write_file(dir, "a_bad.py", BAD);
  ReproList repros = array_new();
  char *error = NULL;
  assert_true(repro_list_load(&repros, dir, &error));
  assert_int_equal(repros.size, 1);
  repro_list_delete(&repros);
  char *other = bad_with(2, "# verify: case other-loop");
  write_file(dir, "a_bad.py", other);
  free(other);
  expect_list_error(dir, "rule and case must match");
  write_file(dir, "a_bad.py", GOOD);
  expect_list_error(dir, "role must be bad");
  write_file(dir, "a_bad.py", BAD);
  write_file(dir, "b_bad.py", BAD);
  expect_list_error(dir, "b_good.py");
  char *command = gl_format("rm -rf %s", dir);
  assert_int_equal(system(command), 0);
  free(command);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parses_the_bad_header),
      cmocka_unit_test(test_parses_the_good_header_after_a_shebang),
      cmocka_unit_test(test_rejects_unknown_repeated_and_empty_keys),
      cmocka_unit_test(test_rejects_a_missing_key),
      cmocka_unit_test(test_rejects_a_directive_after_the_header),
      cmocka_unit_test(test_rejects_bad_values),
      cmocka_unit_test(test_rejects_bad_expectations),
      cmocka_unit_test(test_crash_needs_raises_and_only_crash_has_it),
      cmocka_unit_test(test_parses_the_stats_change_metric),
      cmocka_unit_test(test_good_scripts_declare_no_measurement),
      cmocka_unit_test(test_loads_the_shipped_reproductions),
      cmocka_unit_test(test_rejects_unpaired_and_mismatched_scripts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
