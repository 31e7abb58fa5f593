/* glob.c — pattern matching with `**`, classes and alternatives.
 *
 * The matcher is recursive over stars, with two early exits that keep it
 * polynomial: when the text runs out nothing later can match (ABORT_ALL),
 * and a single star that meets a `/` under GLOB_PATHNAME hands control back
 * to the nearest `**` (ABORT_TO_STARSTAR). */
#include "glob.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ALTERNATIVES 256
#define MAX_PATTERN_LENGTH 4096

enum { MATCH, NO_MATCH, ABORT_ALL, ABORT_TO_STARSTAR };

typedef Array(const char *) Positions;

/* class -> '[' ('!' | '^')? ']'? ( c | c '-' c )* ']' ; `*pattern` is at the
 * '['. Returns 1 or 0 for a match, -1 when unclosed; leaves `*pattern` at
 * the closing ']'. */
static int glob__class(const char **pattern, unsigned char c) {
  const char *p = *pattern + 1;
  bool negated = *p == '!' || *p == '^';
  if (negated) p++;
  bool matched = false;
  for (bool first = true; *p && (*p != ']' || first); first = false) {
    unsigned char low = (unsigned char)*p;
    if (low == '\\' && p[1]) low = (unsigned char)*++p;
    p++;
    unsigned char high = low;
    if (*p == '-' && p[1] && p[1] != ']') {
      p++;
      high = (unsigned char)*p;
      if (high == '\\' && p[1]) high = (unsigned char)*++p;
      p++;
    }
    if (c >= low && c <= high) matched = true;
  }
  if (*p != ']') return -1;
  *pattern = p;
  return matched != negated;
}

static int glob__match(const char *p, const char *t, const char *start, bool pathname);

/* A star (or a run of them) at `p`; tries every split of the text. */
static int glob__star(const char *p, const char *t, const char *start, bool pathname) {
  const char *first = p;
  while (p[1] == '*') p++;
  bool whole_component = (first == start || first[-1] == '/') && (p[1] == '\0' || p[1] == '/');
  bool crosses = !pathname || (p > first && whole_component);
  if (pathname && crosses && p[1] == '/' && glob__match(p + 2, t, start, pathname) == MATCH) {
    return MATCH; /* `**` + `/` matches no directories at all */
  }
  p++;
  if (*p == '\0') return !crosses && strchr(t, '/') ? ABORT_TO_STARSTAR : MATCH;
  for (;; t++) {
    int result = glob__match(p, t, start, pathname);
    if (result != NO_MATCH) {
      if (!crosses || result != ABORT_TO_STARSTAR) return result;
    } else if (!crosses && *t == '/') {
      return ABORT_TO_STARSTAR;
    }
    if (*t == '\0') return ABORT_ALL;
  }
}

static int glob__match(const char *p, const char *t, const char *start, bool pathname) {
  for (; *p; p++, t++) {
    if (*p == '*') return glob__star(p, t, start, pathname);
    if (*t == '\0') return ABORT_ALL;
    if (*p == '?') {
      if (pathname && *t == '/') return NO_MATCH;
    } else if (*p == '[') {
      if (pathname && *t == '/') return NO_MATCH;
      if (glob__class(&p, (unsigned char)*t) != 1) return NO_MATCH;
    } else {
      if (*p == '\\' && *++p == '\0') return ABORT_ALL;
      if (*p != *t) return NO_MATCH;
    }
  }
  return *t ? NO_MATCH : MATCH;
}

bool glob_match(const char *pattern, const char *text, unsigned flags) {
  return glob__match(pattern, text, pattern, (flags & GLOB_PATHNAME) != 0) == MATCH;
}

/* ---- Alternatives --------------------------------------------------------- */

/* The '}' that closes the '{' at `open`, skipping escapes and classes, or
 * NULL. `commas` receives the top-level commas. */
static const char *glob__closing_brace(const char *open, Positions *commas) {
  int depth = 0;
  for (const char *p = open; *p; p++) {
    if (*p == '\\') {
      if (!*++p) return NULL;
    } else if (*p == '[') {
      const char *class = p;
      if (glob__class(&class, 0) < 0) return NULL;
      p = class;
    } else if (*p == '{') {
      depth++;
    } else if (*p == '}' && --depth == 0) {
      return p;
    } else if (*p == ',' && depth == 1) {
      array_push(commas, p);
    }
  }
  return NULL;
}

/* The first unescaped '{' outside classes, or NULL; `problem` is set when
 * the pattern is malformed. */
static const char *glob__first_brace(const char *pattern, const char **problem) {
  for (const char *p = pattern; *p; p++) {
    if (*p == '\\') {
      if (!*++p) {
        *problem = "the pattern ends with a backslash";
        return NULL;
      }
    } else if (*p == '[') {
      const char *class = p;
      if (glob__class(&class, 0) < 0) {
        *problem = "unclosed `[` in the pattern";
        return NULL;
      }
      p = class;
    } else if (*p == '}') {
      *problem = "unbalanced `}` in the pattern";
      return NULL;
    } else if (*p == '{') {
      return p;
    }
  }
  return NULL;
}

static bool glob__expand(const char *pattern, StringList *out, const char **problem, uint32_t limit) {
  const char *open = glob__first_brace(pattern, problem);
  if (*problem) return false;
  if (!open) {
    if (out->size >= limit) {
      *problem = "the pattern has too many {} alternatives";
      return false;
    }
    string_list_push(out, pattern);
    return true;
  }
  Positions commas = array_new();
  const char *close = glob__closing_brace(open, &commas);
  if (!close) *problem = "unbalanced `{` in the pattern";
  array_push(&commas, close);
  const char *from = open + 1;
  for (uint32_t i = 0; !*problem && i < commas.size; i++) {
    char *alternative = gl_format("%.*s%.*s%s", (int)(open - pattern), pattern, (int)(commas.contents[i] - from),
                                  from, close + 1);
    glob__expand(alternative, out, problem, limit);
    free(alternative);
    from = commas.contents[i] + 1;
  }
  array_delete(&commas);
  return !*problem;
}

bool glob_expand(const char *pattern, StringList *out, const char **problem) {
  *problem = NULL;
  if (strlen(pattern) > MAX_PATTERN_LENGTH) {
    *problem = "the pattern is too long";
    return false;
  }
  uint32_t before = out->size;
  if (glob__expand(pattern, out, problem, before + MAX_ALTERNATIVES)) return true;
  while (out->size > before) free(out->contents[--out->size]);
  return false;
}

char *glob_escape(const char *literal) {
  Array(char) out = array_new();
  for (const char *p = literal; *p; p++) {
    if (strchr("*?[]{}\\", *p)) array_push(&out, '\\');
    array_push(&out, *p);
  }
  char *result = gl_strndup(out.contents ? out.contents : "", out.size);
  array_delete(&out);
  return result;
}
