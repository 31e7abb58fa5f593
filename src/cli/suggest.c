/* suggest.c — finding the name a mistyped word meant. */
#include "suggest.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Words longer than this are not compared: no command or option is. */
#define MAX_WORD 64

static size_t suggest__min(size_t a, size_t b) {
  return a < b ? a : b;
}

size_t suggest_distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > MAX_WORD || m > MAX_WORD) return (size_t)-1;
  size_t d[MAX_WORD + 1][MAX_WORD + 1];
  for (size_t i = 0; i <= n; i++) d[i][0] = i;
  for (size_t j = 0; j <= m; j++) d[0][j] = j;
  for (size_t i = 1; i <= n; i++) {
    for (size_t j = 1; j <= m; j++) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = suggest__min(suggest__min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = suggest__min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

/* How many edits still make `word` close to `name`. */
static size_t suggest__allowed(const char *word, const char *name) {
  return suggest__min(strlen(word), strlen(name)) <= 4 ? 1 : 2;
}

static size_t suggest__length_gap(const char *word, const char *name) {
  size_t a = strlen(word), b = strlen(name);
  return a > b ? a - b : b - a;
}

const char *suggest_closest(const char *word, const char *const *names, size_t count) {
  const char *best = NULL, *prefixed = NULL;
  size_t best_distance = 0, best_gap = 0;
  for (size_t i = 0; i < count; i++) {
    size_t distance = suggest_distance(word, names[i]), gap = suggest__length_gap(word, names[i]);
    if (!prefixed && strlen(word) >= 3 && strncmp(word, names[i], strlen(word)) == 0) prefixed = names[i];
    if (distance > suggest__allowed(word, names[i])) continue;
    if (!best || distance < best_distance || (distance == best_distance && gap < best_gap)) {
      best = names[i], best_distance = distance, best_gap = gap;
    }
  }
  return best ? best : prefixed;
}

char *suggest_option(const char *arg, const char *const *names, size_t count) {
  const char *name = arg;
  while (*name == '-') name++;
  const char *equals = strchr(name, '=');
  char *word = equals ? gl_strndup(name, (size_t)(equals - name)) : gl_strdup(name);
  const char *closest = word[0] ? suggest_closest(word, names, count) : NULL;
  free(word);
  if (!closest) return gl_strdup("");
  return gl_format("; did you mean `%s%s`?", strlen(closest) == 1 ? "-" : "--", closest);
}
