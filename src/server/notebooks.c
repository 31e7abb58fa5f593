/* notebooks.c — notebook documents (LSP 3.17 notebook sync): the cells
 * are linted together as one nbformat 4 notebook, and each cell's findings
 * are published on the cell's own URI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "server.h"

Notebook *server_find_notebook(Server *self, const char *uri) {
  for (uint32_t i = 0; i < self->notebooks.size; i++) {
    if (strcmp(self->notebooks.contents[i]->uri, uri) == 0) return self->notebooks.contents[i];
  }
  return NULL;
}

void notebook_delete(Notebook *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->cells.size; i++) free(self->cells.contents[i].uri);
  array_delete(&self->cells);
  gl_file_result_delete(self->result);
  free(self->json);
  free(self->path);
  free(self->uri);
  free(self);
}

/* ---- Cells ---------------------------------------------------------------------- */

/* The open document of cell `index` when it is a Python code cell. */
static Doc *notebook__cell_doc(Server *server, const Notebook *self, uint32_t index) {
  Doc *doc = server_find_doc(server, self->cells.contents[index].uri);
  return doc && doc->notebook == self && self->cells.contents[index].kind == 2 ? doc : NULL;
}

/* A cell's document that is no longer one of the notebook's cells (a
 * client out of step): its diagnostics are cleared and it goes on as a
 * plain document. */
static void notebook__detach(Server *server, Doc *doc) {
  server_clear(server, doc);
  array_clear(&doc->spans);
  doc->notebook = NULL;
  doc->dirty = doc->python;
}

/* Detaches every open document that still names `self` as its notebook
 * but is not one of its cells. */
static void notebook__detach_strays(Server *server, Notebook *self) {
  for (uint32_t i = 0; i < server->docs.size; i++) {
    Doc *doc = server->docs.contents[i];
    if (doc->notebook != self) continue;
    bool listed = false;
    for (uint32_t j = 0; j < self->cells.size && !listed; j++) listed = strcmp(self->cells.contents[j].uri, doc->uri) == 0;
    if (!listed) notebook__detach(server, doc);
  }
}

/* Inserts `cells` (NotebookCell objects) at `at`. */
static void notebook__insert_cells(Notebook *self, uint32_t at, const cJSON *cells) {
  const cJSON *item;
  cJSON_ArrayForEach(item, cells) {
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(item, "document");
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(item, "kind");
    if (!cJSON_IsString(uri)) continue;
    Cell cell = {gl_strdup(uri->valuestring), cJSON_IsNumber(kind) ? kind->valueint : 2};
    array_push(&self->cells, cell);
    memmove(&self->cells.contents[at + 1], &self->cells.contents[at], (self->cells.size - 1 - at) * sizeof(Cell));
    self->cells.contents[at++] = cell;
  }
}

/* Opens the cells' text documents (TextDocumentItems) as part of `self`. */
static void notebook__open_texts(Server *server, Notebook *self, const cJSON *items) {
  const cJSON *item;
  cJSON_ArrayForEach(item, items) {
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(item, "uri"), *text = cJSON_GetObjectItemCaseSensitive(item, "text");
    const cJSON *language = cJSON_GetObjectItemCaseSensitive(item, "languageId");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(item, "version");
    if (!cJSON_IsString(uri) || !cJSON_IsString(text)) continue;
    Doc *doc = server_doc_open(server, uri->valuestring, cJSON_IsString(language) ? language->valuestring : "python",
                               cJSON_IsNumber(version) ? (int64_t)version->valuedouble : 0, text->valuestring,
                               strlen(text->valuestring));
    if (!doc) continue;
    doc->notebook = self;
    doc->dirty = false;
  }
  self->dirty = true;
}

/* Closes the cells' text documents (TextDocumentIdentifiers). */
static void notebook__close_texts(Server *server, const cJSON *items) {
  const cJSON *item;
  cJSON_ArrayForEach(item, items) {
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(item, "uri");
    if (cJSON_IsString(uri)) server_doc_close(server, uri->valuestring);
  }
}

/* ---- Sync ------------------------------------------------------------------------------ */

void server_notebook_open(Server *self, const cJSON *params) {
  const cJSON *document = cJSON_GetObjectItemCaseSensitive(params, "notebookDocument");
  const cJSON *uri = cJSON_GetObjectItemCaseSensitive(document, "uri");
  if (!cJSON_IsString(uri)) {
    server_log(self, 2, "gpulint: notebookDocument/didOpen without a uri: ignored");
    return;
  }
  if (server_find_notebook(self, uri->valuestring)) server_notebook_close(self, params);
  if (self->docs.size + self->notebooks.size >= SERVER_MAX_DOCUMENTS) return;
  Notebook *notebook = gl_calloc(1, sizeof(Notebook));
  notebook->uri = gl_strdup(uri->valuestring);
  notebook->path = server_doc_path(uri->valuestring);
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(document, "version");
  notebook->version = cJSON_IsNumber(version) ? (int64_t)version->valuedouble : 0;
  notebook__insert_cells(notebook, 0, cJSON_GetObjectItemCaseSensitive(document, "cells"));
  array_push(&self->notebooks, notebook);
  notebook__open_texts(self, notebook, cJSON_GetObjectItemCaseSensitive(params, "cellTextDocuments"));
}

/* A structure change: cells [start, start + deleteCount) replaced. */
static void notebook__structure(Server *self, Notebook *notebook, const cJSON *structure) {
  const cJSON *array = cJSON_GetObjectItemCaseSensitive(structure, "array");
  const cJSON *start = cJSON_GetObjectItemCaseSensitive(array, "start");
  const cJSON *count = cJSON_GetObjectItemCaseSensitive(array, "deleteCount");
  notebook__close_texts(self, cJSON_GetObjectItemCaseSensitive(structure, "didClose"));
  if (cJSON_IsNumber(start) && cJSON_IsNumber(count) && start->valuedouble >= 0 && count->valuedouble >= 0 &&
      start->valuedouble + count->valuedouble <= notebook->cells.size) {
    uint32_t at = (uint32_t)start->valuedouble, removed = (uint32_t)count->valuedouble;
    for (uint32_t i = at; i < at + removed; i++) free(notebook->cells.contents[i].uri);
    memmove(&notebook->cells.contents[at], &notebook->cells.contents[at + removed],
            (notebook->cells.size - at - removed) * sizeof(Cell));
    notebook->cells.size -= removed;
    notebook__insert_cells(notebook, at, cJSON_GetObjectItemCaseSensitive(array, "cells"));
    notebook__detach_strays(self, notebook);
  }
  notebook__open_texts(self, notebook, cJSON_GetObjectItemCaseSensitive(structure, "didOpen"));
}

/* Cell kinds changed (NotebookCell objects of `data`). */
static void notebook__data(Notebook *notebook, const cJSON *data) {
  const cJSON *item;
  cJSON_ArrayForEach(item, data) {
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(item, "document"), *kind = cJSON_GetObjectItemCaseSensitive(item, "kind");
    for (uint32_t i = 0; cJSON_IsString(uri) && cJSON_IsNumber(kind) && i < notebook->cells.size; i++) {
      if (strcmp(notebook->cells.contents[i].uri, uri->valuestring) == 0) notebook->cells.contents[i].kind = kind->valueint;
    }
  }
  notebook->dirty = true;
}

void server_notebook_change(Server *self, const cJSON *params) {
  const cJSON *document = cJSON_GetObjectItemCaseSensitive(params, "notebookDocument");
  const cJSON *uri = cJSON_GetObjectItemCaseSensitive(document, "uri");
  Notebook *notebook = cJSON_IsString(uri) ? server_find_notebook(self, uri->valuestring) : NULL;
  if (!notebook) {
    server_log(self, 2, "gpulint: notebookDocument/didChange for a notebook that is not open: ignored");
    return;
  }
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(document, "version");
  if (cJSON_IsNumber(version)) notebook->version = (int64_t)version->valuedouble;
  const cJSON *cells = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "change"), "cells");
  const cJSON *structure = cJSON_GetObjectItemCaseSensitive(cells, "structure");
  if (structure) notebook__structure(self, notebook, structure);
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(cells, "data");
  if (data) notebook__data(notebook, data);
  const cJSON *content;
  cJSON_ArrayForEach(content, cJSON_GetObjectItemCaseSensitive(cells, "textContent")) {
    const cJSON *cell = cJSON_GetObjectItemCaseSensitive(content, "document");
    const cJSON *cell_uri = cJSON_GetObjectItemCaseSensitive(cell, "uri"), *cell_version = cJSON_GetObjectItemCaseSensitive(cell, "version");
    Doc *doc = cJSON_IsString(cell_uri) ? server_find_doc(self, cell_uri->valuestring) : NULL;
    if (!doc || doc->notebook != notebook) continue;
    server_doc_change(self, doc, cJSON_GetObjectItemCaseSensitive(content, "changes"),
                      cJSON_IsNumber(cell_version) ? (int64_t)cell_version->valuedouble : doc->version);
  }
  notebook->dirty = true;
}

void server_notebook_close(Server *self, const cJSON *params) {
  const cJSON *uri = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "notebookDocument"), "uri");
  for (uint32_t i = 0; cJSON_IsString(uri) && i < self->notebooks.size; i++) {
    Notebook *notebook = self->notebooks.contents[i];
    if (strcmp(notebook->uri, uri->valuestring) != 0) continue;
    for (uint32_t j = 0; j < notebook->cells.size; j++) {
      Doc *doc = server_find_doc(self, notebook->cells.contents[j].uri);
      if (doc && doc->notebook == notebook) server_doc_close(self, doc->uri);
    }
    notebook__detach_strays(self, notebook); /* cells the client removed but left open */
    self->notebooks.contents[i] = self->notebooks.contents[--self->notebooks.size];
    notebook_delete(notebook);
    return;
  }
}

/* ---- Linting --------------------------------------------------------------------------------- */

/* The notebook's cells as nbformat 4 JSON; the caller frees it. Cells
 * without a Python text (markdown, other languages) keep their place as
 * markdown or raw cells, so that cell numbers match the editor's. */
static char *notebook__json(Server *server, const Notebook *self, size_t *length) {
  cJSON *root = cJSON_CreateObject(), *cells = cJSON_AddArrayToObject(root, "cells");
  for (uint32_t i = 0; i < self->cells.size; i++) {
    Doc *doc = notebook__cell_doc(server, self, i);
    cJSON *cell = cJSON_CreateObject();
    cJSON_AddStringToObject(cell, "cell_type", doc ? "code" : self->cells.contents[i].kind == 1 ? "markdown" : "raw");
    cJSON_AddObjectToObject(cell, "metadata");
    if (doc) {
      cJSON_AddNullToObject(cell, "execution_count");
      cJSON_AddArrayToObject(cell, "outputs");
    }
    size_t text_length = 0;
    const char *text = doc ? doc_text(doc, &text_length) : "";
    char *copy = gl_strndup(text, text_length);
    cJSON_AddStringToObject(cell, "source", copy);
    free(copy);
    cJSON_AddItemToArray(cells, cell);
  }
  cJSON *metadata = cJSON_AddObjectToObject(root, "metadata"), *kernel = cJSON_AddObjectToObject(metadata, "kernelspec");
  cJSON_AddStringToObject(kernel, "language", "python");
  cJSON_AddStringToObject(kernel, "name", "python3");
  cJSON_AddStringToObject(cJSON_AddObjectToObject(metadata, "language_info"), "name", "python");
  cJSON_AddNumberToObject(root, "nbformat", 4);
  cJSON_AddNumberToObject(root, "nbformat_minor", 5);
  char *printed = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  char *json = gl_strdup(printed ? printed : "{}");
  cJSON_free(printed);
  *length = strlen(json);
  return json;
}

/* Puts each finding on its cell's document as a span. */
static void notebook__spans(Server *server, Notebook *self) {
  for (uint32_t i = 0; i < self->result->finding_count; i++) {
    const GlFinding *finding = &self->result->findings[i];
    if (finding->cell == 0 || finding->cell > self->cells.size) continue;
    Doc *doc = notebook__cell_doc(server, self, finding->cell - 1);
    if (!doc) continue;
    const LineIndex *lines = doc_lines(doc);
    uint32_t start = (uint32_t)line_index_column_offset(lines, finding->start.line, finding->start.column);
    uint32_t end = (uint32_t)line_index_column_offset(lines, finding->end.line, finding->end.column);
    array_push(&doc->spans, ((Span){start, end < start ? start : end, finding}));
  }
}

/* The first code cell's document, where notices go. */
static Doc *notebook__first_code(Server *server, Notebook *self) {
  for (uint32_t i = 0; i < self->cells.size; i++) {
    Doc *doc = notebook__cell_doc(server, self, i);
    if (doc) return doc;
  }
  return NULL;
}

void server_notebook_lint(Server *self, Notebook *notebook) {
  notebook->dirty = false;
  for (uint32_t i = 0; i < notebook->cells.size; i++) {
    Doc *doc = notebook__cell_doc(self, notebook, i);
    if (doc) array_clear(&doc->spans);
  }
  gl_file_result_delete(notebook->result);
  notebook->result = NULL;
  free(notebook->json);
  notebook->json = notebook__json(self, notebook, &notebook->json_length);
  GlRuleSet rules;
  char *notice = NULL;
  if (notebook->json_length > SERVER_MAX_LINT_BYTES) {
    notice = gl_format("gpulint: this notebook is too large to lint in the editor (%zu bytes; the limit is %u)",
                       notebook->json_length, SERVER_MAX_LINT_BYTES);
  } else if (server_rules_for(self, notebook->path, &rules)) {
    notebook->result = gl_linter_lint_buffer(self->linter, notebook->path, notebook->json, notebook->json_length, &rules);
    notebook__spans(self, notebook);
    if (notebook->result->error) notice = gl_format("gpulint: %s", notebook->result->error);
  }
  Doc *first = notebook__first_code(self, notebook);
  for (uint32_t i = 0; i < notebook->cells.size; i++) {
    Doc *doc = notebook__cell_doc(self, notebook, i);
    if (doc) server_publish(self, doc, doc == first ? notice : NULL);
  }
  free(notice);
}

/* ---- Edits ------------------------------------------------------------------------------------- */

/* A cell's `source` as one string (nbformat allows a list of lines); the
 * caller frees it. */
static char *notebook__source(const cJSON *cell) {
  const cJSON *source = cJSON_GetObjectItemCaseSensitive(cell, "source");
  if (cJSON_IsString(source)) return gl_strdup(source->valuestring);
  char *joined = gl_strdup("");
  const cJSON *line;
  cJSON_ArrayForEach(line, source) {
    if (!cJSON_IsString(line)) continue;
    char *next = gl_format("%s%s", joined, line->valuestring);
    free(joined);
    joined = next;
  }
  return joined;
}

cJSON *server_notebook_edit(Server *self, Notebook *notebook, const char *json, size_t length) {
  cJSON *root = cJSON_ParseWithLength(json, length);
  const cJSON *cells = cJSON_GetObjectItemCaseSensitive(root, "cells");
  cJSON *edit = NULL;
  uint32_t count = (uint32_t)cJSON_GetArraySize(cells);
  for (uint32_t i = 0; cJSON_IsArray(cells) && i < count && i < notebook->cells.size; i++) {
    Doc *doc = notebook__cell_doc(self, notebook, i);
    if (!doc) continue;
    char *source = notebook__source(cJSON_GetArrayItem(cells, (int)i));
    size_t old_length = 0, start, end, new_end;
    const char *old = doc_text(doc, &old_length);
    if (text_difference(old, old_length, source, strlen(source), &start, &end, &new_end)) {
      if (!edit) edit = server_edit_new();
      server_edit_add(self, edit, doc, start, end, source + start, new_end - start);
    }
    free(source);
  }
  cJSON_Delete(root);
  return edit;
}
