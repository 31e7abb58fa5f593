/* gpulint.h — the engine's public interface.
 *
 * The command line, the verify runner and the tests use only this header.
 * A GlLinter owns one parser and is used by one thread at a time; create one
 * per worker, over one shared GlWorkspace (the projects' indexes and
 * summaries, thread-safe). Results are plain values owned by a
 * GlFileResult. */
#ifndef GPULINT_H
#define GPULINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GL_MAX_RULES 64

/* ---- Rules ------------------------------------------------------------ */

/* What a pitfall does when it runs, as measured by `gpulint verify`. */
typedef enum {
  GL_EFFECT_NONE,
  GL_EFFECT_GPU_GROWTH,      /* device memory grows every iteration */
  GL_EFFECT_HOST_GROWTH,     /* host-side graph bookkeeping grows */
  GL_EFFECT_PEAK,            /* higher peak device memory */
  GL_EFFECT_CRASH,           /* raises at run time */
  GL_EFFECT_WRONG_GRADIENTS, /* trains on wrong gradients */
  GL_EFFECT_SLOWDOWN,        /* slower steps */
} GlEffect;

typedef enum { GL_SEVERITY_ERROR, GL_SEVERITY_WARNING } GlSeverity;

/* A rule's public metadata; static storage, never freed. */
typedef struct {
  const char *code;     /* "GPU101" */
  const char *name;     /* "tensor-kept-with-graph" */
  const char *summary;  /* one sentence: what it flags */
  const char *fix_hint; /* one sentence: what to do instead */
  GlEffect effect;      /* the usual effect; a finding may name another */
  GlSeverity severity;
  bool default_enabled;
} GlRuleInfo;

uint32_t gl_rule_count(void);
/* The rule at `index` (registry order, sorted by code). */
const GlRuleInfo *gl_rule_info(uint32_t index);
/* The index of `code` (case-insensitive), or -1. */
int gl_rule_index(const char *code);
/* The rule's Markdown docs, embedded at build time; static storage. */
const char *gl_rule_docs(uint32_t index);
/* "gpu-growth", "wrong-gradients", ... */
const char *gl_effect_name(GlEffect effect);
const char *gl_severity_name(GlSeverity severity);

/* Which rules run: one flag per registry index; and whether findings whose
 * only evidence is a name (`model`, `criterion`) or a single forward
 * outside any loop are reported too (`--pedantic`). */
typedef struct {
  bool enabled[GL_MAX_RULES];
  bool pedantic;
  /* The file is named like a test (a default test-files glob) and is one
   * only if its code says so: it imports pytest or unittest, or defines a
   * `test_*` function or a `Test*` class with `test_*` methods at module
   * level. Then only gl_rule_set_for_tests of these rules run there. */
  bool tests_by_code;
} GlRuleSet;

/* The rules that are on by default. */
GlRuleSet gl_rule_set_default(void);

/* `rules` less the rules whose effect is neither wrong gradients nor a
 * crash (nor none: the meta rules): what runs in a test file, where a
 * memory or speed pitfall costs nothing in a run of a few steps. */
GlRuleSet gl_rule_set_for_tests(GlRuleSet rules);

/* ---- Findings --------------------------------------------------------- */

/* 1-based line and column; columns count code points. In notebooks the
 * line counts within `cell`. */
typedef struct {
  uint32_t line;
  uint32_t column;
} GlPosition;

/* Whether applying a fix keeps the program's meaning (`--fix`) or may
 * change what it computes (`--unsafe-fixes`): each rule's page says why. */
typedef enum { GL_FIX_SAFE, GL_FIX_UNSAFE } GlApplicability;

/* Replace bytes [start_byte, end_byte) of the linted source (the file, or
 * a notebook's cells as the engine joins them) with `content`; an
 * insertion when they are equal. */
typedef struct {
  uint32_t start_byte;
  uint32_t end_byte;
  GlPosition start; /* as in GlFinding: cell-relative in notebooks */
  GlPosition end;
  char *content; /* owned */
} GlEdit;

typedef struct {
  GlApplicability applicability;
  char *title;    /* "Keep `loss.detach()`"; owned */
  GlEdit *edits;  /* sorted by start_byte, not overlapping; owned */
  uint32_t edit_count;
} GlFix;

typedef struct {
  uint32_t rule; /* registry index */
  GlEffect effect;
  GlSeverity severity; /* the rule's, or lower for a milder variant */
  GlPosition start;
  GlPosition end;
  uint32_t cell; /* 1-based notebook cell as Jupyter shows it; 0 for .py */
  uint32_t start_byte;
  uint32_t end_byte;
  char *message; /* one line: what is wrong and what to do, with the names
                    and lines that show it (about 100 characters); owned */
  char *detail;  /* why, and what it cost where it was measured (the
                    device named), or NULL; owned */
  char *related_path;    /* the other file whose fact the finding rests on
                            (absolute), or NULL; owned */
  uint32_t related_line; /* 1-based line there */
  GlFix *fix;            /* the edit that removes the pitfall, or NULL; owned */
} GlFinding;

void gl_fix_delete(GlFix *self);

/* A file of the project that a result depends on, with the hash of the
 * content it was read with (gl_content_hash). */
typedef struct {
  char *path; /* absolute; owned */
  uint64_t hash;
} GlDependency;

typedef struct {
  char *path;           /* as given; owned */
  GlFinding *findings;  /* sorted by position; owned */
  uint32_t finding_count;
  char *error;          /* why the file could not be linted, or NULL; owned */
  char *note;           /* why the file was skipped (e.g. an R notebook), or NULL */
  GlDependency *dependencies; /* the project's other files it read; owned */
  uint32_t dependency_count;
} GlFileResult;

void gl_file_result_delete(GlFileResult *self);

/* ---- Linting ---------------------------------------------------------- */

/* The projects of one run: each file's project root (the nearest folder
 * with pyproject.toml, setup.py, setup.cfg or .git), the listing of its
 * Python files, and their summaries, computed once and shared by every
 * linter over the workspace. */
typedef struct GlWorkspace GlWorkspace;

GlWorkspace *gl_workspace_new(void);
void gl_workspace_delete(GlWorkspace *self);

/* One line per project too large for the index's budget, or NULL; the
 * caller frees it. */
char *gl_workspace_notices(GlWorkspace *self);

/* A folder where projects keep the index of their files' identifiers
 * between runs (the result cache's; copied), so that a later run reads
 * again only the files that changed. NULL: none. */
void gl_workspace_set_cache_dir(GlWorkspace *self, const char *directory);

/* A directory the run lints whole (copied): the files under it that no
 * root marker (pyproject.toml, setup.py, setup.cfg, .git) claims form
 * one project rooted there. Call before the lints start. */
void gl_workspace_add_linted_folder(GlWorkspace *self, const char *folder);

/* With `enabled` false, every file is linted alone, without the facts of
 * its project's other files (`--no-index`). On by default. */
void gl_workspace_set_indexing(GlWorkspace *self, bool enabled);

/* The run will lint the file at `path` (as it names it to
 * gl_linter_lint_file or _buffer): a file parsed first for a question
 * about another file then keeps that parse for its own lint. Call before
 * the lints start. */
void gl_workspace_expect(GlWorkspace *self, const char *path);
/* The run will not lint `path` after all (its result came from the
 * cache): what was kept for it is dropped. */
void gl_workspace_skip(GlWorkspace *self, const char *path);

typedef struct GlLinter GlLinter;

/* A linter with a workspace of its own. */
GlLinter *gl_linter_new(void);
/* A linter over `workspace` (borrowed; it must outlive the linter). */
GlLinter *gl_linter_new_in(GlWorkspace *workspace);
void gl_linter_delete(GlLinter *self);

/* Lint `length` bytes named `path` (the name decides .py or .ipynb). The
 * bytes are borrowed for the call only. Never NULL; the caller deletes the
 * result. A load error (binary, not UTF-8, broken notebook) sets `error`. */
GlFileResult *gl_linter_lint_buffer(GlLinter *self, const char *path, const char *bytes,
                                    size_t length, const GlRuleSet *rules);

/* Read and lint the file at `path`; I/O errors set `error`. */
GlFileResult *gl_linter_lint_file(GlLinter *self, const char *path, const GlRuleSet *rules);

/* ---- Fixing ------------------------------------------------------------- */

/* A file with its fixes applied: the safe ones (and the unsafe ones when
 * asked), pass after pass until none applies or GL_FIX_MAX_PASSES; a pass
 * whose result would parse worse than the original is not taken. */
#define GL_FIX_MAX_PASSES 10

typedef struct {
  char *bytes;      /* the fixed content, or NULL when nothing changed; owned */
  size_t length;
  uint32_t applied[GL_MAX_RULES]; /* fixes applied, per rule */
  uint32_t applied_count;
  GlFileResult *result; /* the findings left (of the fixed content); owned */
} GlFixedFile;

/* Fixes `bytes` (the content of the file at `path`: Python, or a
 * notebook's JSON, whose code cells' `source` alone change). */
GlFixedFile *gl_linter_fix_buffer(GlLinter *self, const char *path, const char *bytes, size_t length,
                                  const GlRuleSet *rules, bool unsafe);
void gl_fixed_file_delete(GlFixedFile *self);

/* The rules whose fixes gl_linter_fix_buffer applies (copied); NULL: every
 * rule's, the default. */
void gl_linter_set_fixable(GlLinter *self, const GlRuleSet *fixable);

/* Drops the fixes of the findings of rules that `fixable` leaves off
 * (`--unfixable`): they are reported without one. */
void gl_file_result_drop_fixes(GlFileResult *self, const GlRuleSet *fixable);

/* `bytes` (the content of the file at `path`, which `result` lints) with
 * a `# noqa: CODE` on every reported line (added to the line's `# noqa`
 * list when it has one); NULL when nothing changes. Counts the lines in
 * `added`. The caller frees the result. */
char *gl_linter_add_noqa(GlLinter *self, const char *path, const char *bytes, size_t length,
                         const GlFileResult *result, size_t *new_length, uint32_t *added);

/* The hash a GlDependency records for `length` bytes. */
uint64_t gl_content_hash(const char *bytes, size_t length);

const char *gl_version(void);

/* ---- Documents (editors) ------------------------------------------------
 *
 * What `gpulint server` needs beyond whole files: a document an editor
 * holds open, edited in place and re-parsed incrementally; one fix applied
 * alone; and a workspace told that a file changed, or that an editor holds
 * unsaved text for it. */

typedef struct GlDocument GlDocument;

/* A document named `path` (the name decides .py; notebooks are linted as
 * whole buffers) holding a copy of `length` bytes. The caller deletes it. */
GlDocument *gl_document_new(const char *path, const char *bytes, size_t length);
void gl_document_delete(GlDocument *self);

/* The current text; borrowed until the next edit. */
const char *gl_document_text(const GlDocument *self, size_t *length);

/* Replaces bytes [start, end) with `length` bytes of `content` (copied) and
 * records the edit in the kept syntax tree. False, with nothing changed,
 * when the range lies outside the text. */
bool gl_document_edit(GlDocument *self, size_t start, size_t end, const char *content, size_t length);

/* Lints the document's text as gl_linter_lint_buffer does, parsing it
 * incrementally from the tree of its previous lint (kept in the document).
 * Never NULL; the caller deletes the result. */
GlFileResult *gl_linter_lint_document(GlLinter *self, GlDocument *document, const GlRuleSet *rules);

/* `bytes` (the content of the file at `path`: Python, or a notebook's
 * JSON) with the edits of `fix` alone applied; NULL when they cannot be
 * (a notebook edit that spans cells). The caller frees the result. */
char *gl_fix_apply(const char *path, const char *bytes, size_t length, const GlFix *fix, size_t *new_length);

/* The file at the absolute `path` changed, appeared or went away: its
 * summary, hash and identifiers are read again when next needed (a file
 * the listing lacks, or one that is gone, makes its project list its files
 * again). */
void gl_workspace_forget(GlWorkspace *self, const char *path);

/* Other files' lints read `length` bytes (copied) as the content of the
 * absolute `path` instead of the file on disk (an editor's unsaved text);
 * NULL `bytes` returns to the disk. Implies gl_workspace_forget. */
void gl_workspace_set_overlay(GlWorkspace *self, const char *path, const char *bytes, size_t length);

#endif
