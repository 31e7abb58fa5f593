/* parts.h — a large file cut into parts of whole top-level statements.
 *
 * tree-sitter's tree of Python takes about 50 bytes per byte of source,
 * so a 19 MB file would hold about a gigabyte while it is linted. A file
 * of PARTS_MIN_BYTES or more is linted in parts instead: its top-level
 * statements, found by a scan of brackets, strings and comments (no
 * parse), are grouped into parts of about PARTS_BYTES each, and each part
 * is parsed with tree-sitter's included ranges (node positions stay the
 * file's) together with the file's context: its top-level imports, class
 * definitions and short assignments (`model = Net()`), up to
 * PARTS_CONTEXT_BYTES. The lint sees one part with its context at a time
 * and keeps the findings that lie in the part; what one part's code
 * learns from a function defined in another part is lost. One top-level
 * statement is never cut, so a part may be larger. */
#ifndef GPULINT_PARTS_H
#define GPULINT_PARTS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "array.h"

#define PARTS_MIN_BYTES (1024u * 1024u)
#define PARTS_BYTES (256u * 1024u)
#define PARTS_CONTEXT_BYTES (128u * 1024u)
/* A statement longer than this is never context. */
#define PARTS_CONTEXT_STATEMENT_BYTES 4096u

typedef Array(TSRange) PartRanges;

typedef struct {
  PartRanges parts;   /* in order, covering the whole text */
  PartRanges context; /* the context statements, in order */
} Parts;

/* Cuts `bytes` into parts (one part when it is shorter than
 * PARTS_MIN_BYTES); `out` is overwritten, parts_delete frees it. */
void parts_split(const char *bytes, uint32_t length, Parts *out);

/* The ranges to parse part `index` with: the context outside the part and
 * the part itself, in order, adjacent ones merged, into `out` (cleared
 * first; the caller owns it). */
void parts_ranges(const Parts *self, uint32_t index, PartRanges *out);

void parts_delete(Parts *self);

#endif
