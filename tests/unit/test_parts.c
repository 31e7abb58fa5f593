/* A large file cut into parts of whole top-level statements (parts.h),
 * and linted part by part with the same findings as a small one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"
#include "parts.h"

static const char HEADER[] = "import torch\n"
                             "import torch.nn as nn\n"
                             "model = nn.Linear(16, 1)\n"
                             "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n";

/* One block: a training loop with no clearing (GPU001 on its backward, the
 * block's line 3), and top-level lines that are no statements: a string
 * and a call running over lines at column 0, a clause, a decorated def,
 * a continued line. */
static const char BLOCK[] = "for x, y in loader:\n"
                            "    loss = criterion(model(x), y)\n"
                            "    loss.backward()\n"
                            "    optimizer.step()\n"
                            "NOTE = '''\n"
                            "def inside_a_string():\n"
                            "'''\n"
                            "print(\n"
                            "for_inside_brackets)\n"
                            "if NOTE:\n"
                            "    pass\n"
                            "else:\n"
                            "    pass\n"
                            "@decorator\n"
                            "def helper_after_decorator():\n"
                            "    return 1\n"
                            "total = 1 + \\\n"
                            "continued_line\n";

#define BLOCK_LINES 18
#define BACKWARD_LINE 3

/* HEADER and then BLOCK repeated until the text holds `size` bytes; the
 * caller frees it. */
static char *big_text(size_t size, uint32_t *blocks) {
  size_t header = strlen(HEADER), block = strlen(BLOCK);
  *blocks = (uint32_t)((size - header) / block + 1);
  char *text = malloc(header + *blocks * block + 1);
  memcpy(text, HEADER, header);
  for (uint32_t i = 0; i < *blocks; i++) memcpy(text + header + i * block, BLOCK, block);
  text[header + *blocks * block] = '\0';
  return text;
}

/* Whether a part may start at `at`: a statement of BLOCK's that starts at
 * column 0 and is none of the lines that continue another. */
static bool statement_start(const char *text, uint32_t at) {
  static const char *const STARTS[] = {"for x", "NOTE = ", "print(", "if NOTE", "@decorator", "total = "};
  if (at > 0 && text[at - 1] != '\n') return false;
  for (size_t i = 0; i < sizeof STARTS / sizeof STARTS[0]; i++) {
    if (strncmp(text + at, STARTS[i], strlen(STARTS[i])) == 0) return true;
  }
  return false;
}

static void test_a_small_text_is_one_part(void **state) {
  (void)state;
  Parts parts;
  parts_split(BLOCK, (uint32_t)strlen(BLOCK), &parts);
  assert_int_equal(parts.parts.size, 1);
  assert_int_equal(parts.parts.contents[0].start_byte, 0);
  assert_int_equal(parts.parts.contents[0].end_byte, strlen(BLOCK));
  assert_int_equal(parts.context.size, 0);
  parts_delete(&parts);
}

static void test_parts_cover_the_text_at_statement_starts(void **state) {
  (void)state;
  uint32_t blocks = 0;
  char *text = big_text(2 * PARTS_MIN_BYTES, &blocks);
  uint32_t length = (uint32_t)strlen(text);
  Parts parts;
  parts_split(text, length, &parts);
  assert_true(parts.parts.size >= 2 * PARTS_MIN_BYTES / PARTS_BYTES - 1);
  uint32_t at = 0, row = 0;
  for (uint32_t i = 0; i < parts.parts.size; i++) {
    const TSRange *part = &parts.parts.contents[i];
    assert_int_equal(part->start_byte, at);
    assert_int_equal(part->start_point.row, row);
    assert_int_equal(part->start_point.column, 0);
    if (i > 0) assert_true(statement_start(text, part->start_byte));
    if (i + 1 < parts.parts.size) assert_true(part->end_byte - part->start_byte >= PARTS_BYTES);
    for (uint32_t b = part->start_byte; b < part->end_byte; b++) row += text[b] == '\n';
    at = part->end_byte;
  }
  assert_int_equal(at, length);
  parts_delete(&parts);
  free(text);
}

static void test_context_holds_imports_and_assignments(void **state) {
  (void)state;
  uint32_t blocks = 0;
  char *text = big_text(2 * PARTS_MIN_BYTES, &blocks);
  Parts parts;
  parts_split(text, (uint32_t)strlen(text), &parts);
  /* the header's four statements first, then the blocks' assignments
   * (NOTE, total) until the budget is spent; never a loop, an if or a def */
  assert_true(parts.context.size > 4);
  assert_int_equal(parts.context.contents[0].start_byte, 0);
  assert_int_equal(parts.context.contents[3].end_byte, strlen(HEADER));
  uint32_t total = 0;
  for (uint32_t i = 0; i < parts.context.size; i++) {
    const TSRange *context = &parts.context.contents[i];
    const char *start = text + context->start_byte;
    assert_true(strncmp(start, "for", 3) != 0 && strncmp(start, "if", 2) != 0 && strncmp(start, "@", 1) != 0);
    total += context->end_byte - context->start_byte;
  }
  assert_true(total <= PARTS_CONTEXT_BYTES);
  /* a later part is parsed with the context before it, itself, and the
   * context after it: sorted, none overlapping */
  PartRanges ranges = array_new();
  parts_ranges(&parts, parts.parts.size - 1, &ranges);
  assert_int_equal(ranges.contents[0].start_byte, 0);
  assert_int_equal(ranges.contents[ranges.size - 1].end_byte, strlen(text));
  for (uint32_t i = 1; i < ranges.size; i++) assert_true(ranges.contents[i - 1].end_byte < ranges.contents[i].start_byte);
  array_delete(&ranges);
  parts_delete(&parts);
  free(text);
}

static void test_a_large_file_is_linted_in_parts_with_every_finding(void **state) {
  (void)state;
  uint32_t blocks = 0;
  char *text = big_text(PARTS_MIN_BYTES + PARTS_BYTES, &blocks);
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *result = gl_linter_lint_buffer(linter, "large.py", text, strlen(text), &rules);
  assert_null(result->error);
  assert_int_equal(result->finding_count, blocks);
  uint32_t header_lines = 4;
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFinding *finding = &result->findings[i];
    assert_string_equal(gl_rule_info(finding->rule)->code, "GPU001");
    assert_int_equal(finding->start.line, header_lines + i * BLOCK_LINES + BACKWARD_LINE);
  }
  gl_file_result_delete(result);
  gl_linter_delete(linter);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_small_text_is_one_part),
      cmocka_unit_test(test_parts_cover_the_text_at_statement_starts),
      cmocka_unit_test(test_context_holds_imports_and_assignments),
      cmocka_unit_test(test_a_large_file_is_linted_in_parts_with_every_finding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
