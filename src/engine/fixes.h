/* fixes.h — building a finding's fix: edits on the linted source, written
 * in the file's own style (its indentation, its line endings).
 *
 * A rule reports a finding (rule_report_on returns it), then attaches one
 * fix made of one or more edits. Edits are byte ranges of the Source the
 * rule reads; fix_finish sorts them and drops a fix whose edits overlap.
 * How fixes are applied, checked and written is fix.c's part. */
#ifndef GPULINT_FIXES_H
#define GPULINT_FIXES_H

#include <tree_sitter/api.h>

#include "facts.h"
#include "gpulint.h"
#include "source.h"
#include "syntax.h"

/* A new fix on `finding` (which owns it; any earlier one is dropped), with
 * a printf-style title. `finding` may be NULL (the finding was not
 * reported): then NULL, and the functions below do nothing with it. */
GlFix *fix_new(GlFinding *finding, GlApplicability applicability, const char *title, ...)
    __attribute__((format(printf, 3, 4)));

/* Replaces bytes [start, end) with `content` (copied); an insertion when
 * start == end. */
void fix_replace(GlFix *self, const Source *source, uint32_t start, uint32_t end, const char *content);

/* Removes a simple statement and its line; a statement alone in its block
 * becomes `pass`. False (and no edit) when the statement shares its line
 * with others (`a(); b()`). */
bool fix_remove_statement(GlFix *self, const Source *source, TSNode statement);

/* The statement holding `node`: its ancestor whose parent is a block or
 * the module (a null node when there is none). */
TSNode fix_statement_of(TSNode node);

/* Inserts a line holding `text` after `statement`, at its indentation.
 * False (and no edit) when code follows the statement on its line or
 * precedes it. */
bool fix_insert_line_after(GlFix *self, const Source *source, TSNode statement, const char *text);

/* Adds `import torch` after the file's last top-level import (or at its
 * top, after a docstring and `from __future__` imports) unless the name
 * `torch` is already bound to the torch module. */
void fix_import_torch(GlFix *self, const Facts *facts);

/* Sorts the edits; drops the fix (from `finding` too) when two overlap. */
void fix_finish(GlFinding *finding);

/* The file's line ending ("\r\n" when its first line ends so), and the
 * leading whitespace of the line holding `byte`. */
const char *fix_newline(const Source *source);
Text fix_indent_at(const Source *source, uint32_t byte);

/* The unit one block level adds, read from the file (the indentation of
 * the first block's body over its header), else four spaces. */
Text fix_indent_unit(const Source *source, TSNode root);

#endif
