/* The notebook loader and the masking of IPython syntax: the buffer, the
 * cell map, exact positions, kernel languages and malformed notebooks. */
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
#include "notebook.h"

/* ---- Helpers ------------------------------------------------------------- */

/* Masks a copy of `text`; returns whether the cell is kept. */
static bool mask(const char *text, char **masked) {
  size_t length = strlen(text);
  *masked = gl_strndup(text, length);
  bool kept = notebook_mask_cell(*masked, length);
  assert_int_equal(strlen(*masked), length);
  return kept;
}

static void assert_masked(const char *text, const char *expected) {
  char *masked = NULL;
  assert_true(mask(text, &masked));
  assert_string_equal(masked, expected);
  free(masked);
}

static void assert_unchanged(const char *text) { assert_masked(text, text); }

/* An nbformat 4 notebook whose cells are "code:SOURCE", "markdown:SOURCE" or
 * "raw:SOURCE"; `language` NULL leaves out the metadata. Caller frees. */
static char *notebook_json(const char *language, const char *const *cells, size_t count) {
  cJSON *root = cJSON_CreateObject();
  cJSON *metadata = cJSON_AddObjectToObject(root, "metadata");
  if (language) cJSON_AddStringToObject(cJSON_AddObjectToObject(metadata, "kernelspec"), "language", language);
  cJSON *list = cJSON_AddArrayToObject(root, "cells");
  for (size_t i = 0; i < count; i++) {
    const char *colon = strchr(cells[i], ':');
    cJSON *cell = cJSON_CreateObject();
    char type[16] = {0};
    memcpy(type, cells[i], (size_t)(colon - cells[i]));
    cJSON_AddStringToObject(cell, "cell_type", type);
    cJSON_AddObjectToObject(cell, "metadata");
    cJSON_AddStringToObject(cell, "source", colon + 1);
    cJSON_AddItemToArray(list, cell);
  }
  cJSON_AddNumberToObject(root, "nbformat", 4);
  cJSON_AddNumberToObject(root, "nbformat_minor", 5);
  char *text = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  return text;
}

static Source *load(const char *json, NotebookStatus *status, char **message) {
  return notebook_load("n.ipynb", json, strlen(json), status, message);
}

static GlFileResult *lint(const char *json) {
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *result = gl_linter_lint_buffer(linter, "n.ipynb", json, strlen(json), &rules);
  gl_linter_delete(linter);
  return result;
}

static const char LOOP[] =
    "for x, y in loader:\n"
    "    loss = criterion(model(x), y)\n"
    "    loss.backward()\n"
    "    optimizer.step()\n";

/* ---- Masking --------------------------------------------------------------- */

static void test_masks_line_magics_and_shell_escapes(void **state) {
  (void)state;
  assert_masked("%matplotlib inline\nimport torch\n", "#matplotlib inline\nimport torch\n");
  assert_masked("!pip install timm\n", "#pip install timm\n");
  assert_masked("!!ls\nx = 1", "#!ls\nx = 1");
  assert_masked("%%time\n%env A=1\n", "#%time\n#env A=1\n");
  assert_masked("x = 1\n%%time\n", "x = 1\n#%time\n");
  /* a shell command continued with backslashes: its lines are blanked */
  assert_masked("!pip install -U \\\n    transformers \\\n    peft\nimport torch\n",
                "#pip install -U \\\n                  \n        \nimport torch\n");
  assert_masked("%pip install \\\r\n  timm\r\nx = 1\r\n", "#pip install \\\r\n      \r\nx = 1\r\n");
}

static void test_masks_help(void **state) {
  (void)state;
  assert_masked("?torch.nn\n", "#torch.nn\n");
  assert_masked("??model\n", "#?model\n");
  assert_masked("torch.nn.Linear?\n", "#orch.nn.Linear?\n");
  assert_masked("model.zero_grad?? \n", "#odel.zero_grad?? \n");
  assert_masked("torch.*load*?\n", "#orch.*load*?\n");
  assert_unchanged("x = 1  # why?\n");
  assert_unchanged("s = 'why?'\n");
}

static void test_masks_shell_assignments_and_automagics(void **state) {
  (void)state;
  assert_masked("files = !ls data\n", "#iles = !ls data\n");
  assert_masked("out, err = %sx ls\n", "#ut, err = %sx ls\n");
  assert_masked("pip install timm\n", "#ip install timm\n");
  assert_masked("cd data\nload_ext autoreload\nautoreload 2\n", "#d data\n#oad_ext autoreload\n#utoreload 2\n");
  assert_unchanged("x = a != b\n");
  assert_unchanged("time = 3\n");
  assert_unchanged("pip(x)\n");
  assert_unchanged("time if fast else slow\n");
  assert_unchanged("run\n");
  assert_unchanged("a %= 3\n");
  assert_unchanged("a = b\n");
}

static void test_indented_escapes_keep_a_statement(void **state) {
  (void)state;
  assert_masked("if colab:\n    !pip install timm\n", "if colab:\n    0#ip install timm\n");
  assert_masked("try:\n    import timm\nexcept ImportError:\n\t%pip install timm\n",
                "try:\n    import timm\nexcept ImportError:\n\t0#ip install timm\n");
  assert_masked("if a:\n    !\n", "if a:\n    0\n");
  assert_masked("if a:\n    !\xc3\xa9t\xc3\xa9\n", "if a:\n    0     \n");
}

static void test_timing_magics_keep_their_statement(void **state) {
  (void)state;
  assert_masked("%time out = model(x)\n", "0;    out = model(x)\n");
  assert_masked("for b in loader:\n    %timeit  loss.backward()\n", "for b in loader:\n    0;       loss.backward()\n");
  assert_masked("time train(model)\n", "0;   train(model)\n");
  assert_masked("%prun f(\n    x)\n", "0;    f(\n    x)\n");
  assert_masked("%timeit -n 10 f()\n", "#timeit -n 10 f()\n");
  assert_masked("%time for i in r: f()\n", "#time for i in r: f()\n");
  assert_masked("%time\n", "#time\n");
}

static void test_cell_magics(void **state) {
  (void)state;
  assert_masked("%%time\nfor x in y:\n    f(x)\n", "#%time\nfor x in y:\n    f(x)\n");
  assert_masked("\n  \n%%capture out\nf()\n", "\n  \n#%capture out\nf()\n");
  assert_masked("%%timeit it = iter(loader)\nnext(it)\n", "0;       it = iter(loader)\nnext(it)\n");
  char *masked = NULL;
  assert_false(mask("%%bash\necho hi\n", &masked));
  free(masked);
  assert_false(mask("\n%%writefile train.py\nimport torch\n", &masked));
  free(masked);
  assert_false(mask("%%timeitx\n", &masked));
  free(masked);
  assert_masked("# setup\n%%bash\n", "# setup\n#%bash\n");
}

static void test_continuations_are_not_masked(void **state) {
  (void)state;
  assert_unchanged("x = (a\n     % b)\n");
  assert_unchanged("x = [a,\n  !b]\n");
  assert_unchanged("x = a \\\n    % b\n");
  assert_unchanged("s = \"\"\"\n%d steps\n!important\nwhy?\n\"\"\"\n");
  assert_unchanged("s = '''it''s\n%d'''\n");
  assert_unchanged("s = 'a\\\n%d'\n");
  assert_masked("s = \"%d\" % 3\n%time f()\n", "s = \"%d\" % 3\n0;    f()\n");
  assert_masked("s = 'a \\' (' \n!ls\n", "s = 'a \\' (' \n#ls\n");
  assert_masked("x = f(  # (\n)\n!ls\n", "x = f(  # (\n)\n#ls\n");
  assert_masked("s = 'unterminated\n!ls\n", "s = 'unterminated\n#ls\n");
}

static void test_crlf_lines(void **state) {
  (void)state;
  assert_masked("%matplotlib inline\r\nmodel?\r\nx = (1\r\n% 2)\r\n", "#matplotlib inline\r\n#odel?\r\nx = (1\r\n% 2)\r\n");
  assert_masked("if a:\r\n    !l\r\n", "if a:\r\n    0#\r\n");
}

/* ---- Loading --------------------------------------------------------------- */

static void test_loads_code_cells_into_one_buffer(void **state) {
  (void)state;
  const char *cells[] = {
      "markdown:# Title\n",
      "code:import torch\n%matplotlib inline",
      "raw:raw text",
      "code:",
      "code:%%bash\nls\n",
      "code:x = 1\n\ny = 2\n",
  };
  char *json = notebook_json("python", cells, 6);
  NotebookStatus status = NOTEBOOK_INVALID;
  char *message = NULL;
  Source *source = load(json, &status, &message);
  assert_non_null(source);
  assert_int_equal(status, NOTEBOOK_OK);
  assert_null(message);
  assert_string_equal(source->bytes, "import torch\n#matplotlib inline\n\nx = 1\n\ny = 2\n");
  assert_int_equal(source->cells.size, 3);
  const uint32_t first_lines[] = {1, 3, 4}, numbers[] = {2, 4, 6};
  for (uint32_t i = 0; i < 3; i++) {
    assert_int_equal(source->cells.contents[i].first_line, first_lines[i]);
    assert_int_equal(source->cells.contents[i].cell, numbers[i]);
  }
  uint32_t cell = 0;
  GlPosition position = source_position(source, (uint32_t)(strstr(source->bytes, "y = 2") - source->bytes) + 4, &cell);
  assert_int_equal(cell, 6);
  assert_int_equal(position.line, 3);
  assert_int_equal(position.column, 5);
  source_delete(source);
  free(json);
}

static void test_sources_may_be_arrays(void **state) {
  (void)state;
  const char *json =
      "{\"nbformat\": 4, \"nbformat_minor\": 4, \"metadata\": {},\n"
      " \"cells\": [{\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [],\n"
      "            \"source\": [\"import torch\\n\", \"x = 1\"]},\n"
      "           {\"cell_type\": \"code\", \"metadata\": {\"vscode\": {\"languageId\": \"sql\"}},\n"
      "            \"source\": [\"SELECT 1\"]},\n"
      "           {\"cell_type\": \"code\", \"metadata\": {}, \"source\": [\"\\u00e9 = 2\\n\"]}]}";
  NotebookStatus status;
  char *message = NULL;
  Source *source = load(json, &status, &message);
  assert_non_null(source);
  assert_string_equal(source->bytes, "import torch\nx = 1\n\xc3\xa9 = 2\n");
  assert_int_equal(source->cells.size, 2);
  assert_int_equal(source->cells.contents[1].first_line, 3);
  assert_int_equal(source->cells.contents[1].cell, 3);
  source_delete(source);
}

static void test_kernel_language(void **state) {
  (void)state;
  const char *cells[] = {"code:x = 1\n"};
  const struct {
    const char *language;
    NotebookStatus status;
    const char *message;
  } CASES[] = {
      {"python", NOTEBOOK_OK, NULL},
      {"Python", NOTEBOOK_OK, NULL},
      {NULL, NOTEBOOK_OK, NULL},
      {"R", NOTEBOOK_NOT_PYTHON, "skipped: kernel language is R"},
      {"julia\x1b[31m", NOTEBOOK_NOT_PYTHON, "skipped: kernel language is julia?[31m"},
  };
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    char *json = notebook_json(CASES[i].language, cells, 1);
    NotebookStatus status;
    char *message = NULL;
    Source *source = load(json, &status, &message);
    assert_int_equal(status, CASES[i].status);
    if (CASES[i].message) assert_string_equal(message, CASES[i].message);
    else assert_null(message);
    assert_true((source != NULL) == (status == NOTEBOOK_OK));
    source_delete(source);
    free(message);
    free(json);
  }
  const char *info_first =
      "{\"nbformat\": 4, \"cells\": [], \"metadata\": {\"kernelspec\": {\"language\": \"python\"},"
      " \"language_info\": {\"name\": \"scala\"}}}";
  NotebookStatus status;
  char *message = NULL;
  assert_null(load(info_first, &status, &message));
  assert_string_equal(message, "skipped: kernel language is scala");
  free(message);
}

static void test_rejects_malformed_notebooks(void **state) {
  (void)state;
  const struct {
    const char *json;
    const char *message;
  } CASES[] = {
      {"", "not a notebook: the file is empty"},
      {" \n", "not a notebook: the file is empty"},
      {"{\"cells\": [}", "invalid JSON at line 1, column 12"},
      {"{\n  \"cells\": [],\n  \"nbformat\": 4,\n  \xc3\xa9}", "invalid JSON at line 4, column 3"},
      {"{\"cells\": [], \"nbformat\": 4} x", "invalid JSON at line 1, column 30: unexpected text after the notebook"},
      {"[]", "not a notebook: the top level is an array, expected an object"},
      {"\"cells\"", "not a notebook: the top level is a string, expected an object"},
      {"{\"cells\": []}", "not a notebook: no `nbformat` key"},
      {"{\"cells\": [], \"nbformat\": \"4\"}", "`nbformat` is a string, expected 4"},
      {"{\"worksheets\": [], \"nbformat\": 3}",
       "nbformat 3 is not supported, only nbformat 4 (`jupyter nbconvert --to notebook` upgrades it)"},
      {"{\"nbformat\": 4}", "not a notebook: no `cells` key"},
      {"{\"cells\": 5, \"nbformat\": 4}", "`cells` is a number, expected an array"},
      {"{\"cells\": {}, \"nbformat\": 4}", "`cells` is an object, expected an array"},
      {"{\"cells\": [null], \"nbformat\": 4}", "cell 1 is null, expected an object"},
      {"{\"cells\": [{\"source\": \"\"}], \"nbformat\": 4}", "cell 1 has no `cell_type`"},
      {"{\"cells\": [{\"cell_type\": 1, \"source\": \"\"}], \"nbformat\": 4}",
       "cell 1: `cell_type` is a number, expected a string"},
      {"{\"cells\": [{\"cell_type\": \"code\"}], \"nbformat\": 4}", "cell 1 has no `source`"},
      {"{\"cells\": [{\"cell_type\": \"markdown\", \"source\": \"\"}, {\"cell_type\": \"code\", \"source\": 5}],"
       " \"nbformat\": 4}",
       "cell 2: `source` is a number, expected a string or an array of strings"},
      {"{\"cells\": [{\"cell_type\": \"markdown\", \"source\": [\"a\", true]}], \"nbformat\": 4}",
       "cell 1: `source[1]` is a boolean, expected a string"},
      {"{\"cells\": [{\"cell_type\": \"code\", \"source\": \"\\ud800\"}], \"nbformat\": 4}",
       "invalid JSON at line 1, column 45"},
  };
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    NotebookStatus status = NOTEBOOK_OK;
    char *message = NULL;
    Source *source = load(CASES[i].json, &status, &message);
    assert_null(source);
    assert_int_equal(status, NOTEBOOK_INVALID);
    assert_string_equal(message, CASES[i].message);
    free(message);
  }
}

static void test_path_matches(void **state) {
  (void)state;
  assert_true(notebook_path_matches("a/b.ipynb"));
  assert_true(notebook_path_matches("B.IPYNB"));
  assert_true(notebook_path_matches(".ipynb"));
  assert_false(notebook_path_matches("b.py"));
  assert_false(notebook_path_matches("ipynb"));
  assert_false(notebook_path_matches("b.ipynb.py"));
}

/* ---- Linting ------------------------------------------------------------- */

static void test_findings_point_into_cells(void **state) {
  (void)state;
  const char *cells[] = {
      "markdown:# Training",
      "code:import torch\n",
      "markdown:The loop",
      "code:%matplotlib inline\n!nvidia-smi\nfor x, y in loader:\n    loss = criterion(model(x), y)\n"
      "    %time loss.backward()\n    optimizer.step()",
  };
  char *json = notebook_json("python", cells, 4);
  GlFileResult *result = lint(json);
  assert_null(result->error);
  assert_null(result->note);
  assert_int_equal(result->finding_count, 1);
  const GlFinding *finding = &result->findings[0];
  assert_string_equal(gl_rule_info(finding->rule)->code, "GPU001");
  assert_int_equal(finding->cell, 4);
  assert_int_equal(finding->start.line, 5);
  assert_int_equal(finding->start.column, 11);
  assert_int_equal(finding->end.line, 5);
  assert_int_equal(finding->end.column, 26);
  gl_file_result_delete(result);
  free(json);
}

static void test_loop_and_helper_in_different_cells(void **state) {
  (void)state;
  const char *cells[] = {
      "code:def clear(opt):\n    opt.zero_grad()\n",
      "markdown:Train",
      "code:for x, y in loader:\n    clear(optimizer)\n    loss = criterion(model(x), y)\n"
      "    loss.backward()\n    optimizer.step()\n",
  };
  char *json = notebook_json("python", cells, 3);
  GlFileResult *result = lint(json);
  assert_int_equal(result->finding_count, 0);
  gl_file_result_delete(result);
  free(json);
}

static void test_noqa_in_cells(void **state) {
  (void)state;
  char loop_noqa[256];
  snprintf(loop_noqa, sizeof loop_noqa, "code:%s", LOOP);
  char *line = strstr(loop_noqa, "loss.backward()");
  const char *rest = "loss.backward()  # noqa: GPU001\n    optimizer.step()\n";
  memcpy(line, rest, strlen(rest) + 1);
  const char *cells[] = {"markdown:x", loop_noqa};
  char *json = notebook_json("python", cells, 2);
  GlFileResult *result = lint(json);
  assert_int_equal(result->finding_count, 0);
  gl_file_result_delete(result);
  free(json);

  char loop[256];
  snprintf(loop, sizeof loop, "code:%s", LOOP);
  const char *skipped[] = {"markdown:# gpulint: noqa", loop};
  json = notebook_json("python", skipped, 2);
  result = lint(json);
  assert_int_equal(result->finding_count, 1); /* a markdown cell does not skip the notebook */
  gl_file_result_delete(result);
  free(json);

  const char *skip[] = {"code:import torch\n# gpulint: noqa\n", loop};
  json = notebook_json("python", skip, 2);
  result = lint(json);
  assert_int_equal(result->finding_count, 0);
  gl_file_result_delete(result);
  free(json);
}

static void test_results_of_skipped_and_broken_notebooks(void **state) {
  (void)state;
  char loop[256];
  snprintf(loop, sizeof loop, "code:%s", LOOP);
  const char *cells[] = {loop};
  char *json = notebook_json("R", cells, 1);
  GlFileResult *result = lint(json);
  assert_int_equal(result->finding_count, 0);
  assert_null(result->error);
  assert_string_equal(result->note, "skipped: kernel language is R");
  gl_file_result_delete(result);
  free(json);

  result = lint("{\"cells\": 5, \"nbformat\": 4}");
  assert_int_equal(result->finding_count, 0);
  assert_null(result->note);
  assert_string_equal(result->error, "`cells` is a number, expected an array");
  gl_file_result_delete(result);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_masks_line_magics_and_shell_escapes),
      cmocka_unit_test(test_masks_help),
      cmocka_unit_test(test_masks_shell_assignments_and_automagics),
      cmocka_unit_test(test_indented_escapes_keep_a_statement),
      cmocka_unit_test(test_timing_magics_keep_their_statement),
      cmocka_unit_test(test_cell_magics),
      cmocka_unit_test(test_continuations_are_not_masked),
      cmocka_unit_test(test_crlf_lines),
      cmocka_unit_test(test_loads_code_cells_into_one_buffer),
      cmocka_unit_test(test_sources_may_be_arrays),
      cmocka_unit_test(test_kernel_language),
      cmocka_unit_test(test_rejects_malformed_notebooks),
      cmocka_unit_test(test_path_matches),
      cmocka_unit_test(test_findings_point_into_cells),
      cmocka_unit_test(test_loop_and_helper_in_different_cells),
      cmocka_unit_test(test_noqa_in_cells),
      cmocka_unit_test(test_results_of_skipped_and_broken_notebooks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
