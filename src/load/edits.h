/* edits.h — byte edits applied to a text. */
#ifndef GPULINT_EDITS_H
#define GPULINT_EDITS_H

#include <stddef.h>

#include "array.h"
#include "gpulint.h"

typedef Array(const GlEdit *) EditList;

/* The text with `edits` (sorted, not overlapping, within `length`)
 * applied, NUL-terminated; the caller frees it. */
char *edits_apply(const char *text, size_t length, const EditList *edits, size_t *new_length);

#endif
