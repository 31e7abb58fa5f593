/* options.h — the command line of `gpulint check`.
 *
 * Flags take their value as `--flag VALUE` or `--flag=VALUE` (short ones
 * also as `-oFILE`); list flags take comma-separated values and may be
 * repeated. Everything after `--` is a path; `-` is standard input. */
#ifndef GPULINT_OPTIONS_H
#define GPULINT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "config.h"
#include "path.h"

typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } ColorMode;

typedef struct {
  Config flags;          /* settings given as flags; they override config files */
  StringList paths;      /* as given; empty means "." */
  char *config_path;     /* --config */
  bool isolated;         /* --isolated */
  char *output_file;     /* -o */
  char *stdin_filename;  /* --stdin-filename */
  ColorMode color;
  bool quiet;
  bool no_index; /* --no-index: lint every file alone */
  bool statistics;
  bool exit_zero;
  bool show_files;
  bool show_settings;    /* --show-settings: the first file's settings, then stop */
  bool help;
  uint32_t jobs;         /* 0: one per CPU */
  bool no_cache;         /* --no-cache */
  bool diff;             /* --diff: show what --fix would change, change nothing */
  bool show_fixes;       /* --show-fixes */
  bool fix_only;         /* --fix-only: fix, report nothing left */
  bool add_noqa;         /* --add-noqa */
  char *cache_dir;       /* --cache-dir */
  bool watch;            /* --watch: lint again on every change */
} CheckOptions;

void check_options_init(CheckOptions *self);
void check_options_clear(CheckOptions *self);

/* Parses argv[first..]. Returns false and sets `error` (the caller frees
 * it) on a usage error. */
bool check_options_parse(CheckOptions *self, int argc, char **argv, int first, char **error);

/* Prints the help text of `gpulint check` to `out`. */
void check_usage_print(FILE *out);

#endif
