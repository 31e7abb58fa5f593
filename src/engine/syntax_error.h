/* syntax_error.h — GPU900: where a file is not Python 3.
 *
 * The first ERROR or MISSING node of the parse is reported, with two
 * exceptions the grammar calls for:
 *
 *   x = 1, *[2]        valid Python 3 that the pinned tree-sitter-python
 *                      cannot parse (a starred item whose operand starts
 *                      with a bracket or a quote, in a tuple without
 *                      parentheses): not reported; the statement itself
 *                      is not analysed
 *   print "x"          Python 2, which the grammar accepts (print and exec
 *   exec "code"        statements, backquotes): reported as Python 2, since
 *   `x`                nothing else would say that the file is not Python 3
 */
#ifndef GPULINT_SYNTAX_ERROR_H
#define GPULINT_SYNTAX_ERROR_H

#include <tree_sitter/api.h>

#include "findings.h"
#include "gpulint.h"
#include "source.h"

/* Adds the file's GPU900 finding, if any, when the rule is enabled.
 * `parser` (borrowed, Python's) parses a variant of the source when an
 * error could be the grammar's own gap. */
void syntax_error_report(Findings *findings, const Source *source, TSNode root, TSParser *parser,
                         const GlRuleSet *rules);

#endif
