/* notebook.h — Jupyter notebooks as Python source.
 *
 * An nbformat 4 notebook becomes one Source: its code cells concatenated in
 * order, each ending in a newline, with `cells` mapping buffer lines back to
 * cell numbers as Jupyter shows them (markdown and raw cells count). Cells
 * run in one namespace, so a loop in one cell and the model in another are
 * analysed together.
 *
 * IPython syntax is masked in place before parsing, never moved: every byte
 * of Python keeps its line and column, so findings map back exactly.
 *
 *   %matplotlib inline      →  #matplotlib inline
 *   !pip install timm       →  #pip install timm
 *   model?   ?model         →  #odel?   #model
 *   files = !ls             →  #iles = !ls
 *       !nvidia-smi         →      0#vidia-smi      (a block keeps a statement)
 *   %time out = model(x)    →  0;    out = model(x) (the statement is linted)
 *   pip install timm        →  #ip install timm     (automagic)
 *   %%time  (first line)    →  #%time               (the body is linted)
 *   %%bash, %%writefile ... →  the cell is left out
 *
 * Only lines that start a statement are looked at: continuation lines inside
 * brackets, after a backslash or inside a triple-quoted string are never
 * masked (`% b` continuing `a` is Python's modulo). */
#ifndef GPULINT_NOTEBOOK_H
#define GPULINT_NOTEBOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "source.h"

typedef enum {
  NOTEBOOK_OK,
  NOTEBOOK_NOT_PYTHON, /* another kernel language: skipped, not an error */
  NOTEBOOK_INVALID,    /* not JSON, not nbformat 4, or keys of the wrong type */
} NotebookStatus;

/* Whether `path` names a notebook (ends in ".ipynb", any case). */
bool notebook_path_matches(const char *path);

/* Builds the Python source of the notebook in `bytes` (borrowed; need not
 * be NUL-terminated). Returns a new Source the caller deletes, with
 * *status NOTEBOOK_OK and *message NULL. Otherwise returns NULL with
 * *status saying why and *message a sentence the caller frees:
 * "skipped: kernel language is R", "invalid JSON at line 3, column 7",
 * "cell 2: `source` is a number, expected a string or an array of strings". */
Source *notebook_load(const char *path, const char *bytes, size_t length, NotebookStatus *status,
                      char **message);

/* The notebook's JSON (`json`, `length` bytes) with `edits` (sorted, not
 * overlapping) applied to the code the engine read from it (`code`, from
 * notebook_load): each edit goes to its cell's `source`, rewritten in the
 * shape it had (a string, or an array of lines with the file's
 * indentation); every other byte of the JSON stays as it was. NULL when an
 * edit spans two cells or the JSON cannot be followed. The caller frees
 * the result. */
char *notebook_apply_edits(const char *json, size_t length, const Source *code, const GlEdit *const *edits,
                           uint32_t count, size_t *new_length);

/* Masks the IPython syntax of one code cell's text in place (`length`
 * bytes, never changed). Returns false when the cell starts with a cell
 * magic whose body is not Python (%%bash, %%writefile, %%html, ...): the
 * caller leaves the cell out. */
bool notebook_mask_cell(char *text, size_t length);

#endif
