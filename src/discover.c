/* discover.c — walking directories in a stable order. */
#include "discover.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const EXCLUDED_DIRS[] = {
    ".git", ".hg", ".svn", ".venv", "venv", "env", ".env", "__pycache__", "build", "dist",
    "node_modules", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages",
    ".ipynb_checkpoints", ".eggs", "__pypackages__", ".direnv",
};

bool discover_is_excluded_dir(const char *name) {
  for (size_t i = 0; i < sizeof EXCLUDED_DIRS / sizeof EXCLUDED_DIRS[0]; i++) {
    if (strcmp(name, EXCLUDED_DIRS[i]) == 0) return true;
  }
  return false;
}

static bool discover__ends_with(const char *name, const char *suffix) {
  size_t length = strlen(name), suffix_length = strlen(suffix);
  return length > suffix_length && strcmp(name + length - suffix_length, suffix) == 0;
}

bool discover_is_lintable(const char *name) {
  return discover__ends_with(name, ".py") || discover__ends_with(name, ".pyi") ||
         discover__ends_with(name, ".ipynb");
}

static int discover__compare(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *discover__join(const char *directory, const char *name) {
  size_t length = strlen(directory);
  bool slash = length > 0 && directory[length - 1] == '/';
  return gl_format("%s%s%s", directory, slash ? "" : "/", name);
}

/* Lists a directory's entry names, sorted; symbolic links to directories
 * are not followed, so link loops cannot trap the walk. */
static void discover__walk(const char *directory, PathList *files) {
  DIR *dir = opendir(directory);
  if (!dir) return;
  PathList names = array_new();
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    array_push(&names, gl_strdup(entry->d_name));
  }
  closedir(dir);
  if (names.size > 0) qsort(names.contents, names.size, sizeof(char *), discover__compare);
  for (uint32_t i = 0; i < names.size; i++) {
    char *path = discover__join(directory, names.contents[i]);
    struct stat info;
    if (lstat(path, &info) == 0 && S_ISDIR(info.st_mode)) {
      if (!discover_is_excluded_dir(names.contents[i])) discover__walk(path, files);
      free(path);
    } else if (discover_is_lintable(names.contents[i]) && stat(path, &info) == 0 && S_ISREG(info.st_mode)) {
      array_push(files, path);
    } else {
      free(path);
    }
  }
  path_list_delete(&names);
}

bool discover_path(const char *path, PathList *files, char **error) {
  struct stat info;
  if (stat(path, &info) != 0) {
    *error = gl_format("%s: %s", path, errno == ENOENT ? "no such file or directory" : strerror(errno));
    return false;
  }
  if (S_ISDIR(info.st_mode)) discover__walk(path, files);
  else array_push(files, gl_strdup(path));
  return true;
}

void path_list_delete(PathList *self) {
  for (uint32_t i = 0; i < self->size; i++) free(self->contents[i]);
  array_delete(self);
}
