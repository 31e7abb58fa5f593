/* alloc.c — allocation that aborts on exhaustion instead of returning NULL. */
#include "alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *(*gl_malloc_hook)(size_t size) = malloc;
void *(*gl_realloc_hook)(void *ptr, size_t size) = realloc;

static void *alloc__check(void *ptr, size_t size) {
  if (!ptr && size > 0) {
    fprintf(stderr, "gpulint: out of memory (%zu bytes)\n", size);
    abort();
  }
  return ptr;
}

void *gl_malloc(size_t size) { return alloc__check(gl_malloc_hook(size ? size : 1), size); }

void *gl_calloc(size_t count, size_t size) {
  void *ptr = gl_malloc(count * size);
  memset(ptr, 0, count * size);
  return ptr;
}

void *gl_realloc(void *ptr, size_t size) {
  return alloc__check(gl_realloc_hook(ptr, size ? size : 1), size);
}

char *gl_strndup(const char *text, size_t length) {
  char *copy = gl_malloc(length + 1);
  memcpy(copy, text, length);
  copy[length] = '\0';
  return copy;
}

char *gl_strdup(const char *text) { return gl_strndup(text, strlen(text)); }

char *gl_vformat(const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  char *text = gl_malloc((size_t)length + 1);
  vsnprintf(text, (size_t)length + 1, format, args);
  return text;
}

char *gl_format(const char *format, ...) {
  va_list args;
  va_start(args, format);
  char *text = gl_vformat(format, args);
  va_end(args);
  return text;
}
