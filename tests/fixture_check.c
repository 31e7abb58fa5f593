/* fixture_check.c — runs the rules on one fixture (a file, or a project
 * folder whose every .py file is linted in one workspace) and compares the
 * findings with the inline markers, strictly both ways.
 *
 *   loss.backward()   # expect: GPU001        must be reported on this line
 *   total += loss     # gap: GPU101           known miss: fails once reported
 *   out = model(x)    # noisy: GPU103         known false alarm: fails once gone
 *   out = net(x)      # pedantic: GPU103      only a name says so: reported
 *                                             with --pedantic, never without
 *
 * Any finding on a line without a marker for its code fails the case. The
 * rules run twice: at default settings (strict both ways), then pedantic
 * (every `pedantic` marker must be reported).
 * Exit 0 when the findings match, 1 otherwise (each difference printed). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"

#define MAX_LINES 100000

typedef enum { MARK_NONE, MARK_EXPECT, MARK_GAP, MARK_NOISY, MARK_PEDANTIC } Mark;

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
      {"# expect:", MARK_EXPECT}, {"# gap:", MARK_GAP}, {"# noisy:", MARK_NOISY}, {"# pedantic:", MARK_PEDANTIC}};
  for (size_t i = 0; i < 4; i++) {
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

/* Compares a default run; prints every difference; returns the number of
 * failures. */
static int check(const char *path, Markers *markers, const GlFileResult *result) {
  int failures = 0;
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFinding *finding = &result->findings[i];
    const char *code = gl_rule_info(finding->rule)->code;
    Marker *marker = markers_find(markers, finding->start.line, code);
    if (marker) marker->seen = true;
    if (marker && marker->mark == MARK_PEDANTIC) {
      printf("%s:%u: %s is reported at default settings, but the marker says only a name supports it\n", path,
             marker->line, code);
      failures++;
    } else if (!marker) {
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

/* Compares a pedantic run: every `pedantic` marker is reported. */
static int check_pedantic(const char *path, Markers *markers, const GlFileResult *result) {
  int failures = 0;
  for (size_t i = 0; i < markers->count; i++) {
    Marker *marker = &markers->items[i];
    if (marker->mark != MARK_PEDANTIC) continue;
    bool seen = false;
    for (uint32_t j = 0; j < result->finding_count && !seen; j++) {
      seen = result->findings[j].start.line == marker->line &&
             strcmp(gl_rule_info(result->findings[j].rule)->code, marker->code) == 0;
    }
    if (!seen) {
      printf("%s:%u: missing %s with --pedantic\n", path, marker->line, marker->code);
      failures++;
    }
  }
  return failures;
}

/* Lints one file of the fixture twice and compares; returns the failures. */
static int check_file(GlLinter *linter, const char *path) {
  Markers markers = {0};
  if (!markers_read(&markers, path)) {
    printf("fixture_check: cannot read %s\n", path);
    return 1;
  }
  for (size_t i = 0; i < markers.count; i++) {
    if (gl_rule_index(markers.items[i].code) < 0) {
      printf("%s:%u: marker names unknown rule %s\n", path, markers.items[i].line, markers.items[i].code);
      free(markers.items);
      return 1;
    }
  }
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *result = gl_linter_lint_file(linter, path, &rules);
  int failures = result->error ? 1 : check(path, &markers, result);
  if (result->error) printf("%s: %s\n", path, result->error);
  rules.pedantic = true;
  GlFileResult *pedantic = gl_linter_lint_file(linter, path, &rules);
  failures += check_pedantic(path, &markers, pedantic);
  size_t expected = 0;
  for (size_t i = 0; i < markers.count; i++) expected += markers.items[i].mark == MARK_EXPECT;
  printf("%s: %zu expected, %u reported, %d mismatch%s\n", path, expected, result->finding_count, failures,
         failures == 1 ? "" : "es");
  gl_file_result_delete(pedantic);
  gl_file_result_delete(result);
  free(markers.items);
  return failures;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* Every .py file under `folder`, in name order. */
static int check_folder(GlLinter *linter, const char *folder) {
  struct dirent **entries = NULL;
  int count = scandir(folder, &entries, NULL, by_name);
  if (count < 0) {
    printf("fixture_check: cannot read %s\n", folder);
    return 1;
  }
  int failures = 0;
  for (int i = 0; i < count; i++) {
    const char *name = entries[i]->d_name;
    size_t length = strlen(name);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    if (name[0] != '.' && entries[i]->d_type == DT_DIR) failures += check_folder(linter, path);
    else if (length > 3 && strcmp(name + length - 3, ".py") == 0) failures += check_file(linter, path);
    free(entries[i]);
  }
  free(entries);
  return failures;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fixture_check FILE.py|PROJECT-FOLDER\n");
    return 2;
  }
  GlLinter *linter = gl_linter_new();
  DIR *dir = opendir(argv[1]);
  int failures = 0;
  if (dir) {
    closedir(dir);
    failures = check_folder(linter, argv[1]);
  } else {
    failures = check_file(linter, argv[1]);
  }
  gl_linter_delete(linter);
  return failures ? 1 : 0;
}
