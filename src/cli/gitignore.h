/* gitignore.h — .gitignore files, as git reads them.
 *
 *   # comment        blank lines and comments are skipped
 *   *.log            no slash: matches the name at any depth below
 *   /build           a slash: anchored to the .gitignore's directory
 *   out/             trailing slash: directories only
 *   !keep.log        re-includes what an earlier pattern excluded
 *   a/ ** /b         (without the spaces) `**` spans directories
 *
 * A stack of files is consulted deepest first; within a file the last
 * matching pattern decides. */
#ifndef GPULINT_GITIGNORE_H
#define GPULINT_GITIGNORE_H

#include <stdbool.h>
#include <stddef.h>

#include "array.h"

typedef struct Gitignore Gitignore;

typedef enum {
  IGNORE_NONE,     /* no pattern matched */
  IGNORE_EXCLUDED, /* the last matching pattern excludes the path */
  IGNORE_INCLUDED, /* the last matching pattern is a negation */
} IgnoreVerdict;

/* Parses `length` bytes (borrowed) of a .gitignore that lives in the
 * absolute `directory`; never fails. The caller deletes the result. */
Gitignore *gitignore_new(const char *directory, const char *bytes, size_t length);

/* Reads the file at `path`, whose patterns are relative to the absolute
 * `directory`; NULL when it does not exist or cannot be read. */
Gitignore *gitignore_read(const char *directory, const char *path);

void gitignore_delete(Gitignore *self);

/* The verdict of this file on a normalized absolute path. */
IgnoreVerdict gitignore_match(const Gitignore *self, const char *absolute, bool is_directory);

typedef Array(Gitignore *) GitignoreStack;

/* Whether the files on the stack (deepest last) exclude the path. */
bool gitignore_stack_excludes(const GitignoreStack *self, const char *absolute, bool is_directory);

/* Deletes every file on the stack and the stack itself. */
void gitignore_stack_delete(GitignoreStack *self);

#endif
