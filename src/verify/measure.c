/* measure.c — slopes, medians, the metrics, and the verdicts. */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define MIB (1024.0 * 1024.0)
#define MIN_STEADY 3

/* ---- Statistics --------------------------------------------------------- */

double fit_slope(const double *x, const double *y, uint32_t count) {
  if (count < 2) return NAN;
  double mean_x = 0, mean_y = 0;
  for (uint32_t i = 0; i < count; i++) {
    mean_x += x[i];
    mean_y += y[i];
  }
  mean_x /= count;
  mean_y /= count;
  double sxx = 0, sxy = 0;
  for (uint32_t i = 0; i < count; i++) {
    sxx += (x[i] - mean_x) * (x[i] - mean_x);
    sxy += (x[i] - mean_x) * (y[i] - mean_y);
  }
  return sxx > 0 ? sxy / sxx : NAN;
}

static int measure__compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median(double *values, uint32_t count) {
  if (count == 0) return NAN;
  qsort(values, count, sizeof(double), measure__compare_doubles);
  return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

uint32_t steady_begin(const Run *run, uint32_t steady) {
  uint32_t begin = 0;
  while (begin < run->steps.size && run->steps.contents[begin].step <= steady) begin++;
  if (run->steps.size - begin < MIN_STEADY) begin = run->steps.size / 2;
  return begin;
}

/* ---- Metrics ------------------------------------------------------------ */

typedef double (*StepValue)(const Step *step);

static double value__allocated(const Step *step) { return step->allocated / MIB; }
static double value__device(const Step *step) { return step->device_used / MIB; }
static double value__nodes(const Step *step) { return step->graph_nodes; }
static double value__rss(const Step *step) { return step->rss / 1024.0; }
static double value__time(const Step *step) { return step->time_ms; }
static double value__change(const Step *step) { return step->param_change; }
static double value__stats(const Step *step) { return step->stats_change; }

/* The steady steps' values, skipping NANs; caller frees. */
static double *measure__values(const Run *run, uint32_t steady, StepValue value, double *x, uint32_t *count) {
  uint32_t begin = steady_begin(run, steady);
  double *y = gl_calloc(run->steps.size + 1, sizeof(double));
  *count = 0;
  for (uint32_t i = begin; i < run->steps.size; i++) {
    double v = value(&run->steps.contents[i]);
    if (isnan(v)) continue;
    if (x) x[*count] = run->steps.contents[i].step;
    y[(*count)++] = v;
  }
  return y;
}

static double measure__slope(const Run *run, uint32_t steady, StepValue value, const char **why) {
  double *x = gl_calloc(run->steps.size + 1, sizeof(double));
  uint32_t count;
  double *y = measure__values(run, steady, value, x, &count);
  double slope = count >= MIN_STEADY ? fit_slope(x, y, count) : NAN;
  free(x);
  free(y);
  if (isnan(slope)) *why = "fewer than 3 steady steps carry this signal";
  return slope;
}

static double measure__median(const Run *run, uint32_t steady, StepValue value, bool mean, const char **why) {
  uint32_t count;
  double *y = measure__values(run, steady, value, NULL, &count);
  double result = NAN;
  if (mean && count) {
    result = 0;
    for (uint32_t i = 0; i < count; i++) result += y[i] / count;
  } else if (count) {
    result = median(y, count);
  }
  free(y);
  if (isnan(result)) *why = "no steady step carries this signal";
  return result;
}

/* The highest allocated memory above the start, over every step. */
static double measure__peak(const Run *run, const char **why) {
  double peak = NAN;
  for (uint32_t i = 0; i < run->steps.size; i++) {
    double above = (run->steps.contents[i].peak - run->baseline) / MIB;
    if (!isnan(above) && (isnan(peak) || above > peak)) peak = above;
  }
  if (isnan(peak)) *why = "no step reported its peak, or no baseline";
  return peak;
}

/* The gradient norm at the last step over that at the first steady step. */
static double measure__grad_growth(const Run *run, uint32_t steady, const char **why) {
  uint32_t begin = steady_begin(run, steady);
  if (run->steps.size == 0 || begin >= run->steps.size) {
    *why = "no steps";
    return NAN;
  }
  double first = run->steps.contents[begin].grad_norm;
  double last = array_back(&run->steps)->grad_norm;
  if (isnan(first) || isnan(last) || first <= 0) {
    *why = "no positive grad_norm in the steps";
    return NAN;
  }
  return last / first;
}

double measure_run(const Run *run, uint32_t steady, Metric metric, const char **why) {
  *why = NULL;
  switch (metric) {
    case METRIC_ALLOC_SLOPE: return measure__slope(run, steady, value__allocated, why);
    case METRIC_DEVICE_SLOPE: return measure__slope(run, steady, value__device, why);
    case METRIC_GRAPH_NODES: return measure__slope(run, steady, value__nodes, why);
    case METRIC_RSS_SLOPE: return measure__slope(run, steady, value__rss, why);
    case METRIC_PEAK: return measure__peak(run, why);
    case METRIC_STEP_TIME: return measure__median(run, steady, value__time, false, why);
    case METRIC_GRAD_GROWTH: return measure__grad_growth(run, steady, why);
    case METRIC_PARAM_CHANGE: return measure__median(run, steady, value__change, true, why);
    case METRIC_STATS_CHANGE: return measure__median(run, steady, value__stats, true, why);
    case METRIC_CRASH: return run->raised ? run->error_step : 0;
    case METRIC_NONE:
    case METRIC_COUNT: break;
  }
  *why = "no such metric";
  return NAN;
}

double ratio_of(double bad, double good) {
  if (isnan(bad) || isnan(good)) return NAN;
  if (good == 0) return bad == 0 ? NAN : (bad > 0 ? INFINITY : -INFINITY);
  return bad / good;
}

/* ---- Formatting --------------------------------------------------------- */

/* Rounds to `digits` decimals and turns -0 into 0. */
static double format__round(double value, int digits) {
  double scale = pow(10, digits);
  return round(value * scale) / scale + 0.0;
}

char *metric_format(Metric metric, double value) {
  if (isnan(value)) return gl_strdup("-");
  switch (metric) {
    case METRIC_ALLOC_SLOPE:
    case METRIC_DEVICE_SLOPE:
    case METRIC_GRAPH_NODES: return gl_format("%.1f %s", format__round(value, 1), metric_unit(metric));
    case METRIC_RSS_SLOPE:
    case METRIC_PEAK: return gl_format("%.0f %s", format__round(value, 0), metric_unit(metric));
    case METRIC_STEP_TIME: return gl_format("%.2f ms", format__round(value, 2));
    case METRIC_GRAD_GROWTH: return gl_format("norm x%.2f", format__round(value, 2));
    case METRIC_PARAM_CHANGE:
    case METRIC_STATS_CHANGE: return gl_format("%.3g/step", value + 0.0);
    case METRIC_CRASH:
      return value > 0 ? gl_format("raised at step %.0f", value) : gl_strdup("did not raise");
    case METRIC_NONE:
    case METRIC_COUNT: break;
  }
  return gl_format("%g", value);
}

char *ratio_format(double ratio) {
  if (isnan(ratio)) return gl_strdup("-");
  if (isinf(ratio)) return gl_strdup(ratio > 0 ? "inf" : "-inf");
  if (ratio >= 1000) return gl_strdup(">999x");
  return gl_format(ratio >= 100 ? "%.0fx" : ratio >= 10 ? "%.1fx" : "%.2fx", ratio);
}

const char *verdict_name(Verdict verdict) {
  return verdict == VERDICT_CONFIRMED ? "CONFIRMED" : verdict == VERDICT_NOT_CONFIRMED ? "NOT CONFIRMED" : "ERROR";
}

/* ---- Verdicts ----------------------------------------------------------- */

/* The last non-empty line of `text`; caller frees. */
static char *judge__last_line(const char *text) {
  if (!text) return gl_strdup("");
  const char *end = text + strlen(text);
  while (end > text && (end[-1] == '\n' || end[-1] == ' ')) end--;
  const char *start = end;
  while (start > text && start[-1] != '\n') start--;
  return gl_strndup(start, (size_t)(end - start));
}

/* Why `run` cannot be judged, or NULL; caller frees. A crash is fine only
 * where `may_raise`. */
static char *judge__failure(const Run *run, const char *role, bool may_raise) {
  char *last = judge__last_line(run->stderr_tail);
  char *reason = NULL;
  if (!run->spawned) reason = gl_format("the %s script did not start: %s", role, last);
  else if (run->timed_out) reason = gl_format("the %s script timed out after %.0f s", role, run->wall_ms / 1000);
  else if (run->malformed) reason = gl_format("the %s script printed a line that is no harness line: %s", role, run->first_malformed);
  else if (!run->started) reason = gl_format("the %s script printed no start line (exit %d): %s", role, run->exit_code, last);
  else if (run->raised && !may_raise) {
    reason = gl_format("the %s script raised %s at step %u: %s", role, run->error_type ? run->error_type : "?",
                       run->error_step, run->error_message ? run->error_message : "");
  } else if (!run->raised && !run->ended) {
    reason = gl_format("the %s script stopped after %u steps (exit %d, signal %d): %s", role, run->steps.size,
                       run->exit_code, run->term_signal, last);
  }
  free(last);
  return reason;
}

static Outcome judge__error(char *reason) {
  return (Outcome){VERDICT_ERROR, NAN, NAN, NAN, reason};
}

/* metric crash: the bad script raises the declared text, the good one runs. */
static Outcome judge__crash(const Repro *repro, const Run *bad, const Run *good) {
  char *reason = judge__failure(bad, "bad", true);
  if (!reason) reason = judge__failure(good, "good", false);
  if (reason) return judge__error(reason);
  Outcome outcome = {VERDICT_CONFIRMED, bad->raised ? bad->error_step : 0, 0, NAN, NULL};
  if (!bad->raised) {
    outcome.verdict = VERDICT_NOT_CONFIRMED;
    outcome.reason = gl_format("ran all %u steps without raising", bad->steps.size);
  } else if (!bad->error_message || !strstr(bad->error_message, repro->bad.raises)) {
    outcome.verdict = VERDICT_NOT_CONFIRMED;
    outcome.reason = gl_format("raised %s at step %u, not \"%s\": %s", bad->error_type ? bad->error_type : "?",
                               bad->error_step, repro->bad.raises, bad->error_message ? bad->error_message : "");
  }
  return outcome;
}

/* Checks one expectation; appends why it fails to `failures`. */
static void judge__expectation(const Repro *repro, const Expectation *expectation, const Run *bad,
                               const Run *good, Text *failures) {
  const char *why_bad, *why_good;
  uint32_t steady = repro->bad.steady;
  double b = measure_run(bad, steady, expectation->metric, &why_bad);
  double g = measure_run(good, steady, expectation->metric, &why_good);
  double value = expectation->subject == SUBJECT_BAD ? b : expectation->subject == SUBJECT_GOOD ? g : ratio_of(b, g);
  if (compare_holds(expectation->compare, value, expectation->threshold)) return;
  char *shown = expectation->subject == SUBJECT_RATIO ? ratio_format(value) : metric_format(expectation->metric, value);
  char *wanted = expectation_describe(expectation, repro->bad.metric);
  text_append(failures, "%sexpected %s, measured %s", failures->size ? "; " : "", wanted, shown);
  if (isnan(value)) text_append(failures, " (%s)", why_bad ? why_bad : why_good ? why_good : "undefined");
  free(shown);
  free(wanted);
}

Outcome outcome_judge(const Repro *repro, const Run *bad, const Run *good) {
  if (repro->bad.metric == METRIC_CRASH) return judge__crash(repro, bad, good);
  char *reason = judge__failure(bad, "bad", false);
  if (!reason) reason = judge__failure(good, "good", false);
  if (reason) return judge__error(reason);
  const char *why_bad, *why_good;
  Outcome outcome = {VERDICT_CONFIRMED, NAN, NAN, NAN, NULL};
  outcome.bad = measure_run(bad, repro->bad.steady, repro->bad.metric, &why_bad);
  outcome.good = measure_run(good, repro->bad.steady, repro->bad.metric, &why_good);
  outcome.ratio = ratio_of(outcome.bad, outcome.good);
  if (isnan(outcome.bad) || isnan(outcome.good)) {
    Outcome error = judge__error(gl_format("cannot measure %s: %s", metric_name(repro->bad.metric),
                                           why_bad ? why_bad : why_good));
    return error;
  }
  Text failures = array_new();
  for (uint32_t i = 0; i < repro->bad.expectations.size; i++) {
    judge__expectation(repro, &repro->bad.expectations.contents[i], bad, good, &failures);
  }
  if (failures.size) {
    outcome.verdict = VERDICT_NOT_CONFIRMED;
    outcome.reason = text_take(&failures);
  }
  return outcome;
}

void outcome_delete(Outcome *self) {
  free(self->reason);
  self->reason = NULL;
}
