/* Glob patterns (with and without path semantics), {a,b} alternatives, and
 * the lexical path helpers they work with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "path.h"

#define MATCH(pattern, text) assert_true(glob_match(pattern, text, 0))
#define NO_MATCH(pattern, text) assert_false(glob_match(pattern, text, 0))
#define PATH_MATCH(pattern, text) assert_true(glob_match(pattern, text, GLOB_PATHNAME))
#define PATH_NO_MATCH(pattern, text) assert_false(glob_match(pattern, text, GLOB_PATHNAME))

static void test_wildcards(void **state) {
  (void)state;
  MATCH("*.py", "train.py");
  NO_MATCH("*.py", "train.pyc");
  MATCH("*", "");
  MATCH("train_?.py", "train_1.py");
  NO_MATCH("train_?.py", "train_12.py");
  MATCH("*_pb2.py", "model_pb2.py");
  MATCH("a*b*c", "abc");
  MATCH("a*b*c", "axxbyyc");
  NO_MATCH("a*b*c", "axxbyy");
  MATCH("exact", "exact");
  NO_MATCH("exact", "exactly");
  NO_MATCH("", "x");
  MATCH("", "");
}

static void test_classes_and_escapes(void **state) {
  (void)state;
  MATCH("[abc].py", "b.py");
  NO_MATCH("[abc].py", "d.py");
  MATCH("[a-c]x", "cx");
  MATCH("[!a-c]x", "dx");
  NO_MATCH("[!a-c]x", "ax");
  MATCH("[^a]", "b");
  MATCH("[]]", "]");
  MATCH("[]a]", "a");
  MATCH("\\*", "*");
  NO_MATCH("\\*", "x");
  MATCH("a\\[b", "a[b");
  NO_MATCH("[abc", "a");  /* unclosed class */
  NO_MATCH("abc\\", "abc"); /* trailing backslash */
}

static void test_star_crosses_slash_without_pathname(void **state) {
  (void)state;
  MATCH("tests/*", "tests/unit/test_a.py");
  MATCH("/repo/*.py", "/repo/sub/x.py");
  MATCH("/repo/**/x.py", "/repo/a/b/x.py");
  PATH_NO_MATCH("tests/*", "tests/unit/test_a.py");
  PATH_MATCH("tests/*", "tests/test_a.py");
  PATH_NO_MATCH("*.py", "a/b.py");
  PATH_NO_MATCH("?", "/");
  PATH_NO_MATCH("a[/]b", "a/b");
}

static void test_double_star_components(void **state) {
  (void)state;
  PATH_MATCH("**/b.py", "b.py");
  PATH_MATCH("**/b.py", "a/b.py");
  PATH_MATCH("**/b.py", "a/c/b.py");
  PATH_NO_MATCH("**/b.py", "a/cb.py");
  PATH_MATCH("a/**", "a/x");
  PATH_MATCH("a/**", "a/x/y");
  PATH_NO_MATCH("a/**", "a");
  PATH_NO_MATCH("a/**", "b/x");
  PATH_MATCH("a/**/b", "a/b");
  PATH_MATCH("a/**/b", "a/x/b");
  PATH_MATCH("a/**/b", "a/x/y/b");
  PATH_NO_MATCH("a/**/b", "a/xb");
  PATH_MATCH("a**b", "axxb"); /* not a whole component: a single star */
  PATH_NO_MATCH("a**b", "ax/b");
  PATH_MATCH("**", "a/b/c");
  PATH_MATCH("**/*.py", "deep/er/x.py");
  PATH_NO_MATCH("**/*.py", "deep/er/x.pyc");
}

static void test_pathological_patterns_are_fast(void **state) {
  (void)state;
  char text[201];
  memset(text, 'a', 200);
  text[200] = '\0';
  NO_MATCH("*a*a*a*a*a*a*a*a*a*a*a*a*b", text);
  PATH_NO_MATCH("**/*a*a*a*a*a*a*a*a*a*a*b", text);
  PATH_NO_MATCH("*a*/*a*/*a*/*b", "aaaa/aaaa/aaaa/aaaa/aaaa");
}

static void expands_to(const char *pattern, const char *const *expected, size_t count) {
  StringList out = array_new();
  const char *problem = NULL;
  assert_true(glob_expand(pattern, &out, &problem));
  assert_null(problem);
  assert_int_equal(out.size, count);
  for (size_t i = 0; i < count; i++) assert_string_equal(out.contents[i], expected[i]);
  string_list_delete(&out);
}

static void expand_fails(const char *pattern, const char *fragment) {
  StringList out = array_new();
  const char *problem = NULL;
  assert_false(glob_expand(pattern, &out, &problem));
  assert_non_null(problem);
  assert_non_null(strstr(problem, fragment));
  assert_int_equal(out.size, 0);
  string_list_delete(&out);
}

static void test_alternatives(void **state) {
  (void)state;
  static const char *const ONE[] = {"a.py", "b.py"};
  expands_to("{a,b}.py", ONE, 2);
  static const char *const NESTED[] = {"ax", "bx", "cx"};
  expands_to("{a,{b,c}}x", NESTED, 3);
  static const char *const EMPTY[] = {"x", "xy"};
  expands_to("x{,y}", EMPTY, 2);
  static const char *const TWO[] = {"**/tests/*", "**/docs/*", "**/tools/*"};
  expands_to("**/{tests,docs,tools}/*", TWO, 3);
  static const char *const ESCAPED[] = {"\\{a,b\\}"};
  expands_to("\\{a,b\\}", ESCAPED, 1);
  static const char *const CLASS[] = {"[{]a", "[{]b"};
  expands_to("[{]{a,b}", CLASS, 2);
  expand_fails("{a,b", "unbalanced `{`");
  expand_fails("a}", "unbalanced `}`");
  expand_fails("[ab", "unclosed `[`");
  expand_fails("ab\\", "backslash");
  expand_fails("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "too many");
  char *long_pattern = malloc(5000);
  memset(long_pattern, 'a', 4999);
  long_pattern[4999] = '\0';
  expand_fails(long_pattern, "too long");
  free(long_pattern);
}

static void test_escape(void **state) {
  (void)state;
  char *escaped = glob_escape("/tmp/we*ird[1]{x}");
  MATCH(escaped, "/tmp/we*ird[1]{x}");
  NO_MATCH(escaped, "/tmp/weXird1x");
  free(escaped);
}

static void test_paths(void **state) {
  (void)state;
  char *text = path_join(".", "a.py");
  assert_string_equal(text, "a.py");
  free(text);
  text = path_join("src/", "a.py");
  assert_string_equal(text, "src/a.py");
  free(text);
  text = path_absolute("/work/repo", "./src/../lib//x.py");
  assert_string_equal(text, "/work/repo/lib/x.py");
  free(text);
  text = path_absolute("/work", "/../../etc/./x");
  assert_string_equal(text, "/etc/x");
  free(text);
  text = path_absolute("/", ".");
  assert_string_equal(text, "/");
  free(text);
  assert_string_equal(path_relative("/work/repo", "/work/repo/src/a.py"), "src/a.py");
  assert_string_equal(path_relative("/work/repo", "/work/repo"), "");
  assert_null(path_relative("/work/repo", "/work/repository/a.py"));
  assert_string_equal(path_relative("/", "/etc/x"), "etc/x");
  assert_string_equal(path_basename("/a/b/c.py"), "c.py");
  text = path_parent("/a/b");
  assert_string_equal(text, "/a");
  free(text);
  text = path_parent("/a");
  assert_string_equal(text, "/");
  free(text);
  text = path_display("././src//");
  assert_string_equal(text, "src");
  free(text);
  text = path_display("./");
  assert_string_equal(text, ".");
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wildcards),
      cmocka_unit_test(test_classes_and_escapes),
      cmocka_unit_test(test_star_crosses_slash_without_pathname),
      cmocka_unit_test(test_double_star_components),
      cmocka_unit_test(test_pathological_patterns_are_fast),
      cmocka_unit_test(test_alternatives),
      cmocka_unit_test(test_escape),
      cmocka_unit_test(test_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
