/* noqa.h — suppression comments.
 *
 *   x = 1  # noqa              every rule on this line
 *   x = 1  # noqa: GPU101, GPU2 these codes (case-insensitive `noqa`)
 *   # gpulint: noqa            alone on a line: skip the file
 *   # gpulint: noqa: GPU201    alone on a line: skip GPU201 in the file */
#ifndef GPULINT_NOQA_H
#define GPULINT_NOQA_H

#include <stdbool.h>
#include <stdint.h>

/* Whether the `# noqa` comment on this physical line covers `code`. */
bool noqa_suppresses(const char *line, uint32_t length, const char *code);

/* Whether a `# gpulint: noqa` line skips the file for `code`; with `code`
 * NULL, whether it skips the whole file. */
bool noqa_skips_file(const char *bytes, uint32_t length, const char *code);

#endif
