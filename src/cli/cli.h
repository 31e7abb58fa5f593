/* cli.h — the subcommands: check (lint), rules and rule. */
#ifndef GPULINT_CLI_H
#define GPULINT_CLI_H

#include <stdbool.h>

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

/* `gpulint check ARGS`: argv[first..] are its options and paths. */
int cli_check(int argc, char **argv, int first);

/* Whether `word`, the first argument, is a mistyped command rather than a
 * path: it names no file or directory, has no slash, does not end in
 * .py, .pyi or .ipynb, and is close to a command's name. Reports it with
 * the command meant ("unknown command `chek`; did you mean `check`?"). */
bool cli_mistyped_command(const char *word);

/* `gpulint rules [--output-format json]`; argv[first..] are its options. */
int cli_rules(int argc, char **argv, int first);

/* `gpulint rule CODE | --all [--output-format json]`. */
int cli_rule(int argc, char **argv, int first);

#endif
