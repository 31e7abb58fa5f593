/* Config files: [tool.gpulint] and gpulint.toml, every key, and the errors
 * for malformed files, unknown keys and wrong types. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "config.h"

static void parse_ok(const char *text, ConfigKind kind, Config *config) {
  ConfigError error;
  if (!config_parse(text, strlen(text), kind, config, &error)) fail_msg("%u: %s", error.line, error.message);
}

static void parse_fails(const char *text, ConfigKind kind, uint32_t line, const char *fragment) {
  Config config;
  ConfigError error;
  if (config_parse(text, strlen(text), kind, &config, &error)) {
    config_clear(&config);
    fail_msg("expected an error for:\n%s", text);
  }
  if (error.line != line || !strstr(error.message, fragment)) {
    fail_msg("expected line %u and `%s`, got %u: %s", line, fragment, error.line, error.message);
  }
}

static void test_every_key(void **state) {
  (void)state;
  Config config;
  parse_ok("[project]\nname = \"x\"\n\n[tool.gpulint]\nselect = [\"gpu0\"]\nextend-select = [\"GPU900\"]\n"
           "ignore = [\"GPU002\"]\nexclude = [\"legacy\", \"*_pb2.py\"]\nextend-exclude = [\"scratch/{a,b}\"]\n"
           "respect-gitignore = false\nforce-exclude = true\noutput-format = \"full\"\n"
           "[tool.gpulint.per-file-ignores]\n\"tests/*\" = [\"GPU001\", \"GPU002\"]\n\"__init__.py\" = []\n",
           CONFIG_PYPROJECT, &config);
  assert_true(config.found);
  assert_true(config.selection.has_select);
  assert_string_equal(config.selection.select.contents[0], "GPU0");
  assert_string_equal(config.selection.extend_select.contents[0], "GPU900");
  assert_string_equal(config.selection.ignore.contents[0], "GPU002");
  assert_true(config.has_exclude);
  assert_int_equal(config.exclude.size, 2);
  assert_string_equal(config.extend_exclude.contents[0], "scratch/{a,b}");
  assert_int_equal(config.respect_gitignore, 0);
  assert_int_equal(config.force_exclude, 1);
  assert_string_equal(config.output_format, "full");
  assert_int_equal(config.per_file_ignores.size, 2);
  assert_string_equal(config.per_file_ignores.contents[0].pattern, "tests/*");
  assert_int_equal(config.per_file_ignores.contents[0].codes.size, 2);
  assert_int_equal(config.per_file_ignores.contents[1].codes.size, 0);
  config_clear(&config);
}

static void test_defaults_and_missing_table(void **state) {
  (void)state;
  Config config;
  parse_ok("[tool.ruff]\nline-length = 100\n", CONFIG_PYPROJECT, &config);
  assert_false(config.found);
  assert_false(config.selection.has_select);
  assert_int_equal(config.respect_gitignore, -1);
  assert_null(config.output_format);
  config_clear(&config);
  parse_ok("", CONFIG_PYPROJECT, &config);
  assert_false(config.found);
  config_clear(&config);
  parse_ok("select = [\"ALL\"]\nper-file-ignores = { \"t/*\" = [\"GPU9\"] }\n", CONFIG_GPULINT_TOML, &config);
  assert_true(config.found);
  assert_string_equal(config.selection.select.contents[0], "ALL");
  assert_int_equal(config.per_file_ignores.size, 1);
  config_clear(&config);
}

static void test_unknown_keys(void **state) {
  (void)state;
  parse_fails("[tool.gpulint]\nselect = []\nline-length = 3\n", CONFIG_PYPROJECT, 3, "unknown key `line-length`");
  parse_fails("[tool.gpulint]\nextend_select = []\n", CONFIG_PYPROJECT, 2, "did you mean `extend-select`?");
  parse_fails("colour = true\n", CONFIG_GPULINT_TOML, 1, "unknown key `colour`");
  parse_fails("[tool.gpulint.lint]\nselect = []\n", CONFIG_PYPROJECT, 1, "unknown key `lint`");
  parse_fails("[tool]\ngpulint = 1\n", CONFIG_PYPROJECT, 2, "`tool.gpulint` must be a table");
}

static void test_wrong_types(void **state) {
  (void)state;
  parse_fails("select = \"GPU001\"\n", CONFIG_GPULINT_TOML, 1, "`select` must be an array of strings, not a string");
  parse_fails("ignore = [\n  \"GPU001\",\n  3,\n]\n", CONFIG_GPULINT_TOML, 3, "every item of `ignore` must be a string");
  parse_fails("respect-gitignore = \"yes\"\n", CONFIG_GPULINT_TOML, 1, "must be true or false");
  parse_fails("output-format = \"xml\"\n", CONFIG_GPULINT_TOML, 1, "unknown `output-format` `xml`");
  parse_fails("output-format = 1\n", CONFIG_GPULINT_TOML, 1, "must be a string");
  parse_fails("per-file-ignores = [\"x\"]\n", CONFIG_GPULINT_TOML, 1, "must be a table");
  parse_fails("[per-file-ignores]\n\"a/*\" = \"GPU001\"\n", CONFIG_GPULINT_TOML, 2, "must be an array");
}

static void test_bad_values(void **state) {
  (void)state;
  parse_fails("select = [\"GPU001\", \"XYZ9\"]\n", CONFIG_GPULINT_TOML, 1, "unknown rule selector `XYZ9` in `select`");
  parse_fails("extend-select = [\n\"GPU7777\"]\n", CONFIG_GPULINT_TOML, 2, "unknown rule selector `GPU7777`");
  parse_fails("exclude = [\"[abc\"]\n", CONFIG_GPULINT_TOML, 1, "unclosed `[`");
  parse_fails("extend-exclude = [\"{a,b\"]\n", CONFIG_GPULINT_TOML, 1, "unbalanced `{`");
  parse_fails("exclude = [\"\"]\n", CONFIG_GPULINT_TOML, 1, "empty");
  parse_fails("[per-file-ignores]\n\"a}\" = []\n", CONFIG_GPULINT_TOML, 2, "unbalanced `}`");
  parse_fails("[per-file-ignores]\n\"a/*\" = [\"NOPE1\"]\n", CONFIG_GPULINT_TOML, 2, "unknown rule selector `NOPE1`");
  parse_fails("exclude = [\"a\\u0000b\"]\n", CONFIG_GPULINT_TOML, 1, "NUL");
}

static void test_syntax_errors_carry_the_line(void **state) {
  (void)state;
  parse_fails("[tool.gpulint]\nselect = [\"GPU001\"\n\n", CONFIG_PYPROJECT, 4, "invalid TOML");
  parse_fails("[project]\nname = \"x\"\nname = \"y\"\n", CONFIG_PYPROJECT, 3, "duplicate key `name`");
  parse_fails("a = = 1\n", CONFIG_GPULINT_TOML, 1, "invalid TOML: expected a value (column 5)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_key),
      cmocka_unit_test(test_defaults_and_missing_table),
      cmocka_unit_test(test_unknown_keys),
      cmocka_unit_test(test_wrong_types),
      cmocka_unit_test(test_bad_values),
      cmocka_unit_test(test_syntax_errors_carry_the_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
