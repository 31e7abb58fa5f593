/* main.c — the command line. It parses arguments and calls the engine
 * (gpulint.h); it holds no lint logic of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "discover.h"
#include "gpulint.h"
#include "report.h"
#include "verify.h"

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

static const char USAGE[] =
    "usage: gpulint [check] [OPTIONS] [PATH ...]\n"
    "       gpulint rule CODE | gpulint rules\n"
    "       gpulint --version\n"
    "\n"
    "Finds GPU-memory and training-loop pitfalls in PyTorch training scripts.\n"
    "\n"
    "options:\n"
    "  --output-format, --format FORMAT   text (default) or json\n"
    "  -h, --help                         show this help\n"
    "  --version                          print the version\n"
    "\n"
    "exit status: 0 clean, 1 findings, 2 usage or I/O error\n";

typedef struct {
  OutputFormat format;
  PathList paths;
} CheckOptions;

static int cli__usage_error(const char *message, const char *argument) {
  fprintf(stderr, "gpulint: %s%s%s\n", message, argument ? ": " : "", argument ? argument : "");
  fprintf(stderr, "Run `gpulint --help` for usage.\n");
  return EXIT_USAGE;
}

/* Parses `check` options from argv[first..]; returns -1 on success or an
 * exit status. */
static int cli__parse_check(int argc, char **argv, int first, CheckOptions *options) {
  for (int i = first; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--output-format") == 0 || strcmp(arg, "--format") == 0) {
      if (i + 1 >= argc) return cli__usage_error("missing value for", arg);
      if (!report_parse_format(argv[++i], &options->format)) return cli__usage_error("unknown output format", argv[i]);
    } else if (strncmp(arg, "--output-format=", 16) == 0 || strncmp(arg, "--format=", 9) == 0) {
      const char *value = strchr(arg, '=') + 1;
      if (!report_parse_format(value, &options->format)) return cli__usage_error("unknown output format", value);
    } else if (strcmp(arg, "--") == 0) {
      for (i++; i < argc; i++) array_push(&options->paths, gl_strdup(argv[i]));
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return cli__usage_error("unknown option", arg);
    } else {
      array_push(&options->paths, gl_strdup(arg));
    }
  }
  if (options->paths.size == 0) array_push(&options->paths, gl_strdup("."));
  return -1;
}

static int cli__check(int argc, char **argv, int first) {
  CheckOptions options = {FORMAT_TEXT, array_new()};
  int status = cli__parse_check(argc, argv, first, &options);
  if (status >= 0) {
    path_list_delete(&options.paths);
    return status;
  }
  PathList files = array_new();
  bool io_error = false;
  for (uint32_t i = 0; i < options.paths.size; i++) {
    char *error = NULL;
    if (!discover_path(options.paths.contents[i], &files, &error)) {
      fprintf(stderr, "gpulint: %s\n", error);
      free(error);
      io_error = true;
    }
  }
  GlRuleSet rules = gl_rule_set_default();
  GlLinter *linter = gl_linter_new();
  GlFileResult **results = gl_calloc(files.size + 1, sizeof(GlFileResult *));
  for (uint32_t i = 0; i < files.size; i++) {
    results[i] = gl_linter_lint_file(linter, files.contents[i], &rules);
    if (results[i]->error) io_error = true;
  }
  gl_linter_delete(linter);
  report_write(stdout, stderr, options.format, results, files.size);
  size_t findings = report_finding_count(results, files.size);
  for (uint32_t i = 0; i < files.size; i++) gl_file_result_delete(results[i]);
  free(results);
  path_list_delete(&files);
  path_list_delete(&options.paths);
  if (io_error) return EXIT_USAGE;
  return findings > 0 ? EXIT_FINDINGS : EXIT_CLEAN;
}

static int cli__rules(void) {
  printf("%-7s %-38s %-8s %s\n", "code", "name", "default", "effect");
  for (uint32_t i = 0; i < gl_rule_count(); i++) {
    const GlRuleInfo *rule = gl_rule_info(i);
    printf("%-7s %-38s %-8s %s\n", rule->code, rule->name, rule->default_enabled ? "on" : "off",
           gl_effect_name(rule->effect));
  }
  return EXIT_CLEAN;
}

static int cli__rule(int argc, char **argv) {
  if (argc < 3) return cli__usage_error("`gpulint rule` needs a rule code", NULL);
  int index = gl_rule_index(argv[2]);
  if (index < 0) return cli__usage_error("unknown rule", argv[2]);
  const char *docs = gl_rule_docs((uint32_t)index);
  if (!docs) {
    const GlRuleInfo *rule = gl_rule_info((uint32_t)index);
    printf("# %s (%s)\n\n%s\n", rule->name, rule->code, rule->summary);
  } else {
    fputs(docs, stdout);
  }
  return EXIT_CLEAN;
}

int main(int argc, char **argv) {
  const char *command = argc > 1 ? argv[1] : "check";
  if (strcmp(command, "--version") == 0 || strcmp(command, "version") == 0) {
    printf("gpulint %s\n", gl_version());
    return EXIT_CLEAN;
  }
  if (strcmp(command, "-h") == 0 || strcmp(command, "--help") == 0 || strcmp(command, "help") == 0) {
    fputs(USAGE, stdout);
    return EXIT_CLEAN;
  }
  if (strcmp(command, "rules") == 0) return cli__rules();
  if (strcmp(command, "rule") == 0) return cli__rule(argc, argv);
  if (strcmp(command, "verify") == 0) return verify_main(argc - 1, argv + 1);
  if (strcmp(command, "check") == 0) return cli__check(argc, argv, 2);
  return cli__check(argc, argv, 1);
}
