/* noqa.c — parsing `# noqa` and `# gpulint: noqa` comments. */
#include "noqa.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* The '#' that starts the line's comment, or NULL. Quotes are tracked so
 * that a '#' inside a string literal does not start one. */
static const char *noqa__comment(const char *line, const char *end) {
  char quote = 0;
  for (const char *p = line; p < end; p++) {
    if (quote && *p == '\\') p++;
    else if (quote && *p == quote) quote = 0;
    else if (!quote && (*p == '"' || *p == '\'')) quote = *p;
    else if (!quote && *p == '#') return p;
  }
  return NULL;
}

/* The position after "noqa" in the first `# noqa` of the comment (any case,
 * optional spaces after '#'; `# type: ignore # noqa` counts), or NULL. */
static const char *noqa__find(const char *line, const char *end) {
  for (const char *hash = noqa__comment(line, end); hash; ) {
    const char *q = hash + 1;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (end - q >= 4 && strncasecmp(q, "noqa", 4) == 0 && (q + 4 == end || !isalnum((unsigned char)q[4]))) {
      return q + 4;
    }
    hash = q < end ? memchr(q, '#', (size_t)(end - q)) : NULL;
  }
  return NULL;
}

/* A word of the code list: letters and digits ("GPU101", "GPU1", a typo
 * such as "GPU2O1"); its length, or 0. */
static size_t noqa__word_length(const char *p, const char *end) {
  const char *q = p;
  while (q < end && isalnum((unsigned char)*q)) q++;
  return (size_t)(q - p);
}

/* Whether a word of a list is meant as a code: letters, then a digit. */
static bool noqa__code_like(const char *p, size_t length) {
  size_t letters = 0;
  while (letters < length && isalpha((unsigned char)p[letters])) letters++;
  return letters > 0 && letters < length;
}

/* Whether a word is meant as one of gpulint's codes: it starts with
 * "GPU" in any case (`F401` is another tool's). */
static bool noqa__ours(const char *p, size_t length) { return length >= 3 && strncasecmp(p, "gpu", 3) == 0; }

/* A well-formed code: letters then only digits ("GPU101", a prefix "GPU1"). */
static bool noqa__well_formed(const char *p, size_t length) {
  size_t i = 0;
  while (i < length && isalpha((unsigned char)p[i])) i++;
  if (i == 0 || i == length) return false;
  for (; i < length; i++) {
    if (!isdigit((unsigned char)p[i])) return false;
  }
  return true;
}

bool noqa_parse(const char *line, uint32_t length, NoqaDirective *out) {
  const char *end = line + length;
  *out = (NoqaDirective){0};
  const char *after = noqa__find(line, end);
  if (!after) return false;
  const char *hash = after - 4;
  while (hash > line && *hash != '#') hash--;
  out->comment_start = (uint32_t)(hash - line);
  const char *p = after;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  out->end = (uint32_t)(after - line);
  bool colon = p < end && *p == ':';
  if (colon) p++;
  out->kind = NOQA_CODES;
  while (p < end && out->code_count < NOQA_MAX_CODES) {
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t' || *q == ',')) q++;
    size_t word = noqa__word_length(q, end);
    if (word == 0 || !noqa__code_like(q, word)) break;
    out->codes[out->code_count++] = (NoqaCode){(uint32_t)(q - line), (uint32_t)word, noqa__well_formed(q, word),
                                               noqa__ours(q, word)};
    p = q + word;
    out->end = (uint32_t)(p - line);
  }
  if (out->code_count == 0) {
    out->kind = NOQA_ALL; /* `# noqa`, `# noqa: reason`: every rule, as in flake8 */
    return true;
  }
  if (!colon) {
    /* `# noqa F401` is a bare noqa to flake8 and ruff; `# noqa GPU101` is a typo of ours */
    bool ours = false;
    for (uint32_t i = 0; i < out->code_count; i++) ours |= out->codes[i].ours;
    out->kind = ours ? NOQA_MALFORMED : NOQA_ALL;
    if (!ours) out->code_count = 0;
  }
  return true;
}

bool noqa_code_covers(const char *line, const NoqaCode *listed, const char *code) {
  return listed->well_formed && listed->length <= strlen(code) && strncasecmp(line + listed->start, code, listed->length) == 0;
}

/* After "noqa" in a `# gpulint: noqa` line: without a ':' and codes,
 * every rule; otherwise whether `code` is listed. */
static bool noqa__covers(const char *after, const char *end, const char *code) {
  const char *p = after;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (p >= end || *p != ':') return true;
  p++;
  bool any = false;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == ',')) p++;
    size_t length = noqa__word_length(p, end);
    if (length == 0 || !noqa__code_like(p, length)) break;
    any = true;
    if (noqa__well_formed(p, length) && length <= strlen(code) && strncasecmp(p, code, length) == 0) return true;
    p += length;
  }
  return !any;
}

bool noqa_suppresses(const char *line, uint32_t length, const char *code) {
  NoqaDirective directive;
  if (!noqa_parse(line, length, &directive)) return false;
  if (directive.kind != NOQA_CODES) return directive.kind == NOQA_ALL;
  for (uint32_t i = 0; i < directive.code_count; i++) {
    if (noqa_code_covers(line, &directive.codes[i], code)) return true;
  }
  return false;
}

/* `# gpulint: noqa[: codes]` alone on a line. */
static bool noqa__file_line(const char *line, const char *end, const char *code) {
  const char *p = line;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (p >= end || *p != '#') return false;
  p++;
  while (p < end && *p == ' ') p++;
  if (end - p < 8 || strncasecmp(p, "gpulint:", 8) != 0) return false;
  p += 8;
  while (p < end && *p == ' ') p++;
  if (end - p < 4 || strncasecmp(p, "noqa", 4) != 0) return false;
  p += 4;
  const char *rest = p;
  while (rest < end && (*rest == ' ' || *rest == '\t')) rest++;
  if (rest >= end || *rest == '\r') return true;
  if (*rest != ':') return false;
  return code && noqa__covers(p, end, code);
}

/* Only a line whose first non-blank byte is '#' can skip the file, so the
 * search jumps from '#' to '#' (comments are rarer than lines) and looks
 * back over blanks to the line's start. */
bool noqa_skips_file(const char *bytes, uint32_t length, const char *code) {
  const char *end = bytes + length;
  for (const char *hash = memchr(bytes, '#', length); hash;) {
    const char *line = hash;
    while (line > bytes && (line[-1] == ' ' || line[-1] == '\t')) line--;
    const char *line_end = memchr(hash, '\n', (size_t)(end - hash));
    if (!line_end) line_end = end;
    if ((line == bytes || line[-1] == '\n') && noqa__file_line(line, line_end, code)) return true;
    hash = line_end < end ? memchr(line_end, '#', (size_t)(end - line_end)) : NULL;
  }
  return false;
}
