/* gitignore.c — parsing and matching .gitignore patterns. */
#include "gitignore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "glob.h"
#include "path.h"

/* Longer lines are skipped rather than matched. */
#define MAX_LINE 4096
/* Larger files are not read. */
#define MAX_FILE_BYTES (8u * 1024u * 1024u)

typedef struct {
  char *pattern;       /* owned; without '!', the leading '/' or a trailing '/' */
  bool negated;
  bool directory_only;
  bool anchored;       /* contains a '/': matched against the relative path */
} IgnorePattern;

struct Gitignore {
  char *directory;     /* absolute */
  Array(IgnorePattern) patterns;
};

/* Drops trailing spaces unless escaped with a backslash ("a\ " keeps one). */
static size_t gitignore__trim(const char *line, size_t length) {
  while (length > 0 && line[length - 1] == ' ') {
    if (length >= 2 && line[length - 2] == '\\') break;
    length--;
  }
  return length;
}

/* pattern-line -> '!'? '/'? pattern '/'? ; `line` has no newline. */
static void gitignore__add_line(Gitignore *self, const char *line, size_t length) {
  if (length > 0 && line[length - 1] == '\r') length--;
  length = gitignore__trim(line, length);
  if (length == 0 || length > MAX_LINE || line[0] == '#') return;
  IgnorePattern pattern = {0};
  if (line[0] == '!') {
    pattern.negated = true;
    line++;
    length--;
  }
  if (length > 0 && line[length - 1] == '/') {
    pattern.directory_only = true;
    length--;
  }
  char *text = gl_strndup(line, length);
  pattern.anchored = strchr(text, '/') != NULL;
  const char *start = text;
  while (*start == '/') start++;
  if (*start == '\0') {
    free(text);
    return;
  }
  pattern.pattern = gl_strdup(start);
  free(text);
  array_push(&self->patterns, pattern);
}

Gitignore *gitignore_new(const char *directory, const char *bytes, size_t length) {
  Gitignore *self = gl_calloc(1, sizeof(Gitignore));
  self->directory = gl_strdup(directory);
  const char *end = bytes + length;
  for (const char *line = bytes; line < end;) {
    const char *newline = memchr(line, '\n', (size_t)(end - line));
    const char *line_end = newline ? newline : end;
    if (!memchr(line, '\0', (size_t)(line_end - line))) gitignore__add_line(self, line, (size_t)(line_end - line));
    line = line_end + 1;
  }
  return self;
}

Gitignore *gitignore_read(const char *directory, const char *path) {
  struct stat info;
  FILE *file = NULL;
  if (stat(path, &info) == 0 && S_ISREG(info.st_mode) && info.st_size <= (off_t)MAX_FILE_BYTES) {
    file = fopen(path, "rb");
  }
  if (!file) return NULL;
  char *bytes = gl_malloc((size_t)info.st_size + 1);
  size_t length = fread(bytes, 1, (size_t)info.st_size, file);
  fclose(file);
  Gitignore *self = gitignore_new(directory, bytes, length);
  free(bytes);
  return self;
}

void gitignore_delete(Gitignore *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->patterns.size; i++) free(self->patterns.contents[i].pattern);
  array_delete(&self->patterns);
  free(self->directory);
  free(self);
}

IgnoreVerdict gitignore_match(const Gitignore *self, const char *absolute, bool is_directory) {
  const char *relative = path_relative(self->directory, absolute);
  if (!relative || relative[0] == '\0') return IGNORE_NONE;
  const char *name = path_basename(relative);
  for (uint32_t i = self->patterns.size; i > 0; i--) {
    const IgnorePattern *pattern = &self->patterns.contents[i - 1];
    if (pattern->directory_only && !is_directory) continue;
    if (glob_match(pattern->pattern, pattern->anchored ? relative : name, GLOB_PATHNAME)) {
      return pattern->negated ? IGNORE_INCLUDED : IGNORE_EXCLUDED;
    }
  }
  return IGNORE_NONE;
}

bool gitignore_stack_excludes(const GitignoreStack *self, const char *absolute, bool is_directory) {
  for (uint32_t i = self->size; i > 0; i--) {
    IgnoreVerdict verdict = gitignore_match(self->contents[i - 1], absolute, is_directory);
    if (verdict != IGNORE_NONE) return verdict == IGNORE_EXCLUDED;
  }
  return false;
}

void gitignore_stack_delete(GitignoreStack *self) {
  for (uint32_t i = 0; i < self->size; i++) gitignore_delete(self->contents[i]);
  array_delete(self);
}
