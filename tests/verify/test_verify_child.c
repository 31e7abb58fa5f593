/* Running children (lines, stderr, exit codes, timeouts), NVML through the
 * fake library, and `gpulint verify` end to end on the fake reproductions
 * (repros/: harness lines without PyTorch) with the fake NVML. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "helpers.h"
#include "nvml.h"

typedef struct {
  Text out;
  uint32_t lines;
  uint32_t ticks;
} Collected;

static void collect_line(void *payload, const char *line, double t_ms) {
  (void)t_ms;
  Collected *collected = payload;
  text_append(&collected->out, "%s\n", line);
  collected->lines++;
}

static void collect_tick(void *payload, double t_ms) {
  (void)t_ms;
  ((Collected *)payload)->ticks++;
}

static ChildResult run_collected(char *const argv[], char *const env[], double timeout_s, Collected *collected) {
  *collected = (Collected){array_new(), 0, 0};
  ChildHooks hooks = {collect_line, collect_tick, collected, 10};
  return child_run(argv, env, timeout_s, &hooks);
}

/* ---- Children ----------------------------------------------------------- */

static void test_child_lines_stderr_and_exit(void **state) {
  (void)state;
  char *argv[] = {"sh", "-c", "echo one; echo two >&2; printf three; exit $CODE", NULL};
  char *env[] = {"CODE=7", NULL};
  Collected collected;
  ChildResult result = run_collected(argv, env, 10, &collected);
  assert_true(result.spawned);
  assert_int_equal(result.exit_code, 7);
  assert_false(result.timed_out);
  assert_string_equal(text_string(&collected.out), "one\nthree\n");
  assert_string_equal(result.stderr_tail, "two\n");
  assert_true(collected.ticks >= 1);
  child_result_delete(&result);
  array_delete(&collected.out);
}

static void test_child_timeout_kills_the_group(void **state) {
  (void)state;
  char *argv[] = {"sh", "-c", "echo started; sleep 30 & sleep 30; echo never", NULL};
  Collected collected;
  double start = child_now_ms();
  ChildResult result = run_collected(argv, NULL, 0.3, &collected);
  assert_true(child_now_ms() - start < 5000);
  assert_true(result.timed_out);
  assert_int_equal(result.term_signal, 9);
  assert_string_equal(text_string(&collected.out), "started\n");
  assert_true(collected.ticks >= 10);
  child_result_delete(&result);
  array_delete(&collected.out);
}

static void test_child_that_cannot_start(void **state) {
  (void)state;
  char *argv[] = {"/nonexistent/python", NULL};
  Collected collected;
  ChildResult result = run_collected(argv, NULL, 5, &collected);
  assert_false(result.spawned);
  assert_non_null(strstr(result.stderr_tail, "cannot run /nonexistent/python: No such file or directory"));
  child_result_delete(&result);
  array_delete(&collected.out);
}

/* ---- NVML --------------------------------------------------------------- */

static void test_nvml_through_the_fake_library(void **state) {
  (void)state;
  unsetenv("FAKE_NVML_USED_FILE");
  char *error = NULL;
  Nvml *nvml = nvml_open(test_env("GPULINT_TEST_FAKE_NVML"), 0, &error);
  if (!nvml) fail_msg("%s", error);
  assert_string_equal(nvml_device_name(nvml), "Fake GPU");
  assert_string_equal(nvml_driver_version(nvml), "0.0.fake");
  assert_int_equal(nvml_device_count(nvml), 1);
  assert_near(nvml_memory_total(nvml), 80.0 * (1 << 30), 0);
  double first, second;
  assert_true(nvml_memory_used(nvml, &first));
  assert_true(nvml_memory_used(nvml, &second));
  assert_near(second - first, 1048576.0, 0);
  nvml_delete(nvml);
  nvml_delete(NULL);
}

static void expect_nvml_error(const char *library, unsigned index, const char *wanted) {
  char *error = NULL;
  Nvml *nvml = nvml_open(library, index, &error);
  assert_null(nvml);
  if (!strstr(error, wanted)) fail_msg("error \"%s\" lacks \"%s\"", error, wanted);
  free(error);
}

static void test_nvml_says_what_is_missing(void **state) {
  (void)state;
  const char *fake = test_env("GPULINT_TEST_FAKE_NVML");
  expect_nvml_error("/nonexistent/libnvidia-ml.so.1", 0, "no NVML: cannot load /nonexistent/libnvidia-ml.so.1");
  expect_nvml_error(fake, 3, "no GPU 3: NVML sees 1 device(s)");
  setenv("FAKE_NVML_FAIL", "init", 1);
  expect_nvml_error(fake, 0, "no GPU: NVML did not initialize (Driver Not Loaded)");
  setenv("FAKE_NVML_FAIL", "no-device", 1);
  expect_nvml_error(fake, 0, "no GPU: NVML sees no NVIDIA device");
  unsetenv("FAKE_NVML_FAIL");
}

/* ---- The command line, end to end --------------------------------------- */

/* Where the fake harness tells the fake NVML what it allocated. */
static char used_file[] = "/tmp/gpulint-fake-used-XXXXXX";

typedef struct {
  int status;
  char *out; /* stdout */
  char *err; /* stderr's tail */
} Cli;

/* Runs `gpulint verify ARGS... --repros REPROS --python PYTHON
 * --nvml-library FAKE` with `env` added; `fake` false leaves out the
 * three options. */
static Cli cli_run(char *const *args, char *const env[], bool fake) {
  char *argv[32] = {(char *)test_env("GPULINT_TEST_BINARY"), "verify"};
  int n = 2;
  for (char *const *arg = args; *arg; arg++) argv[n++] = *arg;
  if (fake) {
    argv[n++] = "--repros", argv[n++] = (char *)test_env("GPULINT_TEST_REPROS");
    argv[n++] = "--python", argv[n++] = (char *)test_env("GPULINT_TEST_PYTHON");
    argv[n++] = "--nvml-library", argv[n++] = (char *)test_env("GPULINT_TEST_FAKE_NVML");
  }
  argv[n] = NULL;
  char *used = gl_format("FAKE_NVML_USED_FILE=%s", used_file);
  char *full_env[8] = {used};
  for (int i = 0; env && env[i]; i++) full_env[i + 1] = env[i];
  Collected collected;
  ChildResult result = run_collected(argv, full_env, 120, &collected);
  free(used);
  assert_true(result.spawned);
  assert_false(result.timed_out);
  Cli cli = {result.exit_code, text_take(&collected.out), result.stderr_tail};
  return cli;
}

static void cli_expect(Cli *cli, int status, const char *out, const char *err) {
  if (cli->status != status) fail_msg("exit %d, not %d\nstdout:\n%s\nstderr:\n%s", cli->status, status, cli->out, cli->err);
  if (out && !strstr(cli->out, out)) fail_msg("stdout lacks \"%s\":\n%s", out, cli->out);
  if (err && !strstr(cli->err, err)) fail_msg("stderr lacks \"%s\":\n%s", err, cli->err);
  free(cli->out);
  free(cli->err);
}

static int cli_setup(void **state) {
  (void)state;
  int fd = mkstemp(used_file);
  if (fd < 0) return -1;
  close(fd);
  return 0;
}

static int cli_teardown(void **state) {
  (void)state;
  unlink(used_file);
  return 0;
}

static void test_cli_list(void **state) {
  (void)state;
  char *args[] = {"--list", NULL};
  Cli cli = cli_run(args, NULL, true);
  cli_expect(&cli, 0, "GPU101 validation-loop: gpu-growth, measured as alloc-slope over 8 steps (2 warm-up)", NULL);
}

static void test_cli_finds_the_shipped_reproductions(void **state) {
  (void)state;
  char *args[] = {"--list", NULL};
  Cli cli = cli_run(args, NULL, false);
  cli_expect(&cli, 0, "GPU103 eval-loop: peak, measured as peak over 8 steps", NULL);
}

/* All three fake cases: the slowdown one is not there, so exit 1; the JSON,
 * SVG and traces are written. */
static void test_cli_runs_every_case(void **state) {
  (void)state;
  char dir[] = "/tmp/gpulint-verify-cli-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char *json = gl_format("%s/out.json", dir), *svg = gl_format("%s/out.svg", dir), *traces = gl_format("%s/t", dir);
  char *args[] = {"--json", json, "--plot", svg, "--save-traces", traces, NULL};
  /* NVML is sampled every 10 ms; a step of 100 ms gets its samples also
   * when the machine is busy, so that the slope is the growth's. */
  char *env[] = {"FAKE_STEP_SECONDS=0.1", NULL};
  Cli cli = cli_run(args, env, true);
  assert_non_null(strstr(cli.out, "GPU201  training-loop    slowdown    5.00 ms           5.00 ms      1.00x  NOT CONFIRMED"));
  cli_expect(&cli, 1, "GPU101  validation-loop  gpu-growth  48.0 MB/step      0.0 MB/step  inf    CONFIRMED", NULL);
  char *error = NULL, *text = text_read_file(json, &error);
  assert_non_null(text);
  cJSON *root = cJSON_Parse(text);
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "device"), "name")->valuestring, "Fake GPU");
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "summary"), "not_confirmed")->valueint, 1);
  cJSON *growth = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cases"), 1);
  cJSON *device = cJSON_GetObjectItem(cJSON_GetObjectItem(growth, "metrics"), "device-slope");
  assert_near(cJSON_GetObjectItem(device, "bad")->valuedouble, 48, 1.0); /* NVML saw the growth */
  cJSON_Delete(root);
  free(text);
  text = text_read_file(svg, &error);
  assert_non_null(strstr(text, "</svg>"));
  free(text);
  char *replay_args[] = {"--replay", traces, "--rule", "GPU101,gpu102", NULL};
  cli = cli_run(replay_args, NULL, true);
  cli_expect(&cli, 0, "Fake GPU (GPU 0), driver 0.0.fake, PyTorch 0.0+fake (replayed from saved traces)", NULL);
  char *command = gl_format("rm -rf %s", dir);
  assert_int_equal(system(command), 0);
  free(command);
  free(json);
  free(svg);
  free(traces);
}

static void test_cli_exit_status_follows_the_verdicts(void **state) {
  (void)state;
  char *slow[] = {"--rule", "GPU201", NULL};
  char *slow_env[] = {"FAKE_SLOW=1", NULL};
  Cli cli = cli_run(slow, slow_env, true);
  cli_expect(&cli, 0, "GPU201  training-loop  slowdown  10.00 ms  5.00 ms  2.00x  CONFIRMED", NULL);
  cli = cli_run(slow, NULL, true);
  cli_expect(&cli, 1, "NOT CONFIRMED: expected ratio >= 1.05x, measured 1.00x", NULL);
  char *timeout[] = {"--rule", "GPU101", "--timeout", "1", NULL};
  char *timeout_env[] = {"FAKE_STEP_SECONDS=0.5", NULL};
  cli = cli_run(timeout, timeout_env, true);
  cli_expect(&cli, 1, "ERROR: the bad script timed out after 1 s", NULL);
  char *steps[] = {"--rule", "GPU102", "--steps", "1", NULL};
  cli = cli_run(steps, NULL, true);
  cli_expect(&cli, 1, "NOT CONFIRMED: ran all 1 steps without raising", "1/1 steps");
}

static void test_cli_setup_errors_exit_2(void **state) {
  (void)state;
  char *none[] = {NULL};
  char *no_torch[] = {"FAKE_TORCH=missing", NULL};
  Cli cli = cli_run(none, no_torch, true);
  cli_expect(&cli, 2, NULL, "no PyTorch: `import torch` fails");
  char *cpu_only[] = {"FAKE_TORCH=cpu-only", NULL};
  cli = cli_run(none, cpu_only, true);
  cli_expect(&cli, 2, NULL, "no GPU for PyTorch");
  char *no_driver[] = {"FAKE_NVML_FAIL=init", NULL};
  cli = cli_run(none, no_driver, true);
  cli_expect(&cli, 2, NULL, "no GPU: NVML did not initialize");
  char *no_python[] = {"--repros", (char *)test_env("GPULINT_TEST_REPROS"), "--python", "/nonexistent/python",
                       "--nvml-library", (char *)test_env("GPULINT_TEST_FAKE_NVML"), NULL};
  cli = cli_run(no_python, NULL, false);
  cli_expect(&cli, 2, NULL, "no Python: cannot run /nonexistent/python");
  char *real_nvml_missing[] = {"--repros", (char *)test_env("GPULINT_TEST_REPROS"), "--nvml-library",
                               "/nonexistent/libnvidia-ml.so.1", NULL};
  cli = cli_run(real_nvml_missing, NULL, false);
  cli_expect(&cli, 2, NULL, "no NVML: cannot load /nonexistent/libnvidia-ml.so.1");
}

static void test_cli_usage_errors_exit_2(void **state) {
  (void)state;
  static const struct {
    const char *arg;
    const char *value;
    const char *wanted;
  } CASES[] = {
      {"--steps", "0", "--steps needs 1..100000"},
      {"--rule", "GPU999", "no reproduction for rule: GPU999"},
      {"--timeout", "soon", "--timeout needs seconds"},
      {"--colour", NULL, "unknown option `--colour`"},
      {"--jsn", "x", "unknown option `--jsn`; did you mean `--json`?"},
      {"--repros", "/nonexistent", "/nonexistent holds no reproductions"},
  };
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    char *args[] = {(char *)CASES[i].arg, (char *)CASES[i].value, NULL};
    Cli cli = cli_run(args, NULL, strcmp(CASES[i].arg, "--repros") != 0);
    cli_expect(&cli, 2, NULL, CASES[i].wanted);
  }
  char *help[] = {"--help", NULL};
  Cli cli = cli_run(help, NULL, false);
  cli_expect(&cli, 0, "usage: gpulint verify [OPTIONS] [PATH ...]", NULL);
}

/* `gpulint verify PATH`: lint first, replay only what was found, print each
 * finding with its measured impact. Replayed from the H200 traces. */
static void test_cli_lints_first(void **state) {
  (void)state;
  char *args[] = {"--repros", (char *)test_env("GPULINT_TEST_VERIFY_DIR"), "--replay",
                  (char *)test_env("GPULINT_TEST_TRACES"), (char *)test_env("GPULINT_TEST_LINT_FIRST"), NULL};
  Cli cli = cli_run(args, NULL, false);
  assert_null(strstr(cli.out, "GPU201"));
  assert_null(strstr(cli.out, "rollout-loop"));
  assert_non_null(strstr(cli.out, "5 case(s): 5 confirmed")); /* GPU001, three GPU101 cases, GPU103 */
  cli_expect(&cli, 0, "lint_first.py:18:13: GPU101 `loss` is kept", NULL);
  cli = cli_run(args, NULL, false);
  cli_expect(&cli, 0, "    measured: gpu-growth (validation-loop): bad 48.0 MB/step, good 0.0 MB/step, ratio inf: CONFIRMED",
             NULL);
  char *missing[] = {"--repros", (char *)test_env("GPULINT_TEST_REPROS"), "/nonexistent/train.py", NULL};
  cli = cli_run(missing, NULL, false);
  cli_expect(&cli, 2, NULL, "/nonexistent/train.py: No such file or directory");
  char *clean[] = {"--repros", (char *)test_env("GPULINT_TEST_REPROS"), (char *)test_env("GPULINT_TEST_REPROS"), NULL};
  cli = cli_run(clean, NULL, false);
  cli_expect(&cli, 0, "none that a reproduction measures; nothing to replay", NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_child_lines_stderr_and_exit),
      cmocka_unit_test(test_child_timeout_kills_the_group),
      cmocka_unit_test(test_child_that_cannot_start),
      cmocka_unit_test(test_nvml_through_the_fake_library),
      cmocka_unit_test(test_nvml_says_what_is_missing),
      cmocka_unit_test(test_cli_list),
      cmocka_unit_test(test_cli_finds_the_shipped_reproductions),
      cmocka_unit_test(test_cli_runs_every_case),
      cmocka_unit_test(test_cli_exit_status_follows_the_verdicts),
      cmocka_unit_test(test_cli_setup_errors_exit_2),
      cmocka_unit_test(test_cli_usage_errors_exit_2),
      cmocka_unit_test(test_cli_lints_first),
  };
  return cmocka_run_group_tests(tests, cli_setup, cli_teardown);
}
