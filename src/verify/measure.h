/* measure.h — from runs to numbers, and from numbers to a verdict.
 *
 * Each metric reads the steps of one run (the steady steps, after the
 * header's `steady` warm-up, for slopes, medians and means); the case's
 * verdict compares the bad run with the good one against the bad script's
 * `expect` lines. */
#ifndef GPULINT_VERIFY_MEASURE_H
#define GPULINT_VERIFY_MEASURE_H

#include <stdint.h>

#include "repro.h"
#include "trace.h"

/* The least-squares slope of y over x; NAN with fewer than two distinct x. */
double fit_slope(const double *x, const double *y, uint32_t count);
/* The median of `values` (sorted in place); NAN when count is 0. */
double median(double *values, uint32_t count);

/* The index of the first steady step of `run`: past the `steady` warm-up
 * steps, or the second half of the run when fewer than 3 would be left. */
uint32_t steady_begin(const Run *run, uint32_t steady);

/* The value of `metric` over `run`, in the metric's unit. NAN when it cannot
 * be measured; `why` then says why (static text). */
double measure_run(const Run *run, uint32_t steady, Metric metric, const char **why);

/* bad / good: +inf when only good is 0, NAN when both are. */
double ratio_of(double bad, double good);

/* "48.0 MB/step", "1.07x", "raised at step 2"; caller frees. */
char *metric_format(Metric metric, double value);
char *ratio_format(double ratio);

typedef enum { VERDICT_CONFIRMED, VERDICT_NOT_CONFIRMED, VERDICT_ERROR } Verdict;

/* "CONFIRMED", "NOT CONFIRMED", "ERROR" */
const char *verdict_name(Verdict verdict);

typedef struct {
  Verdict verdict;
  double bad;   /* the main metric over the bad run */
  double good;  /* ... over the good run */
  double ratio; /* bad / good */
  char *reason; /* owned; why it is not CONFIRMED, NULL when it is */
} Outcome;

/* Judges a case from its two runs (both borrowed). */
Outcome outcome_judge(const Repro *repro, const Run *bad, const Run *good);
void outcome_delete(Outcome *self);

#endif
