/* actions.c — code actions (each finding's fix, `# noqa: CODE`, every safe
 * fix of the file) and hover (the finding's detail and the rule's page). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "server.h"

/* What an action edits: a Python document, or a notebook through its
 * cells. */
typedef struct {
  Doc *doc;            /* the document asked about */
  Notebook *notebook;  /* its notebook, or NULL */
  const char *path;    /* the file the engine lints */
  const char *content; /* the content it lints (a notebook's JSON) */
  size_t length;
} Target;

static Target actions__target(Doc *doc) {
  Target target = {doc, doc->notebook, doc->path, NULL, 0};
  if (target.notebook) {
    target.path = target.notebook->path;
    target.content = target.notebook->json ? target.notebook->json : "";
    target.length = target.notebook->json ? target.notebook->json_length : 0;
  } else {
    target.content = doc_text(doc, &target.length);
  }
  return target;
}

/* The WorkspaceEdit that turns the target's content into `fixed` (taken),
 * or NULL when nothing changes. */
static cJSON *actions__edit(Server *self, const Target *target, char *fixed, size_t fixed_length) {
  if (!fixed) return NULL;
  cJSON *edit = NULL;
  if (target->notebook) {
    edit = server_notebook_edit(self, target->notebook, fixed, fixed_length);
  } else {
    size_t start, end, new_end;
    if (text_difference(target->content, target->length, fixed, fixed_length, &start, &end, &new_end)) {
      edit = server_edit_new();
      server_edit_add(self, edit, target->doc, start, end, fixed + start, new_end - start);
    }
  }
  free(fixed);
  return edit;
}

/* A CodeAction; `edit` and `diagnostic` are taken (either may be NULL). */
static cJSON *actions__action(const char *title, const char *kind, bool preferred, cJSON *edit, cJSON *diagnostic) {
  cJSON *action = cJSON_CreateObject();
  cJSON_AddStringToObject(action, "title", title);
  cJSON_AddStringToObject(action, "kind", kind);
  if (diagnostic) cJSON_AddItemToArray(cJSON_AddArrayToObject(action, "diagnostics"), diagnostic);
  if (preferred) cJSON_AddBoolToObject(action, "isPreferred", true);
  cJSON_AddItemToObject(action, "edit", edit);
  return action;
}

/* ---- Quick fixes -------------------------------------------------------------------------- */

/* The finding's own fix: edits of the Python text, or of the notebook's
 * cells through its JSON. */
static cJSON *actions__fix_edit(Server *self, const Target *target, const GlFix *fix) {
  if (!target->notebook) {
    cJSON *edit = server_edit_new();
    for (uint32_t i = 0; i < fix->edit_count; i++) {
      const GlEdit *one = &fix->edits[i];
      server_edit_add(self, edit, target->doc, one->start_byte, one->end_byte, one->content, strlen(one->content));
    }
    return edit;
  }
  size_t length = 0;
  char *fixed = gl_fix_apply(target->path, target->content, target->length, fix, &length);
  return actions__edit(self, target, fixed, length);
}

static void actions__fix(Server *self, const Target *target, const Span *span, cJSON *actions) {
  const GlFix *fix = span->finding->fix;
  if (!fix) return;
  cJSON *edit = actions__fix_edit(self, target, fix);
  if (!edit) return;
  bool safe = fix->applicability == GL_FIX_SAFE;
  const char *code = gl_rule_info(span->finding->rule)->code;
  char *title = safe ? gl_format("%s (%s)", fix->title, code)
                     : gl_format("%s (%s; unsafe fix: it may change what the code computes)", fix->title, code);
  cJSON_AddItemToArray(actions, actions__action(title, "quickfix", safe, edit, server_diagnostic(self, target->doc, span)));
  free(title);
}

/* `# noqa: CODE` on the finding's line, as `gpulint check --add-noqa`
 * writes it (added to the line's list when it has one). */
static void actions__noqa(Server *self, const Target *target, const Span *span, cJSON *actions) {
  GlFileResult one = {.path = (char *)target->path, .findings = (GlFinding *)span->finding, .finding_count = 1};
  size_t length = 0;
  uint32_t added = 0;
  char *fixed = gl_linter_add_noqa(self->linter, target->path, target->content, target->length, &one, &length, &added);
  cJSON *edit = actions__edit(self, target, fixed, length);
  if (!edit) return;
  const char *code = gl_rule_info(span->finding->rule)->code;
  char *title = gl_format("Suppress %s with `# noqa: %s`", code, code);
  cJSON_AddItemToArray(actions, actions__action(title, "quickfix", false, edit, server_diagnostic(self, target->doc, span)));
  free(title);
}

/* ---- Fix all ------------------------------------------------------------------------------- */

/* Whether a finding of the target's last lint has a safe fix. */
static bool actions__has_safe_fix(const Target *target) {
  const GlFileResult *result = target->notebook ? target->notebook->result : target->doc->result;
  for (uint32_t i = 0; result && i < result->finding_count; i++) {
    const GlFix *fix = result->findings[i].fix;
    if (fix && fix->applicability == GL_FIX_SAFE) return true;
  }
  return false;
}

static void actions__fix_all(Server *self, const Target *target, cJSON *actions) {
  GlRuleSet rules;
  if (!actions__has_safe_fix(target) || !server_rules_for(self, target->path, &rules)) return;
  GlFixedFile *fixed = gl_linter_fix_buffer(self->linter, target->path, target->content, target->length, &rules, false);
  cJSON *edit = fixed->bytes ? actions__edit(self, target, fixed->bytes, fixed->length) : NULL;
  fixed->bytes = NULL; /* taken by actions__edit */
  gl_fixed_file_delete(fixed);
  if (edit) cJSON_AddItemToArray(actions, actions__action("Fix all gpulint findings", "source.fixAll.gpulint", false, edit, NULL));
}

/* ---- Requests ---------------------------------------------------------------------------------- */

cJSON *server_code_actions(Server *self, const cJSON *params) {
  cJSON *actions = cJSON_CreateArray();
  const cJSON *document = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  Doc *doc = server_find_doc(self, cJSON_GetObjectItemCaseSensitive(document, "uri")->valuestring);
  const cJSON *range = cJSON_GetObjectItemCaseSensitive(params, "range");
  const cJSON *only = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "context"), "only");
  size_t start = 0, end = 0;
  if (!doc || !doc->python || !doc->text ||
      !doc_offset(doc, self->encoding, cJSON_GetObjectItemCaseSensitive(range, "start"), &start) ||
      !doc_offset(doc, self->encoding, cJSON_GetObjectItemCaseSensitive(range, "end"), &end)) {
    return actions;
  }
  Target target = actions__target(doc);
  for (uint32_t i = 0; i < doc->spans.size && server_kind_wanted(only, "quickfix"); i++) {
    const Span *span = &doc->spans.contents[i];
    if (span->start > end || span->end < start) continue;
    actions__fix(self, &target, span, actions);
    actions__noqa(self, &target, span, actions);
  }
  if (server_kind_wanted(only, "source.fixAll.gpulint")) actions__fix_all(self, &target, actions);
  return actions;
}

/* The rule's page, or its summary when it has none; the caller frees it. */
static char *actions__docs(uint32_t rule) {
  const char *docs = gl_rule_docs(rule);
  const GlRuleInfo *info = gl_rule_info(rule);
  return docs ? gl_strdup(docs) : gl_format("# %s (%s)\n\n%s\n", info->name, info->code, info->summary);
}

cJSON *server_hover(Server *self, const cJSON *params) {
  const cJSON *document = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
  Doc *doc = server_find_doc(self, cJSON_GetObjectItemCaseSensitive(document, "uri")->valuestring);
  size_t at = 0;
  if (!doc || !doc->text || !doc_offset(doc, self->encoding, cJSON_GetObjectItemCaseSensitive(params, "position"), &at)) {
    return NULL;
  }
  char *markdown = NULL;
  const Span *first = NULL;
  bool seen[GL_MAX_RULES] = {false};
  for (uint32_t i = 0; i < doc->spans.size; i++) {
    const Span *span = &doc->spans.contents[i];
    uint32_t rule = span->finding->rule;
    if (at < span->start || at > span->end || rule >= GL_MAX_RULES || seen[rule]) continue;
    seen[rule] = true;
    char *docs = actions__docs(rule);
    char *page = span->finding->detail
                     ? gl_format("**%s** %s\n\n---\n\n%s", gl_rule_info(rule)->code, span->finding->detail, docs)
                     : gl_strdup(docs); /* this finding's mechanism and numbers, then the rule's page */
    free(docs);
    char *joined = markdown ? gl_format("%s\n\n---\n\n%s", markdown, page) : gl_strdup(page);
    free(page);
    free(markdown);
    markdown = joined;
    if (!first) first = span;
  }
  if (!markdown) return NULL;
  cJSON *hover = cJSON_CreateObject();
  cJSON *contents = cJSON_AddObjectToObject(hover, "contents");
  cJSON_AddStringToObject(contents, "kind", "markdown");
  cJSON_AddStringToObject(contents, "value", markdown);
  cJSON_AddItemToObject(hover, "range", doc_range(doc, self->encoding, first->start, first->end));
  free(markdown);
  return hover;
}
