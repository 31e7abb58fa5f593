/* report.c — text and JSON output. */
#include "report.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define DOCS_URL "https://gpulint.dev/rules/"

bool report_parse_format(const char *name, OutputFormat *format) {
  if (strcmp(name, "text") == 0 || strcmp(name, "concise") == 0) *format = FORMAT_TEXT;
  else if (strcmp(name, "json") == 0) *format = FORMAT_JSON;
  else return false;
  return true;
}

size_t report_finding_count(GlFileResult *const *results, size_t count) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += results[i]->finding_count;
  return total;
}

static void report__errors(FILE *errors, GlFileResult *const *results, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (results[i]->error) fprintf(errors, "gpulint: %s: %s\n", results[i]->path, results[i]->error);
    if (results[i]->note) fprintf(errors, "gpulint: %s: %s\n", results[i]->path, results[i]->note);
  }
}

/* path:line:col: CODE message   (path:cell N:line:col: in notebooks) */
static void report__text_finding(FILE *out, const char *path, const GlFinding *finding) {
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  if (finding->cell) fprintf(out, "%s:cell %u:", path, finding->cell);
  else fprintf(out, "%s:", path);
  fprintf(out, "%u:%u: %s %s\n", finding->start.line, finding->start.column, rule->code, finding->message);
}

static void report__text(FILE *out, GlFileResult *const *results, size_t count) {
  size_t files_with_findings = 0, total = 0;
  for (size_t i = 0; i < count; i++) {
    const GlFileResult *result = results[i];
    for (uint32_t j = 0; j < result->finding_count; j++) report__text_finding(out, result->path, &result->findings[j]);
    files_with_findings += result->finding_count > 0;
    total += result->finding_count;
  }
  if (total == 0) fprintf(out, "All checks passed!\n");
  else fprintf(out, "Found %zu finding%s (%zu file%s).\n", total, total == 1 ? "" : "s", files_with_findings,
               files_with_findings == 1 ? "" : "s");
}

static cJSON *report__json_finding(const char *path, const GlFinding *finding) {
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
  cJSON_AddStringToObject(object, "severity", gl_severity_name(rule->severity));
  cJSON_AddStringToObject(object, "effect", gl_effect_name(finding->effect));
  char url[256];
  snprintf(url, sizeof url, "%s%s", DOCS_URL, rule->name);
  cJSON_AddStringToObject(object, "url", url);
  return object;
}

static void report__json(FILE *out, GlFileResult *const *results, size_t count) {
  cJSON *array = cJSON_CreateArray();
  for (size_t i = 0; i < count; i++) {
    for (uint32_t j = 0; j < results[i]->finding_count; j++) {
      cJSON_AddItemToArray(array, report__json_finding(results[i]->path, &results[i]->findings[j]));
    }
  }
  char *text = cJSON_Print(array);
  fprintf(out, "%s\n", text);
  free(text);
  cJSON_Delete(array);
}

void report_write(FILE *out, FILE *errors, OutputFormat format, GlFileResult *const *results, size_t count) {
  report__errors(errors, results, count);
  if (format == FORMAT_JSON) report__json(out, results, count);
  else report__text(out, results, count);
}
