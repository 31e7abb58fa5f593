/* The public engine: registry, linting buffers, load errors, GPU900,
 * suppression, and the JSON report read back with a JSON parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"
#include "report.h"

static const char TRAIN[] =
    "import torch\n"
    "for x, y in loader:\n"
    "    loss = criterion(model(x), y)\n"
    "    loss.backward()\n"
    "    optimizer.step()\n";

static GlFileResult *lint(const char *path, const char *text) {
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *result = gl_linter_lint_buffer(linter, path, text, strlen(text), &rules);
  gl_linter_delete(linter);
  return result;
}

static void test_registry_is_sorted_and_well_formed(void **state) {
  (void)state;
  assert_true(gl_rule_count() > 0);
  for (uint32_t i = 0; i < gl_rule_count(); i++) {
    const GlRuleInfo *rule = gl_rule_info(i);
    assert_int_equal(strlen(rule->code), 6);
    assert_memory_equal(rule->code, "GPU", 3);
    assert_non_null(rule->name);
    assert_non_null(rule->summary);
    assert_non_null(rule->fix_hint);
    assert_int_equal(gl_rule_index(rule->code), (int)i);
    if (i > 0) assert_true(strcmp(gl_rule_info(i - 1)->code, rule->code) < 0);
  }
  assert_int_equal(gl_rule_index("gpu001"), gl_rule_index("GPU001"));
  assert_int_equal(gl_rule_index("GPU999"), -1);
}

/* Every rule has a page with the fixed headings, titled "name (CODE)". */
static void test_every_rule_has_docs(void **state) {
  (void)state;
  static const char *const HEADINGS[] = {"## What it does", "## Why is this bad?", "## Example", "## Use instead",
                                         "## Measured impact", "## Known limits"};
  for (uint32_t i = 0; i < gl_rule_count(); i++) {
    const GlRuleInfo *rule = gl_rule_info(i);
    const char *docs = gl_rule_docs(i);
    assert_non_null(docs);
    char title[128];
    snprintf(title, sizeof title, "# %s (%s)\n", rule->name, rule->code);
    assert_memory_equal(docs, title, strlen(title));
    for (size_t j = 0; j < sizeof HEADINGS / sizeof HEADINGS[0]; j++) {
      if (!strstr(docs, HEADINGS[j])) fail_msg("%s: missing heading %s", rule->code, HEADINGS[j]);
    }
  }
}

static void test_finds_missing_zero_grad(void **state) {
  (void)state;
  GlFileResult *result = lint("train.py", TRAIN);
  assert_null(result->error);
  assert_int_equal(result->finding_count, 1);
  assert_string_equal(gl_rule_info(result->findings[0].rule)->code, "GPU001");
  assert_int_equal(result->findings[0].start.line, 4);
  assert_int_equal(result->findings[0].start.column, 5);
  assert_int_equal(result->findings[0].effect, GL_EFFECT_WRONG_GRADIENTS);
  gl_file_result_delete(result);
}

static void test_noqa_and_selection(void **state) {
  (void)state;
  char text[512];
  snprintf(text, sizeof text, "%s", TRAIN);
  char *line = strstr(text, "loss.backward()");
  memmove(line + strlen("loss.backward()  # noqa: GPU001") , line + strlen("loss.backward()"),
          strlen(line + strlen("loss.backward()")) + 1);
  memcpy(line, "loss.backward()  # noqa: GPU001", strlen("loss.backward()  # noqa: GPU001"));
  GlFileResult *result = lint("train.py", text);
  assert_int_equal(result->finding_count, 0);
  gl_file_result_delete(result);

  GlLinter *linter = gl_linter_new();
  GlRuleSet none = {.enabled = {false}};
  result = gl_linter_lint_buffer(linter, "train.py", TRAIN, strlen(TRAIN), &none);
  assert_int_equal(result->finding_count, 0);
  gl_file_result_delete(result);
  gl_linter_delete(linter);
}

static void test_syntax_error_keeps_other_findings(void **state) {
  (void)state;
  char text[512];
  snprintf(text, sizeof text, "%sdef broken(:\n    pass\n", TRAIN);
  GlFileResult *result = lint("train.py", text);
  assert_int_equal(result->finding_count, 2);
  assert_string_equal(gl_rule_info(result->findings[0].rule)->code, "GPU001");
  assert_string_equal(gl_rule_info(result->findings[1].rule)->code, "GPU900");
  assert_int_equal(result->findings[1].start.line, 6);
  gl_file_result_delete(result);
}

/* The GPU900 messages of `text`, joined with newlines ("" when none). */
static char *syntax_messages(const char *text) {
  GlFileResult *result = lint("a.py", text);
  char *joined = calloc(1, 4096);
  for (uint32_t i = 0; i < result->finding_count; i++) {
    if (strcmp(gl_rule_info(result->findings[i].rule)->code, "GPU900") != 0) continue;
    snprintf(joined + strlen(joined), 4096 - strlen(joined), "%u: %s\n", result->findings[i].start.line,
             result->findings[i].message);
  }
  gl_file_result_delete(result);
  return joined;
}

/* Valid Python 3 that the grammar cannot parse (a starred tuple item
 * whose operand opens with a bracket or a quote) is no syntax error; a
 * real error after it still is. */
static void test_starred_tuple_items_are_python3(void **state) {
  (void)state;
  static const char *const VALID[] = {
      "x = 1, *[2]\n",           "x = 1, *(2,)\n",       "x = *[1], 2\n",
      "x = 1, *{2}\n",           "x = 1, *'ab'\n",       "def f():\n    x = 1, *[2]\n    return x\n",
      "x = 1, *[2], 3\n",        "for a in 1, *[2]:\n    pass\n", "x = 1, *[2] + [3]\n",
  };
  for (size_t i = 0; i < sizeof VALID / sizeof VALID[0]; i++) {
    char *messages = syntax_messages(VALID[i]);
    if (messages[0]) fail_msg("%s: %s", VALID[i], messages);
    free(messages);
  }
  char *messages = syntax_messages("x = 1, *[2]\ndef broken(:\n    pass\n");
  assert_non_null(strstr(messages, "2: syntax error"));
  free(messages);
  messages = syntax_messages("x = 1 *[2] [\n");
  assert_non_null(strstr(messages, "syntax error"));
  free(messages);
}

/* Python 2, which the grammar accepts, is said to be Python 2; Python 3
 * code that merely mentions the words is not. */
static void test_python2_is_not_python3(void **state) {
  (void)state;
  char *messages = syntax_messages("import torch\nprint \"x\"\ntry:\n    pass\nexcept E, e:\n    pass\n");
  assert_string_equal(messages, "2: Python 2 syntax (a `print` statement): gpulint checks Python 3 code; port the file or "
                                "exclude it\n");
  free(messages);
  messages = syntax_messages("exec \"x = 1\"\n");
  assert_non_null(strstr(messages, "1: Python 2 syntax (an `exec` statement)"));
  free(messages);
  messages = syntax_messages("y = `x`\n");
  assert_non_null(strstr(messages, "1: Python 2 syntax (a backquoted expression)"));
  free(messages);
  static const char *const PYTHON3[] = {
      "print(\"x\")\n", "print\n",     "print (a), b\n", "exec(\"x\")\n",   "s = \"print x\"  # exec \"x\" `x`\n",
      "print >> f\n",   "x = print\n", "print(*a)\n",    "def f(print):\n    return print\n",
  };
  for (size_t i = 0; i < sizeof PYTHON3 / sizeof PYTHON3[0]; i++) {
    messages = syntax_messages(PYTHON3[i]);
    if (messages[0]) fail_msg("%s: %s", PYTHON3[i], messages);
    free(messages);
  }
}

static void test_binary_input_is_an_error(void **state) {
  (void)state;
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *result = gl_linter_lint_buffer(linter, "x.py", "ab\0cd", 5, &rules);
  assert_non_null(result->error);
  assert_int_equal(result->finding_count, 0);
  gl_file_result_delete(result);
  result = gl_linter_lint_file(linter, "/nonexistent/dir/x.py", &rules);
  assert_non_null(result->error);
  gl_file_result_delete(result);
  gl_linter_delete(linter);
}

static void test_json_report_reads_back(void **state) {
  (void)state;
  GlFileResult *result = lint("train.py", TRAIN);
  char *buffer = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&buffer, &size);
  report_write(out, stderr, FORMAT_JSON, &result, 1);
  fclose(out);
  cJSON *json = cJSON_Parse(buffer);
  assert_non_null(json);
  assert_true(cJSON_IsArray(json));
  assert_int_equal(cJSON_GetArraySize(json), 1);
  cJSON *finding = cJSON_GetArrayItem(json, 0);
  static const char *const KEYS[] = {"path", "line", "column", "end_line", "end_column", "code",
                                     "name", "message", "detail", "severity", "effect"};
  for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++) assert_non_null(cJSON_GetObjectItem(finding, KEYS[i]));
  assert_string_equal(cJSON_GetObjectItem(finding, "code")->valuestring, "GPU001");
  assert_string_equal(cJSON_GetObjectItem(finding, "effect")->valuestring, "wrong-gradients");
  assert_int_equal(cJSON_GetObjectItem(finding, "line")->valueint, 4);
  assert_null(cJSON_GetObjectItem(finding, "cell"));
  assert_null(cJSON_GetObjectItem(finding, "url")); /* no rule URL is configured */
  cJSON_Delete(json);
  free(buffer);
  gl_file_result_delete(result);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry_is_sorted_and_well_formed),
      cmocka_unit_test(test_every_rule_has_docs),
      cmocka_unit_test(test_finds_missing_zero_grad),
      cmocka_unit_test(test_noqa_and_selection),
      cmocka_unit_test(test_syntax_error_keeps_other_findings),
      cmocka_unit_test(test_starred_tuple_items_are_python3),
      cmocka_unit_test(test_python2_is_not_python3),
      cmocka_unit_test(test_binary_input_is_an_error),
      cmocka_unit_test(test_json_report_reads_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
