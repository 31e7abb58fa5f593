/* The CI formats read back with a JSON parser: SARIF fields GitHub code
 * scanning needs, fingerprints that survive line shifts, GitLab Code
 * Quality, and the escaping of GitHub annotations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "gpulint.h"
#include "report.h"
#include "snippet.h"

static const char TRAIN[] =
    "import torch\n"
    "def train(model, loader, optimizer):\n"
    "    for x, y in loader:\n"
    "        loss = model(x).sum()\n"
    "        loss.backward()\n"
    "        optimizer.step()\n";

typedef struct {
  GlFileResult *result;
  char **lines;
} Linted;

static Linted lint(const char *path, const char *text) {
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  Linted linted;
  linted.result = gl_linter_lint_buffer(linter, path, text, strlen(text), &rules);
  linted.lines = snippet_lines(text, strlen(text), linted.result);
  gl_linter_delete(linter);
  assert_true(linted.result->finding_count >= 1);
  return linted;
}

static void linted_delete(Linted *linted) {
  snippet_lines_delete(linted->lines, linted->result->finding_count);
  gl_file_result_delete(linted->result);
}

/* Prints one file in `format` and parses the output. */
static cJSON *print_json(OutputFormat format, const Linted *linted) {
  ReportOptions options = report_options_default(format);
  options.cwd = "/repo";
  options.base = "/repo";
  ReportFile file = {linted->result, linted->lines, NULL};
  char *buffer = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&buffer, &size);
  report_print(out, &options, &file, 1);
  fclose(out);
  cJSON *json = cJSON_Parse(buffer);
  if (!json) fail_msg("not JSON:\n%s", buffer);
  free(buffer);
  return json;
}

static cJSON *at(const cJSON *object, const char *path) {
  char buffer[256];
  snprintf(buffer, sizeof buffer, "%s", path);
  const cJSON *value = object;
  for (char *key = strtok(buffer, "."); key && value; key = strtok(NULL, ".")) {
    value = key[0] >= '0' && key[0] <= '9' ? cJSON_GetArrayItem(value, atoi(key))
                                           : cJSON_GetObjectItemCaseSensitive(value, key);
  }
  if (!value) fail_msg("missing %s", path);
  return (cJSON *)value;
}

static const char *text_at(const cJSON *object, const char *path) {
  const cJSON *value = at(object, path);
  assert_true(cJSON_IsString(value));
  return value->valuestring;
}

static void test_sarif_fields(void **state) {
  (void)state;
  Linted linted = lint("src/train.py", TRAIN);
  cJSON *sarif = print_json(FORMAT_SARIF, &linted);
  assert_string_equal(text_at(sarif, "version"), "2.1.0");
  assert_non_null(strstr(text_at(sarif, "$schema"), "sarif-2.1.0"));
  assert_string_equal(text_at(sarif, "runs.0.tool.driver.name"), "gpulint");
  assert_string_equal(text_at(sarif, "runs.0.tool.driver.version"), gl_version());
  assert_null(cJSON_GetObjectItem(at(sarif, "runs.0.tool.driver"), "informationUri")); /* the project names none */
  const cJSON *rules = at(sarif, "runs.0.tool.driver.rules");
  GlRuleSet enabled = gl_rule_set_default();
  int expected = 0;
  for (uint32_t i = 0; i < gl_rule_count(); i++) expected += enabled.enabled[i];
  assert_int_equal(cJSON_GetArraySize(rules), expected);
  const cJSON *rule;
  cJSON_ArrayForEach(rule, rules) {
    static const char *const KEYS[] = {"id", "name", "shortDescription.text", "fullDescription.text", "help.text",
                                       "defaultConfiguration.level"};
    for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++) assert_true(strlen(text_at(rule, KEYS[k])) > 0);
  }
  const cJSON *result = at(sarif, "runs.0.results.0");
  assert_string_equal(text_at(result, "ruleId"), "GPU001");
  int index = at(result, "ruleIndex")->valueint;
  assert_string_equal(text_at(cJSON_GetArrayItem(rules, index), "id"), "GPU001");
  assert_string_equal(text_at(result, "level"), "error");
  assert_true(strlen(text_at(result, "message.text")) > 0);
  assert_string_equal(text_at(result, "locations.0.physicalLocation.artifactLocation.uri"), "src/train.py");
  assert_string_equal(text_at(result, "locations.0.physicalLocation.artifactLocation.uriBaseId"), "%SRCROOT%");
  assert_int_equal(at(result, "locations.0.physicalLocation.region.startLine")->valueint, 5);
  assert_int_equal(at(result, "locations.0.physicalLocation.region.startColumn")->valueint, 9);
  assert_int_equal(at(result, "locations.0.physicalLocation.region.endLine")->valueint, 5);
  assert_int_equal(at(result, "locations.0.physicalLocation.region.endColumn")->valueint, 24);
  assert_string_equal(text_at(sarif, "runs.0.originalUriBaseIds.%SRCROOT%.uri"), "file:///repo/");
  assert_true(cJSON_IsTrue(at(sarif, "runs.0.invocations.0.executionSuccessful")));
  cJSON_Delete(sarif);
  linted_delete(&linted);
}

static void test_fingerprints_survive_line_shifts(void **state) {
  (void)state;
  char shifted[512];
  snprintf(shifted, sizeof shifted, "# a new header comment\n\n\n%s", TRAIN);
  Linted before = lint("train.py", TRAIN), after = lint("train.py", shifted);
  cJSON *a = print_json(FORMAT_SARIF, &before), *b = print_json(FORMAT_SARIF, &after);
  assert_int_equal(at(a, "runs.0.results.0.locations.0.physicalLocation.region.startLine")->valueint + 3,
                   at(b, "runs.0.results.0.locations.0.physicalLocation.region.startLine")->valueint);
  assert_string_equal(text_at(a, "runs.0.results.0.partialFingerprints.primaryLocationLineHash"),
                      text_at(b, "runs.0.results.0.partialFingerprints.primaryLocationLineHash"));
  cJSON *ga = print_json(FORMAT_GITLAB, &before), *gb = print_json(FORMAT_GITLAB, &after);
  assert_string_equal(text_at(ga, "0.fingerprint"), text_at(gb, "0.fingerprint"));
  cJSON_Delete(a);
  cJSON_Delete(b);
  cJSON_Delete(ga);
  cJSON_Delete(gb);
  linted_delete(&before);
  linted_delete(&after);
}

static void test_fingerprint_parts(void **state) {
  (void)state;
  uint64_t base = report_fingerprint("GPU001", "a.py", "    loss.backward()", 0, 1);
  assert_true(base == report_fingerprint("GPU001", "a.py", "loss.backward()  ", 0, 1));
  assert_true(base != report_fingerprint("GPU001", "a.py", "loss.backward()", 1, 1));
  assert_true(base != report_fingerprint("GPU002", "a.py", "loss.backward()", 0, 1));
  assert_true(base != report_fingerprint("GPU001", "b.py", "loss.backward()", 0, 1));
  assert_true(base != report_fingerprint("GPU001", "a.py", "loss.backward()", 0, 2));
}

static void test_gitlab_fields(void **state) {
  (void)state;
  Linted linted = lint("src/train.py", TRAIN);
  cJSON *report = print_json(FORMAT_GITLAB, &linted);
  assert_true(cJSON_IsArray(report));
  const cJSON *issue = at(report, "0");
  assert_non_null(strstr(text_at(issue, "description"), "GPU001"));
  assert_string_equal(text_at(issue, "check_name"), "GPU001");
  assert_int_equal(strlen(text_at(issue, "fingerprint")), 32);
  assert_string_equal(text_at(issue, "severity"), "major");
  assert_string_equal(text_at(issue, "location.path"), "src/train.py");
  assert_int_equal(at(issue, "location.lines.begin")->valueint, 5);
  cJSON_Delete(report);
  linted_delete(&linted);
}

static void test_github_escaping(void **state) {
  (void)state;
  char *message = report_github_escape("50% done\r\nnext: a,b", false);
  assert_string_equal(message, "50%25 done%0D%0Anext: a,b");
  free(message);
  char *property = report_github_escape("dir:a,b/100%.py\n", true);
  assert_string_equal(property, "dir%3Aa%2Cb/100%25.py%0A");
  free(property);
}

static void test_relative_paths(void **state) {
  (void)state;
  ReportOptions options = report_options_default(FORMAT_SARIF);
  options.cwd = "/repo/sub";
  options.base = "/repo";
  char *path = report_relative_path(&options, "../x/a.py");
  assert_string_equal(path, "x/a.py");
  free(path);
  path = report_relative_path(&options, "/repo/sub/b.py");
  assert_string_equal(path, "sub/b.py");
  free(path);
  assert_null(report_relative_path(&options, "/elsewhere/c.py"));
}

/* Prints `count` results in `format` to a string; the caller frees it. */
static char *print_text(OutputFormat format, GlFileResult *const *results, size_t count) {
  ReportOptions options = report_options_default(format);
  ReportFile files[4] = {{0}};
  for (size_t i = 0; i < count; i++) files[i].result = results[i];
  char *buffer = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&buffer, &size);
  report_print(out, &options, files, count);
  fclose(out);
  return buffer;
}

/* A file that could not be linted is a GPU903 record, never a pass. */
static void test_error_record(void **state) {
  (void)state;
  GlFileResult *missing = gl_calloc(1, sizeof(GlFileResult));
  missing->path = gl_strdup("gone.py");
  missing->error = gl_strdup("no such file or directory");
  GlFinding record;
  assert_true(report_error_record(missing, &record));
  assert_string_equal(gl_rule_info(record.rule)->code, "GPU903");
  assert_int_equal(record.start.line, 1);
  assert_ptr_equal(record.message, missing->error);
  Linted train = lint("train.py", TRAIN); /* one GPU001 finding */
  assert_false(report_error_record(train.result, &record));
  char *text = print_text(FORMAT_TEXT, &missing, 1);
  assert_string_equal(text, "gone.py:1:1: GPU903 no such file or directory\nNo findings; 1 file could not be linted.\n");
  free(text);
  GlFileResult *both[] = {train.result, missing};
  text = print_text(FORMAT_TEXT, both, 2);
  assert_non_null(strstr(text, "gone.py:1:1: GPU903"));
  assert_non_null(strstr(text, "Found 1 finding (1 file); 1 file could not be linted.\n"));
  free(text);
  text = print_text(FORMAT_JSON, both, 2);
  cJSON *json = cJSON_Parse(text);
  assert_int_equal(cJSON_GetArraySize(json), 2);
  assert_string_equal(text_at(json, "1.code"), "GPU903");
  assert_true(cJSON_IsNull(at(json, "1.detail")));
  assert_true(cJSON_IsString(at(json, "0.detail")));
  cJSON_Delete(json);
  free(text);
  text = print_text(FORMAT_GITLAB, &missing, 1);
  json = cJSON_Parse(text);
  assert_string_equal(text_at(json, "0.check_name"), "GPU903");
  assert_int_equal(at(json, "0.location.lines.begin")->valueint, 1);
  cJSON_Delete(json);
  free(text);
  linted_delete(&train);
  gl_file_result_delete(missing);
}

/* Rule URLs: none without a template; {code} and {name} filled in. */
static void test_rule_urls(void **state) {
  (void)state;
  unsetenv("GPULINT_RULE_URL");
  const GlRuleInfo *rule = gl_rule_info((uint32_t)gl_rule_index("GPU101"));
  assert_null(report_rule_url(rule));
  assert_true(report_set_rule_url("https://e.org/{code}/{name}/{code}.html"));
  char *url = report_rule_url(rule);
  assert_string_equal(url, "https://e.org/GPU101/tensor-kept-with-graph/GPU101.html");
  free(url);
  assert_false(report_set_rule_url("https://e.org/{nope}")); /* unchanged */
  url = report_rule_url(rule);
  assert_string_equal(url, "https://e.org/GPU101/tensor-kept-with-graph/GPU101.html");
  free(url);
  assert_true(report_set_rule_url(NULL));
  setenv("GPULINT_RULE_URL", "https://env.example/{name}", 1);
  url = report_rule_url(rule);
  assert_string_equal(url, "https://env.example/tensor-kept-with-graph");
  free(url);
  setenv("GPULINT_RULE_URL", "javascript:alert(1)", 1); /* unusable: none */
  assert_null(report_rule_url(rule));
  unsetenv("GPULINT_RULE_URL");
  assert_non_null(report_rule_url_error("https://e.org/{code"));
  assert_null(report_rule_url_error("http://e.org/rules#{code}"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sarif_fields),
      cmocka_unit_test(test_fingerprints_survive_line_shifts),
      cmocka_unit_test(test_fingerprint_parts),
      cmocka_unit_test(test_gitlab_fields),
      cmocka_unit_test(test_github_escaping),
      cmocka_unit_test(test_relative_paths),
      cmocka_unit_test(test_error_record),
      cmocka_unit_test(test_rule_urls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
