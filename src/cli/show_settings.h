/* show_settings.h — `gpulint check --show-settings [PATH]`: the settings
 * one file is linted with, each with where it came from.
 *
 *   Settings for train.py
 *   Config file: /work/project/pyproject.toml ([tool.gpulint])
 *   rules = ["GPU001", ...]           # defaults, pyproject.toml, command line
 *   pedantic = false                  # default
 *   ...
 *
 * Config files are not merged: one file (the nearest, or --config) gives
 * what the command line does not. */
#ifndef GPULINT_SHOW_SETTINGS_H
#define GPULINT_SHOW_SETTINGS_H

#include <stdio.h>

#include "config.h"
#include "settings.h"

typedef struct {
  const char *path;       /* as shown */
  const char *absolute;   /* normalized */
  const Settings *settings;
  const Config *cli;      /* the command line's flags */
  bool isolated;          /* --isolated */
  const char *cache_dir;  /* the result cache's folder, or NULL when off */
} ShownFile;

/* Prints the settings of `file` to `out` as TOML-like lines with comments. */
void show_settings_print(FILE *out, const ShownFile *file);

#endif
