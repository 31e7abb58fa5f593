/* notebook_fuzzer.c — the notebook loader and the IPython masking on
 * arbitrary bytes.
 *
 * The input is loaded as a .ipynb file; a notebook that loads is linted
 * through the engine, and its cell map must point inside the buffer. The
 * same bytes are also masked as one code cell, which must keep its length
 * and add no NUL byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"
#include "notebook.h"

static GlLinter *linter;

static void fuzz__check_source(const Source *source) {
  for (uint32_t i = 0; i < source->cells.size; i++) {
    if (source->cells.contents[i].first_line == 0 || source->cells.contents[i].cell == 0) abort();
  }
  if (memchr(source->bytes, 0, source->length)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!linter) linter = gl_linter_new();
  NotebookStatus status;
  char *message = NULL;
  Source *source = notebook_load("fuzz.ipynb", (const char *)data, size, &status, &message);
  if (source) {
    fuzz__check_source(source);
    source_delete(source);
    GlRuleSet rules = gl_rule_set_default();
    gl_file_result_delete(gl_linter_lint_buffer(linter, "fuzz.ipynb", (const char *)data, size, &rules));
  } else if (!message) {
    abort();
  }
  free(message);
  char *cell = malloc(size ? size : 1);
  memcpy(cell, data, size);
  (void)notebook_mask_cell(cell, size);
  free(cell);
  return 0;
}
