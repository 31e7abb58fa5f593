/* project.h — the project a file belongs to, and its other Python files.
 *
 * A file's project root is the nearest folder above it that holds
 * pyproject.toml, setup.py, setup.cfg or .git (else the file's own folder).
 * The project lists its Python files once, within a budget, resolves
 * imports to them (`import pkg.mod`, `from .mod import f`, `src/` layouts,
 * packages without `__init__.py`, modules beside the importing script), and
 * hands out each file's Summary (summary.h), computed at first use and
 * shared by every worker. Nothing is imported or run.
 *
 * A Workspace holds every project seen in one run; it is safe to use from
 * several threads. Projects and summaries live as long as the workspace. */
#ifndef GPULINT_PROJECT_H
#define GPULINT_PROJECT_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "summary.h"
#include "source.h"
#include "syntax.h"

/* The listing stops at these: a larger project gets one notice and the
 * part that fits. */
#define PROJECT_MAX_FILES 10000
#define PROJECT_MAX_BYTES (256u * 1024u * 1024u)
/* YAML files listed at most (training configurations, partial.h). */
#define PROJECT_MAX_CONFIGS 2000

typedef struct GlWorkspace Workspace;
typedef struct Project Project;

Workspace *workspace_new(void);
void workspace_delete(Workspace *self);

/* The project of the file at `path` (which need not exist: standard input
 * named by --stdin-filename); NULL when its folder cannot be found.
 * Borrowed from the workspace. */
Project *workspace_project(Workspace *self, const char *path);

/* Where projects keep their identifier index between runs (copied; NULL:
 * nowhere). Set before the first project is found. */
void workspace_set_cache_dir(Workspace *self, const char *directory);

/* A folder linted whole (a directory named on the command line;
 * copied): a file under it with no root marker (pyproject.toml,
 * setup.py, setup.cfg, .git) at or above its own folder belongs to the
 * project rooted at the deepest such folder, not to its folder alone.
 * Set before the first project is found. */
void workspace_add_linted_folder(Workspace *self, const char *folder);

/* With `enabled` false, workspace_project finds no project. */
void workspace_set_indexing(Workspace *self, bool enabled);

/* The projects whose listing stopped at the budget, as "ROOT (N files
 * indexed)" lines; the caller frees the string. NULL when none. */
char *workspace_notices(Workspace *self);

const char *project_root(const Project *self);

/* The index of the file at `path` in the project's listing, or -1. */
int32_t project_file(Project *self, const char *path);

/* The absolute folder of `path`, symbolic links resolved; NULL when it
 * does not exist. The caller frees it. */
char *project_folder_of(const char *path);

/* The file that `module` names when imported from a file in `folder`
 * (absolute): `module` is dotted and may start with dots (relative). -1
 * when it is no file of the project. */
int32_t project_resolve_module(Project *self, const char *folder, Text module);

/* The summary of file `file`, computed at first use; NULL when it cannot
 * be read. Borrowed; thread-safe. */
const Summary *project_summary(Project *self, int32_t file);

/* Whether file `file` has no summary yet (none computed, none kept
 * between runs) and its content hashes to `hash`: a lint of that content
 * can then make the summary from its own parse and hand it over. */
bool project_wants_summary(Project *self, int32_t file, uint64_t hash);
/* Takes `summary` (owned) as file `file`'s, unless another worker gave
 * or computed one first (then it is deleted). */
void project_adopt_summary(Project *self, int32_t file, Summary *summary);

/* The path of file `file` (absolute); borrowed. */
const char *project_path(const Project *self, int32_t file);

/* The absolute path of the project's `index`-th YAML file (`.yaml`,
 * `.yml`), in listing order; NULL past the last. Borrowed. */
const char *project_config(const Project *self, uint32_t index);

typedef Array(int32_t) FileList;

/* Appends to `out` the files whose text holds the identifier `name`, and
 * `also` when it is not empty (the first call reads the whole listing
 * once). */
void project_files_mentioning(Project *self, Text name, Text also, FileList *out);

/* Whether file `file`'s text holds the identifier `name` in its code: not
 * only in comments and triple-quoted strings (a docstring that names
 * `DistributedDataParallel` sets nothing up); a one-line string counts
 * (`os.environ["LOCAL_RANK"]`). Reads the file. */
bool project_file_mentions_in_code(Project *self, int32_t file, Text name);

/* The name other files import file `file` by: its stem (`meters` for
 * utils/meters.py), or its package's folder for an __init__.py. */
Text project_module_name(const Project *self, int32_t file);

/* Whether a file's content hash is known for dependency tracking: the
 * 64-bit hash of file `file`'s bytes, read at first use (0: unreadable). */
uint64_t project_file_hash(Project *self, int32_t file);

/* ---- Files the run lints --------------------------------------------------------- */

struct Facts;

/* A file's parse made for a question: its source (path absolute), tree,
 * and facts walked but not settled (facts_walk). Owns all three. */
typedef struct ProjectParse {
  Source *source;
  TSTree *tree;
  struct Facts *facts;
} ProjectParse;

void project_parse_delete(ProjectParse *self);

/* Whether any file's summary was asked for in this run yet. */
bool workspace_questions_asked(Workspace *self);

/* The run will lint the file at `path`: a question that parses it first
 * keeps the parse for that lint. Call before the lints start. */
void workspace_expect(Workspace *self, const char *path);

/* The lint of `path` (with these bytes) begins: the parse a question kept
 * for it (owned by the caller), or NULL. Either way the file counts as
 * linted from now on, and nothing more is kept for it. NULL `bytes`: it
 * will not be linted after all (its result came from the cache). */
ProjectParse *workspace_take_parse(Workspace *self, const char *path, const char *bytes, size_t length);

/* ---- Changes seen by an editor ---------------------------------------------- */

/* The file at the absolute `path` changed, appeared or went away: its
 * hash, identifiers and summary are read again at next use. A path that a
 * project's listing lacks, or that is gone, drops that project, to be
 * listed again when next asked for. Call between lints, not during one. */
void workspace_forget(Workspace *self, const char *path);

/* Reads `length` bytes (copied) as the content of the absolute `path`
 * instead of the file on disk; NULL `bytes` ends that. Forgets the file
 * (workspace_forget). */
void workspace_set_overlay(Workspace *self, const char *path, const char *bytes, size_t length);

#endif
