/* glob.h — shell-style patterns for excludes, per-file ignores and
 * .gitignore files.
 *
 *   *       any run of characters (not `/` with GLOB_PATHNAME)
 *   **      any run, `/` included; with GLOB_PATHNAME only when it is a
 *           whole component (between slashes, or at either end)
 *   ?       one character        [a-z] [!a-z] [^a-z]  a character class
 *   \c      the character c      {a,b}  alternatives (glob_expand)
 *
 * Matching works on bytes and never allocates. */
#ifndef GPULINT_GLOB_H
#define GPULINT_GLOB_H

#include <stdbool.h>

#include "path.h"

/* `*`, `?` and classes do not match `/`; `**` spans components. */
#define GLOB_PATHNAME 1u

/* Whether all of `text` matches `pattern`. A malformed pattern (an
 * unclosed class, a trailing backslash) matches nothing. */
bool glob_match(const char *pattern, const char *text, unsigned flags);

/* Expands {a,b} alternatives (nested too) and appends each resulting
 * pattern to `out` (the list owns them). Returns false, with a static
 * message in `problem`, when the pattern is malformed: unbalanced braces,
 * an unclosed class, a trailing backslash, or too many alternatives. */
bool glob_expand(const char *pattern, StringList *out, const char **problem);

/* `literal` with every pattern character escaped; the caller frees it. */
char *glob_escape(const char *literal);

#endif
