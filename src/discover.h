/* discover.h — from command-line paths to the sorted list of files to lint. */
#ifndef GPULINT_DISCOVER_H
#define GPULINT_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "array.h"

typedef Array(char *) PathList;

/* Whether a directory of this name is skipped in walks (.git, venv, ...). */
bool discover_is_excluded_dir(const char *name);
/* Whether a file found in a walk is linted (.py, .pyi, .ipynb). */
bool discover_is_lintable(const char *name);

/* Appends the files under `path` (or `path` itself, if it is a file) to
 * `files`, in sorted order; the list owns the strings. Returns false and
 * sets `error` (caller frees) when `path` cannot be read. */
bool discover_path(const char *path, PathList *files, char **error);

void path_list_delete(PathList *self);

#endif
