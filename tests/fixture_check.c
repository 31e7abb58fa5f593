/* fixture_check.c — runs the rules on one fixture and compares the findings
 * with its inline markers, strictly both ways.
 *
 *   loss.backward()   # expect: GPU001        must be reported on this line
 *   total += loss     # gap: GPU101           known miss: fails once reported
 *   out = model(x)    # noisy: GPU103         known false alarm: fails once gone
 *
 * Any finding on a line without a marker for its code fails the case.
 * Exit 0 when the findings match, 1 otherwise (each difference printed). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"

#define MAX_LINES 100000

typedef enum { MARK_NONE, MARK_EXPECT, MARK_GAP, MARK_NOISY } Mark;

typedef struct {
  uint32_t line;
  char code[8];
  Mark mark;
  bool seen;
} Marker;

typedef struct {
  Marker *items;
  size_t count, capacity;
} Markers;

static void markers_add(Markers *self, uint32_t line, const char *code, Mark mark) {
  if (self->count == self->capacity) {
    self->capacity = self->capacity ? self->capacity * 2 : 16;
    self->items = realloc(self->items, self->capacity * sizeof(Marker));
  }
  Marker marker = {line, {0}, mark, false};
  snprintf(marker.code, sizeof marker.code, "%s", code);
  self->items[self->count++] = marker;
}

/* Reads "CODE[, CODE]..." after a marker keyword. */
static void markers_parse_codes(Markers *self, uint32_t line, const char *text, Mark mark) {
  while (*text) {
    while (*text == ' ' || *text == ',') text++;
    if (strncmp(text, "GPU", 3) != 0) return;
    char code[8] = {0};
    size_t n = 0;
    while (n < 6 && text[n] && text[n] != ',' && text[n] != ' ' && text[n] != '\n') code[n] = text[n], n++;
    markers_add(self, line, code, mark);
    text += n;
  }
}

static void markers_parse_line(Markers *self, uint32_t line, const char *text) {
  static const struct { const char *keyword; Mark mark; } KEYWORDS[] = {
      {"# expect:", MARK_EXPECT}, {"# gap:", MARK_GAP}, {"# noisy:", MARK_NOISY}};
  for (size_t i = 0; i < 3; i++) {
    const char *found = strstr(text, KEYWORDS[i].keyword);
    if (found) markers_parse_codes(self, line, found + strlen(KEYWORDS[i].keyword), KEYWORDS[i].mark);
  }
}

static Marker *markers_find(Markers *self, uint32_t line, const char *code) {
  for (size_t i = 0; i < self->count; i++) {
    if (self->items[i].line == line && strcmp(self->items[i].code, code) == 0) return &self->items[i];
  }
  return NULL;
}

static bool markers_read(Markers *self, const char *path) {
  FILE *file = fopen(path, "r");
  if (!file) return false;
  char *text = NULL;
  size_t capacity = 0;
  uint32_t line = 0;
  while (getline(&text, &capacity, file) >= 0) markers_parse_line(self, ++line, text);
  free(text);
  fclose(file);
  return true;
}

/* Compares; prints every difference; returns the number of failures. */
static int check(const char *path, Markers *markers, const GlFileResult *result) {
  int failures = 0;
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFinding *finding = &result->findings[i];
    const char *code = gl_rule_info(finding->rule)->code;
    Marker *marker = markers_find(markers, finding->start.line, code);
    if (marker) marker->seen = true;
    if (!marker) {
      printf("%s:%u:%u: unexpected %s: %s\n", path, finding->start.line, finding->start.column, code,
             finding->message);
      failures++;
    } else if (marker->mark == MARK_GAP) {
      printf("%s:%u: %s is now reported: the known gap closed, change `# gap:` to `# expect:`\n", path,
             marker->line, code);
      failures++;
    }
  }
  for (size_t i = 0; i < markers->count; i++) {
    Marker *marker = &markers->items[i];
    if (marker->mark == MARK_EXPECT && !marker->seen) {
      printf("%s:%u: missing %s\n", path, marker->line, marker->code);
      failures++;
    } else if (marker->mark == MARK_NOISY && !marker->seen) {
      printf("%s:%u: %s is no longer reported: the false alarm is gone, remove `# noisy:`\n", path,
             marker->line, marker->code);
      failures++;
    }
  }
  return failures;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fixture_check FILE.py\n");
    return 2;
  }
  Markers markers = {0};
  if (!markers_read(&markers, argv[1])) {
    fprintf(stderr, "fixture_check: cannot read %s\n", argv[1]);
    return 2;
  }
  for (size_t i = 0; i < markers.count; i++) {
    if (gl_rule_index(markers.items[i].code) < 0) {
      printf("%s:%u: marker names unknown rule %s\n", argv[1], markers.items[i].line, markers.items[i].code);
      return 1;
    }
  }
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *result = gl_linter_lint_file(linter, argv[1], &rules);
  int failures = result->error ? 1 : check(argv[1], &markers, result);
  if (result->error) printf("%s: %s\n", argv[1], result->error);
  size_t expected = 0;
  for (size_t i = 0; i < markers.count; i++) expected += markers.items[i].mark == MARK_EXPECT;
  printf("%s: %zu expected, %u reported, %d mismatch%s\n", argv[1], expected, result->finding_count, failures,
         failures == 1 ? "" : "es");
  gl_file_result_delete(result);
  gl_linter_delete(linter);
  free(markers.items);
  return failures ? 1 : 0;
}
