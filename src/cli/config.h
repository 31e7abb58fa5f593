/* config.h — gpulint's settings from a TOML file.
 *
 *   [tool.gpulint]                      (pyproject.toml; gpulint.toml and
 *   select = ["GPU0", "GPU1"]            .gpulint.toml use the same keys
 *   ignore = ["GPU102"]                  at the top level)
 *   extend-select = ["GPU201"]
 *   exclude = ["legacy", "*_pb2.py"]    replaces the default excludes
 *   extend-exclude = ["scratch"]
 *   per-file-ignores = { "test_*.py" = ["GPU001"] }
 *   respect-gitignore = true
 *   force-exclude = false
 *   output-format = "full"
 *   test-rules = "correctness"          in test files,
 *   test-files = ["check_*.py"]          only the correctness rules ("all":
 *   extend-test-files = ["qa_*.py"]      every rule); test-files replaces
 *                                        the default test globs
 *
 * The same struct holds the command line's flags (path NULL). */
#ifndef GPULINT_CONFIG_H
#define GPULINT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "path.h"
#include "select.h"

/* Config files larger than this are refused. */
#define CONFIG_MAX_BYTES (1u << 20)

typedef struct {
  char *pattern;     /* owned; as written */
  StringList codes;  /* selectors */
} PerFileIgnore;

typedef Array(PerFileIgnore) PerFileIgnores;

typedef enum {
  CONFIG_GPULINT_TOML, /* gpulint.toml, .gpulint.toml, --config FILE: top-level keys */
  CONFIG_PYPROJECT,    /* pyproject.toml: the [tool.gpulint] table */
} ConfigKind;

typedef struct {
  char *path;                 /* the file; NULL for the command line */
  bool found;                 /* pyproject.toml: whether [tool.gpulint] exists */
  Selection selection;        /* ignore also gets extend-ignore */
  Selection fixing;           /* which rules' fixes apply: select is fixable, extend_select
                                 extend-fixable, ignore unfixable */
  bool has_exclude;
  StringList exclude;
  StringList extend_exclude;
  PerFileIgnores per_file_ignores;
  int respect_gitignore;      /* -1 when not set */
  int force_exclude;          /* -1 when not set */
  int pedantic;               /* -1 when not set */
  int fix;                    /* -1 when not set */
  int unsafe_fixes;           /* -1 when not set */
  char *output_format;        /* NULL when not set; a known format name */
  char *rule_url;             /* NULL when not set; a usable rule URL template */
  int test_rules_all;         /* -1 when not set; 1 "all", 0 "correctness" */
  bool has_test_files;
  StringList test_files;      /* replaces the default test globs */
  StringList extend_test_files;
} Config;

typedef struct {
  uint32_t line; /* 1-based; 0 when the error concerns the whole file */
  char message[224];
} ConfigError;

/* An empty config: nothing set. */
void config_init(Config *self);
/* Frees what the config owns and leaves it empty. */
void config_clear(Config *self);

/* Reads settings from `length` bytes of TOML (borrowed). Unknown keys,
 * values of the wrong type, unknown rule selectors and malformed globs are
 * errors. Returns false with `error` filled; `out` is then left empty. */
bool config_parse(const char *bytes, size_t length, ConfigKind kind, Config *out, ConfigError *error);

/* Reads the file at `path` (its name decides the kind: pyproject.toml or
 * not). `out->path` becomes a copy of `path`. */
bool config_load(const char *path, Config *out, ConfigError *error);

/* `test-rules`: 1 for "all", 0 for "correctness", -1 for anything else. */
int config_test_rules_parse(const char *text);

/* Checks that `pattern` is a usable glob; false with a static message. */
bool config_check_pattern(const char *pattern, const char **problem);

#endif
