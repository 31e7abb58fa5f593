/* path.c — lexical path handling. */
#include "path.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef Array(char) CharBuffer;

void string_list_delete(StringList *self) {
  for (uint32_t i = 0; i < self->size; i++) free(self->contents[i]);
  array_delete(self);
}

void string_list_push(StringList *self, const char *text) { array_push(self, gl_strdup(text)); }

char *path_join(const char *directory, const char *name) {
  if (directory[0] == '\0' || strcmp(directory, ".") == 0) return gl_strdup(name);
  size_t length = strlen(directory);
  bool slash = directory[length - 1] == '/';
  return gl_format("%s%s%s", directory, slash ? "" : "/", name);
}

/* Appends one component to a normalized absolute path held in `out`,
 * resolving "." and ".." lexically. */
static void path__push_component(CharBuffer *out, const char *start, size_t length) {
  if (length == 0 || (length == 1 && start[0] == '.')) return;
  if (length == 2 && start[0] == '.' && start[1] == '.') {
    while (out->size > 1 && out->contents[out->size - 1] != '/') out->size--;
    if (out->size > 1) out->size--; /* the slash before the removed component */
    return;
  }
  if (out->size > 1) array_push(out, '/');
  for (size_t i = 0; i < length; i++) array_push(out, start[i]);
}

static void path__push_all(CharBuffer *out, const char *path) {
  for (const char *p = path; *p;) {
    const char *slash = strchr(p, '/');
    size_t length = slash ? (size_t)(slash - p) : strlen(p);
    path__push_component(out, p, length);
    p += length;
    while (*p == '/') p++;
  }
}

char *path_absolute(const char *cwd, const char *path) {
  CharBuffer out = array_new();
  array_push(&out, '/');
  if (path[0] != '/') path__push_all(&out, cwd);
  path__push_all(&out, path);
  char *result = gl_strndup(out.contents, out.size);
  array_delete(&out);
  return result;
}

const char *path_relative(const char *base, const char *path) {
  size_t length = strlen(base);
  if (strcmp(base, "/") == 0) return path[0] == '/' ? path + 1 : NULL;
  if (strncmp(path, base, length) != 0) return NULL;
  if (path[length] == '\0') return path + length;
  return path[length] == '/' ? path + length + 1 : NULL;
}

const char *path_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

char *path_parent(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return gl_strdup("/");
  return gl_strndup(path, (size_t)(slash - path));
}

char *path_display(const char *path) {
  while (path[0] == '.' && path[1] == '/') {
    path += 2;
    while (*path == '/') path++;
  }
  size_t length = strlen(path);
  while (length > 1 && path[length - 1] == '/') length--;
  if (length == 0) return gl_strdup(".");
  return gl_strndup(path, length);
}

char *path_current_directory(void) {
  size_t size = 256;
  for (;;) {
    char *buffer = gl_malloc(size);
    if (getcwd(buffer, size)) return buffer;
    free(buffer);
    if (errno != ERANGE || size > (1u << 20)) return NULL;
    size *= 2;
  }
}
