/* findings.h — the lint pass of `gpulint verify PATH`: which findings the
 * paths have, so that only their rules are replayed. It uses the engine's
 * public interface (gpulint.h) and walks directories itself. */
#ifndef GPULINT_VERIFY_FINDINGS_H
#define GPULINT_VERIFY_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "gpulint.h"

typedef struct {
  char *path; /* owned */
  GlPosition start;
  uint32_t cell; /* notebook cell, 0 for .py */
  uint32_t rule; /* registry index */
  GlEffect effect;
  char *message; /* owned */
} Found;

typedef Array(Found) FoundList;

/* Lints each of `paths` (a file, or a directory walked in name order for
 * .py and .ipynb files, skipping hidden directories and caches) with the
 * default rules. Returns false when a path cannot be read or linted; each
 * such error is printed on stderr. */
bool found_list_lint(FoundList *self, char *const *paths, uint32_t count);
void found_list_delete(FoundList *self);

#endif
