/* prefilter_check.c — proves that the prefilter loses no finding.
 *
 *   prefilter_check [--each-rule] PATH ...
 *
 * Lints every .py file under the paths twice, with the prefilter and
 * without it, and requires the same findings (rule, place and message) and
 * the same errors: with the default rules, and with --each-rule also with
 * each rule alone (which tests each rule's own trigger words). Directories are walked in sorted order; test folders and
 * the folders gpulint skips are left out. Prints how many lint runs the
 * prefilter let skip the facts pass; exit 0 when every file agrees. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpulint.h"
#include "prefilter.h"

typedef struct {
  GlLinter *with;
  GlLinter *without;
  GlRuleSet sets[GL_MAX_RULES + 1];
  uint32_t set_count;
  unsigned files, runs, skipped, mismatches;
} Check;

static const char *const SKIPPED_DIRS[] = {"test", "tests", "idle_test", "site-packages", "dist-packages",
                                           "__pycache__", ".git", "venv", "build"};

static bool check__same(const GlFileResult *a, const GlFileResult *b) {
  if (a->finding_count != b->finding_count || !a->error != !b->error) return false;
  if (a->error && strcmp(a->error, b->error) != 0) return false;
  for (uint32_t i = 0; i < a->finding_count; i++) {
    const GlFinding *x = &a->findings[i], *y = &b->findings[i];
    if (x->rule != y->rule || x->start_byte != y->start_byte || x->end_byte != y->end_byte ||
        strcmp(x->message, y->message) != 0) {
      return false;
    }
  }
  return true;
}

static void check__print(const char *label, const GlFileResult *result) {
  fprintf(stderr, "  %s: %u finding(s)%s%s\n", label, result->finding_count, result->error ? ", error: " : "",
          result->error ? result->error : "");
  for (uint32_t i = 0; i < result->finding_count; i++) {
    fprintf(stderr, "    %u:%u %s\n", result->findings[i].start.line, result->findings[i].start.column,
            gl_rule_info(result->findings[i].rule)->code);
  }
}

/* Whether the prefilter lets the file skip the facts pass with `rules`. */
static bool check__skips(const char *path, const GlRuleSet *rules) {
  FILE *file = fopen(path, "rb");
  if (!file) return false;
  static char bytes[1 << 24];
  size_t length = fread(bytes, 1, sizeof bytes, file);
  fclose(file);
  return prefilter_scan(bytes, (uint32_t)length, rules) != PREFILTER_RUN;
}

static void check_file(Check *self, const char *path) {
  self->files++;
  for (uint32_t set = 0; set < self->set_count; set++) {
    self->runs++;
    self->skipped += check__skips(path, &self->sets[set]);
    GlFileResult *with = gl_linter_lint_file(self->with, path, &self->sets[set]);
    GlFileResult *without = gl_linter_lint_file(self->without, path, &self->sets[set]);
    if (!check__same(with, without)) {
      self->mismatches++;
      fprintf(stderr, "prefilter_check: %s: the prefilter changes the findings (%s)\n", path,
              set == 0 ? "default rules" : gl_rule_info(set - 1)->code);
      check__print("with the prefilter", with);
      check__print("without it", without);
    }
    gl_file_result_delete(with);
    gl_file_result_delete(without);
  }
}

static int check__compare(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool check__skipped_dir(const char *name) {
  for (size_t i = 0; i < sizeof SKIPPED_DIRS / sizeof SKIPPED_DIRS[0]; i++) {
    if (strcmp(name, SKIPPED_DIRS[i]) == 0) return true;
  }
  return false;
}

static void check_path(Check *self, const char *path) {
  struct stat info;
  if (lstat(path, &info) != 0) return;
  if (!S_ISDIR(info.st_mode)) {
    size_t length = strlen(path);
    if (length > 3 && strcmp(path + length - 3, ".py") == 0) check_file(self, path);
    return;
  }
  struct dirent **entries = NULL;
  int count = scandir(path, &entries, NULL, NULL);
  char **names = calloc(count > 0 ? (size_t)count : 1, sizeof(char *));
  int kept = 0;
  for (int i = 0; i < count; i++) {
    if (entries[i]->d_name[0] != '.' && !check__skipped_dir(entries[i]->d_name)) names[kept++] = strdup(entries[i]->d_name);
    free(entries[i]);
  }
  free(entries);
  qsort(names, (size_t)kept, sizeof(char *), check__compare);
  for (int i = 0; i < kept; i++) {
    size_t length = strlen(path) + strlen(names[i]) + 2;
    char *child = malloc(length);
    snprintf(child, length, "%s/%s", path, names[i]);
    check_path(self, child);
    free(child);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  Check self = {.with = gl_linter_new(), .without = gl_linter_new(), .set_count = 1};
  self.sets[0] = gl_rule_set_default();
  gl_linter_set_prefilter(self.without, false);
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "--each-rule") == 0) {
    for (uint32_t rule = 0; rule < gl_rule_count(); rule++) self.sets[self.set_count++].enabled[rule] = true;
    first = 2;
  }
  for (int i = first; i < argc; i++) check_path(&self, argv[i]);
  gl_linter_delete(self.with);
  gl_linter_delete(self.without);
  printf("prefilter_check: %u files, %u lint runs, %u of them skip the facts pass, %u differ\n", self.files,
         self.runs, self.skipped, self.mismatches);
  return self.mismatches == 0 && self.files > 0 ? 0 : 1;
}
