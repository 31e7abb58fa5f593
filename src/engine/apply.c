/* apply.c — applying fixes to a text. */
#include "apply.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

typedef struct {
  const GlFix *fix;
  uint32_t rule;
} Candidate;

static int apply__order(const void *a, const void *b) {
  const Candidate *x = a, *y = b;
  uint32_t left = x->fix->edits[0].start_byte, right = y->fix->edits[0].start_byte;
  if (left != right) return left < right ? -1 : 1;
  return x->rule < y->rule ? -1 : x->rule > y->rule;
}

/* Whether `fix` starts after everything accepted so far ends. An
 * insertion where the last accepted edit also inserted waits: their order
 * would be a guess. */
static bool apply__fits(const GlFix *fix, uint32_t accepted_end, bool accepted_inserts_at_end) {
  const GlEdit *first = &fix->edits[0];
  if (first->start_byte < accepted_end) return false;
  return !(first->start_byte == accepted_end && accepted_inserts_at_end && first->start_byte == first->end_byte);
}

void apply_select(const GlFileResult *result, size_t length, bool unsafe, uint32_t *applied, EditList *out) {
  Candidate *candidates = gl_calloc(result->finding_count + 1, sizeof(Candidate));
  uint32_t count = 0;
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFix *fix = result->findings[i].fix;
    if (!fix || fix->edit_count == 0 || (fix->applicability == GL_FIX_UNSAFE && !unsafe)) continue;
    if (fix->edits[fix->edit_count - 1].end_byte > length) continue;
    candidates[count++] = (Candidate){fix, result->findings[i].rule};
  }
  qsort(candidates, count, sizeof(Candidate), apply__order);
  uint32_t accepted_end = 0;
  bool inserts_at_end = false, any = false;
  for (uint32_t i = 0; i < count; i++) {
    const GlFix *fix = candidates[i].fix;
    if (any && !apply__fits(fix, accepted_end, inserts_at_end)) continue;
    for (uint32_t e = 0; e < fix->edit_count; e++) array_push(out, &fix->edits[e]);
    const GlEdit *last = &fix->edits[fix->edit_count - 1];
    accepted_end = last->end_byte;
    inserts_at_end = last->start_byte == last->end_byte;
    applied[candidates[i].rule]++;
    any = true;
  }
  free(candidates);
}
