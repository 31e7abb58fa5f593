/* options.c — parsing the flags of `gpulint check`. */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "select.h"
#include "suggest.h"

#define MAX_JOBS 1024

/* In parts: one string literal of it would pass C99's 4095-byte limit. */
static const char *const CHECK_USAGE[] = {
    "usage: gpulint [check] [OPTIONS] [PATH ...]\n"
    "       gpulint check --watch [OPTIONS] [PATH ...]\n"
    "       gpulint rules [--output-format json]\n"
    "       gpulint rule CODE | --all [--output-format json]\n"
    "       gpulint verify [PATH ...]\n"
    "       gpulint verify --run [OPTIONS] -- COMMAND ...\n"
    "       gpulint server\n"
    "       gpulint clean [PATH ...]\n"
    "       gpulint --version\n"
    "\n",
    "Finds GPU-memory and training-loop pitfalls in PyTorch training scripts.\n"
    "PATH is a file or directory (default: .); `-` reads standard input. A first\n"
    "word that is no command, names no file or folder and has no `/` or `.` is\n"
    "an unknown command (`gpulint -- WORD` lints a path of that name).\n"
    "\n",
    "Commands:\n"
    "  check                        lint (the default)\n"
    "  rules, rule CODE             the rule table; a rule's page\n"
    "  verify [PATH ...]            replay each rule's reproduction on a GPU\n"
    "  verify --run -- COMMAND ...  run your own script under a probe and measure\n"
    "                               each finding on it (`gpulint verify --help`)\n"
    "  server                       the language server (LSP over stdio)\n"
    "  clean                        remove the result cache\n"
    "\n",
    "Rule selection (codes, prefixes such as GPU1, or ALL; comma-separated):\n"
    "  --select CODES               the rules to run, replacing the default set\n"
    "  --extend-select CODES        rules to add\n"
    "  --ignore, --extend-ignore CODES\n"
    "                               rules to leave out\n"
    "  --extend-per-file-ignores GLOB:CODES\n"
    "                               leave rules out in files matching GLOB\n"
    "  --pedantic                   also report findings whose only evidence is a\n"
    "                               name (`model`, `criterion`), findings whose harm\n"
    "                               the code does not show (each rule's page says\n"
    "                               which) and GPU103 on single forwards outside\n"
    "                               loops (default: off)\n"
    "  --test-rules MODE            in test files, run only the `correctness`\n"
    "                               rules (default) or `all`\n"
    "  --no-index                   lint every file alone, without the facts of its\n"
    "                               project's other files (without the result cache)\n"
    "\n",
    "Files:\n"
    "  --exclude GLOBS              replace the default excludes\n"
    "  --extend-exclude GLOBS       exclude more\n"
    "  --respect-gitignore, --no-respect-gitignore\n"
    "                               honour .gitignore files (default: on)\n"
    "  --force-exclude              apply excludes to paths named explicitly too\n"
    "  --stdin-filename NAME        the name of standard input (.py or .ipynb)\n"
    "  --show-files                 list the files that would be linted, then stop\n"
    "  --show-settings              print the settings of the first file (each with\n"
    "                               the config file or flag it came from), then stop\n"
    "\n",
    "Fixes:\n"
    "  --fix, --no-fix              apply the safe fixes and report what is left\n"
    "  --unsafe-fixes               also apply fixes that may change what the\n"
    "                               program computes (each rule page says which)\n"
    "  --diff                       print what --fix would change as a unified\n"
    "                               diff, change nothing (exit 1 when there is one)\n"
    "  --show-fixes                 list the fixes applied\n"
    "  --fix-only                   apply fixes, report nothing left (exit 0)\n"
    "  --add-noqa                   add `# noqa: CODE` to every reported line\n"
    "  --fixable CODES              the rules whose fixes apply (default: ALL)\n"
    "  --extend-fixable CODES       more rules whose fixes apply\n"
    "  --unfixable CODES            rules whose fixes never apply\n"
    "\n",
    "Watching:\n"
    "  -w, --watch                  lint again whenever a linted file, a config file\n"
    "                               or .gitignore changes, until Ctrl-C (with --fix,\n"
    "                               fixes each change); not with --diff, --add-noqa,\n"
    "                               --show-files or standard input\n"
    "\n",
    "Output:\n"
    "  --output-format, --format FORMAT\n"
    "                               text (default), full, json, json-lines, sarif,\n"
    "                               github or gitlab\n"
    "  -o, --output-file FILE       write the output to FILE\n"
    "  --color auto|always|never    colour text output (default: on a terminal)\n"
    "  --statistics                 a count per rule instead of the findings\n"
    "  -q, --quiet                  print findings only, no summary\n"
    "  -e, --exit-zero              exit 0 even with findings\n"
    "  --rule-url TEMPLATE          where the rule pages are published, e.g.\n"
    "                               https://example.org/rules/{code} ({name} too);\n"
    "                               no URL is shown without one\n"
    "\n",
    "Configuration:\n"
    "  --config PATH                use this config file for every file\n"
    "  --isolated                   ignore config files\n"
    "  -j, --jobs N                 lint on N threads (default: one per CPU)\n"
    "  --no-cache                   neither read nor write the result cache\n"
    "  --cache-dir DIR              keep the result cache in DIR (default:\n"
    "                               .gpulint_cache in the project's root)\n"
    "\n",
    "  -h, --help                   show this help\n"
    "  --version                    print the version\n"
    "\n",
    "Config files: [tool.gpulint] in the nearest pyproject.toml, or gpulint.toml\n"
    "or .gpulint.toml. Suppress a finding with `# noqa: CODE` on its line.\n"
    "GPULINT_NO_CACHE=1 in the environment acts as --no-cache, and\n"
    "GPULINT_CACHE_DIR=DIR as --cache-dir DIR.\n"
    "\n"
    "exit status: 0 no findings, 1 findings, 2 usage, config or I/O error\n",
};

void check_usage_print(FILE *out) {
  for (size_t i = 0; i < sizeof CHECK_USAGE / sizeof CHECK_USAGE[0]; i++) fputs(CHECK_USAGE[i], out);
}

typedef bool (*FlagHandler)(CheckOptions *self, const char *value, char **error);

void check_options_init(CheckOptions *self) {
  memset(self, 0, sizeof *self);
  config_init(&self->flags);
}

void check_options_clear(CheckOptions *self) {
  config_clear(&self->flags);
  string_list_delete(&self->paths);
  free(self->config_path);
  free(self->output_file);
  free(self->stdin_filename);
  free(self->cache_dir);
  check_options_init(self);
}

static void options__replace(char **slot, const char *value) {
  free(*slot);
  *slot = gl_strdup(value);
}

/* Splits at commas outside {} alternatives, dropping empty items. */
static void options__split(const char *value, StringList *out) {
  int depth = 0;
  const char *start = value;
  for (const char *p = value;; p++) {
    if (*p == '{') depth++;
    if (*p == '}' && depth > 0) depth--;
    if (*p != '\0' && (*p != ',' || depth > 0)) continue;
    if (p > start) array_push(out, gl_strndup(start, (size_t)(p - start)));
    if (*p == '\0') break;
    start = p + 1;
  }
}

/* ---- Handlers ------------------------------------------------------------------ */

static bool options__format(CheckOptions *self, const char *value, char **error) {
  OutputFormat format;
  if (!report_parse_format(value, &format)) {
    *error = gl_format("unknown output format `%s` (one of %s)", value, REPORT_FORMAT_NAMES);
    return false;
  }
  options__replace(&self->flags.output_format, value);
  return true;
}

static bool options__rule_url(CheckOptions *self, const char *value, char **error) {
  const char *why = report_rule_url_error(value);
  if (why) {
    *error = gl_format("--rule-url `%s`: %s", value, why);
    return false;
  }
  options__replace(&self->flags.rule_url, value);
  return true;
}

static bool options__output_file(CheckOptions *self, const char *value, char **error) {
  (void)error;
  options__replace(&self->output_file, value);
  return true;
}

static bool options__color(CheckOptions *self, const char *value, char **error) {
  if (strcmp(value, "auto") == 0) self->color = COLOR_AUTO;
  else if (strcmp(value, "always") == 0) self->color = COLOR_ALWAYS;
  else if (strcmp(value, "never") == 0) self->color = COLOR_NEVER;
  else {
    *error = gl_format("`--color` takes auto, always or never, not `%s`", value);
    return false;
  }
  return true;
}

static bool options__selectors(StringList *out, const char *value, char **error) {
  char *unknown = NULL;
  if (selector_list_parse(value, out, &unknown)) return true;
  *error = gl_format("unknown rule selector `%s` (see `gpulint rules`)", unknown);
  free(unknown);
  return false;
}

static bool options__select(CheckOptions *self, const char *value, char **error) {
  self->flags.selection.has_select = true;
  return options__selectors(&self->flags.selection.select, value, error);
}

static bool options__extend_select(CheckOptions *self, const char *value, char **error) {
  return options__selectors(&self->flags.selection.extend_select, value, error);
}

static bool options__ignore(CheckOptions *self, const char *value, char **error) {
  return options__selectors(&self->flags.selection.ignore, value, error);
}

static bool options__fixable(CheckOptions *self, const char *value, char **error) {
  self->flags.fixing.has_select = true;
  return options__selectors(&self->flags.fixing.select, value, error);
}

static bool options__extend_fixable(CheckOptions *self, const char *value, char **error) {
  return options__selectors(&self->flags.fixing.extend_select, value, error);
}

static bool options__unfixable(CheckOptions *self, const char *value, char **error) {
  return options__selectors(&self->flags.fixing.ignore, value, error);
}

static bool options__patterns(StringList *out, const char *value, char **error) {
  StringList globs = array_new();
  options__split(value, &globs);
  bool ok = true;
  for (uint32_t i = 0; ok && i < globs.size; i++) {
    const char *problem = NULL;
    ok = config_check_pattern(globs.contents[i], &problem);
    if (ok) string_list_push(out, globs.contents[i]);
    else *error = gl_format("%s: `%s`", problem, globs.contents[i]);
  }
  string_list_delete(&globs);
  return ok;
}

static bool options__exclude(CheckOptions *self, const char *value, char **error) {
  self->flags.has_exclude = true;
  return options__patterns(&self->flags.exclude, value, error);
}

static bool options__extend_exclude(CheckOptions *self, const char *value, char **error) {
  return options__patterns(&self->flags.extend_exclude, value, error);
}

/* GLOB:CODES, split at the last ':' */
static bool options__per_file_ignores(CheckOptions *self, const char *value, char **error) {
  const char *colon = strrchr(value, ':');
  if (!colon || colon == value) {
    *error = gl_format("`--extend-per-file-ignores` takes GLOB:CODES, not `%s`", value);
    return false;
  }
  PerFileIgnore ignore = {gl_strndup(value, (size_t)(colon - value)), (StringList)array_new()};
  array_push(&self->flags.per_file_ignores, ignore);
  const char *problem = NULL;
  if (!config_check_pattern(ignore.pattern, &problem)) {
    *error = gl_format("%s: `%s`", problem, ignore.pattern);
    return false;
  }
  return options__selectors(&array_back(&self->flags.per_file_ignores)->codes, colon + 1, error);
}

static bool options__test_rules(CheckOptions *self, const char *value, char **error) {
  int all = config_test_rules_parse(value);
  if (all < 0) {
    *error = gl_format("`--test-rules` is `correctness` or `all`, not `%s`", value);
    return false;
  }
  self->flags.test_rules_all = all;
  return true;
}

static bool options__jobs(CheckOptions *self, const char *value, char **error) {
  char *end = NULL;
  long jobs = strtol(value, &end, 10);
  if (end == value || *end != '\0' || jobs < 0 || jobs > MAX_JOBS) {
    *error = gl_format("`--jobs` takes a number from 0 (one per CPU) to %d, not `%s`", MAX_JOBS, value);
    return false;
  }
  self->jobs = (uint32_t)jobs;
  return true;
}

static bool options__config(CheckOptions *self, const char *value, char **error) {
  (void)error;
  options__replace(&self->config_path, value);
  return true;
}

static bool options__cache_dir(CheckOptions *self, const char *value, char **error) {
  if (!value[0]) {
    *error = gl_strdup("`--cache-dir` needs a folder");
    return false;
  }
  options__replace(&self->cache_dir, value);
  return true;
}

static bool options__stdin_filename(CheckOptions *self, const char *value, char **error) {
  (void)error;
  options__replace(&self->stdin_filename, value);
  return true;
}

#define SWITCH(function, statement)                                          \
  static bool function(CheckOptions *self, const char *value, char **error) { \
    (void)value;                                                             \
    (void)error;                                                             \
    statement;                                                               \
    return true;                                                             \
  }

SWITCH(options__respect_gitignore, self->flags.respect_gitignore = 1)
SWITCH(options__no_respect_gitignore, self->flags.respect_gitignore = 0)
SWITCH(options__force_exclude, self->flags.force_exclude = 1)
SWITCH(options__no_force_exclude, self->flags.force_exclude = 0)
SWITCH(options__pedantic, self->flags.pedantic = 1)
SWITCH(options__no_index, self->no_index = true)
SWITCH(options__no_pedantic, self->flags.pedantic = 0)
SWITCH(options__isolated, self->isolated = true)
SWITCH(options__exit_zero, self->exit_zero = true)
SWITCH(options__statistics, self->statistics = true)
SWITCH(options__quiet, self->quiet = true)
SWITCH(options__show_files, self->show_files = true)
SWITCH(options__show_settings, self->show_settings = true)
SWITCH(options__help, self->help = true)
SWITCH(options__no_cache, self->no_cache = true)
SWITCH(options__fix, self->flags.fix = 1)
SWITCH(options__no_fix, self->flags.fix = 0)
SWITCH(options__unsafe_fixes, self->flags.unsafe_fixes = 1)
SWITCH(options__no_unsafe_fixes, self->flags.unsafe_fixes = 0)
SWITCH(options__diff, self->diff = true)
SWITCH(options__show_fixes, self->show_fixes = true)
SWITCH(options__no_show_fixes, self->show_fixes = false)
SWITCH(options__fix_only, (self->fix_only = true, self->flags.fix = 1))
SWITCH(options__add_noqa, self->add_noqa = true)
SWITCH(options__watch, self->watch = true)

static const struct {
  const char *name;
  char short_name;
  bool takes_value;
  FlagHandler apply;
} FLAGS[] = {
    {"output-format", 0, true, options__format},
    {"format", 0, true, options__format},
    {"rule-url", 0, true, options__rule_url},
    {"output-file", 'o', true, options__output_file},
    {"color", 0, true, options__color},
    {"select", 0, true, options__select},
    {"extend-select", 0, true, options__extend_select},
    {"ignore", 0, true, options__ignore},
    {"extend-ignore", 0, true, options__ignore},
    {"fixable", 0, true, options__fixable},
    {"extend-fixable", 0, true, options__extend_fixable},
    {"unfixable", 0, true, options__unfixable},
    {"extend-per-file-ignores", 0, true, options__per_file_ignores},
    {"exclude", 0, true, options__exclude},
    {"extend-exclude", 0, true, options__extend_exclude},
    {"respect-gitignore", 0, false, options__respect_gitignore},
    {"no-respect-gitignore", 0, false, options__no_respect_gitignore},
    {"force-exclude", 0, false, options__force_exclude},
    {"no-force-exclude", 0, false, options__no_force_exclude},
    {"pedantic", 0, false, options__pedantic},
    {"no-index", 0, false, options__no_index},
    {"no-pedantic", 0, false, options__no_pedantic},
    {"test-rules", 0, true, options__test_rules},
    {"config", 0, true, options__config},
    {"isolated", 0, false, options__isolated},
    {"stdin-filename", 0, true, options__stdin_filename},
    {"jobs", 'j', true, options__jobs},
    {"no-cache", 0, false, options__no_cache},
    {"cache-dir", 0, true, options__cache_dir},
    {"exit-zero", 'e', false, options__exit_zero},
    {"statistics", 0, false, options__statistics},
    {"quiet", 'q', false, options__quiet},
    {"show-files", 0, false, options__show_files},
    {"show-settings", 0, false, options__show_settings},
    {"fix", 0, false, options__fix},
    {"no-fix", 0, false, options__no_fix},
    {"unsafe-fixes", 0, false, options__unsafe_fixes},
    {"no-unsafe-fixes", 0, false, options__no_unsafe_fixes},
    {"diff", 0, false, options__diff},
    {"show-fixes", 0, false, options__show_fixes},
    {"no-show-fixes", 0, false, options__no_show_fixes},
    {"fix-only", 0, false, options__fix_only},
    {"add-noqa", 0, false, options__add_noqa},
    {"watch", 'w', false, options__watch},
    {"help", 'h', false, options__help},
};

#define FLAG_COUNT (sizeof FLAGS / sizeof FLAGS[0])

/* ---- Parsing --------------------------------------------------------------------- */

/* The flag that `arg` names, and where an attached value starts (after
 * '=' or a short flag's letter), or FLAG_COUNT. */
static size_t options__lookup(const char *arg, const char **attached) {
  *attached = NULL;
  for (size_t i = 0; i < FLAG_COUNT; i++) {
    if (arg[1] == '-') {
      size_t length = strlen(FLAGS[i].name);
      if (strncmp(arg + 2, FLAGS[i].name, length) != 0) continue;
      if (arg[2 + length] == '=') *attached = arg + 3 + length;
      else if (arg[2 + length] != '\0') continue;
      return i;
    }
    if (FLAGS[i].short_name && arg[1] == FLAGS[i].short_name) {
      if (arg[2] != '\0') *attached = arg + 2;
      return i;
    }
  }
  return FLAG_COUNT;
}

/* "unknown option `ARG`", with the closest flag's name when one is close;
 * the caller frees it. */
static char *options__unknown(const char *arg) {
  const char *names[FLAG_COUNT];
  for (size_t i = 0; i < FLAG_COUNT; i++) names[i] = FLAGS[i].name;
  char *hint = suggest_option(arg, names, FLAG_COUNT);
  const char *equals = strchr(arg, '=');
  char *message = gl_format("unknown option `%.*s`%s", equals ? (int)(equals - arg) : (int)strlen(arg), arg, hint);
  free(hint);
  return message;
}

/* Applies the flag at argv[*i], taking its value from the next argument
 * when it is not attached. */
static bool options__flag(CheckOptions *self, int argc, char **argv, int *i, char **error) {
  const char *arg = argv[*i], *value = NULL;
  size_t flag = options__lookup(arg, &value);
  if (flag == FLAG_COUNT) {
    *error = options__unknown(arg);
    return false;
  }
  if (!FLAGS[flag].takes_value && value) {
    *error = gl_format("`%s` takes no value", arg);
    return false;
  }
  if (FLAGS[flag].takes_value && !value) {
    if (*i + 1 >= argc) {
      *error = gl_format("`%s` needs a value", arg);
      return false;
    }
    value = argv[++*i];
  }
  return FLAGS[flag].apply(self, value, error);
}

bool check_options_parse(CheckOptions *self, int argc, char **argv, int first, char **error) {
  *error = NULL;
  for (int i = first; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--") == 0) {
      for (i++; i < argc; i++) string_list_push(&self->paths, argv[i]);
    } else if (arg[0] == '-' && arg[1] != '\0') {
      if (!options__flag(self, argc, argv, &i, error)) return false;
    } else {
      string_list_push(&self->paths, arg);
    }
  }
  return true;
}
