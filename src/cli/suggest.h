/* suggest.h — "did you mean" for mistyped commands and options.
 *
 *   gpulint chek .        unknown command `chek`; did you mean `check`?
 *   gpulint --selct X     unknown option `--selct`; did you mean `--select`?
 *
 * A name is close to a word when the word is its prefix (three characters
 * or more), or within a small edit distance: insertions, deletions,
 * substitutions and swaps of two neighbours (Damerau-Levenshtein, optimal
 * string alignment), at most 1 for short words and 2 for longer ones. */
#ifndef GPULINT_SUGGEST_H
#define GPULINT_SUGGEST_H

#include <stddef.h>

/* The edit distance between `a` and `b`, counting a swap of two
 * neighbouring characters as one edit. */
size_t suggest_distance(const char *a, const char *b);

/* The name of `names` closest to `word`, or NULL when none is close:
 * the smallest distance wins, then the nearest length, then the order of
 * `names`; a prefix match counts only when no name is within the
 * distance. Borrowed from `names`. */
const char *suggest_closest(const char *word, const char *const *names, size_t count);

/* The closest of `names` to the option `arg` ("--selct" or "--selct=X"),
 * with the dashes, as "; did you mean `--select`?"; "" when none is
 * close. Names are given without dashes. The caller frees it. */
char *suggest_option(const char *arg, const char *const *names, size_t count);

#endif
