/* cli.c — `gpulint check`: options → settings → discovery → lint on
 * worker threads → report. Also the rule catalogue commands. */
#include "cli.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "discover.h"
#include "fixing.h"
#include "gpulint.h"
#include "options.h"
#include "report.h"
#include "run.h"
#include "settings.h"
#include "show_settings.h"
#include "suggest.h"
#include "watch.h"

/* Standard input larger than this is refused. */
#define MAX_STDIN_BYTES (256u * 1024u * 1024u)

typedef struct {
  CheckOptions *options; /* borrowed */
  Watch *watch;          /* --watch: what discovery walks is watched; NULL otherwise */
  char *cwd;
  Resolver *resolver;
  Discovery discovery;
  Array(LintJob) jobs;
  Cache *cache; /* NULL: lint every file */
  FILE *out;
  bool failed; /* exit 2 at the end */
  bool stdin_fixed; /* the fixed standard input went to the output */
  bool rules_selected; /* some file is linted with at least one rule (before per-file ignores) */
} Check;

static int cli__usage_error(const char *message) {
  fprintf(stderr, "gpulint: %s\nRun `gpulint --help` for usage.\n", message);
  return EXIT_USAGE;
}

static void check__delete(Check *self) {
  for (uint32_t i = 0; i < self->jobs.size; i++) lint_job_clear(&self->jobs.contents[i]);
  array_delete(&self->jobs);
  cache_delete(self->cache);
  discovery_delete(&self->discovery);
  resolver_delete(self->resolver);
  if (self->out && self->out != stdout) fclose(self->out);
  free(self->cwd);
}

/* ---- Standard input ---------------------------------------------------------- */

static char *check__read_stdin(size_t *length) {
  size_t capacity = 65536, used = 0, got;
  char *bytes = gl_malloc(capacity);
  while ((got = fread(bytes + used, 1, capacity - used, stdin)) > 0) {
    used += got;
    if (used > MAX_STDIN_BYTES) break;
    if (used == capacity) bytes = gl_realloc(bytes, capacity *= 2);
  }
  if (ferror(stdin) || used > MAX_STDIN_BYTES) {
    free(bytes);
    return NULL;
  }
  *length = used;
  return bytes;
}

static bool check__wants_stdin(const CheckOptions *options) {
  if (options->stdin_filename) return true;
  for (uint32_t i = 0; i < options->paths.size; i++) {
    if (strcmp(options->paths.contents[i], "-") == 0) return true;
  }
  return false;
}

static bool check__selects_any(const GlRuleSet *rules) {
  for (uint32_t r = 0; r < GL_MAX_RULES; r++) {
    if (rules->enabled[r]) return true;
  }
  return false;
}

/* One job for standard input, named by --stdin-filename (or "-"). With
 * force-exclude, an excluded name lints nothing. */
static bool check__stdin_job(Check *self) {
  const CheckOptions *options = self->options;
  for (uint32_t i = 0; i < options->paths.size; i++) {
    if (strcmp(options->paths.contents[i], "-") != 0) {
      fprintf(stderr, "gpulint: ignoring %s in favour of standard input\n", options->paths.contents[i]);
    }
  }
  const char *name = options->stdin_filename ? options->stdin_filename : "-";
  char *absolute = path_absolute(self->cwd, name);
  char *parent = path_parent(absolute);
  const Settings *settings = resolver_settings(self->resolver, parent, &self->discovery.fatal);
  bool excluded = settings && settings->force_exclude && discovery_force_excludes(&self->discovery, absolute);
  if (settings && !excluded && !self->discovery.fatal) {
    LintJob job = {0};
    job.path = path_display(name);
    job.rules = settings_rules_for(settings, absolute);
    job.fixable = settings->fixable;
    self->rules_selected |= check__selects_any(&settings->rules);
    job.input = check__read_stdin(&job.input_length);
    if (!job.input) {
      fprintf(stderr, "gpulint: cannot read standard input\n");
      self->failed = true;
      free(job.path);
    } else {
      array_push(&self->jobs, job);
    }
  }
  free(parent);
  free(absolute);
  return self->discovery.fatal == NULL;
}

/* ---- Files ----------------------------------------------------------------------- */

/* A job for a path that could not be read: its result is the error (the
 * report shows it with the findings, as GPU903). */
static LintJob check__unreadable_job(const FoundFile *file) {
  LintJob job = {0};
  job.path = gl_strdup(file->path);
  job.result = gl_calloc(1, sizeof(GlFileResult));
  job.result->path = gl_strdup(file->path);
  job.result->error = gl_strdup(file->error);
  return job;
}

static int check__compare_jobs(const void *a, const void *b) {
  return strcmp(((const LintJob *)a)->path, ((const LintJob *)b)->path);
}

static bool check__discover(Check *self) {
  Discovery *discovery = &self->discovery;
  StringList *paths = &self->options->paths;
  if (paths->size == 0) string_list_push(paths, ".");
  for (uint32_t i = 0; i < paths->size; i++) {
    if (!discovery_add_path(discovery, paths->contents[i])) return false;
  }
  discovery_finish(discovery);
  if (discovery->failed) self->failed = true;
  for (uint32_t i = 0; i < discovery->unreadable.size; i++) {
    array_push(&self->jobs, check__unreadable_job(&discovery->unreadable.contents[i]));
    const Settings *settings = resolver_settings(self->resolver, self->cwd, &discovery->fatal); /* the run's own */
    if (settings) self->rules_selected |= check__selects_any(&settings->rules);
  }
  for (uint32_t i = 0; i < discovery->files.size; i++) {
    const FoundFile *file = &discovery->files.contents[i];
    LintJob job = {0};
    job.path = gl_strdup(file->path);
    job.rules = settings_rules_for(file->settings, file->absolute);
    job.fixable = file->settings->fixable;
    self->rules_selected |= check__selects_any(&file->settings->rules);
    array_push(&self->jobs, job);
  }
  if (self->jobs.size > 1) qsort(self->jobs.contents, self->jobs.size, sizeof(LintJob), check__compare_jobs);
  return true;
}

/* ---- The result cache ---------------------------------------------------------- */

static bool check__has_git(const char *folder) {
  char *git = path_join(folder, ".git");
  bool found = access(git, F_OK) == 0;
  free(git);
  return found;
}

/* The project's root: the folder of --config; else the nearest folder at or
 * above the working directory that holds the config file in use or a .git;
 * else the working directory. The caller frees it. */
static char *check__project_root(const Check *self, const Settings *root) {
  char *config = root->config ? path_absolute(self->cwd, root->config->path) : NULL;
  char *config_folder = config ? path_parent(config) : NULL;
  free(config);
  if (config_folder && self->options->config_path) return config_folder;
  char *folder = gl_strdup(self->cwd);
  while (!(config_folder && strcmp(folder, config_folder) == 0) && !check__has_git(folder)) {
    if (strcmp(folder, "/") == 0) {
      free(folder);
      folder = gl_strdup(self->cwd);
      break;
    }
    char *parent = path_parent(folder);
    free(folder);
    folder = parent;
  }
  free(config_folder);
  return folder;
}

/* Tells the workspace which directories the paths name: each is linted
 * whole, and the files under it that no root marker claims form one
 * project. */
static void check__add_linted_folders(const Check *self, GlWorkspace *workspace) {
  const StringList *paths = &self->options->paths;
  for (uint32_t i = 0; i < paths->size; i++) {
    if (strcmp(paths->contents[i], "-") == 0) continue;
    char *absolute = path_absolute(self->cwd, paths->contents[i]);
    struct stat info;
    if (stat(absolute, &info) == 0 && S_ISDIR(info.st_mode)) gl_workspace_add_linted_folder(workspace, absolute);
    free(absolute);
  }
}

static bool check__cache_disabled(const Check *self) {
  const char *variable = getenv("GPULINT_NO_CACHE");
  bool by_environment = variable && variable[0] && strcmp(variable, "0") != 0 && strcmp(variable, "false") != 0;
  return self->options->no_cache || by_environment;
}

/* The cache of this run: --cache-dir, $GPULINT_CACHE_DIR or the project's;
 * NULL when disabled or unusable (the files are then all linted). */
static Cache *check__cache(const Check *self, const Settings *root) {
  if (check__cache_disabled(self)) return NULL;
  const char *variable = getenv("GPULINT_CACHE_DIR");
  const char *chosen = self->options->cache_dir ? self->options->cache_dir : variable && variable[0] ? variable : NULL;
  char *folder = chosen ? path_absolute(self->cwd, chosen) : check__project_root(self, root);
  Cache *cache = chosen ? cache_new(folder) : cache_new_for_project(folder);
  free(folder);
  return cache;
}

/* ---- Reporting ----------------------------------------------------------------------- */

/* The directory CI formats make paths relative to: the CI's workspace when
 * set, else the working directory. The caller frees it. */
static char *check__base(const Check *self, OutputFormat format) {
  const char *variable = format == FORMAT_GITLAB ? "CI_PROJECT_DIR" : format == FORMAT_TEXT ? NULL : "GITHUB_WORKSPACE";
  const char *value = variable ? getenv(variable) : NULL;
  return path_absolute(self->cwd, value && value[0] ? value : self->cwd);
}

static bool check__color(const Check *self) {
  if (self->options->color != COLOR_AUTO) return self->options->color == COLOR_ALWAYS;
  const char *no_color = getenv("NO_COLOR");
  return !(no_color && no_color[0]) && isatty(fileno(self->out));
}

static int check__report(Check *self, OutputFormat format, const Settings *root, const FixOutcome *fixes) {
  ReportFile *files = gl_calloc(self->jobs.size + 1, sizeof(ReportFile));
  GlRuleSet ran = self->jobs.size ? (GlRuleSet){.enabled = {false}} : root->rules;
  size_t findings = 0;
  for (uint32_t i = 0; i < self->jobs.size; i++) {
    const LintJob *job = &self->jobs.contents[i];
    files[i] = (ReportFile){job->result, job->lines, job->fix_diffs};
    for (uint32_t r = 0; r < GL_MAX_RULES; r++) ran.enabled[r] |= job->rules.enabled[r];
    findings += job->result->finding_count;
  }
  if (report_problems(stderr, files, self->jobs.size, self->options->quiet) > 0) self->failed = true;
  char *base = check__base(self, format);
  ReportOptions options = {format, check__color(self), self->options->quiet, self->options->statistics,
                           self->cwd, base, ran, fixes->applied_count, root->unsafe_fixes, !self->rules_selected};
  FILE *out = self->out == stdout && self->stdin_fixed ? stderr : self->out; /* stdout holds the fixed source */
  report_print(out, &options, files, self->jobs.size);
  fflush(self->out);
  if (ferror(self->out)) {
    fprintf(stderr, "gpulint: cannot write the output\n");
    self->failed = true;
  }
  free(base);
  free(files);
  if (self->failed) return EXIT_USAGE;
  return findings > 0 && !self->options->exit_zero ? EXIT_FINDINGS : EXIT_CLEAN;
}

/* Files that could not be read or linted, on stderr (the report shows them
 * with the findings; the fix modes and --show-files show them here); they
 * fail the run. */
static void check__problems(Check *self) {
  for (uint32_t i = 0; i < self->jobs.size; i++) {
    const GlFileResult *result = self->jobs.contents[i].result;
    if (!result || !result->error) continue;
    fprintf(stderr, "gpulint: %s: %s\n", result->path, result->error);
    self->failed = true;
  }
}

/* --add-noqa: how many comments were added, on stderr. */
static int check__add_noqa_status(Check *self, const FixOutcome *fixes) {
  check__problems(self);
  if (!self->options->quiet) {
    fprintf(stderr, "Added %u `# noqa` comment%s.\n", fixes->noqa_added, fixes->noqa_added == 1 ? "" : "s");
  }
  return self->failed ? EXIT_USAGE : EXIT_CLEAN;
}

/* --diff: what would be fixed, on stderr; exit 1 when a file would change. */
static int check__diff_status(Check *self, const FixOutcome *fixes) {
  check__problems(self);
  if (!self->options->quiet) {
    if (fixes->applied_count) fprintf(stderr, "Would fix %u finding%s.\n", fixes->applied_count, fixes->applied_count == 1 ? "" : "s");
    else fprintf(stderr, "No fixes to apply.\n");
  }
  if (self->failed) return EXIT_USAGE;
  return fixes->files_changed > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}

/* --fix-only: what was fixed, on stderr; what is left is not reported. */
static int check__fix_only_status(Check *self, const FixOutcome *fixes) {
  for (uint32_t i = 0; i < self->jobs.size; i++) {
    if (self->jobs.contents[i].result->error) {
      fprintf(stderr, "gpulint: %s: %s\n", self->jobs.contents[i].path, self->jobs.contents[i].result->error);
      self->failed = true;
    }
  }
  if (!self->options->quiet && !self->stdin_fixed) {
    fprintf(stderr, "Fixed %u finding%s.\n", fixes->applied_count, fixes->applied_count == 1 ? "" : "s");
  }
  return self->failed ? EXIT_USAGE : EXIT_CLEAN;
}

static int check__show_files(Check *self) {
  check__problems(self);
  for (uint32_t i = 0; i < self->jobs.size; i++) {
    if (!self->jobs.contents[i].result) fprintf(self->out, "%s\n", self->jobs.contents[i].path);
  }
  return self->failed ? EXIT_USAGE : EXIT_CLEAN;
}

/* The folder the result cache would use, without making it; NULL when
 * the cache is off. The caller frees it. */
static char *check__cache_folder(const Check *self, const Settings *root) {
  if (check__cache_disabled(self) || self->options->no_index) return NULL;
  const char *variable = getenv("GPULINT_CACHE_DIR");
  const char *chosen = self->options->cache_dir ? self->options->cache_dir : variable && variable[0] ? variable : NULL;
  if (chosen) return path_absolute(self->cwd, chosen);
  char *root_folder = check__project_root(self, root);
  char *folder = path_join(root_folder, CACHE_FOLDER);
  free(root_folder);
  return folder;
}

/* --show-settings: the settings of the first file the paths name (or of
 * standard input's name, or of the working directory), then stop. */
static int check__show_settings(Check *self, const Settings *root) {
  const CheckOptions *options = self->options;
  char *path = NULL, *absolute = NULL;
  const Settings *settings = NULL;
  if (check__wants_stdin(options)) {
    path = gl_strdup(options->stdin_filename ? options->stdin_filename : "-");
    absolute = path_absolute(self->cwd, path);
    char *parent = path_parent(absolute);
    settings = resolver_settings(self->resolver, parent, &self->discovery.fatal);
    free(parent);
  } else if (check__discover(self) && self->discovery.files.size > 0) {
    const FoundFile *first = &self->discovery.files.contents[0];
    path = gl_strdup(first->path);
    absolute = gl_strdup(first->absolute);
    settings = first->settings;
  } else if (!self->discovery.fatal) {
    path = gl_strdup(".");
    absolute = gl_strdup(self->cwd);
    settings = root;
  }
  int status = EXIT_CLEAN;
  if (settings) {
    char *cache = check__cache_folder(self, root);
    ShownFile shown = {path, absolute, settings, &options->flags, options->isolated, cache};
    show_settings_print(self->out, &shown);
    free(cache);
  } else {
    fprintf(stderr, "gpulint: %s\n", self->discovery.fatal ? self->discovery.fatal : "no settings");
    status = EXIT_USAGE;
  }
  free(path);
  free(absolute);
  return status;
}

/* ---- check ------------------------------------------------------------------------------ */

/* Settings, output stream and format; returns -1 to go on or an exit status. */
static int check__prepare(Check *self, OutputFormat *format, const Settings **root) {
  char *error = NULL;
  self->cwd = path_current_directory();
  if (!self->cwd) return cli__usage_error("cannot determine the working directory");
  ResolverOptions resolver = {self->cwd, &self->options->flags, self->options->config_path, self->options->isolated};
  self->resolver = resolver_new(&resolver, &error);
  if (self->resolver) *root = resolver_settings(self->resolver, self->cwd, &error);
  if (error) {
    fprintf(stderr, "gpulint: %s\n", error);
    free(error);
    return EXIT_USAGE;
  }
  self->discovery.resolver = self->resolver;
  self->discovery.cwd = self->cwd;
  self->discovery.errors = stderr;
  if (self->watch) {
    self->discovery.on_directory = watch_directory;
    self->discovery.payload = self->watch;
  }
  *format = FORMAT_TEXT;
  if ((*root)->output_format) report_parse_format((*root)->output_format, format);
  const char *variable = getenv("GPULINT_RULE_URL"); /* used when neither flag nor config sets one */
  if (!(*root)->rule_url && variable && variable[0] && report_rule_url_error(variable)) {
    fprintf(stderr, "gpulint: GPULINT_RULE_URL `%s`: %s\n", variable, report_rule_url_error(variable));
    return EXIT_USAGE;
  }
  report_set_rule_url((*root)->rule_url);
  self->out = stdout;
  if (self->options->output_file && !(self->out = fopen(self->options->output_file, "w"))) {
    fprintf(stderr, "gpulint: %s: cannot open for writing\n", self->options->output_file);
    return EXIT_USAGE;
  }
  return -1;
}

/* A selection that leaves every rule off (`--select ALL --ignore ALL`, a
 * config's `select = []`) checks nothing: said on stderr, and the summary
 * says so instead of "All checks passed!". Per-file ignores do not count:
 * turning rules off for some files is their purpose. */
static void check__warn_if_no_rules(Check *self, const Settings *root) {
  if (self->jobs.size == 0) self->rules_selected = check__selects_any(&root->rules);
  if (self->rules_selected) return;
  fprintf(stderr, "gpulint: warning: no rules selected: the selection (--select, --extend-select, --ignore and "
                  "the config's select, extend-select, ignore) leaves every rule off; nothing is checked\n");
}

/* Finds the files (or reads standard input), lints them and reports. */
static int check__run(Check *self, OutputFormat format, const Settings *root) {
  if (self->options->show_settings) return check__show_settings(self, root);
  bool ok = check__wants_stdin(self->options) ? check__stdin_job(self) : check__discover(self);
  if (!ok) {
    fprintf(stderr, "gpulint: %s\n", self->discovery.fatal);
    return EXIT_USAGE;
  }
  if (self->options->show_files) return check__show_files(self);
  check__warn_if_no_rules(self, root);
  uint32_t threads = self->options->jobs ? self->options->jobs : run_default_threads();
  bool want_lines = format == FORMAT_FULL || format == FORMAT_SARIF || format == FORMAT_GITLAB;
  /* Results linted alone (--no-index) are not the project's: they skip the cache. */
  if (!check__wants_stdin(self->options) && !self->options->no_index && self->jobs.size > 0) {
    self->cache = check__cache(self, root);
  }
  GlWorkspace *workspace = gl_workspace_new();
  gl_workspace_set_indexing(workspace, !self->options->no_index);
  check__add_linted_folders(self, workspace);
  if (self->cache) gl_workspace_set_cache_dir(workspace, cache_directory(self->cache));
  run_jobs(self->jobs.contents, self->jobs.size, threads, want_lines, self->cache, workspace);
  FixOutcome fixes = {0};
  FixMode mode = {.fix = root->fix, .unsafe = root->unsafe_fixes, .diff = self->options->diff,
                  .add_noqa = self->options->add_noqa, .show_fixes = self->options->show_fixes, .want_lines = want_lines};
  if (mode.fix || mode.diff || mode.add_noqa) {
    fixing_run(self->jobs.contents, self->jobs.size, workspace, &mode, self->out, &fixes);
  }
  if (fixes.failed) self->failed = true;
  self->stdin_fixed = mode.fix && !mode.diff && check__wants_stdin(self->options);
  char *notices = gl_workspace_notices(workspace);
  if (notices && !self->options->quiet) fprintf(stderr, "gpulint: %s\n", notices);
  free(notices);
  gl_workspace_delete(workspace);
  if (mode.add_noqa) return check__add_noqa_status(self, &fixes);
  if (mode.diff) return check__diff_status(self, &fixes);
  if (self->options->fix_only) return check__fix_only_status(self, &fixes);
  return check__report(self, format, root, &fixes);
}

/* One run of `gpulint check` with `options` (borrowed); its exit status. */
static int check__once(CheckOptions *options, Watch *watch) {
  Check self = {.options = options, .watch = watch};
  OutputFormat format = FORMAT_TEXT;
  const Settings *root = NULL;
  int status = check__prepare(&self, &format, &root);
  if (status < 0) status = check__run(&self, format, root);
  if (watch && self.cache) watch_ignore(watch, cache_directory(self.cache));
  check__delete(&self);
  return status;
}

/* --watch lints files, not standard input, and reports; it does not mix
 * with the modes that print a change once. NULL or the conflict. */
static const char *check__watch_conflict(const CheckOptions *options) {
  if (check__wants_stdin(options)) return "`--watch` lints files, not standard input";
  if (options->diff) return "`--watch` cannot be combined with `--diff`";
  if (options->add_noqa) return "`--watch` cannot be combined with `--add-noqa`";
  if (options->show_files) return "`--watch` cannot be combined with `--show-files`";
  return NULL;
}

static int check__watch_run(void *payload, Watch *watch) {
  return check__once(payload, watch);
}

/* --watch: a run, then one more after each change, until a signal. */
static int check__watch(CheckOptions *options) {
  if (check__watch_conflict(options)) return cli__usage_error(check__watch_conflict(options));
  char *cwd = path_current_directory();
  if (!cwd) return cli__usage_error("cannot determine the working directory");
  if (options->paths.size == 0) string_list_push(&options->paths, ".");
  Watch *watch = watch_new(&options->paths, cwd);
  int status = watch ? watch_loop(watch, check__watch_run, options) : EXIT_USAGE;
  watch_delete(watch);
  free(cwd);
  return status;
}

int cli_check(int argc, char **argv, int first) {
  CheckOptions options;
  check_options_init(&options);
  char *error = NULL;
  int status = -1;
  if (!check_options_parse(&options, argc, argv, first, &error)) {
    status = cli__usage_error(error);
    free(error);
  } else if (options.help) {
    check_usage_print(stdout);
    status = EXIT_CLEAN;
  } else if (options.watch) {
    status = check__watch(&options);
  } else {
    status = check__once(&options, NULL);
  }
  check_options_clear(&options);
  return status;
}

/* ---- Unknown commands ------------------------------------------------------------------- */

static const char *const COMMANDS[] = {"check", "rule", "rules", "verify", "server", "clean", "version", "help"};

/* What gpulint offers for a command of ruff's that it lacks, or NULL. */
static const char *cli__ruff_equivalent(const char *word) {
  if (strcmp(word, "format") == 0) return "gpulint lints and does not format code (use a formatter, e.g. `ruff format`)";
  if (strcmp(word, "config") == 0) return "see `gpulint check --show-settings FILE` for the settings in use";
  if (strcmp(word, "linter") == 0) return "gpulint has one linter; see `gpulint rules`";
  return NULL;
}

bool cli_unknown_command(const char *word) {
  struct stat info;
  if (word[0] == '-' || strchr(word, '/') || strchr(word, '.') || stat(word, &info) == 0) return false;
  const char *meant = suggest_closest(word, COMMANDS, sizeof COMMANDS / sizeof COMMANDS[0]);
  const char *equivalent = cli__ruff_equivalent(word);
  if (equivalent) fprintf(stderr, "gpulint: unknown command `%s`: %s\n", word, equivalent);
  else if (meant) fprintf(stderr, "gpulint: unknown command `%s`; did you mean `%s`?\n", word, meant);
  else fprintf(stderr, "gpulint: unknown command `%s`, and no file or folder has that name (commands: check, rule, "
                       "rules, verify, server, clean; `gpulint -- %s` lints a path of that name)\n", word, word);
  fprintf(stderr, "Run `gpulint --help` for usage.\n");
  return true;
}

/* ---- rules and rule ---------------------------------------------------------------------- */

static const char *const CATALOGUE_OPTIONS[] = {"output-format", "format", "all"};

/* An option the catalogue commands do not know: reported with the one
 * meant, when one is close. */
static void cli__unknown_catalogue_option(const char *arg) {
  char *hint = suggest_option(arg, CATALOGUE_OPTIONS, sizeof CATALOGUE_OPTIONS / sizeof CATALOGUE_OPTIONS[0]);
  char *message = gl_format("unknown option `%s`%s", arg, hint);
  cli__usage_error(message);
  free(message);
  free(hint);
}

/* Reads `--output-format json|text` (or --format) from argv[first..];
 * other arguments (and --all) go to `rest`. Returns false on a usage
 * error. */
static bool cli__catalogue_options(int argc, char **argv, int first, bool *json, StringList *rest) {
  for (int i = first; i < argc; i++) {
    const char *arg = argv[i], *value = NULL;
    if (strcmp(arg, "--output-format") == 0 || strcmp(arg, "--format") == 0) value = i + 1 < argc ? argv[++i] : "";
    else if (strncmp(arg, "--output-format=", 16) == 0) value = arg + 16;
    else if (strncmp(arg, "--format=", 9) == 0) value = arg + 9;
    if (!value && arg[0] == '-' && arg[1] && strcmp(arg, "--all") != 0) {
      cli__unknown_catalogue_option(arg);
      return false;
    }
    if (!value) {
      string_list_push(rest, arg);
      continue;
    }
    if (strcmp(value, "json") != 0 && strcmp(value, "text") != 0) {
      char *message = gl_format("the rule catalogue is printed as text or json, not `%s`", value);
      cli__usage_error(message);
      free(message);
      return false;
    }
    *json = strcmp(value, "json") == 0;
  }
  return true;
}

/* The rule's page, or a heading and its summary when it has none; the
 * caller frees it. */
static char *cli__docs(uint32_t index) {
  const char *docs = gl_rule_docs(index);
  const GlRuleInfo *rule = gl_rule_info(index);
  return docs ? gl_strdup(docs) : gl_format("# %s (%s)\n\n%s\n", rule->name, rule->code, rule->summary);
}

static cJSON *cli__rule_json(uint32_t index, bool with_docs) {
  const GlRuleInfo *rule = gl_rule_info(index);
  cJSON *object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "code", rule->code);
  cJSON_AddStringToObject(object, "name", rule->name);
  cJSON_AddStringToObject(object, "summary", rule->summary);
  cJSON_AddStringToObject(object, "fix_hint", rule->fix_hint ? rule->fix_hint : "");
  cJSON_AddStringToObject(object, "severity", gl_severity_name(rule->severity));
  cJSON_AddStringToObject(object, "effect", gl_effect_name(rule->effect));
  cJSON_AddBoolToObject(object, "default_enabled", rule->default_enabled);
  char *url = report_rule_url(rule);
  cJSON_AddStringToObject(object, "url", url);
  free(url);
  if (with_docs) {
    char *docs = cli__docs(index);
    cJSON_AddStringToObject(object, "docs", docs);
    free(docs);
  }
  return object;
}

static void cli__print_json(cJSON *value) {
  char *text = cJSON_Print(value);
  printf("%s\n", text);
  free(text);
  cJSON_Delete(value);
}

int cli_rules(int argc, char **argv, int first) {
  bool json = false;
  StringList rest = array_new();
  bool ok = cli__catalogue_options(argc, argv, first, &json, &rest);
  if (ok && rest.size > 0) {
    char *message = gl_format("unexpected argument `%s`", rest.contents[0]);
    cli__usage_error(message);
    free(message);
    ok = false;
  }
  string_list_delete(&rest);
  if (!ok) return EXIT_USAGE;
  cJSON *array = json ? cJSON_CreateArray() : NULL;
  if (!json) printf("%-7s %-38s %-8s %s\n", "code", "name", "default", "effect");
  for (uint32_t i = 0; i < gl_rule_count(); i++) {
    const GlRuleInfo *rule = gl_rule_info(i);
    if (json) cJSON_AddItemToArray(array, cli__rule_json(i, false));
    else printf("%-7s %-38s %-8s %s\n", rule->code, rule->name, rule->default_enabled ? "on" : "off",
                gl_effect_name(rule->effect));
  }
  if (json) cli__print_json(array);
  return EXIT_CLEAN;
}

static void cli__print_docs(uint32_t index) {
  char *docs = cli__docs(index);
  fputs(docs, stdout);
  free(docs);
}

int cli_rule(int argc, char **argv, int first) {
  bool json = false;
  StringList rest = array_new();
  int status = EXIT_CLEAN;
  if (!cli__catalogue_options(argc, argv, first, &json, &rest)) status = EXIT_USAGE;
  else if (rest.size != 1) status = cli__usage_error("`gpulint rule` takes one rule code, or --all");
  bool all = status == EXIT_CLEAN && strcmp(rest.contents[0], "--all") == 0;
  int index = status == EXIT_CLEAN && !all ? gl_rule_index(rest.contents[0]) : 0;
  if (index < 0) {
    char *message = gl_format("unknown rule `%s` (see `gpulint rules`)", rest.contents[0]);
    status = cli__usage_error(message);
    free(message);
  }
  if (status == EXIT_CLEAN) {
    uint32_t from = all ? 0 : (uint32_t)index, to = all ? gl_rule_count() : (uint32_t)index + 1;
    cJSON *array = json && all ? cJSON_CreateArray() : NULL;
    for (uint32_t i = from; i < to; i++) {
      if (array) cJSON_AddItemToArray(array, cli__rule_json(i, true));
      else if (json) cli__print_json(cli__rule_json(i, true));
      else cli__print_docs(i);
    }
    if (array) cli__print_json(array);
  }
  string_list_delete(&rest);
  return status;
}
