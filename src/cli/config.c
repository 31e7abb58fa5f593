/* config.c — reading [tool.gpulint] and gpulint.toml into a Config. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glob.h"
#include "report.h"
#include "toml.h"

typedef bool (*KeyReader)(const TomlEntry *entry, Config *config, ConfigError *error);

void config_init(Config *self) {
  memset(self, 0, sizeof *self);
  self->respect_gitignore = -1;
  self->force_exclude = -1;
  self->pedantic = -1;
  self->test_rules_all = -1;
  self->fix = -1;
  self->unsafe_fixes = -1;
}

void config_clear(Config *self) {
  free(self->path);
  selection_delete(&self->selection);
  selection_delete(&self->fixing);
  string_list_delete(&self->exclude);
  string_list_delete(&self->extend_exclude);
  string_list_delete(&self->test_files);
  string_list_delete(&self->extend_test_files);
  for (uint32_t i = 0; i < self->per_file_ignores.size; i++) {
    free(self->per_file_ignores.contents[i].pattern);
    string_list_delete(&self->per_file_ignores.contents[i].codes);
  }
  array_delete(&self->per_file_ignores);
  free(self->output_format);
  free(self->rule_url);
  config_init(self);
}

static bool config__fail(ConfigError *error, uint32_t line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static bool config__fail(ConfigError *error, uint32_t line, const char *format, ...) {
  error->line = line;
  va_list args;
  va_start(args, format);
  vsnprintf(error->message, sizeof error->message, format, args);
  va_end(args);
  return false;
}

/* "a string", "an integer", ... for messages. */
static const char *config__a_kind(TomlKind kind) {
  static const char *const NAMES[] = {
      [TOML_TABLE] = "a table",     [TOML_ARRAY] = "an array",   [TOML_STRING] = "a string",
      [TOML_INTEGER] = "an integer", [TOML_FLOAT] = "a float",    [TOML_BOOLEAN] = "a boolean",
      [TOML_DATETIME] = "a date-time",
  };
  return (unsigned)kind < sizeof NAMES / sizeof NAMES[0] ? NAMES[kind] : "a value";
}

bool config_check_pattern(const char *pattern, const char **problem) {
  StringList expanded = array_new();
  bool ok = glob_expand(pattern, &expanded, problem);
  string_list_delete(&expanded);
  if (ok && pattern[0] == '\0') {
    *problem = "the pattern is empty";
    ok = false;
  }
  return ok;
}

/* ---- Values ---------------------------------------------------------------- */

/* A string without NUL bytes, or an error naming `what`. */
static bool config__string(const TomlValue *value, const char *what, ConfigError *error) {
  if (value->kind != TOML_STRING) {
    return config__fail(error, value->line, "%s must be a string, not %s", what, config__a_kind(value->kind));
  }
  if (strlen(value->text) != value->text_length) return config__fail(error, value->line, "%s contains a NUL", what);
  return true;
}

/* An array of strings; each is checked and appended by `add`. */
static bool config__string_array(const TomlValue *value, const char *key, StringList *out, ConfigError *error,
                                 bool (*add)(const TomlValue *, const char *, StringList *, ConfigError *)) {
  if (value->kind != TOML_ARRAY) {
    return config__fail(error, value->line, "`%s` must be an array of strings, not %s", key,
                        config__a_kind(value->kind));
  }
  for (uint32_t i = 0; i < value->items.size; i++) {
    const TomlValue *item = value->items.contents[i];
    char what[96];
    snprintf(what, sizeof what, "every item of `%s`", key);
    if (!config__string(item, what, error) || !add(item, key, out, error)) return false;
  }
  return true;
}

static bool config__add_selector(const TomlValue *item, const char *key, StringList *out, ConfigError *error) {
  char *unknown = NULL;
  if (!selector_list_parse(item->text, out, &unknown)) {
    config__fail(error, item->line, "unknown rule selector `%s` in `%s` (see `gpulint rules`)", unknown, key);
    free(unknown);
    return false;
  }
  return true;
}

static bool config__add_pattern(const TomlValue *item, const char *key, StringList *out, ConfigError *error) {
  const char *problem = NULL;
  if (!config_check_pattern(item->text, &problem)) {
    return config__fail(error, item->line, "`%s`: %s: `%s`", key, problem, item->text);
  }
  string_list_push(out, item->text);
  return true;
}

static bool config__boolean(const TomlEntry *entry, int *out, ConfigError *error) {
  if (entry->value->kind != TOML_BOOLEAN) {
    return config__fail(error, entry->value->line, "`%s` must be true or false, not %s", entry->key,
                        config__a_kind(entry->value->kind));
  }
  *out = entry->value->boolean;
  return true;
}

/* ---- Keys ------------------------------------------------------------------ */

static bool config__select(const TomlEntry *entry, Config *config, ConfigError *error) {
  config->selection.has_select = true;
  return config__string_array(entry->value, entry->key, &config->selection.select, error, config__add_selector);
}

static bool config__extend_select(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__string_array(entry->value, entry->key, &config->selection.extend_select, error,
                              config__add_selector);
}

static bool config__ignore(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__string_array(entry->value, entry->key, &config->selection.ignore, error, config__add_selector);
}

static bool config__fixable(const TomlEntry *entry, Config *config, ConfigError *error) {
  config->fixing.has_select = true;
  return config__string_array(entry->value, entry->key, &config->fixing.select, error, config__add_selector);
}

static bool config__extend_fixable(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__string_array(entry->value, entry->key, &config->fixing.extend_select, error, config__add_selector);
}

static bool config__unfixable(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__string_array(entry->value, entry->key, &config->fixing.ignore, error, config__add_selector);
}

static bool config__exclude(const TomlEntry *entry, Config *config, ConfigError *error) {
  config->has_exclude = true;
  return config__string_array(entry->value, entry->key, &config->exclude, error, config__add_pattern);
}

static bool config__extend_exclude(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__string_array(entry->value, entry->key, &config->extend_exclude, error, config__add_pattern);
}

static bool config__test_files(const TomlEntry *entry, Config *config, ConfigError *error) {
  config->has_test_files = true;
  return config__string_array(entry->value, entry->key, &config->test_files, error, config__add_pattern);
}

static bool config__extend_test_files(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__string_array(entry->value, entry->key, &config->extend_test_files, error, config__add_pattern);
}

/* test-rules -> "correctness" | "all" */
static bool config__test_rules(const TomlEntry *entry, Config *config, ConfigError *error) {
  if (!config__string(entry->value, "`test-rules`", error)) return false;
  int all = config_test_rules_parse(entry->value->text);
  if (all < 0) {
    return config__fail(error, entry->value->line, "`test-rules` is \"correctness\" or \"all\", not `%s`",
                        entry->value->text);
  }
  config->test_rules_all = all;
  return true;
}

/* per-file-ignores -> { GLOB = [SELECTOR, ...], ... } */
static bool config__per_file_ignores(const TomlEntry *entry, Config *config, ConfigError *error) {
  const TomlValue *table = entry->value;
  if (table->kind != TOML_TABLE) {
    return config__fail(error, table->line, "`per-file-ignores` must be a table of glob = [codes], not %s",
                        config__a_kind(table->kind));
  }
  for (uint32_t i = 0; i < table->entries.size; i++) {
    const TomlEntry *rule = &table->entries.contents[i];
    const char *problem = NULL;
    if (strlen(rule->key) != rule->key_length || !config_check_pattern(rule->key, &problem)) {
      return config__fail(error, rule->line, "`per-file-ignores`: %s: `%s`", problem ? problem : "a NUL in the glob",
                          rule->key);
    }
    PerFileIgnore ignore = {gl_strdup(rule->key), (StringList)array_new()};
    array_push(&config->per_file_ignores, ignore);
    if (!config__string_array(rule->value, "per-file-ignores", &array_back(&config->per_file_ignores)->codes, error,
                              config__add_selector)) {
      return false;
    }
  }
  return true;
}

static bool config__respect_gitignore(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__boolean(entry, &config->respect_gitignore, error);
}

static bool config__force_exclude(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__boolean(entry, &config->force_exclude, error);
}

static bool config__pedantic(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__boolean(entry, &config->pedantic, error);
}

static bool config__fix(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__boolean(entry, &config->fix, error);
}

static bool config__unsafe_fixes(const TomlEntry *entry, Config *config, ConfigError *error) {
  return config__boolean(entry, &config->unsafe_fixes, error);
}

static bool config__output_format(const TomlEntry *entry, Config *config, ConfigError *error) {
  OutputFormat format;
  if (!config__string(entry->value, "`output-format`", error)) return false;
  if (!report_parse_format(entry->value->text, &format)) {
    return config__fail(error, entry->value->line, "unknown `output-format` `%s` (one of %s)", entry->value->text,
                        REPORT_FORMAT_NAMES);
  }
  free(config->output_format);
  config->output_format = gl_strdup(entry->value->text);
  return true;
}

static bool config__rule_url(const TomlEntry *entry, Config *config, ConfigError *error) {
  if (!config__string(entry->value, "`rule-url`", error)) return false;
  const char *why = report_rule_url_error(entry->value->text);
  if (why) return config__fail(error, entry->value->line, "`rule-url`: %s", why);
  free(config->rule_url);
  config->rule_url = gl_strdup(entry->value->text);
  return true;
}

static const struct {
  const char *key;
  KeyReader read;
} KEYS[] = {
    {"select", config__select},
    {"extend-select", config__extend_select},
    {"ignore", config__ignore},
    {"extend-ignore", config__ignore},
    {"fixable", config__fixable},
    {"extend-fixable", config__extend_fixable},
    {"unfixable", config__unfixable},
    {"exclude", config__exclude},
    {"extend-exclude", config__extend_exclude},
    {"per-file-ignores", config__per_file_ignores},
    {"respect-gitignore", config__respect_gitignore},
    {"force-exclude", config__force_exclude},
    {"pedantic", config__pedantic},
    {"fix", config__fix},
    {"unsafe-fixes", config__unsafe_fixes},
    {"output-format", config__output_format},
    {"rule-url", config__rule_url},
    {"test-rules", config__test_rules},
    {"test-files", config__test_files},
    {"extend-test-files", config__extend_test_files},
};

int config_test_rules_parse(const char *text) {
  if (strcmp(text, "all") == 0) return 1;
  if (strcmp(text, "correctness") == 0) return 0;
  return -1;
}

/* The known key that `key` spells with underscores, or NULL. */
static const char *config__suggest(const char *key) {
  char *dashed = gl_strdup(key);
  for (char *c = dashed; *c; c++) *c = *c == '_' ? '-' : (char)tolower((unsigned char)*c);
  const char *found = NULL;
  for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0] && !found; i++) {
    if (strcmp(KEYS[i].key, dashed) == 0) found = KEYS[i].key;
  }
  free(dashed);
  return found;
}

static bool config__read_table(const TomlValue *table, const char *where, Config *config, ConfigError *error) {
  for (uint32_t i = 0; i < table->entries.size; i++) {
    const TomlEntry *entry = &table->entries.contents[i];
    size_t k = 0;
    while (k < sizeof KEYS / sizeof KEYS[0] && strcmp(KEYS[k].key, entry->key) != 0) k++;
    if (k == sizeof KEYS / sizeof KEYS[0]) {
      const char *suggestion = config__suggest(entry->key);
      return config__fail(error, entry->line, "unknown key `%s` in %s%s%s%s", entry->key, where,
                          suggestion ? " (did you mean `" : "", suggestion ? suggestion : "", suggestion ? "`?)" : "");
    }
    if (!KEYS[k].read(entry, config, error)) return false;
  }
  return true;
}

/* The [tool.gpulint] table of a pyproject.toml, or NULL when it has none. */
static const TomlValue *config__tool_table(const TomlValue *root, ConfigError *error, bool *bad) {
  const TomlEntry *tool = toml_find(root, "tool");
  const TomlEntry *gpulint = tool ? toml_find(tool->value, "gpulint") : NULL;
  if (!gpulint) return NULL;
  if (gpulint->value->kind != TOML_TABLE) {
    *bad = true;
    config__fail(error, gpulint->line, "`tool.gpulint` must be a table, not %s", config__a_kind(gpulint->value->kind));
    return NULL;
  }
  return gpulint->value;
}

bool config_parse(const char *bytes, size_t length, ConfigKind kind, Config *out, ConfigError *error) {
  config_init(out);
  memset(error, 0, sizeof *error);
  TomlError syntax;
  TomlValue *root = toml_parse(bytes, length, &syntax);
  if (!root) {
    return config__fail(error, syntax.line, "invalid TOML: %s (column %u)", syntax.message, syntax.column);
  }
  bool bad = false, ok = true;
  const TomlValue *table = kind == CONFIG_PYPROJECT ? config__tool_table(root, error, &bad) : root;
  if (bad) ok = false;
  else if (table) {
    out->found = true;
    ok = config__read_table(table, kind == CONFIG_PYPROJECT ? "[tool.gpulint]" : "the gpulint config", out, error);
  }
  toml_delete(root);
  if (!ok) config_clear(out);
  return ok;
}

/* ---- Files ----------------------------------------------------------------- */

static char *config__read_file(const char *path, size_t *length, ConfigError *error) {
  struct stat info;
  FILE *file = NULL;
  if (stat(path, &info) != 0 || !(file = fopen(path, "rb"))) {
    config__fail(error, 0, "cannot read: %s", strerror(errno));
    return NULL;
  }
  if (!S_ISREG(info.st_mode) || info.st_size > (off_t)CONFIG_MAX_BYTES) {
    fclose(file);
    config__fail(error, 0, S_ISREG(info.st_mode) ? "the file is larger than 1 MiB" : "not a regular file");
    return NULL;
  }
  char *bytes = gl_malloc((size_t)info.st_size + 1);
  *length = fread(bytes, 1, (size_t)info.st_size, file);
  bool failed = ferror(file);
  fclose(file);
  if (failed) {
    free(bytes);
    config__fail(error, 0, "cannot read: I/O error");
    return NULL;
  }
  return bytes;
}

bool config_load(const char *path, Config *out, ConfigError *error) {
  config_init(out);
  memset(error, 0, sizeof *error);
  size_t length = 0;
  char *bytes = config__read_file(path, &length, error);
  if (!bytes) return false;
  bool pyproject = strcmp(path_basename(path), "pyproject.toml") == 0;
  bool ok = config_parse(bytes, length, pyproject ? CONFIG_PYPROJECT : CONFIG_GPULINT_TOML, out, error);
  free(bytes);
  if (ok) out->path = gl_strdup(path);
  return ok;
}
