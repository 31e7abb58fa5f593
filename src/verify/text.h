/* text.h — a growable string for the runner's outputs (table, JSON, SVG),
 * and reading a whole file. */
#ifndef GPULINT_VERIFY_TEXT_H
#define GPULINT_VERIFY_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "array.h"

/* Always NUL-terminated once anything was appended; owns its buffer. */
typedef Array(char) Text;

void text_append(Text *self, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Appends `value` with XML's five special characters escaped. */
void text_append_xml(Text *self, const char *value);
/* The contents ("" when empty); borrowed. */
const char *text_string(const Text *self);
/* Hands the buffer to the caller (who frees it) and empties `self`. */
char *text_take(Text *self);

/* The whole file at `path`, NUL-terminated; the caller frees it. NULL and
 * `error` set (caller frees) when it cannot be read. */
char *text_read_file(const char *path, char **error);
/* Writes `length` bytes to `path`; false and `error` set on failure. */
bool text_write_file(const char *path, const char *bytes, size_t length, char **error);

#endif
