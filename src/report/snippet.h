/* snippet.h — the source line of each finding, for `full` output and for
 * fingerprints that survive line shifts. */
#ifndef GPULINT_SNIPPET_H
#define GPULINT_SNIPPET_H

#include <stddef.h>
#include <stdint.h>

#include "gpulint.h"

/* The 1-based `line` of `text` without its line ending; NULL when out of
 * range. The caller frees it. */
char *snippet_line(const char *text, size_t length, uint32_t line);

/* One string per finding of `result`: the text of its first line, taken
 * from the notebook cell it names when `cell` is set (cells counted from 1
 * over all cells of the notebook). Entries are NULL where the line cannot
 * be found. `bytes` is borrowed; free the result with snippet_lines_delete. */
char **snippet_lines(const char *bytes, size_t length, const GlFileResult *result);

void snippet_lines_delete(char **lines, uint32_t count);

/* One string per finding of `result`: for a finding with a fix in a
 * Python file, the unified diff hunks its fix alone makes to `bytes`
 * (borrowed); NULL elsewhere. Free with snippet_lines_delete. */
char **snippet_fix_diffs(const char *bytes, size_t length, const GlFileResult *result);

#endif
