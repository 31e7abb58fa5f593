/* gpulint.h — the engine's public interface.
 *
 * The command line, the verify runner and the tests use only this header.
 * A GlLinter owns one parser and is used by one thread at a time; create one
 * per worker. Results are plain values owned by a GlFileResult. */
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

/* Which rules run: one flag per registry index. */
typedef struct {
  bool enabled[GL_MAX_RULES];
} GlRuleSet;

/* The rules that are on by default. */
GlRuleSet gl_rule_set_default(void);

/* ---- Findings --------------------------------------------------------- */

/* 1-based line and column; columns count code points. In notebooks the
 * line counts within `cell`. */
typedef struct {
  uint32_t line;
  uint32_t column;
} GlPosition;

typedef struct {
  uint32_t rule; /* registry index */
  GlEffect effect;
  GlPosition start;
  GlPosition end;
  uint32_t cell; /* 1-based notebook cell as Jupyter shows it; 0 for .py */
  uint32_t start_byte;
  uint32_t end_byte;
  char *message; /* owned by the result */
} GlFinding;

typedef struct {
  char *path;           /* as given; owned */
  GlFinding *findings;  /* sorted by position; owned */
  uint32_t finding_count;
  char *error;          /* why the file could not be linted, or NULL; owned */
  char *note;           /* why the file was skipped (e.g. an R notebook), or NULL */
} GlFileResult;

void gl_file_result_delete(GlFileResult *self);

/* ---- Linting ---------------------------------------------------------- */

typedef struct GlLinter GlLinter;

GlLinter *gl_linter_new(void);
void gl_linter_delete(GlLinter *self);

/* Lint `length` bytes named `path` (the name decides .py or .ipynb). The
 * bytes are borrowed for the call only. Never NULL; the caller deletes the
 * result. A load error (binary, not UTF-8, broken notebook) sets `error`. */
GlFileResult *gl_linter_lint_buffer(GlLinter *self, const char *path, const char *bytes,
                                    size_t length, const GlRuleSet *rules);

/* Read and lint the file at `path`; I/O errors set `error`. */
GlFileResult *gl_linter_lint_file(GlLinter *self, const char *path, const GlRuleSet *rules);

const char *gl_version(void);

#endif
