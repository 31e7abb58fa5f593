/* diff.c — a unified diff of two texts (Myers, "An O(ND) Difference
 * Algorithm and Its Variations", 1986: the greedy forward search, with the
 * trace of each step kept to walk the path back). */
#include "diff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "array.h"

#define DIFF_CONTEXT 3

typedef struct {
  const char *start;
  size_t length; /* with its newline, if any */
} Line;

typedef Array(Line) Lines;

static Lines diff__lines(const char *text, size_t length) {
  Lines lines = array_new();
  for (size_t start = 0; start < length;) {
    const char *newline = memchr(text + start, '\n', length - start);
    size_t end = newline ? (size_t)(newline - text) + 1 : length;
    array_push(&lines, ((Line){text + start, end - start}));
    start = end;
  }
  return lines;
}

static bool diff__same(Line a, Line b) { return a.length == b.length && memcmp(a.start, b.start, a.length) == 0; }

typedef enum { KEEP, DELETE, INSERT } Op;
typedef Array(uint8_t) Ops;

/* The edit script from `a` to `b`, in order. */
static Ops diff__script(const Lines *a, const Lines *b) {
  int32_t n = (int32_t)a->size, m = (int32_t)b->size, max = n + m, offset = max + 1;
  int32_t *v = gl_calloc((size_t)(2 * max + 3), sizeof(int32_t));
  Array(int32_t *) trace = array_new();
  int32_t found = -1;
  for (int32_t d = 0; d <= max && found < 0; d++) {
    int32_t *copy = gl_malloc((size_t)(2 * max + 3) * sizeof(int32_t));
    memcpy(copy, v, (size_t)(2 * max + 3) * sizeof(int32_t));
    array_push(&trace, copy);
    for (int32_t k = -d; k <= d; k += 2) {
      int32_t x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      int32_t y = x - k;
      while (x < n && y < m && diff__same(a->contents[x], b->contents[y])) x++, y++;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  Ops reversed = array_new();
  int32_t x = n, y = m;
  for (int32_t d = found; d > 0; d--) {
    const int32_t *previous = trace.contents[d];
    int32_t k = x - y;
    int32_t prev_k = (k == -d || (k != d && previous[offset + k - 1] < previous[offset + k + 1])) ? k + 1 : k - 1;
    int32_t prev_x = previous[offset + prev_k], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      array_push(&reversed, KEEP);
      x--, y--;
    }
    array_push(&reversed, x == prev_x ? INSERT : DELETE);
    x = prev_x, y = prev_y;
  }
  while (x > 0 && y > 0) {
    array_push(&reversed, KEEP);
    x--, y--;
  }
  Ops ops = array_new();
  for (uint32_t i = reversed.size; i > 0; i--) array_push(&ops, reversed.contents[i - 1]);
  array_delete(&reversed);
  for (uint32_t i = 0; i < trace.size; i++) free(trace.contents[i]);
  array_delete(&trace);
  free(v);
  return ops;
}

static void diff__line(FILE *out, char mark, Line line) {
  fputc(mark, out);
  fwrite(line.start, 1, line.length, out);
  if (line.length == 0 || line.start[line.length - 1] != '\n') fputs("\n\\ No newline at end of file\n", out);
}

/* Prints the hunk of ops [from, to) that starts at lines `a_at`, `b_at`. */
static void diff__hunk(FILE *out, const Ops *ops, uint32_t from, uint32_t to, const Lines *a, const Lines *b,
                       uint32_t a_at, uint32_t b_at) {
  uint32_t a_count = 0, b_count = 0;
  for (uint32_t i = from; i < to; i++) {
    a_count += ops->contents[i] != INSERT;
    b_count += ops->contents[i] != DELETE;
  }
  fprintf(out, "@@ -%u,%u +%u,%u @@\n", a_count ? a_at + 1 : a_at, a_count, b_count ? b_at + 1 : b_at, b_count);
  for (uint32_t i = from, x = a_at, y = b_at; i < to; i++) {
    Op op = (Op)ops->contents[i];
    if (op == KEEP) diff__line(out, ' ', a->contents[x++]), y++;
    else if (op == DELETE) diff__line(out, '-', a->contents[x++]);
    else diff__line(out, '+', b->contents[y++]);
  }
}

void diff_print(FILE *out, const char *path, const char *before, size_t before_length, const char *after,
                size_t after_length) {
  if (before_length == after_length && memcmp(before, after, before_length) == 0) return;
  Lines a = diff__lines(before, before_length), b = diff__lines(after, after_length);
  Ops ops = diff__script(&a, &b);
  if (path) fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
  uint32_t x = 0, y = 0;
  for (uint32_t i = 0; i < ops.size;) {
    if (ops.contents[i] == KEEP) {
      i++, x++, y++;
      continue;
    }
    /* a hunk: DIFF_CONTEXT kept lines before, and after the last change
     * followed by more than 2 * DIFF_CONTEXT kept lines (or the end) */
    uint32_t back = 0;
    while (back < DIFF_CONTEXT && back < i && ops.contents[i - back - 1] == KEEP) back++;
    uint32_t start = i - back, a_at = x - back, b_at = y - back, end = i, run = 0;
    for (; end < ops.size; end++) {
      run = ops.contents[end] == KEEP ? run + 1 : 0;
      if (run > 2 * DIFF_CONTEXT) break;
    }
    uint32_t stop = end == ops.size ? ops.size - (run > DIFF_CONTEXT ? run - DIFF_CONTEXT : 0)
                                    : end + 1 - run + DIFF_CONTEXT;
    diff__hunk(out, &ops, start, stop, &a, &b, a_at, b_at);
    for (uint32_t k = i; k < stop; k++) {
      x += ops.contents[k] != INSERT;
      y += ops.contents[k] != DELETE;
    }
    i = stop;
  }
  array_delete(&ops);
  array_delete(&a);
  array_delete(&b);
}
