/* snippet.c — finding the text of a finding's line in a file or a cell. */
#include "snippet.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"
#include "diff.h"
#include "edits.h"

char *snippet_line(const char *text, size_t length, uint32_t line) {
  if (line == 0) return NULL;
  const char *end = text + length, *p = text;
  for (uint32_t current = 1; current < line; current++) {
    const char *newline = memchr(p, '\n', (size_t)(end - p));
    if (!newline) return NULL;
    p = newline + 1;
  }
  const char *line_end = memchr(p, '\n', (size_t)(end - p));
  if (!line_end) line_end = end;
  if (line_end > p && line_end[-1] == '\r') line_end--;
  return gl_strndup(p, (size_t)(line_end - p));
}

/* The source of a notebook cell: a string or a list of strings. NULL when
 * the cell is missing or malformed; the caller frees it. */
static char *snippet__cell_source(const cJSON *notebook, uint32_t cell) {
  const cJSON *cells = cJSON_GetObjectItemCaseSensitive(notebook, "cells");
  const cJSON *item = cJSON_IsArray(cells) && cell > 0 ? cJSON_GetArrayItem(cells, (int)cell - 1) : NULL;
  const cJSON *source = item ? cJSON_GetObjectItemCaseSensitive(item, "source") : NULL;
  if (cJSON_IsString(source)) return gl_strdup(source->valuestring);
  if (!cJSON_IsArray(source)) return NULL;
  Array(char) text = array_new();
  const cJSON *part;
  cJSON_ArrayForEach(part, source) {
    if (!cJSON_IsString(part)) continue;
    for (const char *c = part->valuestring; *c; c++) array_push(&text, *c);
  }
  char *result = gl_strndup(text.contents ? text.contents : "", text.size);
  array_delete(&text);
  return result;
}

static char *snippet__notebook_line(const cJSON *notebook, uint32_t cell, uint32_t line) {
  char *source = notebook ? snippet__cell_source(notebook, cell) : NULL;
  if (!source) return NULL;
  char *text = snippet_line(source, strlen(source), line);
  free(source);
  return text;
}

char **snippet_lines(const char *bytes, size_t length, const GlFileResult *result) {
  char **lines = gl_calloc(result->finding_count + 1, sizeof(char *));
  cJSON *notebook = NULL;
  bool parsed = false;
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFinding *finding = &result->findings[i];
    if (finding->cell == 0) {
      lines[i] = snippet_line(bytes, length, finding->start.line);
      continue;
    }
    if (!parsed) {
      notebook = cJSON_ParseWithLength(bytes, length);
      parsed = true;
    }
    lines[i] = snippet__notebook_line(notebook, finding->cell, finding->start.line);
  }
  cJSON_Delete(notebook);
  return lines;
}

void snippet_lines_delete(char **lines, uint32_t count) {
  if (!lines) return;
  for (uint32_t i = 0; i < count; i++) free(lines[i]);
  free(lines);
}

char **snippet_fix_diffs(const char *bytes, size_t length, const GlFileResult *result) {
  char **diffs = gl_calloc(result->finding_count + 1, sizeof(char *));
  for (uint32_t i = 0; i < result->finding_count; i++) {
    const GlFinding *finding = &result->findings[i];
    if (!finding->fix || finding->cell || finding->fix->edits[finding->fix->edit_count - 1].end_byte > length) continue;
    EditList edits = array_new();
    for (uint32_t e = 0; e < finding->fix->edit_count; e++) array_push(&edits, &finding->fix->edits[e]);
    size_t fixed_length = 0;
    char *fixed = edits_apply(bytes, length, &edits, &fixed_length);
    char *text = NULL;
    size_t text_length = 0;
    FILE *stream = open_memstream(&text, &text_length);
    if (stream) {
      diff_print(stream, NULL, bytes, length, fixed, fixed_length);
      fclose(stream);
    }
    diffs[i] = text;
    free(fixed);
    array_delete(&edits);
  }
  return diffs;
}
