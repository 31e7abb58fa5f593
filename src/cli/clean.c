/* clean.c — `gpulint clean`: removes the result cache.
 *
 *   gpulint clean                 .gpulint_cache in the working directory,
 *                                 the folders above it up to the repository
 *                                 root, and every folder below it
 *   gpulint clean PATH ...        the same from each PATH
 *   gpulint clean --cache-dir D   D too (as GPULINT_CACHE_DIR), when it
 *                                 holds gpulint's CACHEDIR.TAG
 *
 * Only folders gpulint made are removed: one named .gpulint_cache, or one
 * that holds the CACHEDIR.TAG gpulint writes into a new cache folder.
 * Symbolic links are removed, never followed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "cli.h"
#include "path.h"
#include "settings.h"
#include "suggest.h"

typedef struct {
  StringList removed; /* the absolute folders removed, to remove none twice */
  bool quiet;
  bool failed;
} Clean;

/* ---- Removing a folder ----------------------------------------------------------------- */

/* Removes the entries of the open folder `fd` (closed here), depth first;
 * false at the first that cannot be removed, with errno set. */
static bool clean__empty(int fd) {
  DIR *folder = fdopendir(fd);
  if (!folder) {
    close(fd);
    return false;
  }
  bool ok = true;
  for (struct dirent *entry; ok && (entry = readdir(folder));) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    struct stat info;
    if (fstatat(dirfd(folder), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) ok = false;
    else if (!S_ISDIR(info.st_mode)) ok = unlinkat(dirfd(folder), entry->d_name, 0) == 0;
    else {
      int child = openat(dirfd(folder), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      ok = child >= 0 && clean__empty(child) && unlinkat(dirfd(folder), entry->d_name, AT_REMOVEDIR) == 0;
    }
  }
  int saved = errno;
  closedir(folder);
  errno = saved;
  return ok;
}

/* Removes the cache folder `path` (absolute) and says so. */
static void clean__remove(Clean *self, const char *path) {
  for (uint32_t i = 0; i < self->removed.size; i++) {
    if (strcmp(self->removed.contents[i], path) == 0) return;
  }
  string_list_push(&self->removed, path);
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  if (fd < 0 || !clean__empty(fd) || rmdir(path) != 0) {
    fprintf(stderr, "gpulint: %s: cannot remove the cache: %s\n", path, strerror(errno));
    self->failed = true;
    return;
  }
  if (!self->quiet) fprintf(stderr, "Removed the cache at %s\n", path);
}

static bool clean__is_folder(const char *path) {
  struct stat info;
  return lstat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

/* Whether `folder` holds a CACHEDIR.TAG: a cache folder gpulint made. */
static bool clean__tagged(const char *folder) {
  char *tag = path_join(folder, "CACHEDIR.TAG");
  bool found = access(tag, F_OK) == 0;
  free(tag);
  return found;
}

/* ---- Finding the caches ---------------------------------------------------------------- */

/* The caches below `folder` (absolute), at any depth; excluded folders
 * (.git, virtual environments, node_modules) are not searched. */
static void clean__below(Clean *self, const char *folder, uint32_t depth) {
  DIR *listing = depth < 64 ? opendir(folder) : NULL;
  if (!listing) return;
  for (struct dirent *entry; (entry = readdir(listing));) {
    const char *name = entry->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
    char *child = path_join(folder, name);
    if (clean__is_folder(child)) {
      if (strcmp(name, CACHE_FOLDER) == 0) clean__remove(self, child);
      else if (!settings_is_default_exclude(name)) clean__below(self, child, depth + 1);
    }
    free(child);
  }
  closedir(listing);
}

/* The caches at and above `folder` (absolute), up to the nearest folder
 * with a .git (the repository's root, where `gpulint check` keeps it). */
static void clean__above(Clean *self, const char *folder) {
  char *at = gl_strdup(folder);
  for (;;) {
    char *cache = path_join(at, CACHE_FOLDER), *git = path_join(at, ".git");
    if (clean__is_folder(cache)) clean__remove(self, cache);
    bool root = access(git, F_OK) == 0 || strcmp(at, "/") == 0;
    free(cache);
    free(git);
    if (root) break;
    char *parent = path_parent(at);
    free(at);
    at = parent;
  }
  free(at);
}

/* --cache-dir DIR (or GPULINT_CACHE_DIR): removed only when gpulint made it. */
static void clean__named(Clean *self, const char *cwd, const char *named) {
  char *folder = path_absolute(cwd, named);
  if (!clean__is_folder(folder)) {
    /* nothing cached there yet */
  } else if (!clean__tagged(folder)) {
    fprintf(stderr, "gpulint: %s: not removed: it holds no CACHEDIR.TAG, so gpulint did not make it\n", folder);
    self->failed = true;
  } else {
    clean__remove(self, folder);
  }
  free(folder);
}

/* ---- The command ----------------------------------------------------------------------- */

static const char CLEAN_USAGE[] =
    "usage: gpulint clean [--cache-dir DIR] [-q] [PATH ...]\n"
    "\n"
    "Removes gpulint's result cache: the .gpulint_cache folders in each PATH\n"
    "(default: .), in the folders above it up to the repository's root, and\n"
    "in every folder below it; and DIR (or $GPULINT_CACHE_DIR) when gpulint\n"
    "made it.\n"
    "\n"
    "  --cache-dir DIR  also remove this cache folder\n"
    "  -q, --quiet      say nothing when it works\n"
    "  -h, --help       show this help\n";

static const char *const CLEAN_OPTIONS[] = {"cache-dir", "quiet", "help"};

static int clean__usage_error(char *message) {
  fprintf(stderr, "gpulint: clean: %s\nRun `gpulint clean --help` for usage.\n", message);
  free(message);
  return EXIT_USAGE;
}

int cli_clean(int argc, char **argv, int first) {
  Clean self = {.removed = array_new()};
  StringList paths = array_new();
  const char *named = getenv("GPULINT_CACHE_DIR");
  int status = -1;
  for (int i = first; i < argc && status < 0; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(CLEAN_USAGE, stdout);
      status = EXIT_CLEAN;
    } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
      self.quiet = true;
    } else if (strcmp(arg, "--cache-dir") == 0 && i + 1 < argc) {
      named = argv[++i];
    } else if (strncmp(arg, "--cache-dir=", 12) == 0) {
      named = arg + 12;
    } else if (arg[0] == '-' && arg[1]) {
      char *hint = suggest_option(arg, CLEAN_OPTIONS, sizeof CLEAN_OPTIONS / sizeof CLEAN_OPTIONS[0]);
      status = clean__usage_error(gl_format("unknown option `%s`%s", arg, hint));
      free(hint);
    } else {
      string_list_push(&paths, arg);
    }
  }
  char *cwd = status < 0 ? path_current_directory() : NULL;
  if (status < 0 && !cwd) status = clean__usage_error(gl_strdup("cannot determine the working directory"));
  if (status < 0) {
    if (paths.size == 0) string_list_push(&paths, ".");
    for (uint32_t i = 0; i < paths.size; i++) {
      char *folder = path_absolute(cwd, paths.contents[i]);
      if (!clean__is_folder(folder)) {
        fprintf(stderr, "gpulint: %s: no such folder\n", paths.contents[i]);
        self.failed = true;
      } else {
        clean__above(&self, folder);
        clean__below(&self, folder, 0);
      }
      free(folder);
    }
    if (named && named[0]) clean__named(&self, cwd, named);
    if (self.removed.size == 0 && !self.failed && !self.quiet) fprintf(stderr, "No cache to remove.\n");
    status = self.failed ? EXIT_USAGE : EXIT_CLEAN;
  }
  free(cwd);
  string_list_delete(&paths);
  string_list_delete(&self.removed);
  return status;
}
