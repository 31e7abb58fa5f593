/* The table, the JSON report, the SVG and the trace files, on the traces
 * recorded from a real run (traces/, an H200 with PyTorch 2.11). */
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

#include "helpers.h"

typedef struct {
  ReproList repros;
  CaseResults results;
} Recorded;

static int recorded_setup(void **state) {
  Recorded *recorded = gl_calloc(1, sizeof(Recorded));
  test_load_verify_repros(&recorded->repros);
  test_replay(&recorded->repros, test_env("GPULINT_TEST_TRACES"), &recorded->results);
  *state = recorded;
  return 0;
}

static int recorded_teardown(void **state) {
  Recorded *recorded = *state;
  case_results_delete(&recorded->results);
  repro_list_delete(&recorded->repros);
  free(recorded);
  return 0;
}

static uint32_t count(const char *text, const char *needle) {
  uint32_t n = 0;
  for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

static void test_table(void **state) {
  Recorded *recorded = *state;
  Text out = array_new();
  Environment environment = {.device_name = "NVIDIA H200", .replayed = true}; /* borrowed strings: not deleted */
  output_table(&out, &recorded->results, &environment);
  const char *text = text_string(&out);
  assert_true(strncmp(text, "RULE    CASE              EFFECT           BAD", 46) == 0);
  assert_non_null(strstr(text, "GPU101  validation-loop   gpu-growth       48.0 MB/step"));
  assert_non_null(strstr(text, "GPU102  training-loop     crash            raised at step 2  ran 20 steps"));
  assert_non_null(strstr(text, "GPU103  eval-loop         peak             5282 MB           670 MB          7.88x"));
  assert_non_null(strstr(text, "GPU003  training-loop     crash            raised at step 1  ran 20 steps"));
  assert_non_null(strstr(text, "GPU302  mlp-noise         slowdown         139.89 ms         54.06 ms        2.59x"));
  assert_non_null(strstr(text, "GPU004  training-loop     wrong-gradients  0/step            0.194/step      0.00x"));
  assert_non_null(strstr(text, "GPU005  frozen-embedding  wrong-gradients  0/step            0.0179/step     0.00x"));
  assert_non_null(strstr(text, "GPU104  training-loop     peak             1153 MB           773 MB          1.49x"));
  assert_non_null(strstr(text, "GPU501  checkpoint-load   peak             1024 MB           512 MB          2.00x"));
  assert_non_null(strstr(text, "GPU101  forward-hook      gpu-growth       8.0 MB/step       0.0 MB/step     inf"));
  assert_int_equal(count(text, "  CONFIRMED\n"), 18);
  assert_non_null(strstr(text, "also measured (bad / good):\n"));
  assert_non_null(strstr(text, "bad raised RuntimeError at step 2: Trying to backward through the graph"));
  assert_non_null(strstr(text, "18 case(s): 18 confirmed, 0 not confirmed, 0 error(s)\n"));
  /* The GPU003, GPU004, GPU005, GPU101 grad-fn and forward-hook, GPU104, GPU302, GPU401 and GPU501
   * pairs were recorded on an H100, the rest on the H200: */
  assert_non_null(strstr(text, "\nGPU003 training-loop: recorded on NVIDIA H100 80GB HBM3, PyTorch 2.11.0+cu130\n"));
  assert_non_null(strstr(text, "\nGPU302 mlp-noise: recorded on NVIDIA H100 80GB HBM3, PyTorch 2.11.0+cu130\n"));
  assert_non_null(strstr(text, "\nGPU401 training-loop: recorded on NVIDIA H100 80GB HBM3, PyTorch 2.11.0+cu130\n"));
  assert_non_null(strstr(text, "\nGPU005 frozen-embedding: recorded on NVIDIA H100 80GB HBM3, PyTorch 2.11.0+cu130\n"));
  assert_int_equal(count(text, ": recorded on "), 10);
  array_delete(&out);
}

static void test_list(void **state) {
  Recorded *recorded = *state;
  Text out = array_new();
  output_list(&out, &recorded->repros);
  const char *text = text_string(&out);
  assert_non_null(strstr(text, "GPU103 eval-loop: peak, measured as peak over 8 steps (2 warm-up)\n"));
  assert_non_null(strstr(text, "confirmed when: ratio >= 4x\n"));
  assert_non_null(strstr(text, "the bad script raises \"Trying to backward through the graph a second time\""));
  array_delete(&out);
}

static void test_json(void **state) {
  Recorded *recorded = *state;
  Environment environment = {gl_strdup("NVIDIA H200"), gl_strdup("580.159.04"), 150e9, 0, gl_strdup("python3"),
                             gl_strdup("3.12.3"), gl_strdup("2.11.0+cu130"), gl_strdup("13.0"), false};
  char *json = output_json(&environment, &recorded->results, cJSON_CreateArray());
  cJSON *root = cJSON_Parse(json);
  assert_non_null(root);
  cJSON *device = cJSON_GetObjectItem(root, "device");
  assert_string_equal(cJSON_GetObjectItem(device, "name")->valuestring, "NVIDIA H200");
  assert_string_equal(cJSON_GetObjectItem(device, "driver")->valuestring, "580.159.04");
  assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "python"), "torch")->valuestring, "2.11.0+cu130");
  assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "summary"), "confirmed")->valueint, 18);
  assert_true(cJSON_IsArray(cJSON_GetObjectItem(root, "findings")));
  cJSON *cases = cJSON_GetObjectItem(root, "cases");
  assert_int_equal(cJSON_GetArraySize(cases), 18);
  cJSON *item;
  cJSON_ArrayForEach(item, cases) {
    assert_string_equal(cJSON_GetObjectItem(item, "verdict")->valuestring, "CONFIRMED");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(item, "reason")));
    cJSON *runs = cJSON_GetObjectItem(item, "runs");
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(runs, "good"), "steps")) > 0);
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(runs, "bad"), "nvml_samples")->valueint > 0);
  }
  cJSON *growth = cJSON_GetArrayItem(cases, 8);
  assert_string_equal(cJSON_GetObjectItem(growth, "case")->valuestring, "validation-loop");
  assert_true(cJSON_IsNull(cJSON_GetObjectItem(growth, "ratio"))); /* infinite */
  cJSON *metrics = cJSON_GetObjectItem(growth, "metrics");
  assert_near(cJSON_GetObjectItem(cJSON_GetObjectItem(metrics, "alloc-slope"), "bad")->valuedouble, 48, 0.05);
  assert_non_null(cJSON_GetObjectItem(metrics, "device-slope"));
  cJSON_Delete(root);
  free(json);
  environment_delete(&environment);
}

static void test_svg(void **state) {
  Recorded *recorded = *state;
  char *svg = output_svg(&recorded->results, "H200 <&> \"caption\"");
  assert_true(strncmp(svg, "<svg xmlns='http://www.w3.org/2000/svg'", 39) == 0);
  assert_non_null(strstr(svg, "</svg>\n"));
  assert_int_equal(count(svg, "<g>"), 18);
  assert_true(count(svg, "<polyline") >= 18 * 3); /* bad and good, allocator and NVML */
  assert_non_null(strstr(svg, "H200 &lt;&amp;&gt; &quot;caption&quot;"));
  assert_non_null(strstr(svg, "raised at step 2"));
  assert_non_null(strstr(svg, "peak allocated in step (MB)"));
  assert_non_null(strstr(svg, "reserved after step (MB)"));
  assert_null(strstr(svg, "nan"));
  free(svg);
}

static void test_trace_round_trip(void **state) {
  Recorded *recorded = *state;
  const Run *original = &recorded->results.contents[3].bad;
  char path[] = "/tmp/gpulint-trace-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  char *error = NULL;
  assert_true(run_save(original, path, &error));
  Run copy;
  assert_true(run_load(&copy, path, &error));
  assert_int_equal(copy.steps.size, original->steps.size);
  assert_int_equal(copy.samples.size, original->samples.size);
  assert_int_equal(copy.lines.size, original->lines.size);
  for (uint32_t i = 0; i < copy.steps.size; i++) {
    assert_near(copy.steps.contents[i].allocated, original->steps.contents[i].allocated, 0);
    assert_true(copy.steps.contents[i].device_used == original->steps.contents[i].device_used ||
                (isnan(copy.steps.contents[i].device_used) && isnan(original->steps.contents[i].device_used)));
  }
  assert_int_equal(copy.exit_code, original->exit_code);
  run_delete(&copy);
  assert_true(text_write_file(path, "{\"t\": 1}\n", 9, &error));
  assert_false(run_load(&copy, path, &error));
  assert_non_null(strstr(error, ":1: not a trace line"));
  free(error);
  unlink(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_list),
      cmocka_unit_test(test_json),
      cmocka_unit_test(test_svg),
      cmocka_unit_test(test_trace_round_trip),
  };
  return cmocka_run_group_tests(tests, recorded_setup, recorded_teardown);
}
