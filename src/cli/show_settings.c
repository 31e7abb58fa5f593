/* show_settings.c — the settings of one file, and where each came from. */
#include "show_settings.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* The config file's name as shown in the comments ("pyproject.toml"). */
static const char *shown__file(const ShownFile *file) {
  const Config *config = file->settings->config;
  return config && config->path ? path_basename(config->path) : "config file";
}

/* Where a setting the command line and the file may set came from. */
static const char *shown__source(const ShownFile *file, bool by_flag, bool by_file) {
  if (by_flag) return "command line";
  if (by_file) return shown__file(file);
  return "default";
}

static void shown__switch(FILE *out, const ShownFile *file, const char *key, bool value, int flag, int from_file) {
  int chars = fprintf(out, "%s = %s", key, value ? "true" : "false");
  fprintf(out, "%*s# %s\n", chars < 34 ? 34 - chars : 1, "", shown__source(file, flag >= 0, from_file >= 0));
}

static void shown__text(FILE *out, const char *key, const char *value, const char *source) {
  int chars = value ? fprintf(out, "%s = \"%s\"", key, value) : fprintf(out, "%s = none", key);
  fprintf(out, "%*s# %s\n", chars < 34 ? 34 - chars : 1, "", source);
}

/* `key = ["GPU001", ...]`: the codes `rules` turns on. */
static void shown__rules(FILE *out, const char *key, const GlRuleSet *rules, const char *source) {
  int chars = fprintf(out, "%s = [", key);
  bool first = true;
  for (uint32_t i = 0; i < gl_rule_count(); i++) {
    if (!rules->enabled[i]) continue;
    chars += fprintf(out, "%s\"%s\"", first ? "" : ", ", gl_rule_info(i)->code);
    first = false;
  }
  chars += fprintf(out, "]");
  fprintf(out, "%*s# %s\n", chars < 34 ? 34 - chars : 1, "", source);
}

/* `key = ["a", "b"]` from a list of patterns' names. */
/* `key = [...]` with the globs of `patterns` and then of `more` (NULL:
 * none). */
static void shown__patterns(FILE *out, const char *key, const FilePatterns *patterns, const FilePatterns *more,
                            const char *source) {
  fprintf(out, "%s = [", key);
  uint32_t shown = 0;
  for (const FilePatterns *list = patterns; list; list = list == patterns ? more : NULL) {
    for (uint32_t i = 0; i < list->size; i++) fprintf(out, "%s\"%s\"", shown++ ? ", " : "", list->contents[i].name);
  }
  fprintf(out, "]  # %s\n", source);
}

static bool shown__selects(const Selection *selection) {
  return selection->has_select || selection->extend_select.size || selection->ignore.size;
}

/* Which layers chose a rule set ("defaults, pyproject.toml, command
 * line"): from the last that replaced the set (`select`, `fixable`) on,
 * those that changed it. The caller frees it. */
static char *shown__rule_sources(const ShownFile *file, const Selection *from_file, const Selection *from_flags) {
  bool by_file = file->settings->config && shown__selects(from_file), by_flags = shown__selects(from_flags);
  int start = by_flags && from_flags->has_select ? 2 : by_file && from_file->has_select ? 1 : 0;
  const char *layers[3] = {"defaults", by_file && start <= 1 ? shown__file(file) : NULL, by_flags ? "command line" : NULL};
  char *joined = gl_strdup("");
  for (int i = start; i < 3; i++) {
    if (!layers[i]) continue;
    char *longer = gl_format("%s%s%s", joined, joined[0] ? ", " : "", layers[i]);
    free(joined);
    joined = longer;
  }
  return joined;
}

void show_settings_print(FILE *out, const ShownFile *file) {
  const Settings *settings = file->settings;
  const Config *config = settings->config, *cli = file->cli;
  fprintf(out, "Settings for %s\n", file->path);
  if (config && config->path) {
    fprintf(out, "Config file: %s%s\n", config->path, strstr(config->path, "pyproject.toml") ? " ([tool.gpulint])" : "");
  } else {
    fprintf(out, "Config file: none (%s)\n", file->isolated ? "--isolated" : "no config file at or above the file");
  }
  fprintf(out, "\n");
  GlRuleSet rules = settings_rules_for(settings, file->absolute);
  char *sources = shown__rule_sources(file, config ? &config->selection : &cli->selection, &cli->selection);
  shown__rules(out, "rules", &rules, "this file's, after per-file ignores and test-rules");
  shown__rules(out, "selected", &settings->rules, sources);
  free(sources);
  sources = shown__rule_sources(file, config ? &config->fixing : &cli->fixing, &cli->fixing);
  shown__rules(out, "fixable", &settings->fixable, sources);
  free(sources);
  int test_flag = cli->test_rules_all, test_file = config ? config->test_rules_all : -1;
  TestFile test = settings_test_file(settings, file->absolute);
  int chars = fprintf(out, "test-file = %s",
                      test == TEST_FILE ? "true" : test == TEST_FILE_BY_CODE ? "\"if its code shows a test\"" : "false");
  fprintf(out, "%*s# %s\n", chars < 34 ? 34 - chars : 1, "",
          test == TEST_FILE_BY_CODE ? "named like a test: pytest or unittest imported, or test_* defined"
                                    : "matched by test-files");
  shown__text(out, "test-rules", settings->test_rules_all ? "all" : "correctness",
              shown__source(file, test_flag >= 0, test_file >= 0));
  shown__switch(out, file, "pedantic", settings->rules.pedantic, cli->pedantic, config ? config->pedantic : -1);
  shown__switch(out, file, "fix", settings->fix, cli->fix, config ? config->fix : -1);
  shown__switch(out, file, "unsafe-fixes", settings->unsafe_fixes, cli->unsafe_fixes, config ? config->unsafe_fixes : -1);
  shown__switch(out, file, "respect-gitignore", settings->respect_gitignore, cli->respect_gitignore,
                config ? config->respect_gitignore : -1);
  shown__switch(out, file, "force-exclude", settings->force_exclude, cli->force_exclude,
                config ? config->force_exclude : -1);
  shown__text(out, "output-format", settings->output_format ? settings->output_format : "text",
              shown__source(file, cli->output_format, config && config->output_format));
  shown__text(out, "rule-url", settings->rule_url, shown__source(file, cli->rule_url, config && config->rule_url));
  bool excludes_by_file = config && (config->has_exclude || config->extend_exclude.size);
  shown__patterns(out, "exclude", &settings->exclude, NULL,
                  shown__source(file, cli->has_exclude || cli->extend_exclude.size, excludes_by_file));
  shown__patterns(out, "test-files", &settings->test_files, &settings->test_files_by_code,
                  shown__source(file, cli->has_test_files || cli->extend_test_files.size,
                                config && (config->has_test_files || config->extend_test_files.size)));
  fprintf(out, "per-file-ignores = {");
  for (uint32_t i = 0; i < settings->per_file_ignores.size; i++) {
    const FileIgnore *ignore = &settings->per_file_ignores.contents[i];
    for (uint32_t p = 0; p < ignore->patterns.size; p++) {
      fprintf(out, "%s\"%s\" = [", i || p ? ", " : "", ignore->patterns.contents[p].name);
      for (uint32_t c = 0; c < ignore->codes.size; c++) fprintf(out, "%s\"%s\"", c ? ", " : "", ignore->codes.contents[c]);
      fprintf(out, "]");
    }
  }
  fprintf(out, "}  # %s\n", shown__source(file, cli->per_file_ignores.size, config && config->per_file_ignores.size));
  shown__text(out, "cache-dir", file->cache_dir, file->cache_dir ? "the result cache" : "the result cache is off");
}
