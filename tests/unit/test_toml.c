/* The TOML reader: every value kind, tables and their redefinition rules,
 * error positions, and robustness against truncated and mutated input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toml.h"

static TomlValue *parse_ok(const char *text) {
  TomlError error;
  TomlValue *root = toml_parse(text, strlen(text), &error);
  if (!root) fail_msg("unexpected error %u:%u: %s\n--\n%s", error.line, error.column, error.message, text);
  return root;
}

static void parse_fails(const char *text, uint32_t line, const char *fragment) {
  TomlError error;
  TomlValue *root = toml_parse(text, strlen(text), &error);
  if (root) {
    toml_delete(root);
    fail_msg("expected an error for:\n%s", text);
  }
  if (error.line != line || !strstr(error.message, fragment)) {
    fail_msg("for:\n%s\nexpected line %u and `%s`, got %u:%u: %s", text, line, fragment, error.line, error.column,
             error.message);
  }
}

/* The value at a dotted path of plain keys ("a.b.c"), or NULL. */
static const TomlValue *get(const TomlValue *root, const char *path) {
  char buffer[256];
  snprintf(buffer, sizeof buffer, "%s", path);
  const TomlValue *value = root;
  for (char *key = strtok(buffer, "."); key && value; key = strtok(NULL, ".")) {
    const TomlEntry *entry = toml_find(value, key);
    value = entry ? entry->value : NULL;
  }
  return value;
}

static const char *string_at(const TomlValue *root, const char *path) {
  const TomlValue *value = get(root, path);
  assert_non_null(value);
  assert_int_equal(value->kind, TOML_STRING);
  return value->text;
}

static int64_t integer_at(const TomlValue *root, const char *path) {
  const TomlValue *value = get(root, path);
  assert_non_null(value);
  assert_int_equal(value->kind, TOML_INTEGER);
  return value->integer;
}

static double float_at(const TomlValue *root, const char *path) {
  const TomlValue *value = get(root, path);
  assert_non_null(value);
  assert_int_equal(value->kind, TOML_FLOAT);
  return value->number;
}

/* ---- Values ---------------------------------------------------------------- */

static void test_empty_and_comments(void **state) {
  (void)state;
  TomlValue *root = parse_ok("");
  assert_int_equal(root->kind, TOML_TABLE);
  assert_int_equal(root->entries.size, 0);
  toml_delete(root);
  root = parse_ok("# only a comment\n\n   \t# another\n");
  assert_int_equal(root->entries.size, 0);
  toml_delete(root);
  root = parse_ok("\xEF\xBB\xBF" "a = 1\r\nb = 2 # trailing\r\n");
  assert_int_equal(integer_at(root, "a"), 1);
  assert_int_equal(integer_at(root, "b"), 2);
  toml_delete(root);
}

static void test_keys(void **state) {
  (void)state;
  TomlValue *root = parse_ok("bare_key-1 = 1\n\"quoted key\" = 2\n'literal.key' = 3\n"
                             "site . \"google.com\" = true\n1234 = 4\n\"\" = 5\n");
  assert_int_equal(integer_at(root, "bare_key-1"), 1);
  assert_int_equal(integer_at(root, "quoted key"), 2);
  assert_int_equal(toml_find(root, "literal.key")->value->integer, 3);
  assert_true(toml_find(toml_find(root, "site")->value, "google.com")->value->boolean);
  assert_int_equal(integer_at(root, "1234"), 4);
  assert_int_equal(toml_find(root, "")->value->integer, 5);
  toml_delete(root);
}

static void test_basic_strings(void **state) {
  (void)state;
  TomlValue *root = parse_ok("a = \"tab\\there \\\"quoted\\\" back\\\\slash\"\n"
                             "b = \"\\u00e9\\U0001F600\\b\\f\\r\\n\"\n"
                             "c = \"\"\n"
                             "d = \"# not a comment\" # a comment\n"
                             "e = \"nul\\u0000inside\"\n");
  assert_string_equal(string_at(root, "a"), "tab\there \"quoted\" back\\slash");
  assert_string_equal(string_at(root, "b"), "\xC3\xA9\xF0\x9F\x98\x80\b\f\r\n");
  assert_string_equal(string_at(root, "c"), "");
  assert_string_equal(string_at(root, "d"), "# not a comment");
  assert_int_equal(get(root, "e")->text_length, 10);
  assert_memory_equal(get(root, "e")->text, "nul\0inside", 10);
  toml_delete(root);
}

static void test_literal_and_multiline_strings(void **state) {
  (void)state;
  TomlValue *root = parse_ok("path = 'C:\\Users\\nodejs'\n"
                             "regex = '<\\i\\c*\\s*>'\n"
                             "ml = \"\"\"\nRoses are red\nViolets are blue\"\"\"\n"
                             "folded = \"\"\"The quick \\\n\n    brown fox.\"\"\"\n"
                             "quotes = \"\"\"Here are two quotation marks: \"\". Simple.\"\"\"\n"
                             "edge = \"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"\n"
                             "lit = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''\n"
                             "lit_quotes = ''''That,' she said, 'is still pointless.''''\n"
                             "crlf = \"\"\"a\r\nb\"\"\"\n");
  assert_string_equal(string_at(root, "path"), "C:\\Users\\nodejs");
  assert_string_equal(string_at(root, "regex"), "<\\i\\c*\\s*>");
  assert_string_equal(string_at(root, "ml"), "Roses are red\nViolets are blue");
  assert_string_equal(string_at(root, "folded"), "The quick brown fox.");
  assert_string_equal(string_at(root, "quotes"), "Here are two quotation marks: \"\". Simple.");
  assert_string_equal(string_at(root, "edge"), "\"This,\" she said, \"is just a pointless statement.\"");
  assert_string_equal(string_at(root, "lit"),
                      "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n");
  assert_string_equal(string_at(root, "lit_quotes"), "'That,' she said, 'is still pointless.'");
  assert_string_equal(string_at(root, "crlf"), "a\nb");
  toml_delete(root);
}

static void test_integers(void **state) {
  (void)state;
  TomlValue *root = parse_ok("a = +99\nb = 42\nc = 0\nd = -17\ne = 1_000\nf = 5_349_221\n"
                             "hex = 0xDEAD_beef\noct = 0o755\nbin = 0b1101_0110\n"
                             "max = 9223372036854775807\nmin = -9223372036854775808\nzero = -0\n");
  assert_int_equal(integer_at(root, "a"), 99);
  assert_int_equal(integer_at(root, "b"), 42);
  assert_int_equal(integer_at(root, "c"), 0);
  assert_int_equal(integer_at(root, "d"), -17);
  assert_int_equal(integer_at(root, "e"), 1000);
  assert_int_equal(integer_at(root, "f"), 5349221);
  assert_int_equal(integer_at(root, "hex"), 0xDEADBEEF);
  assert_int_equal(integer_at(root, "oct"), 0755);
  assert_int_equal(integer_at(root, "bin"), 0xD6);
  assert_true(integer_at(root, "max") == INT64_MAX);
  assert_true(integer_at(root, "min") == INT64_MIN);
  assert_int_equal(integer_at(root, "zero"), 0);
  toml_delete(root);
}

static void test_floats(void **state) {
  (void)state;
  TomlValue *root = parse_ok("a = +1.0\nb = 3.1415\nc = -0.01\nd = 5e+22\ne = 1e06\nf = -2E-2\n"
                             "g = 6.626e-34\nh = 224_617.445_991_228\ni = inf\nj = -inf\nk = nan\nl = +nan\nm = 0.5\n");
  assert_true(float_at(root, "a") == 1.0);
  assert_true(float_at(root, "b") == 3.1415);
  assert_true(float_at(root, "c") == -0.01);
  assert_true(float_at(root, "d") == 5e22);
  assert_true(float_at(root, "e") == 1e6);
  assert_true(float_at(root, "f") == -2e-2);
  assert_true(float_at(root, "g") == 6.626e-34);
  assert_true(float_at(root, "h") == 224617.445991228);
  assert_true(isinf(float_at(root, "i")) && float_at(root, "i") > 0);
  assert_true(isinf(float_at(root, "j")) && float_at(root, "j") < 0);
  assert_true(isnan(float_at(root, "k")));
  assert_true(isnan(float_at(root, "l")));
  assert_true(float_at(root, "m") == 0.5);
  toml_delete(root);
}

static void test_booleans_and_dates(void **state) {
  (void)state;
  TomlValue *root = parse_ok("t = true\nf = false\n"
                             "odt1 = 1979-05-27T07:32:00Z\nodt2 = 1979-05-27T00:32:00-07:00\n"
                             "odt3 = 1979-05-27T00:32:00.999999+05:30\nodt4 = 1979-05-27 07:32:00Z\n"
                             "ldt = 1979-05-27T07:32:00\nld = 1979-05-27\nlt = 07:32:00\nlt2 = 00:32:00.999999\n"
                             "leap = 2024-02-29\n");
  assert_true(get(root, "t")->boolean);
  assert_false(get(root, "f")->boolean);
  static const char *const DATES[][2] = {
      {"odt1", "1979-05-27T07:32:00Z"}, {"odt2", "1979-05-27T00:32:00-07:00"},
      {"odt3", "1979-05-27T00:32:00.999999+05:30"}, {"odt4", "1979-05-27 07:32:00Z"},
      {"ldt", "1979-05-27T07:32:00"}, {"ld", "1979-05-27"}, {"lt", "07:32:00"}, {"lt2", "00:32:00.999999"},
      {"leap", "2024-02-29"},
  };
  for (size_t i = 0; i < sizeof DATES / sizeof DATES[0]; i++) {
    const TomlValue *value = get(root, DATES[i][0]);
    assert_int_equal(value->kind, TOML_DATETIME);
    assert_string_equal(value->text, DATES[i][1]);
  }
  toml_delete(root);
}

static void test_arrays(void **state) {
  (void)state;
  TomlValue *root = parse_ok("empty = []\nints = [ 1, 2, 3 ]\nnested = [ [ 1, 2 ], [\"a\", 'b'] ]\n"
                             "mixed = [ 0.1, \"x\", { a = 1 }, [] ]\n"
                             "multi = [\n  \"GPU001\",  # the first\n  # a comment line\n  \"GPU002\",\n]\n");
  assert_int_equal(get(root, "empty")->items.size, 0);
  assert_int_equal(get(root, "ints")->items.size, 3);
  assert_int_equal(get(root, "ints")->items.contents[2]->integer, 3);
  const TomlValue *nested = get(root, "nested");
  assert_int_equal(nested->items.contents[1]->items.size, 2);
  assert_string_equal(nested->items.contents[1]->items.contents[1]->text, "b");
  const TomlValue *mixed = get(root, "mixed");
  assert_int_equal(mixed->items.contents[2]->kind, TOML_TABLE);
  const TomlValue *multi = get(root, "multi");
  assert_int_equal(multi->items.size, 2);
  assert_string_equal(multi->items.contents[1]->text, "GPU002");
  assert_int_equal(multi->items.contents[1]->line, 8);
  toml_delete(root);
}

static void test_inline_tables(void **state) {
  (void)state;
  TomlValue *root = parse_ok("name = { first = \"Tom\", last = \"Preston-Werner\" }\n"
                             "point = {x=1,y=2}\nempty = {}\n"
                             "animal = { type.name = \"pug\", type.size = 3 }\n"
                             "pfi = { \"tests/*\" = [\"GPU001\"], \"**/{a,b}.py\" = [] }\n");
  assert_string_equal(string_at(root, "name.last"), "Preston-Werner");
  assert_int_equal(integer_at(root, "point.y"), 2);
  assert_int_equal(get(root, "empty")->entries.size, 0);
  assert_string_equal(string_at(root, "animal.type.name"), "pug");
  assert_int_equal(integer_at(root, "animal.type.size"), 3);
  assert_non_null(toml_find(get(root, "pfi"), "tests/*"));
  assert_non_null(toml_find(get(root, "pfi"), "**/{a,b}.py"));
  toml_delete(root);
}

/* ---- Tables -------------------------------------------------------------------- */

static void test_tables(void **state) {
  (void)state;
  TomlValue *root = parse_ok("[table-1]\nkey1 = \"some string\"\n\n[ a . \"b\" . c ]\nd = 1\n"
                             "[x.y.z.w]\n[x]\nv = 2\n"
                             "[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n");
  assert_string_equal(string_at(root, "table-1.key1"), "some string");
  assert_int_equal(integer_at(root, "a.b.c.d"), 1);
  assert_int_equal(integer_at(root, "x.v"), 2);
  assert_non_null(get(root, "x.y.z.w"));
  assert_true(get(root, "fruit.apple.taste.sweet")->boolean);
  assert_true(get(root, "fruit.apple.texture.smooth")->boolean);
  assert_int_equal(toml_find(root, "table-1")->line, 1);
  assert_int_equal(toml_find(get(root, "table-1"), "key1")->line, 2);
  assert_int_equal(get(root, "a.b.c")->line, 4);
  toml_delete(root);
}

static void test_arrays_of_tables(void **state) {
  (void)state;
  TomlValue *root = parse_ok("[[products]]\nname = \"Hammer\"\n\n[[products]]\n\n[[products]]\nname = \"Nail\"\n"
                             "[products.dimensions]\nlength = 2\n"
                             "[[fruits]]\nname = \"apple\"\n[[fruits.varieties]]\nname = \"red\"\n"
                             "[[fruits.varieties]]\nname = \"granny\"\n[[fruits]]\nname = \"banana\"\n");
  const TomlValue *products = get(root, "products");
  assert_int_equal(products->kind, TOML_ARRAY);
  assert_int_equal(products->items.size, 3);
  assert_int_equal(products->items.contents[1]->entries.size, 0);
  assert_int_equal(integer_at(products->items.contents[2], "dimensions.length"), 2);
  const TomlValue *fruits = get(root, "fruits");
  assert_int_equal(fruits->items.size, 2);
  assert_int_equal(get(fruits->items.contents[0], "varieties")->items.size, 2);
  toml_delete(root);
}

static void test_pyproject_sample(void **state) {
  (void)state;
  const char *text =
      "[build-system]\nrequires = [\"setuptools>=61\", \"wheel\"]\nbuild-backend = \"setuptools.build_meta\"\n\n"
      "[project]\nname = \"trainer\"\nversion = \"0.3.0\"\nauthors = [{ name = \"A\", email = \"a@example.com\" }]\n"
      "dependencies = [\n    \"torch>=2.1\",\n    \"numpy\",\n]\n\n"
      "[project.optional-dependencies]\ndev = [\"pytest\"]\n\n"
      "[tool.ruff]\nline-length = 120\n[tool.ruff.lint]\nselect = [\"E\", \"F\"]\n\n"
      "[[tool.mypy.overrides]]\nmodule = \"torchvision.*\"\nignore_missing_imports = true\n\n"
      "[tool.gpulint]\nselect = [\"GPU0\"]\n\n[tool.gpulint.per-file-ignores]\n\"tests/*\" = [\"GPU001\"]\n";
  TomlValue *root = parse_ok(text);
  assert_string_equal(get(root, "tool.gpulint.select")->items.contents[0]->text, "GPU0");
  assert_int_equal(toml_find(get(root, "tool.gpulint.per-file-ignores"), "tests/*")->line, 30);
  assert_int_equal(integer_at(root, "tool.ruff.line-length"), 120);
  toml_delete(root);
}

static void test_many_keys(void **state) {
  (void)state;
  size_t size = 3000 * 24 + 64;
  char *text = malloc(size);
  size_t used = 0;
  for (int i = 0; i < 3000; i++) used += (size_t)snprintf(text + used, size - used, "key%d = %d\n", i, i);
  TomlValue *root = parse_ok(text);
  assert_int_equal(root->entries.size, 3000);
  assert_int_equal(integer_at(root, "key2999"), 2999);
  assert_int_equal(integer_at(root, "key17"), 17);
  toml_delete(root);
  snprintf(text + used, size - used, "key1234 = 0\n");
  parse_fails(text, 3001, "duplicate key `key1234`");
  free(text);
}

/* ---- Errors ------------------------------------------------------------------------ */

static void test_syntax_errors(void **state) {
  (void)state;
  parse_fails("a = \n", 1, "expected a value");
  parse_fails("x = 1\na\n", 2, "expected `=`");
  parse_fails("= 1\n", 1, "expected a key");
  parse_fails("a = 1 b = 2\n", 1, "expected the end of the line");
  parse_fails("a = \"open\n", 1, "unterminated string");
  parse_fails("a = 'open\n", 1, "unterminated string");
  parse_fails("\n\na = \"\"\"never closed\n\n", 5, "unterminated string");
  parse_fails("a = \"bad \\q escape\"\n", 1, "invalid escape");
  parse_fails("a = \"\\uD800\"\n", 1, "not a Unicode scalar value");
  parse_fails("a = \"\\u12\"\n", 1, "hexadecimal digits");
  parse_fails("a = \"\"\"x\"\"\"\"\"\"\n", 1, "too many quotes");
  parse_fails("a = \"ctrl \x01\"\n", 1, "control character U+0001");
  parse_fails("# comment \x7F\n", 1, "control character U+007F in a comment");
  parse_fails("[a\n", 1, "expected `]`");
  parse_fails("[[a]\n", 1, "expected `]]`");
  parse_fails("[]\n", 1, "expected a key");
  parse_fails("a = [1 2]\n", 1, "expected `,` or `]`");
  parse_fails("a = [1,\n2,\n", 3, "expected a value");
  parse_fails("a = { b = 1,\n c = 2 }\n", 1, "expected a key");
  parse_fails("a = { b = 1, }\n", 1, "expected a key");
  parse_fails("a = { b = 1\n", 1, "expected `,` or `}`");
  parse_fails("a = tru\n", 1, "expected a value");
  parse_fails("a = truex\n", 1, "expected a value");
  parse_fails("a = @\n", 1, "expected a value");
  parse_fails("a = 1\rb = 2\n", 1, "expected the end of the line");
  parse_fails("ok = 1\nbad = \"\xC3\x28\"\n", 2, "invalid UTF-8");
  parse_fails("a = '''x\n'''''''\n", 2, "too many quotes");
}

static void test_number_errors(void **state) {
  (void)state;
  static const char *const BAD[] = {
      "01", "00.5", "1__0", "_1", "1_", "0x", "+0x1", "0xG", "0b102", "0o8", "1.", ".5", "+.5", "1e", "1e+",
      "1.e5", "9223372036854775808", "-9223372036854775809", "0x8000000000000000", "infinity", "nan1", "1.5.5",
      "--1", "1-2",
  };
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    char text[64];
    snprintf(text, sizeof text, "a = %s\n", BAD[i]);
    TomlError error;
    TomlValue *root = toml_parse(text, strlen(text), &error);
    if (root) fail_msg("`%s` should not parse", BAD[i]);
    assert_int_equal(error.line, 1);
  }
}

static void test_date_errors(void **state) {
  (void)state;
  parse_fails("a = 1979-13-01\n", 1, "invalid date");
  parse_fails("a = 1979-02-30\n", 1, "invalid date");
  parse_fails("a = 2023-02-29\n", 1, "invalid date");
  parse_fails("a = 1979-05-27T24:00:00\n", 1, "invalid time");
  parse_fails("a = 1979-05-27T07:32\n", 1, "invalid time");
  parse_fails("a = 07:60:00\n", 1, "invalid time");
  parse_fails("a = 07:32:00Z\n", 1, "invalid date-time");
  parse_fails("a = 1979-05-27T07:32:00+25:00\n", 1, "invalid date-time");
  parse_fails("a = 1979-5-27\n", 1, "invalid date");
}

static void test_redefinition_errors(void **state) {
  (void)state;
  parse_fails("a = 1\na = 2\n", 2, "duplicate key `a`");
  parse_fails("[a]\nb = 1\n[a]\nc = 2\n", 3, "defined more than once");
  parse_fails("a = 1\n[a]\n", 2, "defined more than once");
  parse_fails("a = {}\na.b = 1\n", 2, "cannot add keys to `a`");
  parse_fails("a = { b = 1 }\n[a.c]\n", 2, "`a` is not a table");
  parse_fails("[a.b.c]\nz = 9\n[a]\nb.c.t = 9\n", 4, "cannot add keys to `b`");
  parse_fails("[fruit]\napple.color = \"red\"\n[fruit.apple]\n", 3, "defined more than once");
  parse_fails("a = []\n[[a]]\n", 2, "not an array of tables");
  parse_fails("[[a]]\n[a]\n", 2, "defined more than once");
  parse_fails("[a]\n[[a]]\n", 2, "not an array of tables");
  parse_fails("a.b = 1\na.b.c = 2\n", 2, "cannot add keys to `b`");
  parse_fails("a = { b = 1, b = 2 }\n", 1, "duplicate key `b`");
  parse_fails("a = [{}]\n[a.b]\n", 2, "`a` is not a table");
}

static void test_nesting_limit(void **state) {
  (void)state;
  char text[600] = "a = ";
  for (int i = 0; i < 250; i++) strcat(text, "[");
  parse_fails(text, 1, "nest too deeply");
  char ok[300] = "a = ";
  for (int i = 0; i < 50; i++) strcat(ok, "[");
  for (int i = 0; i < 50; i++) strcat(ok, "]");
  toml_delete(parse_ok(ok));
}

/* ---- Robustness -------------------------------------------------------------------- */

static const char SAMPLE[] =
    "# sample\n[tool.gpulint]\nselect = [\"GPU0\", 'GPU1']  # c\nignore = []\n"
    "per-file-ignores = { \"tests/*\" = [\"GPU001\"] }\n[[x.y]]\nz = 1979-05-27T07:32:00Z\n"
    "s = \"\"\"multi\\\n  line \\u00e9\"\"\"\nf = -1.5e3\nh = 0xFF\n";

static void check_parse(const char *bytes, size_t length) {
  TomlError error;
  TomlValue *root = toml_parse(bytes, length, &error);
  if (!root) {
    assert_true(error.line >= 1);
    assert_true(error.column >= 1);
    assert_true(error.message[0] != '\0');
  }
  toml_delete(root);
}

static void test_every_prefix(void **state) {
  (void)state;
  size_t length = strlen(SAMPLE);
  for (size_t i = 0; i <= length; i++) {
    char *copy = malloc(i + 1); /* exact size, so reads past the end are caught by sanitizers */
    memcpy(copy, SAMPLE, i);
    check_parse(copy, i);
    free(copy);
  }
}

static void test_random_mutations(void **state) {
  (void)state;
  static const char ALPHABET[] = "[]{}=\"'.,#\n\r\\ \t0123456789abcdefxoZT:+-_eE\x01\x80\xC3\xFF";
  size_t length = strlen(SAMPLE);
  uint32_t seed = 12345;
  for (int round = 0; round < 20000; round++) {
    char *copy = malloc(length);
    memcpy(copy, SAMPLE, length);
    int edits = 1 + round % 4;
    for (int e = 0; e < edits; e++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = (seed >> 8) % length;
      seed = seed * 1103515245u + 12345u;
      copy[at] = ALPHABET[(seed >> 8) % (sizeof ALPHABET - 1)];
    }
    seed = seed * 1103515245u + 12345u;
    size_t cut = round % 3 == 0 ? (seed >> 8) % (length + 1) : length;
    check_parse(copy, cut);
    free(copy);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_empty_and_comments),
      cmocka_unit_test(test_keys),
      cmocka_unit_test(test_basic_strings),
      cmocka_unit_test(test_literal_and_multiline_strings),
      cmocka_unit_test(test_integers),
      cmocka_unit_test(test_floats),
      cmocka_unit_test(test_booleans_and_dates),
      cmocka_unit_test(test_arrays),
      cmocka_unit_test(test_inline_tables),
      cmocka_unit_test(test_tables),
      cmocka_unit_test(test_arrays_of_tables),
      cmocka_unit_test(test_pyproject_sample),
      cmocka_unit_test(test_many_keys),
      cmocka_unit_test(test_syntax_errors),
      cmocka_unit_test(test_number_errors),
      cmocka_unit_test(test_date_errors),
      cmocka_unit_test(test_redefinition_errors),
      cmocka_unit_test(test_nesting_limit),
      cmocka_unit_test(test_every_prefix),
      cmocka_unit_test(test_random_mutations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
