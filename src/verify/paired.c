/* paired.c — windows, pairs and the verdict of a
 * with/without comparison of step times (paired.h states each rule). */
#include "paired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "measure.h"

static int paired__compare_doubles(const void *a, const void *b);

double paired_window_value(const double *times, uint32_t count, uint32_t *kept) {
  *kept = 0;
  if (count < 3) return NAN; /* the first step carries the switch */
  uint32_t n = count - 1;
  double *body = gl_malloc(n * sizeof *body), sum = 0;
  memcpy(body, times + 1, n * sizeof *body);
  qsort(body, n, sizeof *body, paired__compare_doubles);
  *kept = n / 2 < 2 ? 2 : n / 2;
  for (uint32_t i = 0; i < *kept; i++) sum += body[i];
  free(body);
  return sum / *kept;
}

typedef struct {
  int arm;
  double value;
  uint32_t steps, kept;
} Window;

/* The windows of `steps`: runs of one arm (steps in none, arm -1, are
 * no window), NAN times left out. Returns how many were written into
 * `out` (room for count). */
static uint32_t paired__windows(const PairedStep *steps, uint32_t count, Window *out) {
  uint32_t windows = 0;
  double *times = gl_malloc((count ? count : 1) * sizeof *times);
  for (uint32_t i = 0; i < count;) {
    uint32_t end = i, n = 0;
    while (end < count && steps[end].arm == steps[i].arm) {
      if (!isnan(steps[end].time_ms)) times[n++] = steps[end].time_ms;
      end++;
    }
    if (steps[i].arm >= 0) {
      Window *window = &out[windows++];
      int arm = steps[i].arm > 0;
      window->arm = arm;
      window->steps = n;
      window->value = paired_window_value(times, n, &window->kept);
    }
    i = end;
  }
  free(times);
  return windows;
}

/* The verdict from the pairs' ratios, sorted (paired.h states it). */
static void paired__judge(PairedResult *result, const double *sorted, uint32_t pairs, double threshold) {
  result->verdict = PAIRED_INCONCLUSIVE;
  if (pairs == 0) return;
  uint32_t trim = pairs / 4;
  result->ratio_min = sorted[0];
  result->ratio_max = sorted[pairs - 1];
  result->ratio_low = sorted[trim];
  result->ratio_high = sorted[pairs - 1 - trim];
  result->ratio_median = pairs % 2 ? sorted[pairs / 2] : (sorted[pairs / 2 - 1] + sorted[pairs / 2]) / 2;
  if (pairs < PAIRED_MIN_PAIRS) return;
  if (result->ratio_median >= threshold && result->ratio_low >= 1.0) result->verdict = PAIRED_EFFECT;
  else if (result->ratio_high < threshold && result->ratio_high - result->ratio_low <= PAIRED_AGREE_SPREAD) {
    result->verdict = PAIRED_NO_EFFECT;
  }
}

static int paired__compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of the windows' values of one arm (pairs only). */
static double paired__arm_median(const Window *windows, const bool *paired, uint32_t count, int arm) {
  double *values = gl_malloc((count ? count : 1) * sizeof *values);
  uint32_t n = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (paired[i] && windows[i].arm == arm) values[n++] = windows[i].value;
  }
  double result = n ? median(values, n) : NAN;
  free(values);
  return result;
}

PairedResult paired_compare(const PairedStep *steps, uint32_t count, double threshold) {
  PairedResult result = {PAIRED_INCONCLUSIVE, 0, 0, 0, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  Window *windows = gl_malloc((count ? count : 1) * sizeof *windows);
  bool *paired = gl_calloc(count ? count : 1, sizeof *paired);
  double *ratios = gl_malloc((count ? count : 1) * sizeof *ratios);
  uint32_t n = paired__windows(steps, count, windows);
  for (uint32_t i = 0; i < n; i++) {
    if (isnan(windows[i].value)) continue;
    result.windows++;
    result.steps_kept += windows[i].kept;
    result.steps_dropped += windows[i].steps - windows[i].kept;
  }
  for (uint32_t i = 0; i + 1 < n;) {
    const Window *a = &windows[i], *b = &windows[i + 1];
    if (isnan(a->value) || isnan(b->value) || a->arm == b->arm) {
      i++;
      continue;
    }
    const Window *with = a->arm == 0 ? a : b, *without = a->arm == 0 ? b : a;
    ratios[result.pairs++] = with->value / without->value;
    paired[i] = paired[i + 1] = true;
    i += 2;
  }
  qsort(ratios, result.pairs, sizeof *ratios, paired__compare_doubles);
  paired__judge(&result, ratios, result.pairs, threshold);
  result.with_ms = paired__arm_median(windows, paired, n, 0);
  result.without_ms = paired__arm_median(windows, paired, n, 1);
  free(windows), free(paired), free(ratios);
  return result;
}

const char *paired_verdict_name(PairedVerdict verdict) {
  static const char *const NAMES[] = {"EFFECT", "NO EFFECT", "INCONCLUSIVE"};
  return NAMES[verdict];
}
