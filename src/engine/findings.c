/* findings.c — the engine's list of findings while a file is linted. */
#include "findings.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
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
  free(finding->detail);
  free(finding->related_path);
  gl_fix_delete(finding->fix);
}

/* ---- Names in messages ------------------------------------------------------ */

/* `text` on one line: each run of blanks and line breaks as one space.
 * The caller frees it. */
static char *shown__flatten(const char *text, size_t length) {
  char *flat = gl_malloc(length + 1);
  size_t used = 0;
  for (size_t i = 0; i < length; i++) {
    bool blank = text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r';
    if (!blank) flat[used++] = text[i];
    else if (used > 0 && flat[used - 1] != ' ') flat[used++] = ' ';
  }
  while (used > 0 && flat[used - 1] == ' ') used--;
  flat[used] = '\0';
  return flat;
}

const char *rule_shown(const char *text, size_t length, size_t max, Shown *buffer) {
  if (max > RULE_SHOWN_MAX || max < 4) max = RULE_SHOWN_MAX;
  char *flat = shown__flatten(text, length);
  size_t size = strlen(flat), keep = max - 3;
  if (size <= max) {
    memcpy(buffer->text, flat, size + 1);
  } else {
    while (keep > 0 && ((unsigned char)flat[keep] & 0xC0) == 0x80) keep--; /* not inside a character */
    snprintf(buffer->text, sizeof buffer->text, "%.*s...", (int)keep, flat);
  }
  free(flat);
  return buffer->text;
}
