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

/* A code: letters then at least one digit ("GPU101", or a prefix such as
 * "GPU1"). Returns its length, or 0. */
static size_t noqa__code_length(const char *p, const char *end) {
  const char *q = p;
  while (q < end && isalpha((unsigned char)*q)) q++;
  if (q == p) return 0;
  const char *digits = q;
  while (q < end && isdigit((unsigned char)*q)) q++;
  if (q == digits || (q < end && isalnum((unsigned char)*q))) return 0;
  return (size_t)(q - p);
}

/* After "noqa": without a ':' and codes, every rule; otherwise whether
 * `code` is listed. Codes are separated by commas or spaces and the list
 * ends at the first word that is not a code (`# noqa: GPU101 see #12`); a
 * listed prefix ("GPU1") covers the codes it starts. */
static bool noqa__covers(const char *after, const char *end, const char *code) {
  const char *p = after;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if (p >= end || *p != ':') return true;
  p++;
  bool any = false;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == ',')) p++;
    size_t length = noqa__code_length(p, end);
    if (length == 0) break;
    any = true;
    if (length <= strlen(code) && strncasecmp(p, code, length) == 0) return true;
    p += length;
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
