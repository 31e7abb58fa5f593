/* text.h — positions in a document's text as LSP counts them.
 *
 * LSP positions are a 0-based line and a 0-based character offset in the
 * line, in UTF-16 code units unless the client and server agreed on UTF-8
 * (`positionEncoding`). The engine speaks bytes, and 1-based lines with
 * code-point columns. A LineIndex maps between them for one text. */
#ifndef GPULINT_SERVER_TEXT_H
#define GPULINT_SERVER_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"

typedef enum { ENCODING_UTF16, ENCODING_UTF8, ENCODING_UTF32 } PositionEncoding;

typedef struct {
  uint32_t line;      /* 0-based */
  uint32_t character; /* 0-based, in the encoding's units */
} LspPosition;

typedef struct {
  const char *text;          /* borrowed */
  size_t length;
  Array(uint32_t) starts;    /* byte offset of each line's first byte */
} LineIndex;

/* Indexes `length` bytes of `text` (borrowed for the index's use). */
void line_index_build(LineIndex *self, const char *text, size_t length);
void line_index_delete(LineIndex *self);

/* The byte offset of `position`; a line past the end gives the end of the
 * text, a character past the line's end gives its end (before CR LF). */
size_t line_index_offset(const LineIndex *self, LspPosition position, PositionEncoding encoding);

/* The position of byte `offset` (clamped to the text). */
LspPosition line_index_position(const LineIndex *self, size_t offset, PositionEncoding encoding);

/* The byte offset of 1-based `line` and code-point `column` (the engine's
 * GlPosition), clamped like line_index_offset. */
size_t line_index_column_offset(const LineIndex *self, uint32_t line, uint32_t column);

/* The shortest replacement that turns `old` into `new`: bytes
 * [*start, *end) of `old` become bytes [*start, *new_end) of `new`, cut at
 * code-point boundaries. False when the texts are equal. */
bool text_difference(const char *old, size_t old_length, const char *new, size_t new_length, size_t *start,
                     size_t *end, size_t *new_end);

#endif
