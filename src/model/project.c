/* project.c — project roots, the listing of their Python files, import
 * resolution, and summaries computed once and shared. */
#include "project.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "facts.h"
#include "walk.h"
#include "source.h"
#include "store.h"

/* Files larger than this are listed but never summarised. */
#define PROJECT_MAX_FILE_BYTES (8u * 1024u * 1024u)
#define PROJECT_MAX_DEPTH 24

/* A set of identifier hashes: open addressing, linear probing, 0 marks an
 * empty slot (a hash of 0 is stored as 1). */
typedef struct {
  uint64_t *slots;   /* owned unless `stored` */
  uint32_t capacity; /* a power of two, or 0 */
  uint32_t count;
  bool stored;       /* the slots lie in the project's mapped store: read only */
} Identifiers;

typedef struct {
  char *path;           /* absolute; owned */
  uint64_t size;
  int64_t mtime_sec, mtime_nsec; /* when listed: an index entry is reused while they match */
  Summary *summary;     /* owned; NULL until computed */
  bool summarized;      /* summary computed (it may still be NULL) */
  const void *stored_summary; /* its summary's bytes in the mapped store, or NULL */
  uint32_t stored_summary_length;
  bool scanned;         /* identifiers and hash read */
  bool learned;         /* this run read or summarised it where the store could not serve */
  uint64_t hash;
  Identifiers identifiers; /* the hashes of its identifiers */
  char *overlay;        /* an editor's text read instead of the file, or NULL; owned */
  size_t overlay_length;
} ProjectFile;

struct Project {
  Workspace *workspace;      /* borrowed: where parses are kept for the files the run lints */
  char *root;                /* absolute; owned */
  Array(ProjectFile) files;  /* sorted by path */
  StoredPaths configs;       /* absolute paths of its YAML files, in listing order */
  uint64_t listed_bytes;
  bool truncated;            /* the listing stopped at the budget */
  char *listing_path;        /* where the listing is kept between runs (store.h), or NULL; owned */
  Array(StoredFolder) folders; /* the folders a fresh listing read, with their times */
  bool unkept;               /* a fresh listing missed a folder or an entry: it is not kept */
  bool scanned;              /* every file's identifiers read */
  char *index_path;          /* where the index is kept between runs (store.h), or NULL; owned */
  Store *store;              /* the index mapped from index_path, or NULL; owned */
  bool loaded;               /* store read (or found absent) */
  uint32_t fresh;            /* files learned (ProjectFile.learned) */
  pthread_mutex_t lock;
};

/* A file the run will lint (workspace_expect). */
typedef struct {
  char *given;        /* as the run names it; owned */
  char *absolute;     /* its folder's real path and its name, found at the first lookup; owned */
  bool linted;        /* its lint began, or it was not linted after all */
  ProjectParse *kept; /* a question's parse of it, kept for its lint; owned */
} Expected;

struct GlWorkspace {
  Array(Project *) projects;
  Array(Expected) expected; /* sorted by `absolute` once the first lookup comes */
  bool expected_sorted;
  bool asked;               /* a summary was asked for (project_summary) */
  size_t kept_bytes;        /* the bytes of the files whose parses are kept */
  char *cache_dir; /* where projects keep their identifier index, or NULL; owned */
  bool no_index; /* lint every file alone */
  Array(char *) linted_folders; /* folders linted whole (workspace_add_linted_folder), real paths; owned */
  Array(ProjectFile) overlays; /* path and overlay of each file an editor holds (workspace_set_overlay) */
  pthread_mutex_t lock;
};

/* ---- Hashing --------------------------------------------------------------- */

static uint64_t project__mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

uint64_t summary_hash_bytes(const char *bytes, size_t length) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ length;
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    memcpy(&word, bytes + i, 8);
    h = project__mix(h ^ word) + 0x9e3779b97f4a7c15ULL;
  }
  uint64_t tail = 0;
  memcpy(&tail, bytes + i, length - i);
  return project__mix(h ^ tail ^ ((uint64_t)(length - i) << 56));
}

/* ---- The listing -------------------------------------------------------------- */

/* Folders no project's importable code lives in. */
static bool project__skipped_folder(const char *name) {
  static const char *const SKIPPED[] = {"__pycache__", "node_modules", "site-packages", "build", "dist",
                                        "venv", "env", "wandb", "mlruns", "lightning_logs", NULL};
  if (name[0] == '.') return true;
  for (size_t i = 0; SKIPPED[i]; i++) {
    if (strcmp(name, SKIPPED[i]) == 0) return true;
  }
  return false;
}

static bool project__python_file(const char *name) {
  size_t length = strlen(name);
  return length > 3 && strcmp(name + length - 3, ".py") == 0;
}

/* A training configuration: `.yaml`, `.yml`. */
static bool project__config_file(const char *name) {
  size_t length = strlen(name);
  return (length > 5 && strcmp(name + length - 5, ".yaml") == 0) ||
         (length > 4 && strcmp(name + length - 4, ".yml") == 0);
}

/* `folder`/`name`; the caller frees it. */
static char *project__join(const char *folder, const char *name) {
  size_t folder_length = strlen(folder), name_length = strlen(name);
  char *path = gl_malloc(folder_length + name_length + 2);
  memcpy(path, folder, folder_length);
  path[folder_length] = '/';
  memcpy(path + folder_length + 1, name, name_length + 1);
  return path;
}

static void project__add_file(Project *self, char *path, const struct stat *info) {
  uint64_t size = (uint64_t)info->st_size;
  if (self->files.size >= PROJECT_MAX_FILES || self->listed_bytes + size > PROJECT_MAX_BYTES) {
    self->truncated = true;
    free(path);
    return;
  }
  self->listed_bytes += size;
  array_push(&self->files, ((ProjectFile){.path = path, .size = size, .mtime_sec = (int64_t)info->st_mtim.tv_sec,
                                          .mtime_nsec = (int64_t)info->st_mtim.tv_nsec}));
}

/* The kind of a folder entry (S_IFDIR, S_IFREG, other), with `info` filled
 * for Python files; the folder's own entry type spares a stat of the
 * rest. */
static mode_t project__entry_kind(DIR *dir, const struct dirent *entry, struct stat *info) {
  bool python = project__python_file(entry->d_name);
  if (entry->d_type == DT_DIR) return S_IFDIR;
  if (entry->d_type != DT_UNKNOWN && (entry->d_type != DT_REG || !python)) return 0;
  if (fstatat(dirfd(dir), entry->d_name, info, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  if (S_ISDIR(info->st_mode)) return S_IFDIR;
  return S_ISREG(info->st_mode) && python ? S_IFREG : 0;
}

/* Lists `folder` and below, depth first; symbolic links to folders are not
 * followed, so link loops cannot trap it. */
static void project__list(Project *self, const char *folder, uint32_t depth) {
  if (depth > PROJECT_MAX_DEPTH || self->truncated) return;
  DIR *dir = opendir(folder);
  struct stat own;
  if (!dir || fstat(dirfd(dir), &own) != 0) {
    self->unkept = true;
    if (dir) closedir(dir);
    return;
  }
  array_push(&self->folders, ((StoredFolder){gl_strdup(folder), (int64_t)own.st_mtim.tv_sec,
                                             (int64_t)own.st_mtim.tv_nsec}));
  for (struct dirent *entry; (entry = readdir(dir)) && !self->truncated;) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    struct stat info;
    mode_t kind = project__entry_kind(dir, entry, &info);
    if (kind == S_IFDIR && !project__skipped_folder(entry->d_name)) {
      char *path = project__join(folder, entry->d_name);
      project__list(self, path, depth + 1);
      free(path);
    } else if (kind == S_IFREG) {
      project__add_file(self, project__join(folder, entry->d_name), &info);
    } else if (project__config_file(entry->d_name) && self->configs.size < PROJECT_MAX_CONFIGS &&
               (entry->d_type == DT_REG || entry->d_type == DT_UNKNOWN)) {
      array_push(&self->configs, project__join(folder, entry->d_name));
    }
  }
  closedir(dir);
}

static int project__file_order(const void *a, const void *b) {
  return strcmp(((const ProjectFile *)a)->path, ((const ProjectFile *)b)->path);
}

/* ---- The listing kept between runs -------------------------------------------
 *
 * A fresh listing reads every folder and takes the size and time of every
 * file, then sorts them. Kept in the cache folder (store.h), the next run
 * takes it again when no folder it read has changed since: each folder's
 * time is the one kept, and older than the start of that listing by more
 * than PROJECT_TIME_GRAIN seconds (a folder changed in the clock tick of
 * the listing could keep its time). The files' sizes and times are taken
 * again, so that a file changed in place is read again. */

#define PROJECT_TIME_GRAIN 2

static void project__drop_listing(Project *self) {
  for (uint32_t i = 0; i < self->files.size; i++) free(self->files.contents[i].path);
  array_clear(&self->files);
  self->listed_bytes = 0;
  self->truncated = false;
}

/* Whether every folder of `kept` still has its kept time, and that time is
 * older than the listing by more than the clock's grain. */
static bool project__folders_unchanged(const StoredListing *kept) {
  for (uint32_t i = 0; i < kept->folders.size; i++) {
    const StoredFolder *folder = &kept->folders.contents[i];
    struct stat info;
    if (stat(folder->path, &info) != 0 || !S_ISDIR(info.st_mode) ||
        (int64_t)info.st_mtim.tv_sec != folder->mtime_sec || (int64_t)info.st_mtim.tv_nsec != folder->mtime_nsec ||
        folder->mtime_sec + PROJECT_TIME_GRAIN >= kept->listed_at) {
      return false;
    }
  }
  return kept->folders.size > 0;
}

/* A folder held open while the files in it are looked at, so that each
 * look walks one name, not the whole path. */
typedef struct {
  int descriptor; /* -1 when none is open */
  char *path;     /* borrowed from the first file looked at in it */
  size_t length;
} OpenFolder;

/* lstat of `path` through `folder`, which is reopened when `path` lies in
 * another one. */
static int project__stat_in(OpenFolder *folder, const char *path, struct stat *info) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return lstat(path, info);
  size_t length = (size_t)(slash - path);
  if (folder->descriptor < 0 || length != folder->length || memcmp(path, folder->path, length) != 0) {
    if (folder->descriptor >= 0) close(folder->descriptor);
    char *copy = gl_strndup(path, length);
    folder->descriptor = open(copy, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(copy);
    folder->path = (char *)path;
    folder->length = length;
    if (folder->descriptor < 0) return -1;
  }
  return fstatat(folder->descriptor, slash + 1, info, AT_SYMLINK_NOFOLLOW);
}

/* Lists the files of `kept` (taking their paths from it), each with its
 * size and time taken now; false, with nothing listed, when one is no
 * longer a regular file, the paths are out of order, or the budget is
 * passed (a fresh listing decides then). */
static bool project__take_kept_files(Project *self, StoredListing *kept) {
  array_reserve(&self->files, kept->files.size);
  OpenFolder folder = {-1, NULL, 0};
  for (uint32_t i = 0; i < kept->files.size; i++) {
    char *path = kept->files.contents[i];
    struct stat info;
    if ((i > 0 && strcmp(array_back(&self->files)->path, path) >= 0) || project__stat_in(&folder, path, &info) != 0 ||
        !S_ISREG(info.st_mode)) {
      break;
    }
    kept->files.contents[i] = NULL; /* the listing's now */
    project__add_file(self, path, &info);
    if (self->truncated) break;
    if (i + 1 == kept->files.size) {
      if (folder.descriptor >= 0) close(folder.descriptor);
      return true;
    }
  }
  if (folder.descriptor >= 0) close(folder.descriptor);
  project__drop_listing(self);
  return kept->files.size == 0;
}

/* Takes the listing kept at listing_path when it still holds; false, with
 * nothing listed, otherwise. */
static bool project__list_kept(Project *self) {
  StoredListing kept = {0};
  if (!self->listing_path || !store_read_listing(self->listing_path, self->root, &kept)) return false;
  bool taken = project__folders_unchanged(&kept) && project__take_kept_files(self, &kept);
  if (taken) {
    self->configs = kept.configs;
    kept.configs = (StoredPaths)array_new();
  }
  store_listing_clear(&kept);
  return taken;
}

/* Keeps a fresh listing at listing_path, unless it missed a folder or
 * stopped at the budget. */
static void project__keep_listing(Project *self, int64_t listed_at) {
  if (!self->listing_path || self->unkept || self->truncated) return;
  StoredListing listing = {.listed_at = listed_at, .configs = self->configs};
  listing.folders.contents = self->folders.contents;
  listing.folders.size = self->folders.size;
  array_reserve(&listing.files, self->files.size);
  for (uint32_t i = 0; i < self->files.size; i++) array_push(&listing.files, self->files.contents[i].path);
  store_write_listing(self->listing_path, self->root, &listing);
  array_delete(&listing.files); /* the paths stay the files' */
}

static void project__clear_folders(Project *self) {
  for (uint32_t i = 0; i < self->folders.size; i++) free(self->folders.contents[i].path);
  array_delete(&self->folders);
}

/* Lists the project at `root`: the kept listing when it still holds, else
 * a fresh one, then kept. `cache_dir` (or NULL) is where its index and
 * listing are kept between runs. */
static Project *project__new(const char *root, const char *cache_dir) {
  Project *self = gl_calloc(1, sizeof(Project));
  self->root = gl_strdup(root);
  pthread_mutex_init(&self->lock, NULL);
  if (cache_dir) {
    unsigned long long key = (unsigned long long)summary_hash_bytes(root, strlen(root));
    self->index_path = gl_format("%s/index-%016llx", cache_dir, key);
    self->listing_path = gl_format("%s/listing-%016llx", cache_dir, key);
  }
  if (project__list_kept(self)) return self;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  project__list(self, root, 0);
  if (self->files.size > 1) qsort(self->files.contents, self->files.size, sizeof(ProjectFile), project__file_order);
  project__keep_listing(self, (int64_t)now.tv_sec);
  project__clear_folders(self);
  return self;
}

static void project__load(Project *self);
static void project__save(Project *self);

static void project__delete(Project *self) {
  for (uint32_t i = 0; i < self->files.size; i++) {
    ProjectFile *file = array_get(&self->files, i);
    free(file->path);
    free(file->overlay);
    summary_delete(file->summary);
    if (!file->identifiers.stored) free(file->identifiers.slots);
  }
  array_delete(&self->files);
  for (uint32_t i = 0; i < self->configs.size; i++) free(self->configs.contents[i]);
  array_delete(&self->configs);
  store_close(self->store);
  pthread_mutex_destroy(&self->lock);
  free(self->listing_path);
  free(self->index_path);
  free(self->root);
  free(self);
}

/* ---- Roots ---------------------------------------------------------------------- */

static bool project__exists(const char *folder, const char *name) {
  char path[PATH_MAX];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", folder, name) >= sizeof path) return false;
  return access(path, F_OK) == 0;
}

static bool project__is_root(const char *folder) {
  return project__exists(folder, "pyproject.toml") || project__exists(folder, "setup.py") ||
         project__exists(folder, "setup.cfg") || project__exists(folder, ".git");
}

char *project_folder_of(const char *path) {
  char *copy = gl_strdup(path);
  char *slash = strrchr(copy, '/');
  if (slash == copy) slash[1] = '\0';
  else if (slash) *slash = '\0';
  char *folder = realpath(slash ? copy : ".", NULL);
  free(copy);
  return folder;
}

/* Whether `folder` is `top` or lies below it. */
static bool project__within(const char *folder, const char *top) {
  size_t length = strlen(top);
  if (strncmp(folder, top, length) != 0) return false;
  return folder[length] == '\0' || folder[length] == '/' || (length > 0 && top[length - 1] == '/');
}

/* The nearest folder at or above `folder` that marks a root; else the
 * deepest folder linted whole that holds it (a repository checked out
 * without its .git, linted as `gpulint check .`); else `folder` itself.
 * The caller frees it. */
static char *project__find_root(const Workspace *workspace, const char *folder) {
  char *at = gl_strdup(folder);
  for (;;) {
    if (project__is_root(at)) return at;
    char *slash = strrchr(at, '/');
    if (!slash || slash == at) break;
    *slash = '\0';
  }
  free(at);
  const char *linted = NULL;
  for (uint32_t i = 0; i < workspace->linted_folders.size; i++) {
    const char *candidate = workspace->linted_folders.contents[i];
    if (project__within(folder, candidate) && (!linted || strlen(candidate) > strlen(linted))) linted = candidate;
  }
  return gl_strdup(linted ? linted : folder);
}

/* ---- The workspace ------------------------------------------------------------- */

Workspace *workspace_new(void) {
  Workspace *self = gl_calloc(1, sizeof(Workspace));
  pthread_mutex_init(&self->lock, NULL);
  return self;
}

void workspace_delete(Workspace *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->projects.size; i++) {
    project__save(self->projects.contents[i]);
    project__delete(self->projects.contents[i]);
  }
  array_delete(&self->projects);
  for (uint32_t i = 0; i < self->expected.size; i++) {
    free(self->expected.contents[i].given);
    free(self->expected.contents[i].absolute);
    project_parse_delete(self->expected.contents[i].kept);
  }
  array_delete(&self->expected);
  for (uint32_t i = 0; i < self->linted_folders.size; i++) free(self->linted_folders.contents[i]);
  array_delete(&self->linted_folders);
  for (uint32_t i = 0; i < self->overlays.size; i++) {
    free(self->overlays.contents[i].path);
    free(self->overlays.contents[i].overlay);
  }
  array_delete(&self->overlays);
  free(self->cache_dir);
  pthread_mutex_destroy(&self->lock);
  free(self);
}

void workspace_set_indexing(Workspace *self, bool enabled) { self->no_index = !enabled; }

void workspace_add_linted_folder(Workspace *self, const char *folder) {
  char *real = realpath(folder, NULL);
  if (real && strcmp(real, "/") != 0) array_push(&self->linted_folders, real);
  else free(real);
}

void workspace_set_cache_dir(Workspace *self, const char *directory) {
  free(self->cache_dir);
  self->cache_dir = directory ? gl_strdup(directory) : NULL;
}

static void project__adopt_overlays(Project *self, const Workspace *workspace);

Project *workspace_project(Workspace *self, const char *path) {
  if (self->no_index) return NULL;
  char *folder = project_folder_of(path);
  if (!folder) return NULL;
  char *root = project__find_root(self, folder);
  free(folder);
  pthread_mutex_lock(&self->lock);
  Project *found = NULL;
  for (uint32_t i = 0; i < self->projects.size && !found; i++) {
    if (strcmp(self->projects.contents[i]->root, root) == 0) found = self->projects.contents[i];
  }
  if (!found) {
    found = project__new(root, self->cache_dir); /* under the lock: every worker waits for the one listing */
    found->workspace = self;
    array_push(&self->projects, found);
    project__adopt_overlays(found, self);
  }
  pthread_mutex_unlock(&self->lock);
  free(root);
  return found;
}

char *workspace_notices(Workspace *self) {
  char *notices = NULL;
  pthread_mutex_lock(&self->lock);
  for (uint32_t i = 0; i < self->projects.size; i++) {
    const Project *project = self->projects.contents[i];
    if (!project->truncated) continue;
    char *line = gl_format("%s%s%s: the project is larger than the index's budget (%u files, %u MB); "
                           "facts from other files come from the first %u files only",
                           notices ? notices : "", notices ? "\n" : "", project->root, PROJECT_MAX_FILES,
                           PROJECT_MAX_BYTES >> 20, project->files.size);
    free(notices);
    notices = line;
  }
  pthread_mutex_unlock(&self->lock);
  return notices;
}

/* ---- Files ------------------------------------------------------------------------ */

const char *project_root(const Project *self) { return self->root; }

const char *project_path(const Project *self, int32_t file) { return self->files.contents[file].path; }

const char *project_config(const Project *self, uint32_t index) {
  return index < self->configs.size ? self->configs.contents[index] : NULL;
}

static int32_t project__find(const Project *self, const char *path) {
  uint32_t low = 0, high = self->files.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    int order = strcmp(self->files.contents[mid].path, path);
    if (order == 0) return (int32_t)mid;
    if (order < 0) low = mid + 1;
    else high = mid;
  }
  return -1;
}

int32_t project_file(Project *self, const char *path) {
  char *folder = project_folder_of(path);
  if (!folder) return -1;
  const char *name = strrchr(path, '/');
  char *absolute = gl_format("%s/%s", folder, name ? name + 1 : path);
  int32_t found = project__find(self, absolute);
  free(absolute);
  free(folder);
  return found;
}

/* Reads a listed file whole; NULL when it cannot be read or is too large.
 * The caller frees it. */
static char *project__read(const ProjectFile *file, size_t *length) {
  if (file->overlay) {
    *length = file->overlay_length;
    return gl_strndup(file->overlay, file->overlay_length);
  }
  if (file->size > PROJECT_MAX_FILE_BYTES) return NULL;
  FILE *stream = fopen(file->path, "rb");
  if (!stream) return NULL;
  char *bytes = gl_malloc(file->size + 1);
  *length = fread(bytes, 1, file->size, stream);
  fclose(stream);
  bytes[*length] = '\0';
  return bytes;
}

static bool workspace__keep(Workspace *self, ProjectParse *parse);

/* Counts `file` once among what this run learned beyond the store;
 * called with the lock held. */
static void project__learned(Project *self, ProjectFile *file) {
  if (file->learned) return;
  file->learned = true;
  self->fresh++;
}

/* Parses and summarises a file for a question; the parse is kept for the
 * file's own lint when the run will lint it (workspace_expect). */
static Summary *project__summarize(Project *self, const char *path, const char *bytes, size_t length) {
  size_t bad = 0;
  if (source_check_text(bytes, length, &bad)) return NULL;
  Source *source = source_new(path, bytes, length);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree *tree = ts_parser_parse_string(parser, NULL, source->bytes, source->length);
  ts_parser_delete(parser);
  Summary *summary = NULL;
  ProjectParse *parse = gl_calloc(1, sizeof(ProjectParse));
  *parse = (ProjectParse){source, tree, NULL};
  if (tree) {
    parse->facts = facts_walk(source, ts_tree_root_node(tree));
    Facts *alone = facts_copy(parse->facts);
    summary = summary_of_walk(path, summary_hash_bytes(bytes, length), alone);
    facts_delete(alone);
  }
  if (!tree || !workspace__keep(self->workspace, parse)) project_parse_delete(parse);
  return summary;
}

void project_parse_delete(ProjectParse *self) {
  if (!self) return;
  facts_delete(self->facts);
  ts_tree_delete(self->tree);
  source_delete(self->source);
  free(self);
}

/* ---- Files the run lints --------------------------------------------------------
 *
 * A question may need the summary of a file that the run has yet to
 * lint: its parse and walk are then kept (within WORKSPACE_KEPT_BYTES of
 * source) and handed to that lint, so that the file is parsed once. */

#define WORKSPACE_KEPT_BYTES (2u * 1024u * 1024u)

static int workspace__expected_order(const void *a, const void *b) {
  return strcmp(((const Expected *)a)->absolute, ((const Expected *)b)->absolute);
}

/* The absolute path of `path` as listings spell it; NULL when its folder
 * is gone. The caller frees it. */
static char *workspace__absolute(const char *path) {
  char *folder = project_folder_of(path);
  if (!folder) return NULL;
  const char *name = strrchr(path, '/');
  char *absolute = gl_format("%s/%s", folder, name ? name + 1 : path);
  free(folder);
  return absolute;
}

void workspace_expect(Workspace *self, const char *path) {
  if (self->no_index) return;
  pthread_mutex_lock(&self->lock);
  array_push(&self->expected, ((Expected){gl_strdup(path), NULL, false, NULL}));
  self->expected_sorted = false;
  pthread_mutex_unlock(&self->lock);
}

/* Finds every expected file's absolute path (a run whose files all come
 * from the cache never needs them) and sorts them; called with the
 * workspace locked. */
static void workspace__sort_expected(Workspace *self) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < self->expected.size; i++) {
    Expected *entry = array_get(&self->expected, i);
    if (!entry->absolute) entry->absolute = workspace__absolute(entry->given);
    if (entry->absolute) self->expected.contents[kept++] = *entry;
    else free(entry->given);
  }
  self->expected.size = kept;
  qsort(self->expected.contents, self->expected.size, sizeof(Expected), workspace__expected_order);
  self->expected_sorted = true;
}

/* The entry of `absolute`, or NULL; called with the workspace locked. */
static Expected *workspace__expected(Workspace *self, const char *absolute) {
  if (self->expected.size == 0) return NULL;
  if (!self->expected_sorted) workspace__sort_expected(self);
  Expected key = {NULL, (char *)absolute, false, NULL};
  return bsearch(&key, self->expected.contents, self->expected.size, sizeof(Expected), workspace__expected_order);
}

/* Keeps `parse` (owned on success) for the lint of its file; false when
 * the run will not lint it, already did, or the budget is spent. */
static bool workspace__keep(Workspace *self, ProjectParse *parse) {
  if (!self) return false;
  pthread_mutex_lock(&self->lock);
  Expected *entry = workspace__expected(self, parse->source->path);
  bool kept = entry && !entry->linted && !entry->kept &&
              self->kept_bytes + parse->source->length <= WORKSPACE_KEPT_BYTES;
  if (kept) {
    entry->kept = parse;
    self->kept_bytes += parse->source->length;
  }
  pthread_mutex_unlock(&self->lock);
  return kept;
}

ProjectParse *workspace_take_parse(Workspace *self, const char *path, const char *bytes, size_t length) {
  pthread_mutex_lock(&self->lock);
  bool none = self->expected.size == 0 || (!self->expected_sorted && !bytes);
  pthread_mutex_unlock(&self->lock);
  if (none) return NULL; /* nothing expected; or skipped before any question came: nothing kept yet */
  char *absolute = workspace__absolute(path);
  if (!absolute) return NULL;
  pthread_mutex_lock(&self->lock);
  Expected *entry = workspace__expected(self, absolute);
  ProjectParse *parse = entry ? entry->kept : NULL;
  if (entry) {
    entry->linted = true;
    entry->kept = NULL;
  }
  if (parse) self->kept_bytes -= parse->source->length;
  pthread_mutex_unlock(&self->lock);
  free(absolute);
  if (parse && (!bytes || parse->source->length != length || memcmp(parse->source->bytes, bytes, length) != 0)) {
    project_parse_delete(parse); /* the file changed since: parse what the lint reads */
    parse = NULL;
  }
  return parse;
}

/* The summary the store kept for the file, when its content is still the
 * same; NULL otherwise. */
static Summary *project__stored_summary(const ProjectFile *entry, const void *bytes, uint32_t length, uint64_t hash) {
  Summary *summary = bytes ? summary_read(entry->path, bytes, length) : NULL;
  if (summary && summary->hash == hash) return summary;
  summary_delete(summary);
  return NULL;
}

bool workspace_questions_asked(Workspace *self) {
  pthread_mutex_lock(&self->lock);
  bool asked = self->asked;
  pthread_mutex_unlock(&self->lock);
  return asked;
}

const Summary *project_summary(Project *self, int32_t file) {
  if (file < 0 || (uint32_t)file >= self->files.size) return NULL;
  if (self->workspace) {
    pthread_mutex_lock(&self->workspace->lock);
    self->workspace->asked = true;
    pthread_mutex_unlock(&self->workspace->lock);
  }
  pthread_mutex_lock(&self->lock);
  project__load(self);
  ProjectFile *entry = array_get(&self->files, file);
  bool done = entry->summarized;
  const void *stored = entry->stored_summary;
  uint32_t stored_length = entry->stored_summary_length;
  uint64_t hash = entry->hash;
  pthread_mutex_unlock(&self->lock);
  if (done) return entry->summary;
  Summary *summary = project__stored_summary(entry, stored, stored_length, hash);
  bool fresh = summary == NULL;
  if (fresh) {
    size_t length = 0;
    char *bytes = project__read(entry, &length);
    summary = bytes ? project__summarize(self, entry->path, bytes, length) : NULL;
    free(bytes);
  }
  pthread_mutex_lock(&self->lock); /* another worker may have finished first: keep one */
  if (!entry->summarized) {
    entry->summary = summary;
    entry->summarized = true;
    if (fresh) project__learned(self, entry);
    summary = NULL;
  }
  pthread_mutex_unlock(&self->lock);
  summary_delete(summary);
  return entry->summary;
}

bool project_wants_summary(Project *self, int32_t file, uint64_t hash) {
  if (file < 0 || (uint32_t)file >= self->files.size) return false;
  if (project_file_hash(self, file) != hash) return false; /* another text than the listed file's */
  pthread_mutex_lock(&self->lock);
  const ProjectFile *entry = array_get(&self->files, file);
  bool wanted = !entry->summarized && !entry->stored_summary &&
                (entry->overlay || entry->size <= PROJECT_MAX_FILE_BYTES); /* as project__read: larger files get none */
  pthread_mutex_unlock(&self->lock);
  return wanted;
}

void project_adopt_summary(Project *self, int32_t file, Summary *summary) {
  pthread_mutex_lock(&self->lock);
  ProjectFile *entry = array_get(&self->files, file);
  if (!entry->summarized) {
    entry->summary = summary;
    entry->summarized = true;
    project__learned(self, entry);
    summary = NULL;
  }
  pthread_mutex_unlock(&self->lock);
  summary_delete(summary);
}

/* ---- Identifiers ---------------------------------------------------------------- */

static uint64_t project__identifier_hash(const char *text, size_t length) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < length; i++) h = (h ^ (uint8_t)text[i]) * 0x100000001b3ULL;
  return h;
}

/* What each byte is to an identifier: 1 starts or continues one (a letter,
 * `_`, any byte of a multibyte character), 2 only continues one (a digit),
 * 0 ends one. */
static const uint8_t PROJECT_IDENTIFIER_BYTE[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

static void project__set_add(Identifiers *set, uint64_t hash);

static void project__set_grow(Identifiers *set) {
  Identifiers bigger = {gl_calloc(set->capacity ? set->capacity * 2 : 256, sizeof(uint64_t)),
                        set->capacity ? set->capacity * 2 : 256, 0, false};
  for (uint32_t i = 0; i < set->capacity; i++) {
    if (set->slots[i]) project__set_add(&bigger, set->slots[i]);
  }
  free(set->slots);
  *set = bigger;
}

static void project__set_add(Identifiers *set, uint64_t hash) {
  if (hash == 0) hash = 1;
  if ((set->count + 1) * 2 > set->capacity) project__set_grow(set);
  uint32_t mask = set->capacity - 1;
  for (uint32_t at = (uint32_t)hash & mask;; at = (at + 1) & mask) {
    if (set->slots[at] == hash) return;
    if (set->slots[at] == 0) {
      set->slots[at] = hash;
      set->count++;
      return;
    }
  }
}

static bool project__set_has(const Identifiers *set, uint64_t hash) {
  if (set->capacity == 0) return false;
  if (hash == 0) hash = 1;
  uint32_t mask = set->capacity - 1;
  for (uint32_t at = (uint32_t)hash & mask, probes = 0; probes < set->capacity; at = (at + 1) & mask, probes++) {
    if (set->slots[at] == hash) return true;
    if (set->slots[at] == 0) return false;
  }
  return false; /* a full table (a damaged stored one): absent */
}

/* The next identifier of bytes [*at, to): its start in *start, *at just
 * past it; false when none is left. */
static bool project__next_identifier(const char *bytes, size_t *at, size_t to, size_t *start) {
  const uint8_t *text = (const uint8_t *)bytes;
  size_t i = *at;
  while (i < to && PROJECT_IDENTIFIER_BYTE[text[i]] != 1) i++;
  if (i >= to) {
    *at = i;
    return false;
  }
  *start = i;
  while (i < to && PROJECT_IDENTIFIER_BYTE[text[i]] != 0) i++;
  *at = i;
  return true;
}

/* Reads a file's hash and the set of its identifiers; called with the
 * lock held. */
static void project__scan_file(Project *self, ProjectFile *file) {
  file->scanned = true;
  project__learned(self, file);
  size_t length = 0;
  char *bytes = project__read(file, &length);
  if (!bytes) return;
  file->hash = summary_hash_bytes(bytes, length);
  size_t at = 0, start;
  while (project__next_identifier(bytes, &at, length, &start)) {
    project__set_add(&file->identifiers, project__identifier_hash(bytes + start, at - start));
  }
  free(bytes);
}

static bool project__holds(const ProjectFile *file, uint64_t wanted) {
  return project__set_has(&file->identifiers, wanted);
}

Text project_module_name(const Project *self, int32_t file) {
  const char *path = self->files.contents[file].path;
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  if (strcmp(name, "__init__.py") != 0 || !slash) return (Text){name, (uint32_t)(strlen(name) - 3)};
  const char *folder = slash;
  while (folder > path && folder[-1] != '/') folder--;
  return (Text){folder, (uint32_t)(slash - folder)};
}

/* ---- The index between runs (store.h) ---------------------------------------------
 *
 * Loaded once, before the first question that needs a file's hash,
 * identifiers or summary; written back when the run is over, if it read
 * or summarised files that the stored index did not hold: at least
 * PROJECT_SAVE_AFTER of them and one in PROJECT_SAVE_SHARE of the listed
 * files. A pre-commit run on a few changed files does not rewrite the
 * index of a large project (writing it costs more than reading those
 * files again in the next runs); the whole project linted does. */

#define PROJECT_SAVE_AFTER 2
#define PROJECT_SAVE_SHARE 64

/* The order of a listed path and a stored one (not NUL-terminated). */
static int project__stored_order(const char *path, const StoredFile *stored) {
  size_t length = stored->path_length;
  if (memchr(stored->path, '\0', length)) return 1; /* damaged: no listed path equals it */
  int order = strncmp(path, stored->path, length);
  if (order != 0) return order;
  return path[length] != '\0' ? 1 : 0;
}

/* Takes a stored entry for the listed file of the same path and the same
 * size and time. The store holds its entries in path order, as the
 * listing: `*next` is the first listed file not passed yet. */
static void project__adopt_stored(Project *self, const StoredFile *stored, uint32_t *next) {
  int order = -1;
  while (*next < self->files.size && (order = project__stored_order(self->files.contents[*next].path, stored)) < 0) {
    (*next)++;
  }
  if (order != 0) return;
  ProjectFile *file = array_get(&self->files, *next);
  if (file->scanned || file->size != stored->size || file->mtime_sec != stored->mtime_sec ||
      file->mtime_nsec != stored->mtime_nsec) {
    return;
  }
  file->identifiers = (Identifiers){(uint64_t *)stored->slots, stored->capacity, stored->count, true};
  file->hash = stored->hash;
  file->scanned = true;
  file->stored_summary = stored->summary;
  file->stored_summary_length = stored->summary_length;
}

/* Called with the lock held. */
static void project__load(Project *self) {
  if (self->loaded) return;
  self->loaded = true;
  self->store = self->index_path ? store_open(self->index_path, self->root) : NULL;
  StoredFile stored;
  uint32_t next = 0;
  while (self->store && store_next(self->store, &stored)) project__adopt_stored(self, &stored, &next);
}

/* Writes the index back when this run learned enough that the stored one
 * lacks; every worker has finished. */
static void project__save(Project *self) {
  if (!self->index_path || self->fresh < PROJECT_SAVE_AFTER || self->fresh < self->files.size / PROJECT_SAVE_SHARE) {
    return;
  }
  StoreWriter writer;
  store_begin(&writer, self->root);
  for (uint32_t i = 0; i < self->files.size; i++) {
    const ProjectFile *file = array_get(&self->files, i);
    if (!file->scanned) continue;
    const Summary *summary = file->summarized && file->summary && file->summary->hash == file->hash ? file->summary
                                                                                                     : NULL;
    StoredFile entry = {file->path, (uint32_t)strlen(file->path), file->size, file->mtime_sec, file->mtime_nsec,
                        file->hash, file->identifiers.slots, file->identifiers.capacity, file->identifiers.count,
                        summary || file->summarized ? NULL : file->stored_summary,
                        summary || file->summarized ? 0 : file->stored_summary_length};
    store_add(&writer, &entry, summary);
  }
  store_save(&writer, self->index_path);
}

void project_files_mentioning(Project *self, Text name, Text also, FileList *out) {
  pthread_mutex_lock(&self->lock);
  if (!self->scanned) {
    project__load(self);
    for (uint32_t i = 0; i < self->files.size; i++) {
      if (!self->files.contents[i].scanned) project__scan_file(self, array_get(&self->files, i));
    }
    self->scanned = true;
  }
  pthread_mutex_unlock(&self->lock);
  uint64_t wanted = project__identifier_hash(name.ptr, name.length);
  uint64_t second = also.length ? project__identifier_hash(also.ptr, also.length) : 0;
  for (uint32_t i = 0; i < self->files.size; i++) {
    const ProjectFile *file = array_get(&self->files, i);
    if (project__holds(file, wanted) && (!also.length || project__holds(file, second))) array_push(out, (int32_t)i);
  }
}

/* The byte after the string or comment that starts at `at` of `bytes`
 * (`#` to the end of the line, a triple-quoted string to its close), or
 * `at` itself when none starts there; `*prose` says whether it was a
 * comment or a triple-quoted string, whose words are no code. A one-line
 * string is skipped too (a `#` in it starts no comment) but is not prose. */
static size_t project__skip_literal(const char *bytes, size_t length, size_t at, bool *prose) {
  char c = bytes[at];
  *prose = true;
  if (c == '#') {
    while (at < length && bytes[at] != '\n') at++;
    return at;
  }
  if (c != '"' && c != '\'') return at;
  bool triple = at + 2 < length && bytes[at + 1] == c && bytes[at + 2] == c;
  *prose = triple;
  for (size_t i = at + (triple ? 3 : 1); i < length; i++) {
    if (bytes[i] == '\\') {
      i++;
    } else if (!triple && (bytes[i] == c || bytes[i] == '\n')) {
      return i + 1;
    } else if (triple && bytes[i] == c && i + 2 < length && bytes[i + 1] == c && bytes[i + 2] == c) {
      return i + 3;
    }
  }
  return length;
}

/* Whether `name` is one of the identifiers of bytes [from, to). */
static bool project__word_between(const char *bytes, size_t from, size_t to, Text name) {
  size_t at = from, start;
  while (project__next_identifier(bytes, &at, to, &start)) {
    if (at - start == name.length && memcmp(bytes + start, name.ptr, name.length) == 0) return true;
  }
  return false;
}

/* Whether `name` occurs as a whole identifier in `bytes` outside comments
 * and triple-quoted strings. */
static bool project__in_code(const char *bytes, size_t length, Text name) {
  size_t code = 0; /* where the code since the last literal starts */
  for (size_t i = 0; i < length; i++) {
    bool prose = false;
    size_t after = project__skip_literal(bytes, length, i, &prose);
    if (after == i) continue;
    if (project__word_between(bytes, code, prose ? i : after, name)) return true;
    code = after;
    i = after - 1;
  }
  return project__word_between(bytes, code, length, name);
}

bool project_file_mentions_in_code(Project *self, int32_t file, Text name) {
  pthread_mutex_lock(&self->lock);
  project__load(self);
  size_t length = 0;
  char *bytes = file >= 0 && (uint32_t)file < self->files.size ? project__read(array_get(&self->files, file), &length)
                                                                : NULL;
  pthread_mutex_unlock(&self->lock);
  bool found = bytes && project__in_code(bytes, length, name);
  free(bytes);
  return found;
}

uint64_t project_file_hash(Project *self, int32_t file) {
  pthread_mutex_lock(&self->lock);
  project__load(self);
  ProjectFile *entry = array_get(&self->files, file);
  if (!entry->scanned) project__scan_file(self, entry);
  uint64_t hash = entry->hash;
  pthread_mutex_unlock(&self->lock);
  return hash;
}

/* ---- Imports ------------------------------------------------------------------------ */

/* `base`/`dotted`.py or `base`/`dotted`/__init__.py (`base`/__init__.py
 * for an empty `dotted`), as a listed file. */
static int32_t project__module_file(const Project *self, const char *base, const char *dotted, size_t length) {
  char relative[PATH_MAX];
  if (length >= sizeof relative) return -1;
  for (size_t i = 0; i < length; i++) relative[i] = dotted[i] == '.' ? '/' : dotted[i];
  relative[length] = '\0';
  char path[PATH_MAX];
  int32_t found = -1;
  if (length > 0 && (size_t)snprintf(path, sizeof path, "%s/%s.py", base, relative) < sizeof path) {
    found = project__find(self, path);
  }
  if (found < 0 && (size_t)snprintf(path, sizeof path, "%s%s%s/__init__.py", base, length ? "/" : "", relative) <
                       sizeof path) {
    found = project__find(self, path);
  }
  return found;
}

/* `..pkg.mod` from a file in a/b/c: a/pkg/mod. */
static int32_t project__relative(const Project *self, const char *folder, Text module) {
  uint32_t dots = 0;
  while (dots < module.length && module.ptr[dots] == '.') dots++;
  char *base = gl_strdup(folder);
  for (uint32_t up = 1; up < dots; up++) {
    char *slash = strrchr(base, '/');
    if (slash && slash != base) *slash = '\0';
  }
  int32_t found = project__module_file(self, base, module.ptr + dots, module.length - dots);
  free(base);
  return found;
}

/* An absolute import: from the importing file's folder up to the root
 * (scripts run from their own folder, or add a parent to sys.path), then
 * the root's src/. */
static int32_t project__absolute(const Project *self, const char *folder, Text module) {
  size_t root_length = strlen(self->root);
  char *base = gl_strdup(folder);
  int32_t found = -1;
  while (found < 0) {
    found = project__module_file(self, base, module.ptr, module.length);
    char *slash = strrchr(base, '/');
    if (found >= 0 || strlen(base) <= root_length || !slash || slash == base) break;
    *slash = '\0';
  }
  free(base);
  if (found < 0) {
    char *src = gl_format("%s/src", self->root);
    found = project__module_file(self, src, module.ptr, module.length);
    free(src);
  }
  return found;
}

int32_t project_resolve_module(Project *self, const char *folder, Text module) {
  if (module.length == 0) return -1;
  return module.ptr[0] == '.' ? project__relative(self, folder, module) : project__absolute(self, folder, module);
}

/* ---- Changes seen by an editor ------------------------------------------------------ */

/* Drops what was read of `file`, and takes its size and time again. */
static void project__forget_file(ProjectFile *file) {
  summary_delete(file->summary);
  file->summary = NULL;
  file->summarized = false;
  file->stored_summary = NULL;
  file->stored_summary_length = 0;
  if (!file->identifiers.stored) free(file->identifiers.slots);
  file->identifiers = (Identifiers){0};
  file->scanned = false;
  file->hash = 0;
  struct stat info;
  if (stat(file->path, &info) == 0) {
    file->size = (uint64_t)info.st_size;
    file->mtime_sec = (int64_t)info.st_mtim.tv_sec;
    file->mtime_nsec = (int64_t)info.st_mtim.tv_nsec;
  }
}

/* Whether `path` lies below the project's root. */
static bool project__contains(const Project *self, const char *path) {
  size_t length = strlen(self->root);
  if (strncmp(path, self->root, length) != 0) return false;
  return path[length] == '/' || (length > 0 && self->root[length - 1] == '/');
}

/* Gives the project's listed files the workspace's overlays; called with
 * the workspace locked. */
static void project__adopt_overlays(Project *self, const Workspace *workspace) {
  for (uint32_t i = 0; i < workspace->overlays.size; i++) {
    const ProjectFile *overlay = &workspace->overlays.contents[i];
    int32_t found = project__find(self, overlay->path);
    if (found < 0) continue;
    ProjectFile *file = array_get(&self->files, found);
    free(file->overlay);
    file->overlay = gl_strndup(overlay->overlay, overlay->overlay_length);
    file->overlay_length = overlay->overlay_length;
  }
}

void workspace_forget(Workspace *self, const char *path) {
  struct stat info;
  bool exists = stat(path, &info) == 0;
  pthread_mutex_lock(&self->lock);
  for (uint32_t i = 0; i < self->projects.size;) {
    Project *project = self->projects.contents[i];
    int32_t found = project__contains(project, path) ? project__find(project, path) : -1;
    bool listed = found >= 0, overlaid = listed && project->files.contents[found].overlay;
    if (project__contains(project, path) && ((!listed && exists) || (listed && !exists && !overlaid))) {
      project__save(project); /* the listing changed: list it again when asked */
      project__delete(project);
      self->projects.contents[i] = self->projects.contents[--self->projects.size];
      continue;
    }
    if (listed) {
      pthread_mutex_lock(&project->lock);
      project__forget_file(array_get(&project->files, found));
      project->scanned = false;
      pthread_mutex_unlock(&project->lock);
    }
    i++;
  }
  pthread_mutex_unlock(&self->lock);
}

/* Sets or clears the overlay of `path` in the workspace's list and in
 * every project that lists it; called with the workspace locked. */
static void workspace__store_overlay(Workspace *self, const char *path, const char *bytes, size_t length) {
  uint32_t at = 0;
  while (at < self->overlays.size && strcmp(self->overlays.contents[at].path, path) != 0) at++;
  if (at == self->overlays.size && bytes) array_push(&self->overlays, ((ProjectFile){.path = gl_strdup(path)}));
  if (at < self->overlays.size) {
    ProjectFile *entry = array_get(&self->overlays, at);
    free(entry->overlay);
    entry->overlay = bytes ? gl_strndup(bytes, length) : NULL;
    entry->overlay_length = length;
    if (!bytes) {
      free(entry->path);
      self->overlays.contents[at] = self->overlays.contents[--self->overlays.size];
    }
  }
  for (uint32_t i = 0; i < self->projects.size; i++) {
    Project *project = self->projects.contents[i];
    int32_t found = project__find(project, path);
    if (found < 0) continue;
    ProjectFile *file = array_get(&project->files, found);
    free(file->overlay);
    file->overlay = bytes ? gl_strndup(bytes, length) : NULL;
    file->overlay_length = length;
  }
}

void workspace_set_overlay(Workspace *self, const char *path, const char *bytes, size_t length) {
  pthread_mutex_lock(&self->lock);
  workspace__store_overlay(self, path, bytes, length);
  pthread_mutex_unlock(&self->lock);
  workspace_forget(self, path);
}
