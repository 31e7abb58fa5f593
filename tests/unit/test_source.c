/* Line index, code-point columns, text checks and notebook cell mapping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "source.h"

static void test_line_of_maps_bytes_to_lines(void **state) {
  (void)state;
  const char *text = "a\nbc\n\nd";
  Source *source = source_new("x.py", text, strlen(text));
  assert_int_equal(source_line_of(source, 0), 1);
  assert_int_equal(source_line_of(source, 1), 1);
  assert_int_equal(source_line_of(source, 2), 2);
  assert_int_equal(source_line_of(source, 5), 3);
  assert_int_equal(source_line_of(source, 6), 4);
  source_delete(source);
}

static void test_columns_count_code_points(void **state) {
  (void)state;
  const char *text = "x = \"\xc3\xa9\xe2\x82\xac\"; y\n";
  Source *source = source_new("x.py", text, strlen(text));
  uint32_t cell = 99;
  GlPosition position = source_position(source, (uint32_t)(strchr(text, 'y') - text), &cell);
  assert_int_equal(position.line, 1);
  assert_int_equal(position.column, 11);
  assert_int_equal(cell, 0);
  source_delete(source);
}

static void test_check_text_rejects_binary_and_bad_utf8(void **state) {
  (void)state;
  size_t offset = 0;
  assert_null(source_check_text("ok = 1\n", 7, &offset));
  assert_non_null(source_check_text("a\0b", 3, &offset));
  assert_int_equal(offset, 1);
  assert_non_null(source_check_text("ab\xff", 3, &offset));
  assert_int_equal(offset, 2);
  assert_non_null(source_check_text("\xc3", 1, &offset));          /* truncated */
  assert_non_null(source_check_text("\xc0\x80", 2, &offset));      /* overlong */
  assert_non_null(source_check_text("\xed\xa0\x80", 3, &offset));  /* surrogate */
  assert_null(source_check_text("\xf0\x9f\x94\xa5", 4, &offset));  /* emoji */
}

static void test_line_text_strips_newlines(void **state) {
  (void)state;
  const char *text = "first\r\nsecond\n";
  Source *source = source_new("x.py", text, strlen(text));
  uint32_t length = 0;
  const char *line = source_line_text(source, 1, &length);
  assert_int_equal(length, 5);
  assert_memory_equal(line, "first", 5);
  line = source_line_text(source, 2, &length);
  assert_memory_equal(line, "second", 6);
  source_line_text(source, 9, &length);
  assert_int_equal(length, 0);
  source_delete(source);
}

static void test_positions_map_back_to_cells(void **state) {
  (void)state;
  const char *text = "import torch\n\nx = 1\ny = 2\n";
  Source *source = source_new("n.ipynb", text, strlen(text));
  array_push(&source->cells, ((CellSpan){1, 2}));
  array_push(&source->cells, ((CellSpan){3, 4}));
  uint32_t cell = 0;
  GlPosition position = source_position(source, (uint32_t)(strchr(text, 'y') - text), &cell);
  assert_int_equal(cell, 4);
  assert_int_equal(position.line, 2);
  position = source_position(source, 0, &cell);
  assert_int_equal(cell, 2);
  assert_int_equal(position.line, 1);
  source_delete(source);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_line_of_maps_bytes_to_lines),
      cmocka_unit_test(test_columns_count_code_points),
      cmocka_unit_test(test_check_text_rejects_binary_and_bad_utf8),
      cmocka_unit_test(test_line_text_strips_newlines),
      cmocka_unit_test(test_positions_map_back_to_cells),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
