/* fix_fuzzer.c — fixes arbitrary bytes as a .py file, every fix allowed.
 *
 * Checks the guarantees of fixing: every edit lies within its text, in
 * order, and once no fix is left to apply, fixing the fixed text again
 * changes nothing. (That a fix never makes the text parse worse is the
 * engine's own check, which sanitizers watch here too.)
 * Built with -fsanitize=fuzzer,address,undefined by fuzz/build. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"

static GlLinter *linter;

static void fuzz__check_edits(const GlFileResult *result, size_t length) {
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFix *fix = result->findings[i].fix;
    for (uint32_t e = 0; fix && e < fix->edit_count; e++) {
      const GlEdit *edit = &fix->edits[e];
      if (edit->start_byte > edit->end_byte || edit->end_byte > length || !edit->content) abort();
      if (e > 0 && edit->start_byte < fix->edits[e - 1].end_byte) abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!linter) linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  for (uint32_t i = 0; i < gl_rule_count(); i++) rules.enabled[i] = true;
  const char *text = (const char *)data;
  GlFixedFile *first = gl_linter_fix_buffer(linter, "fuzz.py", text, size, &rules, true);
  const char *fixed = first->bytes ? first->bytes : text;
  size_t fixed_length = first->bytes ? first->length : size;
  fuzz__check_edits(first->result, fixed_length);
  GlFixedFile *second = gl_linter_fix_buffer(linter, "fuzz.py", fixed, fixed_length, &rules, true);
  /* when no fix was left to apply, a second run changes nothing */
  bool settled = true;
  for (uint32_t i = 0; i < first->result->finding_count; i++) settled &= first->result->findings[i].fix == NULL;
  if (settled && second->bytes) abort();
  gl_fixed_file_delete(second);
  gl_fixed_file_delete(first);
  return 0;
}
