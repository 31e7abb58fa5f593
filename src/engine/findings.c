/* findings.c — the engine's list of findings while a file is linted. */
#include "findings.h"

#include <stdlib.h>

#include "rule.h"

GlFinding *findings_add(Findings *findings, const Source *source, uint32_t rule, GlEffect effect, uint32_t start_byte,
                        uint32_t end_byte, char *message) {
  GlFinding finding = {.rule = rule, .effect = effect, .severity = RULES[rule]->info.severity,
                       .start_byte = start_byte, .end_byte = end_byte, .message = message};
  uint32_t end_cell = 0;
  finding.start = source_position(source, start_byte, &finding.cell);
  finding.end = source_position(source, end_byte, &end_cell);
  if (end_cell != finding.cell) finding.end = finding.start;
  array_push(findings, finding);
  return array_back(findings);
}

void finding_free(GlFinding *finding) {
  free(finding->message);
  free(finding->related_path);
  gl_fix_delete(finding->fix);
}
