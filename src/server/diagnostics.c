/* diagnostics.c — linting open documents and publishing their findings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "path.h"
#include "report.h"
#include "server.h"

/* ---- Settings ------------------------------------------------------------------ */

/* The resolver of config files, made again after a config change. */
static Resolver *diagnostics__resolver(Server *self) {
  if (self->resolver) return self->resolver;
  ResolverOptions options = {self->root, &self->flags, NULL, false};
  char *error = NULL;
  self->resolver = resolver_new(&options, &error);
  free(error); /* without --config there is nothing that can fail here */
  return self->resolver;
}

/* Logs a config error once (until it changes). */
static void diagnostics__config_error(Server *self, char *error) {
  if (!self->config_error || strcmp(self->config_error, error) != 0) {
    server_log(self, 1, "gpulint: %s; the default rules apply until it is fixed", error);
    free(self->config_error);
    self->config_error = error;
  } else {
    free(error);
  }
}

bool server_rules_for(Server *self, const char *path, GlRuleSet *rules) {
  *rules = gl_rule_set_default();
  report_set_rule_url(NULL); /* until this file's settings name one */
  Resolver *resolver = diagnostics__resolver(self);
  if (path[0] != '/' || !resolver) return true;
  char *folder = path_parent(path), *error = NULL;
  const Settings *settings = resolver_settings(resolver, folder, &error);
  free(folder);
  if (error) {
    diagnostics__config_error(self, error);
    return true;
  }
  if (!settings) return true;
  if (settings_excludes(settings, path)) return false;
  *rules = settings_rules_for(settings, path);
  report_set_rule_url(settings->rule_url); /* the project's rule pages, for codeDescription */
  return true;
}

/* ---- Diagnostics ------------------------------------------------------------------ */

/* The related location of a finding that rests on another file's code. */
static cJSON *diagnostics__related(const GlFinding *finding) {
  cJSON *related = cJSON_CreateArray(), *item = cJSON_CreateObject();
  cJSON *location = cJSON_AddObjectToObject(item, "location");
  char *uri = server_path_uri(finding->related_path);
  cJSON_AddStringToObject(location, "uri", uri);
  free(uri);
  cJSON *range = cJSON_AddObjectToObject(location, "range");
  uint32_t line = finding->related_line > 0 ? finding->related_line - 1 : 0;
  cJSON *start = cJSON_AddObjectToObject(range, "start"), *end = cJSON_AddObjectToObject(range, "end");
  cJSON_AddNumberToObject(start, "line", line);
  cJSON_AddNumberToObject(start, "character", 0);
  cJSON_AddNumberToObject(end, "line", line);
  cJSON_AddNumberToObject(end, "character", 0);
  cJSON_AddStringToObject(item, "message", "the definition this finding rests on");
  cJSON_AddItemToArray(related, item);
  return related;
}

cJSON *server_diagnostic(Server *self, Doc *doc, const Span *span) {
  const GlFinding *finding = span->finding;
  const GlRuleInfo *rule = gl_rule_info(finding->rule);
  cJSON *diagnostic = cJSON_CreateObject();
  cJSON_AddItemToObject(diagnostic, "range", doc_range(doc, self->encoding, span->start, span->end));
  cJSON_AddNumberToObject(diagnostic, "severity", finding->severity == GL_SEVERITY_ERROR ? 1 : 2);
  cJSON_AddStringToObject(diagnostic, "code", rule->code);
  char *url = report_rule_url(rule);
  if (url && url[0]) cJSON_AddStringToObject(cJSON_AddObjectToObject(diagnostic, "codeDescription"), "href", url);
  free(url);
  cJSON_AddStringToObject(diagnostic, "source", "gpulint");
  cJSON_AddStringToObject(diagnostic, "message", finding->message);
  if (finding->related_path) cJSON_AddItemToObject(diagnostic, "relatedInformation", diagnostics__related(finding));
  return diagnostic;
}

/* A notice at the top of the document (a file too large, one that cannot
 * be linted). */
static cJSON *diagnostics__notice(Server *self, Doc *doc, const char *message) {
  cJSON *diagnostic = cJSON_CreateObject();
  cJSON_AddItemToObject(diagnostic, "range", doc_range(doc, self->encoding, 0, 0));
  cJSON_AddNumberToObject(diagnostic, "severity", 3);
  cJSON_AddStringToObject(diagnostic, "source", "gpulint");
  cJSON_AddStringToObject(diagnostic, "message", message);
  return diagnostic;
}

/* Publishes `diagnostics` (taken) for `doc`. */
static void diagnostics__publish(Server *self, Doc *doc, cJSON *diagnostics) {
  doc->shown = cJSON_GetArraySize(diagnostics) > 0;
  cJSON *params = cJSON_CreateObject();
  cJSON_AddStringToObject(params, "uri", doc->uri);
  cJSON_AddNumberToObject(params, "version", (double)doc->version);
  cJSON_AddItemToObject(params, "diagnostics", diagnostics);
  server_notify(self, "textDocument/publishDiagnostics", params);
}

void server_clear(Server *self, Doc *doc) {
  if (doc->shown) diagnostics__publish(self, doc, cJSON_CreateArray());
}

/* Publishes the document's spans, and its result's error or note. */
void server_publish(Server *self, Doc *doc, const char *notice) {
  cJSON *diagnostics = cJSON_CreateArray();
  if (notice) cJSON_AddItemToArray(diagnostics, diagnostics__notice(self, doc, notice));
  for (uint32_t i = 0; i < doc->spans.size; i++) {
    cJSON_AddItemToArray(diagnostics, server_diagnostic(self, doc, &doc->spans.contents[i]));
  }
  diagnostics__publish(self, doc, diagnostics);
}

/* ---- Linting ------------------------------------------------------------------------ */

void doc_clear_result(Doc *self) {
  gl_file_result_delete(self->result);
  self->result = NULL;
  array_clear(&self->spans);
}

/* Why the document is not linted, or NULL; the caller frees it. */
static char *diagnostics__refusal(const Doc *doc) {
  size_t length = 0;
  if (!doc->text) {
    return gl_format("gpulint: this document is larger than %u MB and is not followed; reopen it once smaller",
                     SERVER_MAX_TEXT_BYTES >> 20);
  }
  gl_document_text(doc->text, &length);
  if (length > SERVER_MAX_LINT_BYTES) {
    return gl_format("gpulint: this file is too large to lint in the editor (%zu bytes; the limit is %u)", length,
                     SERVER_MAX_LINT_BYTES);
  }
  return NULL;
}

/* Lints a Python document and publishes what it found. */
static void diagnostics__lint_doc(Server *self, Doc *doc) {
  doc->dirty = false;
  doc_clear_result(doc);
  GlRuleSet rules;
  char *notice = diagnostics__refusal(doc);
  if (notice || !server_rules_for(self, doc->path, &rules)) {
    server_publish(self, doc, notice);
    free(notice);
    return;
  }
  doc->result = gl_linter_lint_document(self->linter, doc->text, &rules);
  const GlFileResult *result = doc->result;
  bool notebook_text = strlen(doc->path) > 6 && strcmp(doc->path + strlen(doc->path) - 6, ".ipynb") == 0;
  for (uint32_t i = 0; i < result->finding_count && !notebook_text; i++) {
    const GlFinding *finding = &result->findings[i];
    array_push(&doc->spans, ((Span){finding->start_byte, finding->end_byte, finding}));
  }
  if (notebook_text && result->finding_count) { /* a notebook opened as text: positions are cells' */
    notice = gl_format("gpulint: %u finding%s in this notebook's cells; open it as a notebook to see them",
                       result->finding_count, result->finding_count == 1 ? "" : "s");
  } else if (result->error || result->note) {
    notice = gl_format("gpulint: %s", result->error ? result->error : result->note);
  }
  server_publish(self, doc, notice);
  free(notice);
}

void server_lint_dirty(Server *self) {
  for (uint32_t i = 0; i < self->docs.size; i++) {
    Doc *doc = self->docs.contents[i];
    if (doc->dirty && doc->python && !doc->notebook) diagnostics__lint_doc(self, doc);
  }
  for (uint32_t i = 0; i < self->notebooks.size; i++) {
    if (self->notebooks.contents[i]->dirty) server_notebook_lint(self, self->notebooks.contents[i]);
  }
}

/* Whether the result read the file at `path`. */
static bool diagnostics__depends(const GlFileResult *result, const char *path) {
  for (uint32_t i = 0; result && i < result->dependency_count; i++) {
    if (strcmp(result->dependencies[i].path, path) == 0) return true;
  }
  return false;
}

void server_mark_dependents(Server *self, const char *path) {
  for (uint32_t i = 0; i < self->docs.size; i++) {
    Doc *doc = self->docs.contents[i];
    if (!doc->python || doc->notebook) continue;
    if (!path || diagnostics__depends(doc->result, path)) doc->dirty = true;
  }
  for (uint32_t i = 0; i < self->notebooks.size; i++) {
    Notebook *notebook = self->notebooks.contents[i];
    if (!path || diagnostics__depends(notebook->result, path)) notebook->dirty = true;
  }
}
