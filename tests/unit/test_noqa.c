/* `# noqa` on a line and `# gpulint: noqa` for a file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "noqa.h"

static bool suppresses(const char *line, const char *code) {
  return noqa_suppresses(line, (uint32_t)strlen(line), code);
}

static void test_bare_noqa_suppresses_everything(void **state) {
  (void)state;
  assert_true(suppresses("losses.append(loss)  # noqa", "GPU101"));
  assert_true(suppresses("losses.append(loss)  #NOQA", "GPU201"));
  assert_false(suppresses("losses.append(loss)", "GPU101"));
  assert_false(suppresses("losses.append(loss)  # noqanope", "GPU101"));
}

static void test_listed_codes_only(void **state) {
  (void)state;
  assert_true(suppresses("x  # noqa: GPU101", "GPU101"));
  assert_false(suppresses("x  # noqa: GPU101", "GPU102"));
  assert_true(suppresses("x  # noqa: GPU102, GPU101", "GPU101"));
  assert_true(suppresses("x  # noqa:GPU102 GPU101", "GPU101"));
  assert_true(suppresses("x  # noqa: gpu101", "GPU101"));
  assert_true(suppresses("x  # noqa: GPU1", "GPU103"));
}

static void test_noqa_inside_strings_is_not_a_comment(void **state) {
  (void)state;
  assert_false(suppresses("print(\"# noqa\")", "GPU101"));
  assert_true(suppresses("print(\"#\")  # noqa", "GPU101"));
  assert_true(suppresses("x = 1  # type: ignore # noqa: GPU101", "GPU101"));
}

static void test_file_level(void **state) {
  (void)state;
  const char *skip = "import torch\n# gpulint: noqa\nx = 1\n";
  assert_true(noqa_skips_file(skip, (uint32_t)strlen(skip), NULL));
  const char *one = "import torch\n  # gpulint: noqa: GPU201\n";
  assert_false(noqa_skips_file(one, (uint32_t)strlen(one), NULL));
  assert_true(noqa_skips_file(one, (uint32_t)strlen(one), "GPU201"));
  assert_false(noqa_skips_file(one, (uint32_t)strlen(one), "GPU101"));
  const char *trailing = "x = 1  # gpulint: noqa\n";
  assert_false(noqa_skips_file(trailing, (uint32_t)strlen(trailing), NULL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bare_noqa_suppresses_everything),
      cmocka_unit_test(test_listed_codes_only),
      cmocka_unit_test(test_noqa_inside_strings_is_not_a_comment),
      cmocka_unit_test(test_file_level),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
