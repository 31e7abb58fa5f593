/* GPU900 syntax-error
 *
 * Reported by the engine at the first ERROR or MISSING node; rules still
 * run on the parts of the file that parsed. */
#include "rule.h"

const Rule GPU900_SYNTAX_ERROR = {
    .info =
        {
            .code = "GPU900",
            .name = "syntax-error",
            .summary = "The file does not parse as Python; findings in the valid parts are still reported.",
            .fix_hint = "Fix the syntax error; gpulint parses Python 3 syntax.",
            .effect = GL_EFFECT_NONE,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = NULL,
};
