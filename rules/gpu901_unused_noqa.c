/* GPU901 unused-noqa
 *
 * Reported by the engine (suppress.c) for a `# noqa` comment, or a code
 * listed in one, that suppressed no finding of a rule that ran. Off by
 * default; its fix removes the comment or the unused codes. */
#include "rule.h"

const Rule GPU901_UNUSED_NOQA = {
    .info =
        {
            .code = "GPU901",
            .name = "unused-noqa",
            .summary = "A `# noqa` comment (or a code it lists) suppresses nothing.",
            .fix_hint = "Remove the comment, or the codes that suppress nothing.",
            .effect = GL_EFFECT_NONE,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = false,
        },
    .check = NULL,
};
