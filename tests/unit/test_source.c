/* Line index, code-point columns, text checks and notebook cell mapping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "source.h"
#include "syntax.h"

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

/* text_map_mentions enters exactly the dotted names text_mentions finds. */
static void test_text_map_mentions_agrees_with_text_mentions(void **state) {
  (void)state;
  static const char *const TEXTS[] = {
      "loss.backward()", "torch.stack(losses).sum()", "self.model.fc(x, h)", "a..b", "x.y.z[0].w",
      "init_hidden(h)", "(out, h) = rnn(x, h)", "f(a.b, .5, 0.5)", "", "x", "self.x+y.z", "a.(b)", "_a1.b2_",
  };
  static const char *const WORDS[] = {
      "loss", "loss.backward", "backward", "torch", "torch.stack", "losses", "sum", "self", "self.model",
      "self.model.fc", "model", "fc", "x", "h", "a", "a.", "a..b", "b", "y", "x.y", "x.y.z", "z", "w",
      "hidden", "init_hidden", "out", "rnn", "5", "0", "0.5", "self.x", "y.z", "_a1", "_a1.b2_", "b2_",
  };
  for (size_t t = 0; t < sizeof TEXTS / sizeof TEXTS[0]; t++) {
    Text text = {TEXTS[t], (uint32_t)strlen(TEXTS[t])};
    TextMap map = {0};
    text_map_mentions(&map, text, 7);
    for (size_t w = 0; w < sizeof WORDS / sizeof WORDS[0]; w++) {
      Text word = {WORDS[w], (uint32_t)strlen(WORDS[w])};
      if (!text_is_dotted_name(word)) continue;
      uint32_t value = text_map_get(&map, word);
      assert_true(value == 0 || value == 7);
      if ((value != 0) != text_mentions(text, word)) fail_msg("`%s` in `%s`", WORDS[w], TEXTS[t]);
    }
    text_map_delete(&map);
  }
  assert_false(text_is_dotted_name((Text){"a[i]", 4}));
  assert_false(text_is_dotted_name((Text){".x", 2}));
}

/* A map keeps the greatest value entered for a key, and grows. */
static void test_text_map_keeps_the_greatest_value(void **state) {
  (void)state;
  char names[200][8];
  TextMap map = {0};
  for (int i = 0; i < 200; i++) {
    snprintf(names[i], sizeof names[i], "n%d", i);
    text_map_mentions(&map, (Text){names[i], (uint32_t)strlen(names[i])}, (uint32_t)i + 1);
  }
  text_map_mentions(&map, (Text){"n5", 2}, 3);
  for (int i = 0; i < 200; i++) assert_int_equal(text_map_get(&map, (Text){names[i], (uint32_t)strlen(names[i])}), i + 1);
  assert_int_equal(text_map_get(&map, (Text){"n200", 4}), 0);
  *text_map_at(&map, (Text){"n5", 2}) = 1;
  assert_int_equal(text_map_get(&map, (Text){"n5", 2}), 1);
  assert_int_equal(map.count, 200);
  text_map_delete(&map);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_line_of_maps_bytes_to_lines),
      cmocka_unit_test(test_columns_count_code_points),
      cmocka_unit_test(test_check_text_rejects_binary_and_bad_utf8),
      cmocka_unit_test(test_line_text_strips_newlines),
      cmocka_unit_test(test_positions_map_back_to_cells),
      cmocka_unit_test(test_text_map_mentions_agrees_with_text_mentions),
      cmocka_unit_test(test_text_map_keeps_the_greatest_value),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
