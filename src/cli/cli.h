/* cli.h — the subcommands: check (lint), rules and rule. */
#ifndef GPULINT_CLI_H
#define GPULINT_CLI_H

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_USAGE 2

/* `gpulint check ARGS`: argv[first..] are its options and paths. */
int cli_check(int argc, char **argv, int first);

/* `gpulint rules [--output-format json]`; argv[first..] are its options. */
int cli_rules(int argc, char **argv, int first);

/* `gpulint rule CODE | --all [--output-format json]`. */
int cli_rule(int argc, char **argv, int first);

#endif
