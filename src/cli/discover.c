/* discover.c — walking directories in a stable order. */
#include "discover.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gitignore.h"
#include "path.h"

static bool discover__ends_with(const char *name, const char *suffix) {
  size_t length = strlen(name), suffix_length = strlen(suffix);
  return length > suffix_length && strcmp(name + length - suffix_length, suffix) == 0;
}

bool discover_is_lintable(const char *name) {
  return discover__ends_with(name, ".py") || discover__ends_with(name, ".pyi") ||
         discover__ends_with(name, ".ipynb");
}

/* A directory entry and the type readdir gave it (DT_UNKNOWN when the
 * file system does not say). */
typedef struct {
  char *name; /* owned */
  unsigned char type;
} Entry;

typedef Array(Entry) Entries;

static int discover__compare_names(const void *a, const void *b) {
  return strcmp(((const Entry *)a)->name, ((const Entry *)b)->name);
}

static void discover__entries_delete(Entries *self) {
  for (uint32_t i = 0; i < self->size; i++) free(self->contents[i].name);
  array_delete(self);
}

static void discover__add(Discovery *self, const char *path, const char *absolute, const Settings *settings) {
  FoundFile file = {gl_strdup(path), gl_strdup(absolute), settings, NULL};
  array_push(&self->files, file);
}

/* A path that cannot be read: kept with `error` (taken) for the report. */
static void discover__unreadable(Discovery *self, const char *path, char *error) {
  FoundFile file = {gl_strdup(path), path_absolute(self->cwd, path), NULL, error}; /* shown as given */
  array_push(&self->unreadable, file);
  self->failed = true;
}

/* A directory's entries, sorted by name. One that cannot be read is
 * reported (and fails the run) and lists nothing. */
static Entries discover__list(Discovery *self, const char *path, const char *directory) {
  Entries entries = array_new();
  DIR *dir = opendir(directory);
  if (!dir) {
    discover__unreadable(self, path, gl_format("cannot read the directory: %s", strerror(errno)));
    return entries;
  }
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    Entry item = {gl_strdup(entry->d_name), entry->d_type};
    array_push(&entries, item);
  }
  closedir(dir);
  if (entries.size > 0) qsort(entries.contents, entries.size, sizeof(Entry), discover__compare_names);
  return entries;
}

/* ---- .gitignore files above a walk ---------------------------------------------- */

/* Pushes the .gitignore of `directory`, if it has one, and returns it. */
static Gitignore *discover__push_gitignore(const char *directory, GitignoreStack *stack) {
  char *path = path_join(directory, ".gitignore");
  Gitignore *ignore = gitignore_read(directory, path);
  free(path);
  if (ignore) array_push(stack, ignore);
  return ignore;
}

/* The nearest directory at or above `directory` that holds `.git`, or NULL. */
static char *discover__repository_root(const char *directory) {
  char *current = gl_strdup(directory);
  for (;;) {
    char *git = path_join(current, ".git");
    struct stat info;
    bool found = lstat(git, &info) == 0;
    free(git);
    if (found) return current;
    if (strcmp(current, "/") == 0) break;
    char *parent = path_parent(current);
    free(current);
    current = parent;
  }
  free(current);
  return NULL;
}

/* Pushes .git/info/exclude and the .gitignore files of the directories from
 * the repository root down to the parent of `directory`. */
static void discover__ancestor_ignores(const char *directory, GitignoreStack *stack) {
  char *root = discover__repository_root(directory);
  if (!root) return;
  char *exclude_path = path_join(root, ".git/info/exclude");
  Gitignore *exclude = gitignore_read(root, exclude_path);
  free(exclude_path);
  if (exclude) array_push(stack, exclude);
  const char *below = path_relative(root, directory);
  char *current = gl_strdup(root);
  for (const char *p = below; p && *p;) {
    discover__push_gitignore(current, stack);
    const char *slash = strchr(p, '/');
    size_t length = slash ? (size_t)(slash - p) : strlen(p);
    char *next = gl_format("%s%s%.*s", current, strcmp(current, "/") == 0 ? "" : "/", (int)length, p);
    free(current);
    current = next;
    p += length + (slash ? 1 : 0);
  }
  free(current);
  free(root);
}

/* ---- Walking ---------------------------------------------------------------------- */

typedef struct {
  bool is_directory;
  bool is_file;
} EntryKind;

/* Links to files count as files; links to directories are not followed.
 * The type readdir gave saves the lstat of plain files and folders. */
static EntryKind discover__kind(const char *absolute, unsigned char type) {
  struct stat info;
  EntryKind kind = {type == DT_DIR, type == DT_REG};
  if (type == DT_DIR || type == DT_REG || lstat(absolute, &info) != 0) return kind;
  if (S_ISDIR(info.st_mode)) kind.is_directory = true;
  else if (S_ISREG(info.st_mode)) kind.is_file = true;
  else if (S_ISLNK(info.st_mode) && stat(absolute, &info) == 0) kind.is_file = S_ISREG(info.st_mode);
  return kind;
}

static bool discover__walk(Discovery *self, const char *path, const char *absolute, GitignoreStack *ignores);

/* Decides on one directory entry: skip it, lint it, or walk into it. */
static bool discover__entry(Discovery *self, const Settings *settings, const char *path, const char *absolute,
                            unsigned char type, GitignoreStack *ignores) {
  const char *name = path_basename(absolute);
  if (type == DT_REG && !discover_is_lintable(name)) return true;
  EntryKind kind = discover__kind(absolute, type);
  if (!kind.is_directory && !(kind.is_file && discover_is_lintable(name))) return true;
  if (kind.is_directory && strcmp(name, ".git") == 0) return true;
  if (settings_excludes(settings, absolute)) return true;
  if (settings->respect_gitignore && gitignore_stack_excludes(ignores, absolute, kind.is_directory)) return true;
  if (kind.is_directory) return discover__walk(self, path, absolute, ignores);
  discover__add(self, path, absolute, settings);
  return true;
}

static bool discover__walk(Discovery *self, const char *path, const char *absolute, GitignoreStack *ignores) {
  const Settings *settings = resolver_settings(self->resolver, absolute, &self->fatal);
  if (!settings) return false;
  Gitignore *own = discover__push_gitignore(absolute, ignores);
  if (self->on_directory) self->on_directory(self->payload, absolute);
  Entries entries = discover__list(self, path, absolute);
  bool ok = true;
  for (uint32_t i = 0; ok && i < entries.size; i++) {
    const Entry *entry = &entries.contents[i];
    char *child_path = path_join(path, entry->name);
    char *child_absolute = path_join(absolute, entry->name);
    ok = discover__entry(self, settings, child_path, child_absolute, entry->type, ignores);
    free(child_path);
    free(child_absolute);
  }
  discover__entries_delete(&entries);
  if (own) {
    ignores->size--; /* nested walks pop what they push, so `own` is on top */
    gitignore_delete(own);
  }
  return ok;
}

/* ---- Explicit paths ------------------------------------------------------------------ */

bool discovery_force_excludes(Discovery *self, const char *absolute) {
  if (path_relative(absolute, self->cwd)) return false; /* the working directory or one above it */
  char *current = gl_strdup(absolute);
  bool excluded = false;
  for (;;) {
    char *parent = path_parent(current);
    const Settings *settings = resolver_settings(self->resolver, parent, &self->fatal);
    excluded = settings && settings_excludes(settings, current);
    bool inside = path_relative(self->cwd, parent) != NULL && strcmp(parent, self->cwd) != 0;
    free(current);
    current = parent;
    if (!settings || excluded || !inside) break;
  }
  free(current);
  return excluded;
}

static bool discover__directory(Discovery *self, const char *path, const char *absolute) {
  GitignoreStack ignores = array_new();
  discover__ancestor_ignores(absolute, &ignores);
  bool ok = discover__walk(self, path, absolute, &ignores);
  gitignore_stack_delete(&ignores);
  return ok;
}

bool discovery_add_path(Discovery *self, const char *path) {
  struct stat info;
  if (stat(path, &info) != 0) {
    discover__unreadable(self, path, gl_strdup(errno == ENOENT ? "no such file or directory" : strerror(errno)));
    return true;
  }
  char *shown = path_display(path);
  char *absolute = path_absolute(self->cwd, path);
  char *parent = path_parent(absolute);
  const Settings *settings = resolver_settings(self->resolver, S_ISDIR(info.st_mode) ? absolute : parent, &self->fatal);
  bool ok = settings != NULL;
  if (ok && !(settings->force_exclude && discovery_force_excludes(self, absolute)) && !self->fatal) {
    if (S_ISDIR(info.st_mode)) ok = discover__directory(self, shown, absolute);
    else discover__add(self, shown, absolute, settings);
  }
  free(parent);
  free(absolute);
  free(shown);
  return ok && !self->fatal;
}

/* ---- Order ------------------------------------------------------------------------------ */

static int discover__compare_absolute(const void *a, const void *b) {
  return strcmp(((const FoundFile *)a)->absolute, ((const FoundFile *)b)->absolute);
}

static int discover__compare_shown(const void *a, const void *b) {
  return strcmp(((const FoundFile *)a)->path, ((const FoundFile *)b)->path);
}

static void discover__sort_unique(FoundFiles *files) {
  if (files->size == 0) return;
  qsort(files->contents, files->size, sizeof(FoundFile), discover__compare_absolute);
  uint32_t kept = 1;
  for (uint32_t i = 1; i < files->size; i++) {
    FoundFile *file = &files->contents[i];
    if (strcmp(file->absolute, files->contents[kept - 1].absolute) == 0) {
      free(file->path);
      free(file->absolute);
      free(file->error);
      continue;
    }
    files->contents[kept++] = *file;
  }
  files->size = kept;
  qsort(files->contents, files->size, sizeof(FoundFile), discover__compare_shown);
}

void discovery_finish(Discovery *self) {
  discover__sort_unique(&self->files);
  discover__sort_unique(&self->unreadable);
}

static void discover__files_delete(FoundFiles *files) {
  for (uint32_t i = 0; i < files->size; i++) {
    free(files->contents[i].path);
    free(files->contents[i].absolute);
    free(files->contents[i].error);
  }
  array_delete(files);
}

void discovery_delete(Discovery *self) {
  discover__files_delete(&self->files);
  discover__files_delete(&self->unreadable);
  free(self->fatal);
  self->fatal = NULL;
}
