/* discover.h — from command-line paths to the sorted list of files to lint.
 *
 * Directories are walked in name order without following symbolic links
 * to directories (so link loops cannot trap the walk), skipping excluded
 * names and, unless turned off, what .gitignore files exclude. Files named
 * on the command line are always linted unless force-exclude is on. */
#ifndef GPULINT_DISCOVER_H
#define GPULINT_DISCOVER_H

#include <stdbool.h>
#include <stdio.h>

#include "array.h"
#include "settings.h"

typedef struct {
  char *path;               /* as shown: the argument, or joined below it; owned */
  char *absolute;           /* normalized; owned */
  const Settings *settings; /* borrowed from the resolver */
  char *error;              /* in `unreadable`: why it could not be read; owned */
} FoundFile;

typedef Array(FoundFile) FoundFiles;

typedef struct {
  Resolver *resolver; /* borrowed */
  const char *cwd;    /* absolute; borrowed */
  FILE *errors;       /* where missing paths are reported */
  FoundFiles files;   /* owned */
  FoundFiles unreadable; /* paths missing or unreadable, each with its error
                            (reported with the results, not here); owned */
  bool failed;        /* a path was missing or unreadable: exit 2 */
  char *fatal;        /* a config error that stops the run; owned */
  /* Called with each directory's absolute path before it is listed (what
   * --watch watches); may be NULL. */
  void (*on_directory)(void *payload, const char *absolute);
  void *payload;
} Discovery;

/* Whether a file found in a walk is linted (.py, .pyi, .ipynb). */
bool discover_is_lintable(const char *name);

/* Adds the files under `path` (or `path` itself). A missing path (or a
 * directory that cannot be listed) goes to `unreadable` and sets `failed`;
 * a malformed config file sets `fatal` and returns false. */
bool discovery_add_path(Discovery *self, const char *path);

/* Whether an explicitly named path is excluded under force-exclude: the
 * path or one of its parent directories below the working directory
 * matches an exclude pattern. The working directory and those above it are
 * never excluded. Sets `fatal` on a config error. */
bool discovery_force_excludes(Discovery *self, const char *absolute);

/* Sorts the files by shown path and drops repeats of one file. */
void discovery_finish(Discovery *self);

void discovery_delete(Discovery *self);

#endif
