/* findings.c — walking the paths and linting them for `gpulint verify`. */
#include "findings.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef Array(char *) Names;

static bool walk__lintable(const char *name) {
  size_t length = strlen(name);
  return (length > 3 && strcmp(name + length - 3, ".py") == 0) ||
         (length > 6 && strcmp(name + length - 6, ".ipynb") == 0);
}

static bool walk__skipped_dir(const char *name) {
  return name[0] == '.' || strcmp(name, "__pycache__") == 0 || strcmp(name, "node_modules") == 0 ||
         strcmp(name, "site-packages") == 0;
}

static int walk__compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the lintable files under `path` to `files`, sorted. */
static bool walk__path(const char *path, bool named, Names *files) {
  struct stat info;
  if (stat(path, &info) != 0) {
    fprintf(stderr, "gpulint: verify: %s: %s\n", path, strerror(errno));
    return false;
  }
  if (!S_ISDIR(info.st_mode)) {
    if (named || walk__lintable(path)) array_push(files, gl_strdup(path));
    return true;
  }
  DIR *dir = opendir(path);
  if (!dir) {
    fprintf(stderr, "gpulint: verify: %s: %s\n", path, strerror(errno));
    return false;
  }
  Names entries = array_new();
  for (struct dirent *entry; (entry = readdir(dir));) {
    if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..")) array_push(&entries, gl_strdup(entry->d_name));
  }
  closedir(dir);
  if (entries.size) qsort(entries.contents, entries.size, sizeof(char *), walk__compare);
  bool ok = true;
  for (uint32_t i = 0; i < entries.size; i++) {
    size_t length = strlen(path);
    char *child = gl_format("%s%s%s", path, length && path[length - 1] == '/' ? "" : "/", entries.contents[i]);
    struct stat child_info;
    bool is_dir = lstat(child, &child_info) == 0 && S_ISDIR(child_info.st_mode);
    if (is_dir ? !walk__skipped_dir(entries.contents[i]) : walk__lintable(entries.contents[i])) {
      ok = walk__path(child, false, files) && ok;
    }
    free(child);
    free(entries.contents[i]);
  }
  array_delete(&entries);
  return ok;
}

static void found__collect(FoundList *self, const GlFileResult *result) {
  for (uint32_t f = 0; f < result->finding_count; f++) {
    const GlFinding *finding = &result->findings[f];
    Found entry = {gl_strdup(result->path), finding->start, finding->cell, finding->rule, finding->effect,
                   gl_strdup(finding->message)};
    array_push(self, entry);
  }
}

bool found_list_lint(FoundList *self, char *const *paths, uint32_t count) {
  Names files = array_new();
  bool ok = true;
  for (uint32_t i = 0; i < count; i++) ok = walk__path(paths[i], true, &files) && ok;
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  for (uint32_t i = 0; i < files.size; i++) {
    GlFileResult *result = gl_linter_lint_file(linter, files.contents[i], &rules);
    if (result->error) {
      fprintf(stderr, "gpulint: verify: %s: %s\n", result->path, result->error);
      ok = false;
    }
    found__collect(self, result);
    gl_file_result_delete(result);
    free(files.contents[i]);
  }
  gl_linter_delete(linter);
  array_delete(&files);
  return ok;
}

void found_list_delete(FoundList *self) {
  for (uint32_t i = 0; i < self->size; i++) {
    free(self->contents[i].path);
    free(self->contents[i].message);
  }
  array_delete(self);
}
