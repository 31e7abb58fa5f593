/* cli.h — the subcommands: check (lint), rules, rule and clean. */
#ifndef GPULINT_CLI_H
#define GPULINT_CLI_H

#include <stdbool.h>

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

/* `gpulint check ARGS`: argv[first..] are its options and paths. */
int cli_check(int argc, char **argv, int first);

/* Whether `word`, the first argument, is an unknown command rather than a
 * path: it names no file or directory, starts with no dash, and has no
 * slash and no dot (`train.py`, `./x`, `data.v2` stay paths). Reports it,
 * with the command meant when one is close ("unknown command `chek`; did
 * you mean `check`?") and a pointer for ruff's own commands (`format`). */
bool cli_unknown_command(const char *word);

/* `gpulint rules [--output-format json]`; argv[first..] are its options. */
int cli_rules(int argc, char **argv, int first);

/* `gpulint rule CODE | --all [--output-format json]`. */
int cli_rule(int argc, char **argv, int first);

/* `gpulint clean [PATH ...]`: removes the result cache of the project
 * (or of each PATH's project), and --cache-dir's. */
int cli_clean(int argc, char **argv, int first);

#endif
