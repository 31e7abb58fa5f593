/* settings.c — finding the config file for each directory and merging it
 * with the command line. */
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glob.h"

/* Ruff's default excludes, and the environments a training repo keeps. */
static const char *const DEFAULT_EXCLUDES[] = {
    ".bzr", ".direnv", ".eggs", ".env", ".git", ".git-rewrite", ".gpulint_cache", ".hg", ".ipynb_checkpoints",
    ".mypy_cache", ".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv",
    ".vscode", "__pycache__", "__pypackages__", "_build", "buck-out", "build", "dist", "env",
    "node_modules", "site-packages", "venv",
};

/* Test files: pytest's configuration, and the folders test suites live
 * in (their helpers and the scripts their tests launch show no test of
 * their own), relative to the config file's directory (or the working
 * directory). Benchmark scripts are not among them: they train for real
 * (whole epochs), and their memory findings were judged true. */
static const char *const DEFAULT_TEST_FILES[] = {"conftest.py", "tests/*", "*/tests/*"};

/* Files that are test files only when their code shows a test
 * (test_code.h): pytest's and unittest's names, and a folder named `test`.
 * In a machine-learning repository `main_test.py`, `test_model.py` or
 * `test/eval_fid.py` is as often the script that evaluates the trained
 * model as a unit test. */
static const char *const DEFAULT_TEST_FILES_BY_CODE[] = {"test_*.py", "*_test.py", "test/*", "*/test/*"};

/* In one directory, the first of these that exists (and, for pyproject.toml,
 * has a [tool.gpulint] table) applies. */
static const char *const CONFIG_NAMES[] = {".gpulint.toml", "gpulint.toml", "pyproject.toml"};

typedef struct {
  char *directory; /* owned; NULL for an empty slot */
  const Settings *settings;
} DirectorySlot;

typedef Array(DirectorySlot) DirectorySlots;

struct Resolver {
  ResolverOptions options;
  Array(Config *) configs;     /* every file read, owned */
  Array(Settings *) settings;  /* one per config that applies, owned */
  Settings *fixed;             /* --config or --isolated: used everywhere */
  Settings *none;              /* no config file above the directory */
  DirectorySlots slots;        /* directory -> settings, open addressing */
  uint32_t used;
};

bool settings_is_default_exclude(const char *name) {
  for (size_t i = 0; i < sizeof DEFAULT_EXCLUDES / sizeof DEFAULT_EXCLUDES[0]; i++) {
    if (strcmp(name, DEFAULT_EXCLUDES[i]) == 0) return true;
  }
  return false;
}

/* ---- Patterns ---------------------------------------------------------------- */

/* Adds each glob of `globs`, relative to the absolute `base`. The globs were
 * checked when the config was read. */
static void patterns__add(FilePatterns *self, const StringList *globs, const char *base) {
  char *escaped = strcmp(base, "/") == 0 ? gl_strdup("") : glob_escape(base);
  for (uint32_t i = 0; i < globs->size; i++) {
    StringList expanded = array_new();
    const char *problem = NULL;
    glob_expand(globs->contents[i], &expanded, &problem);
    for (uint32_t j = 0; j < expanded.size; j++) {
      const char *glob = expanded.contents[j];
      while (glob[0] == '.' && glob[1] == '/') glob += 2;
      FilePattern pattern = {gl_strdup(glob), glob[0] == '/' ? gl_strdup(glob) : gl_format("%s/%s", escaped, glob)};
      array_push(self, pattern);
    }
    string_list_delete(&expanded);
  }
  free(escaped);
}

/* patterns__add for `count` built-in globs. */
static void patterns__add_static(FilePatterns *self, const char *const *globs, size_t count, const char *base) {
  StringList list = array_new();
  for (size_t i = 0; i < count; i++) array_push(&list, (char *)globs[i]);
  patterns__add(self, &list, base);
  array_delete(&list); /* the strings are static */
}

static void patterns__delete(FilePatterns *self) {
  for (uint32_t i = 0; i < self->size; i++) {
    free(self->contents[i].name);
    free(self->contents[i].absolute);
  }
  array_delete(self);
}

static bool patterns__match(const FilePatterns *self, const char *absolute) {
  const char *name = path_basename(absolute);
  for (uint32_t i = 0; i < self->size; i++) {
    const FilePattern *pattern = &self->contents[i];
    if (glob_match(pattern->name, name, 0)) return true;
    if (pattern->absolute && glob_match(pattern->absolute, absolute, 0)) return true;
  }
  return false;
}

/* ---- Settings ---------------------------------------------------------------- */

static int settings__flag(int cli, const Config *file, int from_file, int fallback) {
  if (cli >= 0) return cli;
  if (file && from_file >= 0) return from_file;
  return fallback;
}

static void settings__add_ignores(Settings *self, const PerFileIgnores *ignores, const char *base) {
  for (uint32_t i = 0; i < ignores->size; i++) {
    FileIgnore ignore = {(FilePatterns)array_new(), ignores->contents[i].codes};
    StringList glob = array_new();
    array_push(&glob, ignores->contents[i].pattern);
    patterns__add(&ignore.patterns, &glob, base);
    array_delete(&glob); /* the string stays with the config */
    array_push(&self->per_file_ignores, ignore);
  }
}

static void settings__excludes(Settings *self, const Config *file, const char *file_base, const ResolverOptions *options) {
  const Config *cli = options->cli;
  if (cli->has_exclude) {
    patterns__add(&self->exclude, &cli->exclude, options->cwd);
  } else if (file && file->has_exclude) {
    patterns__add(&self->exclude, &file->exclude, file_base);
  } else {
    for (size_t i = 0; i < sizeof DEFAULT_EXCLUDES / sizeof DEFAULT_EXCLUDES[0]; i++) {
      FilePattern pattern = {gl_strdup(DEFAULT_EXCLUDES[i]), NULL};
      array_push(&self->exclude, pattern);
    }
  }
  if (file) patterns__add(&self->exclude, &file->extend_exclude, file_base);
  patterns__add(&self->exclude, &cli->extend_exclude, options->cwd);
}

static void settings__test_files(Settings *self, const Config *file, const char *file_base, const ResolverOptions *options) {
  const Config *cli = options->cli;
  if (cli->has_test_files) {
    patterns__add(&self->test_files, &cli->test_files, options->cwd);
  } else if (file && file->has_test_files) {
    patterns__add(&self->test_files, &file->test_files, file_base);
  } else {
    patterns__add_static(&self->test_files, DEFAULT_TEST_FILES, sizeof DEFAULT_TEST_FILES / sizeof DEFAULT_TEST_FILES[0],
                         file_base);
    patterns__add_static(&self->test_files_by_code, DEFAULT_TEST_FILES_BY_CODE,
                         sizeof DEFAULT_TEST_FILES_BY_CODE / sizeof DEFAULT_TEST_FILES_BY_CODE[0], file_base);
  }
  if (file) patterns__add(&self->test_files, &file->extend_test_files, file_base);
  patterns__add(&self->test_files, &cli->extend_test_files, options->cwd);
  self->test_rules_all = settings__flag(cli->test_rules_all, file, file ? file->test_rules_all : -1, 0);
}

/* Settings from `file` (or none) under the command line's flags. Patterns of
 * a file found by search are relative to its directory; those of --config
 * and of flags to the working directory. */
static Settings *settings__new(const Config *file, const ResolverOptions *options) {
  Settings *self = gl_calloc(1, sizeof(Settings));
  const Config *cli = options->cli;
  self->config = file;
  self->rules = gl_rule_set_default();
  if (file) selection_apply(&file->selection, &self->rules);
  selection_apply(&cli->selection, &self->rules);
  for (uint32_t i = 0; i < GL_MAX_RULES; i++) self->fixable.enabled[i] = true; /* fixable = ALL */
  if (file) selection_apply(&file->fixing, &self->fixable);
  selection_apply(&cli->fixing, &self->fixable);
  char *absolute = file && !options->config_path ? path_absolute(options->cwd, file->path) : NULL;
  char *file_base = absolute ? path_parent(absolute) : gl_strdup(options->cwd);
  settings__excludes(self, file, file_base, options);
  settings__test_files(self, file, file_base, options);
  if (file) settings__add_ignores(self, &file->per_file_ignores, file_base);
  settings__add_ignores(self, &cli->per_file_ignores, options->cwd);
  self->respect_gitignore = settings__flag(cli->respect_gitignore, file, file ? file->respect_gitignore : -1, 1);
  self->force_exclude = settings__flag(cli->force_exclude, file, file ? file->force_exclude : -1, 0);
  self->rules.pedantic = settings__flag(cli->pedantic, file, file ? file->pedantic : -1, 0);
  self->fix = settings__flag(cli->fix, file, file ? file->fix : -1, 0);
  self->unsafe_fixes = settings__flag(cli->unsafe_fixes, file, file ? file->unsafe_fixes : -1, 0);
  self->output_format = cli->output_format ? cli->output_format : file ? file->output_format : NULL;
  self->rule_url = cli->rule_url ? cli->rule_url : file ? file->rule_url : NULL;
  free(absolute);
  free(file_base);
  return self;
}

static void settings__delete(Settings *self) {
  if (!self) return;
  patterns__delete(&self->exclude);
  patterns__delete(&self->test_files);
  patterns__delete(&self->test_files_by_code);
  for (uint32_t i = 0; i < self->per_file_ignores.size; i++) patterns__delete(&self->per_file_ignores.contents[i].patterns);
  array_delete(&self->per_file_ignores);
  free(self);
}

bool settings_excludes(const Settings *self, const char *absolute) { return patterns__match(&self->exclude, absolute); }

GlRuleSet settings_rules_for(const Settings *self, const char *absolute) {
  GlRuleSet rules = self->rules;
  for (uint32_t i = 0; i < self->per_file_ignores.size; i++) {
    const FileIgnore *ignore = &self->per_file_ignores.contents[i];
    if (patterns__match(&ignore->patterns, absolute)) selection_disable(&rules, &ignore->codes);
  }
  if (self->test_rules_all) return rules;
  TestFile test = settings_test_file(self, absolute);
  if (test == TEST_FILE) rules = gl_rule_set_for_tests(rules);
  rules.tests_by_code = test == TEST_FILE_BY_CODE;
  return rules;
}

TestFile settings_test_file(const Settings *self, const char *absolute) {
  if (patterns__match(&self->test_files, absolute)) return TEST_FILE;
  if (patterns__match(&self->test_files_by_code, absolute)) return TEST_FILE_BY_CODE;
  return TEST_FILE_NOT;
}

/* ---- The directory map -------------------------------------------------------- */

static uint32_t resolver__hash(const char *text) {
  uint32_t hash = 2166136261u;
  for (const char *p = text; *p; p++) hash = (hash ^ (unsigned char)*p) * 16777619u;
  return hash;
}

static DirectorySlot *resolver__slot(const Resolver *self, const char *directory) {
  uint32_t mask = self->slots.size - 1;
  for (uint32_t slot = resolver__hash(directory) & mask;; slot = (slot + 1) & mask) {
    DirectorySlot *entry = &self->slots.contents[slot];
    if (!entry->directory || strcmp(entry->directory, directory) == 0) return entry;
  }
}

static void resolver__remember(Resolver *self, const char *directory, const Settings *settings) {
  if ((self->used + 1) * 2 > self->slots.size) {
    DirectorySlots old = self->slots;
    uint32_t capacity = old.size ? old.size * 2 : 64;
    self->slots.contents = gl_calloc(capacity, sizeof(DirectorySlot));
    self->slots.size = self->slots.capacity = capacity;
    for (uint32_t i = 0; i < old.size; i++) {
      if (old.contents[i].directory) *resolver__slot(self, old.contents[i].directory) = old.contents[i];
    }
    array_delete(&old);
  }
  DirectorySlot *slot = resolver__slot(self, directory);
  if (!slot->directory) {
    slot->directory = gl_strdup(directory);
    self->used++;
  }
  slot->settings = settings;
}

/* ---- Resolving ------------------------------------------------------------------ */

static char *resolver__error(const char *path, const ConfigError *error) {
  if (error->line == 0) return gl_format("%s: %s", path, error->message);
  return gl_format("%s:%u: %s", path, error->line, error->message);
}

/* Reads a config file once; NULL with `error` set when it is malformed. */
static Config *resolver__load(Resolver *self, const char *path, char **error) {
  for (uint32_t i = 0; i < self->configs.size; i++) {
    if (strcmp(self->configs.contents[i]->path, path) == 0) return self->configs.contents[i];
  }
  Config *config = gl_malloc(sizeof(Config));
  ConfigError problem;
  if (!config_load(path, config, &problem)) {
    *error = resolver__error(path, &problem);
    free(config);
    return NULL;
  }
  array_push(&self->configs, config);
  return config;
}

static const Settings *resolver__settings_of(Resolver *self, const Config *config) {
  for (uint32_t i = 0; i < self->settings.size; i++) {
    if (self->settings.contents[i]->config == config) return self->settings.contents[i];
  }
  Settings *settings = settings__new(config, &self->options);
  array_push(&self->settings, settings);
  return settings;
}

static bool resolver__is_file(const char *path) {
  struct stat info;
  return stat(path, &info) == 0 && S_ISREG(info.st_mode);
}

/* The config file that applies in `directory` itself, or NULL. */
static const Config *resolver__config_in(Resolver *self, const char *directory, char **error) {
  for (size_t i = 0; i < sizeof CONFIG_NAMES / sizeof CONFIG_NAMES[0]; i++) {
    char *path = path_join(directory, CONFIG_NAMES[i]);
    const Config *config = resolver__is_file(path) ? resolver__load(self, path, error) : NULL;
    free(path);
    if (*error) return NULL;
    if (config && config->found) return config;
  }
  return NULL;
}

const Settings *resolver_settings(Resolver *self, const char *directory, char **error) {
  *error = NULL;
  if (self->fixed) return self->fixed;
  if (self->slots.size > 0) {
    const DirectorySlot *slot = resolver__slot(self, directory);
    if (slot->directory) return slot->settings;
  }
  const Config *config = resolver__config_in(self, directory, error);
  if (*error) return NULL;
  const Settings *settings = NULL;
  if (config) {
    settings = resolver__settings_of(self, config);
  } else if (strcmp(directory, "/") == 0) {
    settings = self->none;
  } else {
    char *parent = path_parent(directory);
    settings = resolver_settings(self, parent, error);
    free(parent);
    if (!settings) return NULL;
  }
  resolver__remember(self, directory, settings);
  return settings;
}

Resolver *resolver_new(const ResolverOptions *options, char **error) {
  *error = NULL;
  Resolver *self = gl_calloc(1, sizeof(Resolver));
  self->options = *options;
  self->none = settings__new(NULL, options);
  if (options->isolated) {
    self->fixed = self->none;
  } else if (options->config_path) {
    Config *config = resolver__load(self, options->config_path, error);
    if (!config) {
      resolver_delete(self);
      return NULL;
    }
    config->found = true; /* an explicit pyproject.toml without the table is an empty config */
    self->fixed = settings__new(config, options);
    array_push(&self->settings, self->fixed);
  }
  return self;
}

void resolver_delete(Resolver *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->configs.size; i++) {
    config_clear(self->configs.contents[i]);
    free(self->configs.contents[i]);
  }
  array_delete(&self->configs);
  for (uint32_t i = 0; i < self->settings.size; i++) settings__delete(self->settings.contents[i]);
  array_delete(&self->settings);
  settings__delete(self->none);
  for (uint32_t i = 0; i < self->slots.size; i++) free(self->slots.contents[i].directory);
  array_delete(&self->slots);
  free(self);
}
