/* apply.h — applying fixes to a text.
 *
 * One pass takes the fixes of one lint result that do not overlap, in
 * source order (a fix whose edits reach into an earlier accepted fix's
 * span waits for the next pass, as ruff does: the engine lints the new
 * text again and repeats, a bounded number of times). */
#ifndef GPULINT_APPLY_H
#define GPULINT_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edits.h"
#include "gpulint.h"

/* Appends to `out` the edits of the fixes one pass takes from `result`
 * (safe ones, and unsafe ones when `unsafe`), in order, for a text of
 * `length` bytes; counts the fixes per rule into `applied` (GL_MAX_RULES
 * entries, added to). The edits stay owned by `result`. */
void apply_select(const GlFileResult *result, size_t length, bool unsafe, uint32_t *applied, EditList *out);

#endif
