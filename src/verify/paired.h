/* paired.h — with/without comparisons of step times that hold on real
 * training scripts (warm-up, logging, evaluation, checkpoint steps).
 *
 * The probe switches something off (empty_cache() made a no-op) in
 * windows of steps that alternate with windows where it runs as written,
 * ABAB... through the whole budget, from the first step at which step
 * times are steady (gpulint_probe.py states the test: the medians of the
 * last three blocks of 5 steps within 10% of the latest). Here, from the
 * first step in a window:
 *
 *   window    a run of consecutive steps in the same arm. Its first step
 *             is dropped (it carries the switch); its value is the mean of
 *             the faster half of the others (at least 2; a window of
 *             fewer than 3 steps has none). Logging, evaluation and
 *             checkpoint steps only ever add time, and up to half of a
 *             window's steps may be such.
 *   pair      two adjacent windows, one of each arm, both with a value;
 *             its ratio is with / without.
 *   verdict   with K pairs (at least PAIRED_MIN_PAIRS), a quarter of them
 *             (rounded down) may be off at each end: `low` is the
 *             (K/4+1)-th smallest ratio and `high` the (K/4+1)-th largest.
 *             EFFECT when the median ratio >= threshold and low >= 1 (the
 *             pairs agree it is slower with it); NO EFFECT when high <
 *             threshold and high - low <= PAIRED_AGREE_SPREAD (the pairs
 *             agree it is not); INCONCLUSIVE otherwise, and with fewer
 *             pairs. */
#ifndef GPULINT_VERIFY_PAIRED_H
#define GPULINT_VERIFY_PAIRED_H

#include <stdbool.h>
#include <stdint.h>

#define PAIRED_MIN_PAIRS 2
#define PAIRED_AGREE_SPREAD 0.10

/* One step: its time (NAN when unknown) and arm (0 as written, 1 with
 * the thing switched off, -1 in no window). */
typedef struct {
  double time_ms;
  int arm;
} PairedStep;

typedef enum { PAIRED_EFFECT, PAIRED_NO_EFFECT, PAIRED_INCONCLUSIVE } PairedVerdict;

typedef struct {
  PairedVerdict verdict;
  uint32_t windows; /* windows with a value */
  uint32_t pairs;
  uint32_t steps_kept, steps_dropped; /* steps in windows with a value */
  double ratio_median, ratio_low, ratio_high, ratio_min, ratio_max; /* NAN without pairs */
  double with_ms, without_ms; /* medians of the windows' values per arm; NAN without */
} PairedResult;

/* The value of one window from its steps' times, in order (see above);
 * NAN for fewer than 3. Sets *kept to the steps it averaged. */
double paired_window_value(const double *times, uint32_t count, uint32_t *kept);

/* Compares the arms of `steps` (borrowed): windows, pairs and the
 * verdict with `threshold` (e.g. 1.05: slower by 5% with it). */
PairedResult paired_compare(const PairedStep *steps, uint32_t count, double threshold);

/* "EFFECT", "NO EFFECT", "INCONCLUSIVE" */
const char *paired_verdict_name(PairedVerdict verdict);

#endif
