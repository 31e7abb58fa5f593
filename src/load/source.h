/* source.h — a file's bytes with a line index.
 *
 * Maps byte offsets to 1-based lines and code-point columns. A notebook's
 * source is the concatenation of its code cells; `cells` maps buffer lines
 * back to the cell each came from. */
#ifndef GPULINT_SOURCE_H
#define GPULINT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "gpulint.h"

/* A run of buffer lines that came from one notebook cell. */
typedef struct {
  uint32_t first_line; /* 1-based buffer line of the cell's first line */
  uint32_t cell;       /* 1-based cell number as Jupyter shows it */
} CellSpan;

typedef struct {
  char *path;                  /* owned */
  char *bytes;                 /* owned, NUL-terminated */
  uint32_t length;
  Array(uint32_t) line_starts; /* byte offset of each line's first byte; built by
                                  the first call below that needs it (most files
                                  have no finding and never need it) */
  Array(CellSpan) cells;       /* empty for plain .py files */
} Source;

/* Copies `bytes`; the caller deletes the result. */
Source *source_new(const char *path, const char *bytes, size_t length);
void source_delete(Source *self);

/* Why these bytes cannot be Python source (NUL byte, invalid UTF-8), or NULL. */
const char *source_check_text(const char *bytes, size_t length, size_t *bad_offset);

/* The 1-based line holding `byte`. */
uint32_t source_line_of(const Source *self, uint32_t byte);
/* 1-based line and code-point column of `byte`, cell-relative in notebooks. */
GlPosition source_position(const Source *self, uint32_t byte, uint32_t *cell);
/* The text of 1-based `line` without its newline; borrowed. */
const char *source_line_text(const Source *self, uint32_t line, uint32_t *length);

#endif
