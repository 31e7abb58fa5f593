/* path.h — lexical path handling for discovery and reporting.
 *
 * Paths are byte strings; nothing here touches the file system except
 * path_current_directory. Absolute paths are kept normalized: no `.` or
 * `..` components, no repeated or trailing slashes (except "/" itself). */
#ifndef GPULINT_PATH_H
#define GPULINT_PATH_H

#include <stdbool.h>

#include "array.h"

typedef Array(char *) StringList;

/* Frees the strings and the list. */
void string_list_delete(StringList *self);
/* Appends a copy of `text`. */
void string_list_push(StringList *self, const char *text);

/* `directory/name`, or just `name` when `directory` is "." or empty; the
 * caller frees it. */
char *path_join(const char *directory, const char *name);

/* The normalized absolute form of `path`, taken relative to the absolute
 * `cwd` when it is relative; the caller frees it. */
char *path_absolute(const char *cwd, const char *path);

/* The part of the normalized absolute `path` below the directory `base`
 * ("" when they are equal), borrowed from `path`; NULL when `path` is not
 * inside `base`. */
const char *path_relative(const char *base, const char *path);

/* The last component; borrowed from `path`. */
const char *path_basename(const char *path);

/* The parent of a normalized absolute path ("/" stays "/"); the caller
 * frees it. */
char *path_parent(const char *path);

/* `path` as shown to the user: leading "./" removed, trailing slashes
 * removed; the caller frees it. */
char *path_display(const char *path);

/* The working directory, or NULL; the caller frees it. */
char *path_current_directory(void);

#endif
