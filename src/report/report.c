/* report.c — text, full, JSON and statistics output, and what every format
 * shares. The CI formats are in report_ci.c. */
#include "report.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "path.h"

#define BOLD "\x1b[1m"
#define RED "\x1b[1;31m"
#define GREEN "\x1b[32m"
#define YELLOW "\x1b[1;33m"
#define BLUE "\x1b[1;34m"
#define CYAN "\x1b[36m"
#define RESET "\x1b[0m"

static const struct {
  const char *name;
  OutputFormat format;
} FORMATS[] = {
    {"text", FORMAT_TEXT},     {"concise", FORMAT_TEXT},  {"full", FORMAT_FULL},
    {"json", FORMAT_JSON},     {"json-lines", FORMAT_JSON_LINES}, {"sarif", FORMAT_SARIF},
    {"github", FORMAT_GITHUB}, {"gitlab", FORMAT_GITLAB},
};

bool report_parse_format(const char *name, OutputFormat *format) {
  for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++) {
    if (strcmp(name, FORMATS[i].name) == 0) {
      *format = FORMATS[i].format;
      return true;
    }
  }
  return false;
}

ReportOptions report_options_default(OutputFormat format) {
  ReportOptions options = {format, false, false, false, NULL, NULL, gl_rule_set_default(), 0, false, false};
  return options;
}

size_t report_finding_count(GlFileResult *const *results, size_t count) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += results[i]->finding_count;
  return total;
}

size_t report_problems(FILE *errors, const ReportFile *files, size_t count, bool quiet) {
  size_t failed = 0;
  for (size_t i = 0; i < count; i++) {
    const GlFileResult *result = files[i].result;
    if (result->error) fprintf(errors, "gpulint: %s: %s\n", result->path, result->error);
    if (result->note && !quiet) fprintf(errors, "gpulint: %s: %s\n", result->path, result->note);
    failed += result->error != NULL;
  }
  return failed;
}

/* ---- Shared helpers ----------------------------------------------------------- */

bool report_error_record(const GlFileResult *result, GlFinding *record) {
  int rule = gl_rule_index("GPU903");
  if (!result->error || rule < 0) return false;
  *record = (GlFinding){.rule = (uint32_t)rule, .effect = GL_EFFECT_NONE, .severity = GL_SEVERITY_ERROR,
                        .start = {1, 1}, .end = {1, 1}, .message = result->error};
  return true;
}

const char *report_failed_suffix(size_t failed, char *buffer, size_t size) {
  if (failed == 0) return "";
  snprintf(buffer, size, "; %zu file%s could not be linted", failed, failed == 1 ? "" : "s");
  return buffer;
}

static char *report__url_template; /* report_set_rule_url's; owned */

const char *report_rule_url_error(const char *template) {
  if (strncmp(template, "https://", 8) != 0 && strncmp(template, "http://", 7) != 0) {
    return "a rule URL starts with https:// or http://";
  }
  for (const char *p = template; *p; p++) {
    if ((unsigned char)*p <= ' ' || *p == 0x7F) return "a rule URL has no blanks or control characters";
    if (*p == '}') return "a rule URL has `}` only to close {code} or {name}";
    if (*p != '{') continue;
    if (strncmp(p, "{code}", 6) != 0 && strncmp(p, "{name}", 6) != 0) {
      return "a rule URL's placeholders are {code} and {name}";
    }
    p += 5;
  }
  return NULL;
}

bool report_set_rule_url(const char *template) {
  if (template && report_rule_url_error(template)) return false;
  free(report__url_template);
  report__url_template = template ? gl_strdup(template) : NULL;
  return true;
}

char *report_rule_url(const GlRuleInfo *rule) {
  const char *template = report__url_template;
  const char *variable = getenv("GPULINT_RULE_URL");
  if (!template && variable && variable[0] && !report_rule_url_error(variable)) template = variable;
  if (!template) return NULL;
  Array(char) url = array_new();
  for (const char *p = template; *p;) {
    const char *value = strncmp(p, "{code}", 6) == 0 ? rule->code : strncmp(p, "{name}", 6) == 0 ? rule->name : NULL;
    if (!value) {
      array_push(&url, *p++);
      continue;
    }
    for (const char *v = value; *v; v++) array_push(&url, *v);
    p += 6;
  }
  array_push(&url, '\0');
  return url.contents; /* Array's storage comes from the allocator wrapper: free() releases it */
}

char *report_relative_path(const ReportOptions *options, const char *path) {
  if (!options->base) return path[0] == '/' ? NULL : path_display(path);
  char *absolute = path_absolute(options->cwd ? options->cwd : options->base, path);
  const char *relative = path_relative(options->base, absolute);
  char *result = relative && relative[0] ? gl_strdup(relative) : NULL;
  free(absolute);
  return result;
}

static uint64_t report__hash(uint64_t hash, const char *text, bool skip_space) {
  for (const char *p = text ? text : ""; *p; p++) {
    if (skip_space && isspace((unsigned char)*p)) continue;
    hash = (hash ^ (unsigned char)*p) * UINT64_C(1099511628211);
  }
  return (hash ^ 0xFF) * UINT64_C(1099511628211); /* a separator between fields */
}

uint64_t report_fingerprint(const char *code, const char *path, const char *line, uint32_t occurrence, uint64_t salt) {
  char number[16];
  snprintf(number, sizeof number, "%u", occurrence);
  uint64_t hash = UINT64_C(14695981039346656037) ^ salt;
  hash = report__hash(hash, code, false);
  hash = report__hash(hash, path, false);
  hash = report__hash(hash, line, true);
  return report__hash(hash, number, false);
}

static bool report__same_text(const char *a, const char *b) {
  a = a ? a : "";
  b = b ? b : "";
  for (;;) {
    while (isspace((unsigned char)*a)) a++;
    while (isspace((unsigned char)*b)) b++;
    if (*a != *b) return false;
    if (!*a) return true;
    a++;
    b++;
  }
}

uint32_t report_occurrence(const ReportFile *file, uint32_t index) {
  const GlFinding *findings = file->result->findings;
  const char *line = file->lines ? file->lines[index] : NULL;
  uint32_t count = 0;
  for (uint32_t i = 0; i < index; i++) {
    if (findings[i].rule != findings[index].rule) continue;
    if (report__same_text(file->lines ? file->lines[i] : NULL, line)) count++;
  }
  return count;
}

/* ---- Text ------------------------------------------------------------------------ */

/* Writes `text` with control characters (other than tab) shown as '?', so
 * that a file's bytes cannot drive the terminal. */
static void report__safe(FILE *out, const char *text) {
  for (const char *p = text; *p; p++) {
    unsigned char c = (unsigned char)*p;
    fputc((c < 0x20 && c != '\t') || c == 0x7F ? '?' : c, out);
  }
}

static const char *report__paint(const ReportOptions *options, const char *colour) {
  return options->color ? colour : "";
}

/* path:line:col: CODE message   (path:cell N:line:col: in notebooks) */
static void report__text_finding(FILE *out, const ReportOptions *options, const char *path, const GlFinding *finding) {
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  const char *reset = report__paint(options, RESET);
  fputs(report__paint(options, BOLD), out);
  report__safe(out, path);
  fprintf(out, "%s%s:", reset, report__paint(options, CYAN));
  if (finding->cell) fprintf(out, "cell %u:", finding->cell);
  fprintf(out, "%u:%u:%s ", finding->start.line, finding->start.column, reset);
  const char *colour = finding->severity == GL_SEVERITY_ERROR ? RED : YELLOW;
  fprintf(out, "%s%s%s ", report__paint(options, colour), rule->code, reset);
  report__safe(out, finding->message);
  fputc('\n', out);
}

/* Code points of `text` up to `column` (1-based), as blanks that keep tabs,
 * so that a caret below lines up. */
static void report__pad(FILE *out, const char *text, uint32_t column) {
  uint32_t seen = 1;
  for (const char *p = text; *p && seen < column; p++) {
    if (((unsigned char)*p & 0xC0) == 0x80) continue;
    fputc(*p == '\t' ? '\t' : ' ', out);
    seen++;
  }
}

static uint32_t report__code_points(const char *text) {
  uint32_t count = 0;
  for (const char *p = text; *p; p++) count += ((unsigned char)*p & 0xC0) != 0x80;
  return count;
}

/* `= label: text`, the text wrapped at blanks into lines of about
 * REPORT_WRAP columns, each continuation indented under the first. */
#define REPORT_WRAP 88
static void report__labelled(FILE *out, const ReportOptions *options, int width, const char *label, const char *text) {
  fprintf(out, "%*s %s=%s %s%s%s: ", width, "", report__paint(options, BLUE), report__paint(options, RESET),
          report__paint(options, BOLD), label, report__paint(options, RESET));
  int indent = width + 3 + (int)strlen(label) + 2;
  const char *p = text;
  while (*p) {
    size_t room = REPORT_WRAP > indent ? (size_t)(REPORT_WRAP - indent) : 40, length = strlen(p), cut = length;
    if (length > room) {
      cut = room;
      while (cut > 0 && p[cut] != ' ') cut--;
      if (cut == 0) cut = strcspn(p, " "); /* one word longer than the line */
    }
    fwrite(p, 1, cut, out); /* the text is the engine's, not the file's: no control characters */
    p += cut;
    while (*p == ' ') p++;
    if (*p) fprintf(out, "\n%*s", indent, "");
  }
  fputc('\n', out);
}

/* The finding's fix: its safety and title, then its diff hunks. */
static void report__fix(FILE *out, const ReportOptions *options, const GlFinding *finding, const char *diff, int width) {
  const GlFix *fix = finding->fix;
  if (!fix) return;
  const char *blue = report__paint(options, BLUE), *reset = report__paint(options, RESET);
  fprintf(out, "%*s %s=%s %sfix%s (%s): %s\n", width, "", blue, reset, report__paint(options, BOLD), reset,
          fix->applicability == GL_FIX_SAFE ? "safe" : "unsafe, with --unsafe-fixes", fix->title);
  for (const char *line = diff; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    const char *color = line[0] == '-' ? report__paint(options, RED) : line[0] == '+' ? report__paint(options, GREEN)
                                                                                         : "";
    fprintf(out, "%*s %s%.*s%s\n", width, "", color, (int)length, line, reset);
    line = end ? end + 1 : line + length;
  }
}

/* The source line with a caret under the finding, then why (the
 * finding's detail), the fix hint, the rule's page (its URL when one is
 * set, else `gpulint rule CODE`), the related location and the fix:
 *     |
 *   7 |         loss.backward()
 *     |         ^^^^^^^^^^^^^^^
 *     = why: ...
 *     = help: ... */
static void report__snippet(FILE *out, const ReportOptions *options, const GlFinding *finding, const char *line,
                            const char *fix_diff) {
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  int width = snprintf(NULL, 0, "%u", finding->start.line);
  const char *blue = report__paint(options, BLUE), *reset = report__paint(options, RESET);
  if (line) {
    fprintf(out, "%*s %s|%s\n%s%*u |%s ", width, "", blue, reset, blue, width, finding->start.line, reset);
    report__safe(out, line);
    fprintf(out, "\n%*s %s|%s ", width, "", blue, reset);
    report__pad(out, line, finding->start.column);
    uint32_t length = report__code_points(line);
    uint32_t end = finding->end.line == finding->start.line && finding->end.column > finding->start.column
                       ? finding->end.column : length + 1;
    uint32_t carets = end > finding->start.column ? end - finding->start.column : 1;
    fputs(report__paint(options, finding->severity == GL_SEVERITY_ERROR ? RED : YELLOW), out);
    for (uint32_t i = 0; i < carets; i++) fputc('^', out);
    fprintf(out, "%s\n", reset);
  }
  if (finding->detail) report__labelled(out, options, width, "why", finding->detail);
  if (rule->fix_hint && rule->fix_hint[0]) report__labelled(out, options, width, "help", rule->fix_hint);
  char *url = report_rule_url(rule); /* else the page gpulint prints */
  char *docs = url ? url : gl_format("gpulint rule %s", rule->code);
  report__labelled(out, options, width, "docs", docs);
  free(docs);
  if (finding->related_path) {
    char *relative = report_relative_path(options, finding->related_path);
    char *where = gl_format("%s:%u", relative ? relative : finding->related_path, finding->related_line);
    fprintf(out, "%*s %s=%s %srelated%s: ", width, "", blue, reset, report__paint(options, BOLD), reset);
    report__safe(out, where);
    fputc('\n', out);
    free(where);
    free(relative);
  }
  report__fix(out, options, finding, fix_diff, width);
  fputc('\n', out);
}

/* What --fix would do with the findings left: "[*] 2 fixable with the
 * `--fix` option (1 hidden fix can be enabled with `--unsafe-fixes`)." */
static void report__fixable(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  size_t fixable = 0, hidden = 0;
  for (size_t i = 0; i < count; i++) {
    for (uint32_t j = 0; j < files[i].result->finding_count; j++) {
      const GlFix *fix = files[i].result->findings[j].fix;
      if (!fix) continue;
      if (fix->applicability == GL_FIX_SAFE || options->unsafe_fixes) fixable++;
      else hidden++;
    }
  }
  if (fixable == 0 && hidden == 0) return;
  if (fixable > 0) fprintf(out, "[*] %zu fixable with the `--fix` option", fixable);
  else fprintf(out, "No fixes available");
  if (hidden > 0) {
    fprintf(out, " (%zu hidden fix%s can be enabled with the `--unsafe-fixes` option)", hidden, hidden == 1 ? "" : "es");
  }
  fprintf(out, ".\n");
}

/* "All checks passed!" only when every file was linted and nothing is
 * left; "No findings; 1 file could not be linted." when one was not. */
static void report__summary(FILE *out, const ReportOptions *options, size_t total, size_t files_with_findings,
                            size_t failed) {
  if (total == 0 && failed == 0 && options->fixed == 0) {
    fprintf(out, options->no_rules ? "No rules selected: nothing was checked.\n" : "All checks passed!\n");
    return;
  }
  if (total == 0 && options->fixed == 0) {
    fprintf(out, "No findings; %zu file%s could not be linted.\n", failed, failed == 1 ? "" : "s");
    return;
  }
  if (options->fixed > 0) {
    fprintf(out, "Found %zu finding%s (%u fixed, %zu remaining)", total + options->fixed,
            total + options->fixed == 1 ? "" : "s", options->fixed, total);
  } else {
    fprintf(out, "Found %zu finding%s", total, total == 1 ? "" : "s");
    if (total > 0) fprintf(out, " (%zu file%s)", files_with_findings, files_with_findings == 1 ? "" : "s");
  }
  char suffix[64];
  fprintf(out, "%s.\n", report_failed_suffix(failed, suffix, sizeof suffix));
}

static void report__text(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  size_t files_with_findings = 0, total = 0, failed = 0;
  for (size_t i = 0; i < count; i++) {
    const GlFileResult *result = files[i].result;
    GlFinding record;
    if (report_error_record(result, &record)) {
      report__text_finding(out, options, result->path, &record);
      if (options->format == FORMAT_FULL) report__snippet(out, options, &record, NULL, NULL);
    }
    for (uint32_t j = 0; j < result->finding_count; j++) {
      report__text_finding(out, options, result->path, &result->findings[j]);
      if (options->format == FORMAT_FULL) {
        report__snippet(out, options, &result->findings[j], files[i].lines ? files[i].lines[j] : NULL,
                        files[i].fix_diffs ? files[i].fix_diffs[j] : NULL);
      }
    }
    files_with_findings += result->finding_count > 0;
    total += result->finding_count;
    failed += result->error != NULL;
  }
  if (!options->quiet) {
    report__summary(out, options, total, files_with_findings, failed);
    report__fixable(out, options, files, count);
  }
}

/* ---- Statistics ------------------------------------------------------------------- */

typedef struct {
  uint32_t rule;
  size_t count;
} RuleCount;

typedef Array(RuleCount) RuleCounts;

static int report__compare_counts(const void *a, const void *b) {
  const RuleCount *left = a, *right = b;
  if (left->count != right->count) return left->count > right->count ? -1 : 1;
  return left->rule < right->rule ? -1 : left->rule > right->rule;
}

/* Codes with findings (and GPU903 records), most frequent first; `*total`
 * gets the number of findings, `*failed` of files not linted. */
static RuleCounts report__counts(const ReportFile *files, size_t count, size_t *total, size_t *failed) {
  RuleCounts counts = array_new();
  for (uint32_t rule = 0; rule < gl_rule_count(); rule++) array_push(&counts, ((RuleCount){rule, 0}));
  *total = 0;
  *failed = 0;
  for (size_t i = 0; i < count; i++) {
    GlFinding record;
    if (report_error_record(files[i].result, &record)) {
      counts.contents[record.rule].count++;
      (*failed)++;
    }
    for (uint32_t j = 0; j < files[i].result->finding_count; j++) {
      uint32_t rule = files[i].result->findings[j].rule;
      if (rule < counts.size) counts.contents[rule].count++;
      (*total)++;
    }
  }
  qsort(counts.contents, counts.size, sizeof(RuleCount), report__compare_counts);
  while (counts.size > 0 && counts.contents[counts.size - 1].count == 0) counts.size--;
  return counts;
}

static void report__statistics_json(FILE *out, const RuleCount *counts, uint32_t size) {
  cJSON *array = cJSON_CreateArray();
  for (uint32_t i = 0; i < size; i++) {
    const GlRuleInfo *rule = gl_rule_info(counts[i].rule);
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "code", rule->code);
    cJSON_AddStringToObject(item, "name", rule->name);
    cJSON_AddNumberToObject(item, "count", (double)counts[i].count);
    cJSON_AddItemToArray(array, item);
  }
  char *text = cJSON_Print(array);
  fprintf(out, "%s\n", text);
  free(text);
  cJSON_Delete(array);
}

/* count<TAB>code<TAB>name per code, most frequent first, then the total. */
static void report__statistics(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  size_t total = 0, failed = 0;
  RuleCounts counts = report__counts(files, count, &total, &failed);
  if (options->format == FORMAT_JSON || options->format == FORMAT_JSON_LINES) {
    report__statistics_json(out, counts.contents, counts.size);
  } else {
    int width = counts.size ? snprintf(NULL, 0, "%zu", counts.contents[0].count) : 1;
    for (uint32_t i = 0; i < counts.size; i++) {
      const GlRuleInfo *rule = gl_rule_info(counts.contents[i].rule);
      fprintf(out, "%*zu\t%s\t%s\n", width, counts.contents[i].count, rule->code, rule->name);
    }
    char suffix[64];
    if (!options->quiet && total == 0 && failed > 0) {
      fprintf(out, "No findings; %zu file%s could not be linted.\n", failed, failed == 1 ? "" : "s");
    } else if (!options->quiet) {
      fprintf(out, "Found %zu finding%s%s.\n", total, total == 1 ? "" : "s", report_failed_suffix(failed, suffix, sizeof suffix));
    }
  }
  array_delete(&counts);
}

/* ---- JSON ------------------------------------------------------------------------------ */

/* `related`: the other file's definition the finding rests on. */
static void report__json_related(const ReportOptions *options, cJSON *object, const GlFinding *finding) {
  if (!finding->related_path) return;
  char *relative = report_relative_path(options, finding->related_path);
  cJSON *related = cJSON_AddObjectToObject(object, "related");
  cJSON_AddStringToObject(related, "path", relative ? relative : finding->related_path);
  cJSON_AddNumberToObject(related, "line", finding->related_line);
  free(relative);
}

/* `fix`: null, or its applicability, title and edits (ruff's shape; in
 * notebooks the positions are cell-relative, as the finding's). */
static void report__json_fix(cJSON *object, const GlFinding *finding) {
  const GlFix *fix = finding->fix;
  if (!fix) {
    cJSON_AddNullToObject(object, "fix");
    return;
  }
  cJSON *json = cJSON_AddObjectToObject(object, "fix");
  cJSON_AddStringToObject(json, "applicability", fix->applicability == GL_FIX_SAFE ? "safe" : "unsafe");
  cJSON_AddStringToObject(json, "message", fix->title);
  cJSON *edits = cJSON_AddArrayToObject(json, "edits");
  for (uint32_t i = 0; i < fix->edit_count; i++) {
    const GlEdit *edit = &fix->edits[i];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "content", edit->content);
    cJSON *start = cJSON_AddObjectToObject(item, "location");
    cJSON_AddNumberToObject(start, "line", edit->start.line);
    cJSON_AddNumberToObject(start, "column", edit->start.column);
    cJSON *end = cJSON_AddObjectToObject(item, "end_location");
    cJSON_AddNumberToObject(end, "line", edit->end.line);
    cJSON_AddNumberToObject(end, "column", edit->end.column);
    cJSON_AddItemToArray(edits, item);
  }
}

static cJSON *report__json_finding(const ReportOptions *options, const char *path, const GlFinding *finding) {
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  cJSON *object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "path", path);
  if (finding->cell) cJSON_AddNumberToObject(object, "cell", finding->cell);
  cJSON_AddNumberToObject(object, "line", finding->start.line);
  cJSON_AddNumberToObject(object, "column", finding->start.column);
  cJSON_AddNumberToObject(object, "end_line", finding->end.line);
  cJSON_AddNumberToObject(object, "end_column", finding->end.column);
  cJSON_AddStringToObject(object, "code", rule->code);
  cJSON_AddStringToObject(object, "name", rule->name);
  cJSON_AddStringToObject(object, "message", finding->message);
  if (finding->detail) cJSON_AddStringToObject(object, "detail", finding->detail);
  else cJSON_AddNullToObject(object, "detail");
  cJSON_AddStringToObject(object, "severity", gl_severity_name(finding->severity));
  cJSON_AddStringToObject(object, "effect", gl_effect_name(finding->effect));
  char *url = report_rule_url(rule);
  if (url) cJSON_AddStringToObject(object, "url", url); /* only where the pages are published */
  free(url);
  report__json_related(options, object, finding);
  report__json_fix(object, finding);
  return object;
}

static void report__json(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  bool lines = options->format == FORMAT_JSON_LINES;
  cJSON *array = cJSON_CreateArray();
  for (size_t i = 0; i < count; i++) {
    const GlFileResult *result = files[i].result;
    GlFinding record;
    bool failed = report_error_record(result, &record);
    for (uint32_t j = failed ? 0 : 1; j <= result->finding_count; j++) { /* 0: the record */
      cJSON *object = report__json_finding(options, result->path, j == 0 ? &record : &result->findings[j - 1]);
      if (!lines) {
        cJSON_AddItemToArray(array, object);
        continue;
      }
      char *text = cJSON_PrintUnformatted(object);
      fprintf(out, "%s\n", text);
      free(text);
      cJSON_Delete(object);
    }
  }
  if (!lines) {
    char *text = cJSON_Print(array);
    fprintf(out, "%s\n", text);
    free(text);
  }
  cJSON_Delete(array);
}

/* ---- Dispatch -------------------------------------------------------------------------- */

void report_print(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  if (options->statistics) {
    report__statistics(out, options, files, count);
    return;
  }
  switch (options->format) {
    case FORMAT_JSON:
    case FORMAT_JSON_LINES: report__json(out, options, files, count); break;
    case FORMAT_SARIF: report_sarif(out, options, files, count); break;
    case FORMAT_GITHUB: report_github(out, options, files, count); break;
    case FORMAT_GITLAB: report_gitlab(out, options, files, count); break;
    case FORMAT_TEXT:
    case FORMAT_FULL: report__text(out, options, files, count); break;
  }
}

void report_write(FILE *out, FILE *errors, OutputFormat format, GlFileResult *const *results, size_t count) {
  ReportFile *files = gl_calloc(count + 1, sizeof(ReportFile));
  for (size_t i = 0; i < count; i++) files[i].result = results[i];
  report_problems(errors, files, count, false);
  ReportOptions options = report_options_default(format);
  report_print(out, &options, files, count);
  free(files);
}
