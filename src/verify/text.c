/* text.c — the growable string and whole-file I/O. */
#include "text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void text_append(Text *self, const char *format, ...) {
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  if (length <= 0) return;
  array_reserve(self, self->size + (uint32_t)length + 1);
  va_start(args, format);
  vsnprintf(self->contents + self->size, (size_t)length + 1, format, args);
  va_end(args);
  self->size += (uint32_t)length;
}

void text_append_xml(Text *self, const char *value) {
  for (const char *p = value; *p; p++) {
    switch (*p) {
      case '<': text_append(self, "&lt;"); break;
      case '>': text_append(self, "&gt;"); break;
      case '&': text_append(self, "&amp;"); break;
      case '"': text_append(self, "&quot;"); break;
      case '\'': text_append(self, "&apos;"); break;
      default: text_append(self, "%c", *p);
    }
  }
}

const char *text_string(const Text *self) { return self->size ? self->contents : ""; }

char *text_take(Text *self) {
  char *result = self->size ? self->contents : gl_strdup("");
  self->contents = NULL;
  self->size = self->capacity = 0;
  return result;
}

char *text_read_file(const char *path, char **error) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    *error = gl_format("cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  Text text = array_new();
  char chunk[8192];
  size_t count;
  while ((count = fread(chunk, 1, sizeof chunk, file)) > 0) {
    array_reserve(&text, text.size + (uint32_t)count + 1);
    memcpy(text.contents + text.size, chunk, count);
    text.size += (uint32_t)count;
    text.contents[text.size] = '\0';
  }
  bool failed = ferror(file);
  fclose(file);
  if (failed) {
    array_delete(&text);
    *error = gl_format("cannot read %s", path);
    return NULL;
  }
  return text_take(&text);
}

bool text_write_file(const char *path, const char *bytes, size_t length, char **error) {
  FILE *file = fopen(path, "wb");
  if (!file) {
    *error = gl_format("cannot write %s: %s", path, strerror(errno));
    return false;
  }
  bool ok = fwrite(bytes, 1, length, file) == length;
  ok = fclose(file) == 0 && ok;
  if (!ok) *error = gl_format("cannot write %s", path);
  return ok;
}
