/* suppress.h — findings under `# noqa` comments, and the comments
 * themselves checked.
 *
 * A finding is dropped when its line's `# noqa` covers its code (or, for a
 * line continued with a backslash or ending inside a multi-line string,
 * the `# noqa` on the last line of that stretch), or a
 * `# gpulint: noqa` line skips its rule in the file. Then each `# noqa` of
 * the file is read once: a malformed one (`# noqa GPU101`, `# noqa:` and
 * no code) or one naming an unknown code is reported as GPU902 (it
 * suppresses nothing, where a typo used to hide every finding of its
 * line); with GPU901 enabled, a `# noqa` (or a code of one) that
 * suppressed nothing is reported, with a fix that removes it. */
#ifndef GPULINT_SUPPRESS_H
#define GPULINT_SUPPRESS_H

#include <tree_sitter/api.h>

#include "findings.h"

void suppress_findings(Findings *findings, const Source *source, TSNode root, const GlRuleSet *rules);

/* For `--add-noqa`: one edit per line of `result`'s findings (sorted by
 * position, over `source`) that makes its `# noqa` cover their codes. A
 * finding on a line that cannot end in a comment (continued with a
 * backslash, or ending inside a multi-line string) gets its comment on the
 * last line of that stretch, where suppression looks for it too. Syntax
 * errors are left alone. Returns the count; the caller frees each edit (content too)
 * and the array. */
uint32_t suppress_noqa_edits(const Source *source, TSNode root, const GlFileResult *result, GlEdit ***edits);

#endif
