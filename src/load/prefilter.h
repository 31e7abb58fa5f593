/* prefilter.h — which files can skip the facts pass.
 *
 * Most Python files are not training scripts, and a rule can only report
 * when the file's text holds one of its trigger words: GPU001 and GPU002
 * need a `backward`, GPU201 an `empty_cache`, and the rules that must know
 * a value is a tensor (GPU101, GPU102, GPU103) an import of torch or of a
 * framework built on it (facts_torch_modules). When no enabled rule's
 * trigger occurs as an identifier, the engine still parses the file for
 * GPU900 but skips the facts and the rules; with GPU900 off it skips the
 * parse too. A rule missing from the table always runs, so a new rule is
 * safe until it names its triggers. tests/robustness/prefilter_check lints
 * every fixture and realistic script with and without the prefilter and
 * requires the same findings. */
#ifndef GPULINT_PREFILTER_H
#define GPULINT_PREFILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "gpulint.h"

typedef enum {
  PREFILTER_SKIP,       /* nothing enabled can report: neither parse nor walk */
  PREFILTER_PARSE_ONLY, /* only GPU900 can report: parse, skip facts and rules */
  PREFILTER_RUN,        /* some rule's trigger occurs: run everything */
} PrefilterVerdict;

/* What linting `bytes` needs with `rules` enabled. */
PrefilterVerdict prefilter_scan(const char *bytes, uint32_t length, const GlRuleSet *rules);

/* Turns the prefilter off (every file runs everything) or back on, for
 * `linter` only; tests use it to compare both ways. */
void gl_linter_set_prefilter(GlLinter *linter, bool enabled);

#endif
