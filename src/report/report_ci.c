/* report_ci.c — the formats CI systems read: SARIF for GitHub code
 * scanning, GitHub Actions annotations, and GitLab Code Quality.
 *
 * Paths are given relative to options->base (the repository root: the
 * working directory, or the CI's workspace variable). Notebook findings
 * are reported at line 1 of the .ipynb file with the cell, line and column
 * in the message, since their positions count within a cell. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "path.h"
#include "report.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SARIF_BASE_ID "%SRCROOT%"

/* Salts that keep the SARIF and GitLab fingerprints of a finding apart. */
#define SALT_SARIF 0x5341u
#define SALT_GITLAB 0x474Cu

typedef Array(char) Text;

static char *text__finish(Text *text) {
  char *result = gl_strndup(text->contents ? text->contents : "", text->size);
  array_delete(text);
  return result;
}

static void text__append(Text *text, const char *suffix) {
  for (const char *p = suffix; *p; p++) array_push(text, *p);
}

/* ---- Shared ------------------------------------------------------------------ */

char *report_github_escape(const char *text, bool property) {
  Text out = array_new();
  for (const char *p = text; *p; p++) {
    switch (*p) {
      case '%': text__append(&out, "%25"); break;
      case '\r': text__append(&out, "%0D"); break;
      case '\n': text__append(&out, "%0A"); break;
      case ':':
      case ',':
        if (property) text__append(&out, *p == ':' ? "%3A" : "%2C");
        else array_push(&out, *p);
        break;
      default: array_push(&out, *p);
    }
  }
  return text__finish(&out);
}

/* The path shown to the CI: relative to the base when inside it. */
static char *report__ci_path(const ReportOptions *options, const char *path) {
  char *relative = report_relative_path(options, path);
  return relative ? relative : gl_strdup(path);
}

/* "cell 3, line 2, column 5: " for notebook findings, else "". */
static char *report__cell_prefix(const GlFinding *finding) {
  if (!finding->cell) return gl_strdup("");
  return gl_format("cell %u, line %u, column %u: ", finding->cell, finding->start.line, finding->start.column);
}

static const char *report__line_of(const ReportFile *file, uint32_t index) {
  return file->lines ? file->lines[index] : NULL;
}

/* ---- SARIF --------------------------------------------------------------------- */

/* RFC 3986: everything but unreserved characters and '/' is %-encoded. */
static char *report__uri_encode(const char *path) {
  static const char HEX[] = "0123456789ABCDEF";
  Text out = array_new();
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
      array_push(&out, (char)*p);
    } else {
      array_push(&out, '%');
      array_push(&out, HEX[*p >> 4]);
      array_push(&out, HEX[*p & 15]);
    }
  }
  return text__finish(&out);
}

static void report__add_text(cJSON *object, const char *key, const char *text) {
  cJSON *message = cJSON_AddObjectToObject(object, key);
  cJSON_AddStringToObject(message, "text", text);
}

static const char *report__level(GlSeverity severity) {
  return severity == GL_SEVERITY_ERROR ? "error" : "warning";
}

static cJSON *report__sarif_rule(uint32_t index) {
  const GlRuleInfo *rule = gl_rule_info(index);
  cJSON *object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "id", rule->code);
  cJSON_AddStringToObject(object, "name", rule->name);
  report__add_text(object, "shortDescription", rule->summary);
  char *full = gl_format("%s %s", rule->summary, rule->fix_hint ? rule->fix_hint : "");
  report__add_text(object, "fullDescription", full);
  free(full);
  char *url = report_rule_url(rule);
  if (url) cJSON_AddStringToObject(object, "helpUri", url); /* only where the pages are published */
  free(url);
  cJSON *help = cJSON_AddObjectToObject(object, "help"); /* the rule's page, as `gpulint rule CODE` prints it */
  const char *docs = gl_rule_docs(index);
  cJSON_AddStringToObject(help, "text", docs ? docs : rule->summary);
  cJSON_AddStringToObject(help, "markdown", docs ? docs : rule->summary);
  cJSON *configuration = cJSON_AddObjectToObject(object, "defaultConfiguration");
  cJSON_AddStringToObject(configuration, "level", report__level(rule->severity));
  cJSON *properties = cJSON_AddObjectToObject(object, "properties");
  cJSON *tags = cJSON_AddArrayToObject(properties, "tags");
  cJSON_AddItemToArray(tags, cJSON_CreateString("pytorch"));
  cJSON_AddItemToArray(tags, cJSON_CreateString(gl_effect_name(rule->effect)));
  return object;
}

static cJSON *report__sarif_location(const ReportOptions *options, const char *path, const GlFinding *finding) {
  cJSON *location = cJSON_CreateObject();
  cJSON *physical = cJSON_AddObjectToObject(location, "physicalLocation");
  cJSON *artifact = cJSON_AddObjectToObject(physical, "artifactLocation");
  char *relative = report_relative_path(options, path);
  char *absolute = relative ? NULL : path_absolute(options->cwd ? options->cwd : "/", path);
  char *encoded = report__uri_encode(relative ? relative : absolute);
  if (relative) {
    cJSON_AddStringToObject(artifact, "uri", encoded);
    cJSON_AddStringToObject(artifact, "uriBaseId", SARIF_BASE_ID);
  } else {
    char *uri = gl_format("file://%s", encoded);
    cJSON_AddStringToObject(artifact, "uri", uri);
    free(uri);
  }
  free(encoded);
  free(relative);
  free(absolute);
  cJSON *region = cJSON_AddObjectToObject(physical, "region");
  bool cell = finding->cell != 0;
  cJSON_AddNumberToObject(region, "startLine", cell ? 1 : finding->start.line);
  cJSON_AddNumberToObject(region, "startColumn", cell ? 1 : finding->start.column);
  if (!cell) {
    cJSON_AddNumberToObject(region, "endLine", finding->end.line);
    cJSON_AddNumberToObject(region, "endColumn", finding->end.column > 0 ? finding->end.column : 1);
  }
  return location;
}

/* `fixes`: the finding's fix as one artifact change, its edits as
 * replacements (SARIF 2.1.0 §3.55); notebooks' cell-relative positions
 * cannot be given in the file's lines, so their fixes are left out. */
static void report__sarif_fix(const ReportOptions *options, const char *path, const GlFinding *finding, cJSON *result) {
  const GlFix *fix = finding->fix;
  if (!fix || finding->cell) return;
  cJSON *fixes = cJSON_AddArrayToObject(result, "fixes");
  cJSON *item = cJSON_CreateObject();
  cJSON_AddItemToArray(fixes, item);
  char *description = gl_format("%s (%s)", fix->title, fix->applicability == GL_FIX_SAFE ? "safe" : "unsafe");
  report__add_text(item, "description", description);
  free(description);
  cJSON *changes = cJSON_AddArrayToObject(item, "artifactChanges");
  GlFinding where = *finding;
  cJSON *location = report__sarif_location(options, path, &where);
  cJSON *change = cJSON_CreateObject();
  const cJSON *artifact = cJSON_GetObjectItem(cJSON_GetObjectItem(location, "physicalLocation"), "artifactLocation");
  cJSON_AddItemToObject(change, "artifactLocation", cJSON_Duplicate(artifact, true));
  cJSON *replacements = cJSON_AddArrayToObject(change, "replacements");
  for (uint32_t i = 0; i < fix->edit_count; i++) {
    const GlEdit *edit = &fix->edits[i];
    cJSON *replacement = cJSON_CreateObject();
    cJSON *region = cJSON_AddObjectToObject(replacement, "deletedRegion");
    cJSON_AddNumberToObject(region, "startLine", edit->start.line);
    cJSON_AddNumberToObject(region, "startColumn", edit->start.column);
    cJSON_AddNumberToObject(region, "endLine", edit->end.line);
    cJSON_AddNumberToObject(region, "endColumn", edit->end.column);
    cJSON *inserted = cJSON_AddObjectToObject(replacement, "insertedContent");
    cJSON_AddStringToObject(inserted, "text", edit->content);
    cJSON_AddItemToArray(replacements, replacement);
  }
  cJSON_AddItemToArray(changes, change);
  cJSON_Delete(location);
}

static cJSON *report__sarif_result(const ReportOptions *options, const ReportFile *file, uint32_t index,
                                   int rule_index) {
  const GlFinding *finding = &file->result->findings[index];
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  cJSON *result = cJSON_CreateObject();
  cJSON_AddStringToObject(result, "ruleId", rule->code);
  cJSON_AddNumberToObject(result, "ruleIndex", rule_index);
  cJSON_AddStringToObject(result, "level", report__level(finding->severity));
  char *prefix = report__cell_prefix(finding);
  char *message = gl_format("%s%s", prefix, finding->message);
  report__add_text(result, "message", message);
  if (finding->detail) { /* the message, then why: shown where a viewer renders Markdown */
    char *markdown = gl_format("%s\n\n%s", message, finding->detail);
    cJSON_AddStringToObject(cJSON_GetObjectItem(result, "message"), "markdown", markdown);
    free(markdown);
  }
  free(message);
  free(prefix);
  cJSON *locations = cJSON_AddArrayToObject(result, "locations");
  cJSON_AddItemToArray(locations, report__sarif_location(options, file->result->path, finding));
  if (finding->related_path) {
    GlFinding there = {.start = {finding->related_line, 1}, .end = {finding->related_line, 1}};
    cJSON *related = cJSON_AddArrayToObject(result, "relatedLocations");
    cJSON *location = report__sarif_location(options, finding->related_path, &there);
    cJSON_AddNumberToObject(location, "id", 1);
    report__add_text(location, "message", "the fact in another file this finding rests on");
    cJSON_AddItemToArray(related, location);
  }
  report__sarif_fix(options, file->result->path, finding, result);
  char hash[40];
  snprintf(hash, sizeof hash, "%016" PRIx64 ":1",
           report_fingerprint(rule->code, NULL, report__line_of(file, index), report_occurrence(file, index), SALT_SARIF));
  cJSON *fingerprints = cJSON_AddObjectToObject(result, "partialFingerprints");
  cJSON_AddStringToObject(fingerprints, "primaryLocationLineHash", hash);
  if (finding->cell) {
    cJSON *properties = cJSON_AddObjectToObject(result, "properties");
    cJSON_AddNumberToObject(properties, "cell", finding->cell);
    cJSON_AddNumberToObject(properties, "cellLine", finding->start.line);
    cJSON_AddNumberToObject(properties, "cellColumn", finding->start.column);
  }
  return result;
}

/* tool.driver, listing every rule that ran or reported; `indices` maps a
 * registry index to its place in driver.rules. */
static cJSON *report__sarif_tool(const ReportOptions *options, const ReportFile *files, size_t count, int *indices) {
  bool listed[GL_MAX_RULES] = {false};
  for (uint32_t i = 0; i < gl_rule_count() && i < GL_MAX_RULES; i++) listed[i] = options->rules.enabled[i];
  for (size_t i = 0; i < count; i++) {
    GlFinding record;
    if (report_error_record(files[i].result, &record)) listed[record.rule] = true;
    for (uint32_t j = 0; j < files[i].result->finding_count; j++) {
      if (files[i].result->findings[j].rule < GL_MAX_RULES) listed[files[i].result->findings[j].rule] = true;
    }
  }
  cJSON *tool = cJSON_CreateObject();
  cJSON *driver = cJSON_AddObjectToObject(tool, "driver");
  cJSON_AddStringToObject(driver, "name", "gpulint");
  cJSON_AddStringToObject(driver, "version", gl_version());
  cJSON_AddStringToObject(driver, "semanticVersion", gl_version());
  /* no informationUri: the project names no address of its own */
  cJSON *rules = cJSON_AddArrayToObject(driver, "rules");
  int next = 0;
  for (uint32_t i = 0; i < gl_rule_count() && i < GL_MAX_RULES; i++) {
    indices[i] = listed[i] ? next++ : -1;
    if (listed[i]) cJSON_AddItemToArray(rules, report__sarif_rule(i));
  }
  return tool;
}

/* invocations: whether every file could be linted, and why not: one
 * notification per file, associated with GPU903, at the file's line 1. */
static cJSON *report__sarif_invocations(const ReportOptions *options, const ReportFile *files, size_t count,
                                        const int *indices) {
  cJSON *invocations = cJSON_CreateArray();
  cJSON *invocation = cJSON_CreateObject();
  cJSON_AddItemToArray(invocations, invocation);
  cJSON *notifications = cJSON_CreateArray();
  for (size_t i = 0; i < count; i++) {
    const GlFileResult *result = files[i].result;
    GlFinding record;
    if (!report_error_record(result, &record)) continue;
    cJSON *notification = cJSON_CreateObject();
    cJSON_AddStringToObject(notification, "level", "error");
    char *text = gl_format("%s: %s", result->path, result->error);
    report__add_text(notification, "message", text);
    free(text);
    cJSON *locations = cJSON_AddArrayToObject(notification, "locations");
    cJSON_AddItemToArray(locations, report__sarif_location(options, result->path, &record));
    cJSON *rule = cJSON_AddObjectToObject(notification, "associatedRule");
    cJSON_AddStringToObject(rule, "id", gl_rule_info(record.rule)->code);
    cJSON_AddNumberToObject(rule, "index", indices[record.rule]);
    cJSON_AddItemToArray(notifications, notification);
  }
  cJSON_AddBoolToObject(invocation, "executionSuccessful", cJSON_GetArraySize(notifications) == 0);
  cJSON_AddItemToObject(invocation, "toolExecutionNotifications", notifications);
  return invocations;
}

void report_sarif(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "$schema", SARIF_SCHEMA);
  cJSON_AddStringToObject(root, "version", "2.1.0");
  cJSON *run = cJSON_CreateObject();
  cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "runs"), run);
  int indices[GL_MAX_RULES];
  cJSON_AddItemToObject(run, "tool", report__sarif_tool(options, files, count, indices));
  cJSON_AddItemToObject(run, "invocations", report__sarif_invocations(options, files, count, indices));
  if (options->base) {
    char *encoded = report__uri_encode(options->base);
    char *uri = gl_format("file://%s%s", encoded, strcmp(options->base, "/") == 0 ? "" : "/");
    cJSON *root_id = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "originalUriBaseIds"), SARIF_BASE_ID);
    cJSON_AddStringToObject(root_id, "uri", uri);
    free(uri);
    free(encoded);
  }
  cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");
  cJSON *results = cJSON_AddArrayToObject(run, "results");
  for (size_t i = 0; i < count; i++) {
    for (uint32_t j = 0; j < files[i].result->finding_count; j++) {
      uint32_t rule = files[i].result->findings[j].rule;
      cJSON_AddItemToArray(results, report__sarif_result(options, &files[i], j, rule < GL_MAX_RULES ? indices[rule] : -1));
    }
  }
  char *text = cJSON_Print(root);
  fprintf(out, "%s\n", text);
  free(text);
  cJSON_Delete(root);
}

/* ---- GitHub Actions annotations ------------------------------------------------------- */

/* ::error file=P,line=L,col=C,endLine=L,endColumn=C,title=gpulint (CODE)::P:L:C: CODE message */
static void report__github_finding(FILE *out, const ReportOptions *options, const char *path, const GlFinding *finding) {
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  char *shown = report__ci_path(options, path);
  char *file = report_github_escape(shown, true);
  fprintf(out, "::%s file=%s", report__level(finding->severity), file);
  if (!finding->cell) {
    fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u", finding->start.line, finding->start.column,
            finding->end.line, finding->end.column);
  }
  char *location = finding->cell ? gl_format("%s:cell %u:%u:%u", shown, finding->cell, finding->start.line,
                                             finding->start.column)
                                 : gl_format("%s:%u:%u", shown, finding->start.line, finding->start.column);
  char *message = gl_format("%s: %s %s", location, rule->code, finding->message);
  char *escaped = report_github_escape(message, false);
  fprintf(out, ",title=gpulint (%s)::%s\n", rule->code, escaped);
  free(escaped);
  free(message);
  free(location);
  free(file);
  free(shown);
}

void report_github(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  for (size_t i = 0; i < count; i++) {
    const GlFileResult *result = files[i].result;
    GlFinding record;
    if (report_error_record(result, &record)) report__github_finding(out, options, result->path, &record);
    for (uint32_t j = 0; j < result->finding_count; j++) report__github_finding(out, options, result->path, &result->findings[j]);
  }
}

/* ---- GitLab Code Quality ------------------------------------------------------------- */

static const char *report__gitlab_category(GlEffect effect) {
  return effect == GL_EFFECT_SLOWDOWN || effect == GL_EFFECT_PEAK ? "Performance" : "Bug Risk";
}

/* The issue of `finding`, the index-th of `file`, or its GPU903 record
 * (index RECORD: no line of its own). */
#define RECORD UINT32_MAX
static cJSON *report__gitlab_issue(const ReportOptions *options, const ReportFile *file, const GlFinding *finding,
                                   uint32_t index) {
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  bool record = index == RECORD;
  char *path = report__ci_path(options, file->result->path);
  cJSON *issue = cJSON_CreateObject();
  cJSON_AddStringToObject(issue, "type", "issue");
  char *prefix = report__cell_prefix(finding);
  char *description = gl_format("%s: %s%s", rule->code, prefix, finding->message);
  cJSON_AddStringToObject(issue, "description", description);
  cJSON_AddStringToObject(issue, "check_name", rule->code);
  if (finding->detail) { /* Code Climate's longer explanation, in Markdown */
    cJSON_AddStringToObject(cJSON_AddObjectToObject(issue, "content"), "body", finding->detail);
  }
  char fingerprint[40];
  const char *line = record ? NULL : report__line_of(file, index);
  uint32_t occurrence = record ? 0 : report_occurrence(file, index);
  snprintf(fingerprint, sizeof fingerprint, "%016" PRIx64 "%016" PRIx64,
           report_fingerprint(rule->code, path, line, occurrence, SALT_GITLAB),
           report_fingerprint(rule->code, path, line, occurrence, SALT_GITLAB + 1));
  cJSON_AddStringToObject(issue, "fingerprint", fingerprint);
  cJSON_AddStringToObject(issue, "severity", finding->severity == GL_SEVERITY_ERROR ? "major" : "minor");
  cJSON *categories = cJSON_AddArrayToObject(issue, "categories");
  cJSON_AddItemToArray(categories, cJSON_CreateString(report__gitlab_category(finding->effect)));
  cJSON *location = cJSON_AddObjectToObject(issue, "location");
  cJSON_AddStringToObject(location, "path", path);
  cJSON *lines = cJSON_AddObjectToObject(location, "lines");
  cJSON_AddNumberToObject(lines, "begin", finding->cell ? 1 : finding->start.line);
  cJSON_AddNumberToObject(lines, "end", finding->cell ? 1 : finding->end.line);
  free(description);
  free(prefix);
  free(path);
  return issue;
}

void report_gitlab(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count) {
  cJSON *array = cJSON_CreateArray();
  for (size_t i = 0; i < count; i++) {
    GlFinding record;
    if (report_error_record(files[i].result, &record)) {
      cJSON_AddItemToArray(array, report__gitlab_issue(options, &files[i], &record, RECORD));
    }
    for (uint32_t j = 0; j < files[i].result->finding_count; j++) {
      cJSON_AddItemToArray(array, report__gitlab_issue(options, &files[i], &files[i].result->findings[j], j));
    }
  }
  char *text = cJSON_Print(array);
  fprintf(out, "%s\n", text);
  free(text);
  cJSON_Delete(array);
}
