/* alloc.h — the one allocator wrapper. Out of memory aborts here, so no
 * caller checks for NULL; tests may replace the hooks. */
#ifndef GPULINT_ALLOC_H
#define GPULINT_ALLOC_H

#include <stdarg.h>
#include <stddef.h>

extern void *(*gl_malloc_hook)(size_t size);
extern void *(*gl_realloc_hook)(void *ptr, size_t size);

void *gl_malloc(size_t size);
void *gl_calloc(size_t count, size_t size);
void *gl_realloc(void *ptr, size_t size);
/* Copies of `text`; the caller frees them. */
char *gl_strdup(const char *text);
char *gl_strndup(const char *text, size_t length);
/* printf into a new string; the caller frees it. */
char *gl_format(const char *format, ...) __attribute__((format(printf, 1, 2)));
char *gl_vformat(const char *format, va_list args) __attribute__((format(printf, 1, 0)));

#endif
