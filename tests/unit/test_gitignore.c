/* .gitignore parsing and matching, alone and as a stack of nested files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "gitignore.h"

static Gitignore *ignore(const char *directory, const char *text) {
  return gitignore_new(directory, text, strlen(text));
}

#define EXCLUDED(g, path, dir) assert_int_equal(gitignore_match(g, path, dir), IGNORE_EXCLUDED)
#define INCLUDED(g, path, dir) assert_int_equal(gitignore_match(g, path, dir), IGNORE_INCLUDED)
#define NONE(g, path, dir) assert_int_equal(gitignore_match(g, path, dir), IGNORE_NONE)

static void test_names_match_at_any_depth(void **state) {
  (void)state;
  Gitignore *g = ignore("/repo", "# build outputs\n\n*.log\ngenerated_*.py\n");
  EXCLUDED(g, "/repo/x.log", false);
  EXCLUDED(g, "/repo/a/b/x.log", false);
  EXCLUDED(g, "/repo/pkg/generated_model.py", false);
  NONE(g, "/repo/x.py", false);
  NONE(g, "/elsewhere/x.log", false); /* outside the file's directory */
  NONE(g, "/repo", true);
  gitignore_delete(g);
}

static void test_anchored_and_directory_patterns(void **state) {
  (void)state;
  Gitignore *g = ignore("/repo", "/build\nout/\ndoc/*.txt\nlogs/**/debug.py\n**/cache\n");
  EXCLUDED(g, "/repo/build", true);
  NONE(g, "/repo/sub/build", true);
  EXCLUDED(g, "/repo/out", true);
  EXCLUDED(g, "/repo/a/out", true);
  NONE(g, "/repo/out", false); /* a file named out */
  EXCLUDED(g, "/repo/doc/a.txt", false);
  NONE(g, "/repo/doc/x/a.txt", false);
  EXCLUDED(g, "/repo/logs/debug.py", false);
  EXCLUDED(g, "/repo/logs/a/b/debug.py", false);
  EXCLUDED(g, "/repo/cache", true);
  EXCLUDED(g, "/repo/x/y/cache", true);
  gitignore_delete(g);
}

static void test_negation_and_order(void **state) {
  (void)state;
  Gitignore *g = ignore("/repo", "*.py\n!keep.py\n");
  EXCLUDED(g, "/repo/a.py", false);
  INCLUDED(g, "/repo/keep.py", false);
  gitignore_delete(g);
  g = ignore("/repo", "!keep.py\n*.py\n"); /* the last match decides */
  EXCLUDED(g, "/repo/keep.py", false);
  gitignore_delete(g);
}

static void test_escapes_and_spaces(void **state) {
  (void)state;
  Gitignore *g = ignore("/repo", "\\#notes.py\n\\!bang.py\ntrailing.py   \nspace\\ \r\n/\n!\n");
  EXCLUDED(g, "/repo/#notes.py", false);
  EXCLUDED(g, "/repo/!bang.py", false);
  EXCLUDED(g, "/repo/trailing.py", false);
  EXCLUDED(g, "/repo/space ", false);
  NONE(g, "/repo/space", false);
  gitignore_delete(g);
}

static void test_stack_deepest_first(void **state) {
  (void)state;
  GitignoreStack stack = array_new();
  array_push(&stack, ignore("/repo", "*.py\ndata/\n"));
  array_push(&stack, ignore("/repo/sub", "!keep.py\n"));
  assert_true(gitignore_stack_excludes(&stack, "/repo/sub/a.py", false));
  assert_false(gitignore_stack_excludes(&stack, "/repo/sub/keep.py", false));
  assert_true(gitignore_stack_excludes(&stack, "/repo/keep.py", false));
  assert_true(gitignore_stack_excludes(&stack, "/repo/sub/data", true));
  assert_false(gitignore_stack_excludes(&stack, "/repo/readme.md", false));
  gitignore_stack_delete(&stack);
}

static void test_binary_and_long_lines(void **state) {
  (void)state;
  char text[6000];
  memset(text, 'a', 5000);
  memcpy(text + 5000, "\n*.py\nx\0y\n", 10);
  Gitignore *g = gitignore_new("/repo", text, 5010);
  EXCLUDED(g, "/repo/a.py", false);
  NONE(g, "/repo/x", false);
  gitignore_delete(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names_match_at_any_depth),
      cmocka_unit_test(test_anchored_and_directory_patterns),
      cmocka_unit_test(test_negation_and_order),
      cmocka_unit_test(test_escapes_and_spaces),
      cmocka_unit_test(test_stack_deepest_first),
      cmocka_unit_test(test_binary_and_long_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
