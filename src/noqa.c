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

/* After "noqa": NULL/empty list means all; otherwise whether `code` is
 * listed. Codes are letters then digits, separated by commas or spaces; a
 * listed prefix ("GPU1") covers the codes it starts. */
static bool noqa__covers(const char *after, const char *end, const char *code) {
  const char *p = after;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (p >= end || *p != ':') return true;
  p++;
  bool any = false;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == ',')) p++;
    const char *start = p;
    while (p < end && isalnum((unsigned char)*p)) p++;
    size_t length = (size_t)(p - start);
    if (length == 0) break;
    any = true;
    if (length <= strlen(code) && strncasecmp(start, code, length) == 0) return true;
  }
  return !any;
}

bool noqa_suppresses(const char *line, uint32_t length, const char *code) {
  const char *end = line + length;
  const char *after = noqa__find(line, end);
  return after && noqa__covers(after, end, code);
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

bool noqa_skips_file(const char *bytes, uint32_t length, const char *code) {
  const char *end = bytes + length;
  for (const char *line = bytes; line < end;) {
    const char *newline = memchr(line, '\n', (size_t)(end - line));
    const char *line_end = newline ? newline : end;
    if (noqa__file_line(line, line_end, code)) return true;
    line = line_end + 1;
  }
  return false;
}
