/* GPU902 invalid-noqa
 *
 * Reported by the engine (suppress.c) for a `# noqa` that is malformed
 * (`# noqa GPU101` without its colon, `# noqa:` without a code) or names
 * no rule (`# noqa: GPU2O1`): such a comment suppresses nothing, where a
 * typo would otherwise hide every finding of its line without a word. */
#include "rule.h"

const Rule GPU902_INVALID_NOQA = {
    .info =
        {
            .code = "GPU902",
            .name = "invalid-noqa",
            .summary = "A `# noqa` comment is malformed or names no rule, so it suppresses nothing.",
            .fix_hint = "Write `# noqa: CODE[, CODE]` with the codes `gpulint rules` lists.",
            .effect = GL_EFFECT_NONE,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = true,
        },
    .check = NULL,
};
