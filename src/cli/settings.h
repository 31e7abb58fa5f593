/* settings.h — which settings apply to a file, from the nearest config
 * file and the command line.
 *
 * Each directory takes the closest config file at or above it: in one
 * directory .gpulint.toml, then gpulint.toml, then a pyproject.toml that
 * has a [tool.gpulint] table. Files are not merged; flags on the command
 * line override whichever file applies. `--config PATH` uses one file for
 * everything and `--isolated` uses none. */
#ifndef GPULINT_SETTINGS_H
#define GPULINT_SETTINGS_H

#include <stdbool.h>

#include "config.h"
#include "gpulint.h"

/* A glob from a config file or the command line, matched against a path's
 * last component (`name`) and against the whole absolute path
 * (`absolute`: the glob joined to the directory it is relative to). */
typedef struct {
  char *name;
  char *absolute; /* NULL for built-in names */
} FilePattern;

typedef Array(FilePattern) FilePatterns;

typedef struct {
  FilePatterns patterns;
  StringList codes; /* borrowed from the config */
} FileIgnore;

typedef struct {
  const Config *config;   /* the file these came from, or NULL; borrowed */
  GlRuleSet rules;        /* before per-file ignores */
  FilePatterns exclude;
  Array(FileIgnore) per_file_ignores;
  bool respect_gitignore;
  bool force_exclude;
  const char *output_format; /* NULL: text */
  const char *rule_url;      /* the rule pages' URL template; NULL: none */
  bool fix;                  /* apply safe fixes (`fix = true` or --fix) */
  bool unsafe_fixes;         /* also unsafe ones */
  GlRuleSet fixable;         /* the rules whose fixes apply (fixable, unfixable) */
  FilePatterns test_files;   /* test files */
  FilePatterns test_files_by_code; /* test files when their code shows a test (test_code.h) */
  bool test_rules_all;       /* every rule there, not only correctness */
} Settings;

typedef struct {
  const char *cwd;         /* absolute */
  const Config *cli;       /* the command line's flags */
  const char *config_path; /* --config, or NULL */
  bool isolated;           /* --isolated */
} ResolverOptions;

typedef struct Resolver Resolver;

/* Borrows `options` and what it points to for the resolver's lifetime.
 * Returns NULL and sets `error` ("path:line: message"; the caller frees it)
 * when --config names a file that cannot be used. */
Resolver *resolver_new(const ResolverOptions *options, char **error);
void resolver_delete(Resolver *self);

/* The settings for files in the absolute `directory`; borrowed from the
 * resolver. NULL and `error` set (the caller frees it) when a config file on
 * the way is malformed. */
const Settings *resolver_settings(Resolver *self, const char *directory, char **error);

/* Whether an exclude pattern matches the absolute path or its name. */
bool settings_excludes(const Settings *self, const char *absolute);

/* The rules for one file: `rules` less its per-file ignores. In a test
 * file (`test-files`), only the correctness rules
 * (effects wrong-gradients and crash) and the meta rules run, unless
 * `test-rules = "all"`: a memory or speed pitfall costs nothing in a test
 * that runs a few steps. A file that is a test file only if its code
 * shows one gets every rule with `tests_by_code` set: the lint decides
 * once it has parsed the file. */
GlRuleSet settings_rules_for(const Settings *self, const char *absolute);

typedef enum {
  TEST_FILE_NOT,
  TEST_FILE,         /* by a glob of test-files or extend-test-files, or a default folder */
  TEST_FILE_BY_CODE, /* by a default name: a test file if its code shows a test */
} TestFile;

/* Whether `absolute` is a test file. */
TestFile settings_test_file(const Settings *self, const char *absolute);

/* Whether the directory name is one of the default excludes. */
bool settings_is_default_exclude(const char *name);

#endif
