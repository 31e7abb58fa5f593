/* config_fuzzer.c — the TOML reader and the config reader on arbitrary
 * bytes.
 *
 * The first byte picks how the rest is read: as a pyproject.toml (the
 * [tool.gpulint] table) or as a gpulint.toml (top-level keys). The rest is
 * handed over in a buffer of exactly its length, so AddressSanitizer sees
 * any read past the end. Besides not crashing, the harness checks:
 *   - toml_parse gives a tree whose every value has a known kind, a line
 *     inside the input and NUL-terminated text, or an error with a line,
 *     a column and a message;
 *   - config_parse succeeds only on input toml_parse accepts, fails with a
 *     line inside the input and a message, and leaves the config empty
 *     when it fails;
 *   - an accepted config holds only usable globs and known formats, and
 *     its selection applies. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "report.h"
#include "toml.h"

/* One more than the number of lines of `bytes`. */
static uint32_t fuzz__line_limit(const char *bytes, size_t size) {
  uint32_t lines = 1;
  for (size_t i = 0; i < size; i++) lines += bytes[i] == '\n';
  return lines + 1;
}

static void fuzz__check_value(const TomlValue *value, uint32_t line_limit) {
  if (value->kind > TOML_DATETIME || value->line == 0 || value->line > line_limit) abort();
  if ((value->kind == TOML_STRING || value->kind == TOML_DATETIME) &&
      (!value->text || value->text[value->text_length] != '\0')) abort();
}

/* Walks the tree with an explicit stack: dotted keys can nest tables far
 * deeper than the C stack would allow a recursive walk. */
static void fuzz__check_tree(const TomlValue *root, uint32_t line_limit) {
  Array(const TomlValue *) stack = array_new();
  array_push(&stack, root);
  while (stack.size > 0) {
    const TomlValue *value = stack.contents[--stack.size];
    fuzz__check_value(value, line_limit);
    for (uint32_t i = 0; value->kind == TOML_TABLE && i < value->entries.size; i++) {
      const TomlEntry *entry = &value->entries.contents[i];
      if (!entry->key || entry->key[entry->key_length] != '\0' || !entry->value) abort();
      if (entry->key_length == strlen(entry->key) && toml_find(value, entry->key) != entry) abort();
      array_push(&stack, entry->value);
    }
    for (uint32_t i = 0; value->kind == TOML_ARRAY && i < value->items.size; i++) {
      array_push(&stack, value->items.contents[i]);
    }
  }
  array_delete(&stack);
}

static bool fuzz__config_is_empty(const Config *config) {
  return !config->found && !config->selection.has_select && config->selection.select.size == 0 &&
         config->selection.extend_select.size == 0 && config->selection.ignore.size == 0 &&
         !config->has_exclude && config->exclude.size == 0 && config->extend_exclude.size == 0 &&
         config->per_file_ignores.size == 0 && config->respect_gitignore == -1 && config->force_exclude == -1 &&
         !config->output_format;
}

static void fuzz__check_globs(const StringList *globs) {
  for (uint32_t i = 0; i < globs->size; i++) {
    const char *problem = NULL;
    if (!config_check_pattern(globs->contents[i], &problem)) abort();
  }
}

static void fuzz__check_config(const Config *config) {
  OutputFormat format;
  if (config->output_format && !report_parse_format(config->output_format, &format)) abort();
  fuzz__check_globs(&config->exclude);
  fuzz__check_globs(&config->extend_exclude);
  for (uint32_t i = 0; i < config->per_file_ignores.size; i++) {
    const char *problem = NULL;
    if (!config_check_pattern(config->per_file_ignores.contents[i].pattern, &problem)) abort();
  }
  GlRuleSet rules = gl_rule_set_default();
  selection_apply(&config->selection, &rules);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  ConfigKind kind = data[0] & 1 ? CONFIG_GPULINT_TOML : CONFIG_PYPROJECT;
  size--;
  char *bytes = malloc(size ? size : 1);
  memcpy(bytes, data + 1, size);
  uint32_t line_limit = fuzz__line_limit(bytes, size);

  TomlError syntax;
  TomlValue *root = toml_parse(bytes, size, &syntax);
  if (root) fuzz__check_tree(root, line_limit);
  else if (syntax.line == 0 || syntax.line > line_limit || syntax.column == 0) abort();
  else if (!memchr(syntax.message, 0, sizeof syntax.message) || !syntax.message[0]) abort();
  toml_delete(root);

  Config config;
  ConfigError error;
  if (config_parse(bytes, size, kind, &config, &error)) {
    if (!root) abort(); /* the config reader accepted what the TOML reader refused */
    fuzz__check_config(&config);
  } else {
    if (error.line > line_limit || !memchr(error.message, 0, sizeof error.message) || !error.message[0]) abort();
    if (!fuzz__config_is_empty(&config)) abort();
  }
  config_clear(&config);
  free(bytes);
  return 0;
}
