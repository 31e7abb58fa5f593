/* diff.h — a unified diff of two texts, line by line (Myers' algorithm),
 * with three lines of context, as `diff -u` prints it. */
#ifndef GPULINT_DIFF_H
#define GPULINT_DIFF_H

#include <stddef.h>
#include <stdio.h>

/* Writes the diff of `before` and `after` under `--- a/PATH` / `+++
 * b/PATH` headers (none when `path` is NULL); nothing when they are
 * equal. */
void diff_print(FILE *out, const char *path, const char *before, size_t before_length, const char *after,
                size_t after_length);

#endif
