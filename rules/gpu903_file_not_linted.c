/* GPU903 file-not-linted
 *
 * Reported by the report (report.c, report_ci.c), not by a check: a file
 * that was named or found but could not be linted (missing, unreadable,
 * not UTF-8, a broken notebook, nested too deeply to check) gets one
 * record at its line 1 in every output format, besides its line on the
 * error stream, so that no format reads as a clean run. It has no line of
 * its own, so no `# noqa` suppresses it, and the selection does not turn
 * it off: the run exits 2 either way. */
#include "rule.h"

const Rule GPU903_FILE_NOT_LINTED = {
    .info =
        {
            .code = "GPU903",
            .name = "file-not-linted",
            .summary = "A file could not be read or checked, so nothing in it was linted.",
            .fix_hint = "Fix the path, the file's permissions or its encoding, or exclude it.",
            .effect = GL_EFFECT_NONE,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = NULL,
};
