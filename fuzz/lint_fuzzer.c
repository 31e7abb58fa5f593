/* lint_fuzzer.c — lints arbitrary bytes as a .py file.
 *
 * Every input runs the whole engine with the prefilter off, so that load,
 * parse, facts, flow, rules and suppression all see it. When the prefilter
 * would let the input skip the facts pass, it is linted again with the
 * prefilter on and must report the same findings: the fuzzer also searches
 * for input on which the prefilter would lose a finding.
 * Built with -fsanitize=fuzzer,address,undefined by fuzz/build. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"
#include "prefilter.h"

static GlLinter *full, *filtered;

static void fuzz__same(const GlFileResult *a, const GlFileResult *b) {
  if (a->finding_count != b->finding_count || !a->error != !b->error) abort();
  for (uint32_t i = 0; i < a->finding_count; i++) {
    if (a->findings[i].rule != b->findings[i].rule || a->findings[i].start_byte != b->findings[i].start_byte ||
        strcmp(a->findings[i].message, b->findings[i].message) != 0) {
      abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!full) {
    full = gl_linter_new();
    filtered = gl_linter_new();
    gl_linter_set_prefilter(full, false);
  }
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *a = gl_linter_lint_buffer(full, "fuzz.py", (const char *)data, size, &rules);
  if (prefilter_scan((const char *)data, (uint32_t)size, &rules) != PREFILTER_RUN) {
    GlFileResult *b = gl_linter_lint_buffer(filtered, "fuzz.py", (const char *)data, size, &rules);
    fuzz__same(a, b);
    gl_file_result_delete(b);
  }
  for (uint32_t i = 0; i < a->finding_count; i++) {
    const GlFinding *finding = &a->findings[i];
    if (finding->rule >= gl_rule_count() || finding->start_byte > size || finding->end_byte > size ||
        finding->start.line == 0 || finding->start.column == 0 || !finding->message) {
      abort();
    }
  }
  gl_file_result_delete(a);
  return 0;
}
