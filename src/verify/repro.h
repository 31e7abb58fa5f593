/* repro.h — the reproduction scripts in verify/ and their directive headers.
 *
 * Each case is a pair of scripts, NAME_bad.py (the pitfall) and NAME_good.py
 * (its fix). Both start with a strict header of `# verify: KEY VALUE` lines:
 *
 *   # verify: rule GPU101                  both
 *   # verify: case validation-loop         both
 *   # verify: role bad                     both: bad or good
 *   # verify: title `total += loss` ...    both: one line on the variant
 *   # verify: effect gpu-growth            bad only: the effect it shows
 *   # verify: metric alloc-slope           bad only: how it is measured
 *   # verify: steps 30                     bad only: steps per run
 *   # verify: steady 5                     bad only, optional: warm-up steps
 *   # verify: expect bad >= 10             bad only, repeatable
 *   # verify: expect peak ratio <= 1.05    (another metric than the main one)
 *   # verify: raises TEXT                  bad only, metric crash only
 *
 * Unknown keys, repeated keys, directives after the header, a missing key or
 * a pair whose headers disagree are errors, with the file and line. */
#ifndef GPULINT_VERIFY_REPRO_H
#define GPULINT_VERIFY_REPRO_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "gpulint.h"

typedef enum {
  METRIC_NONE,
  METRIC_ALLOC_SLOPE,   /* MB/step: slope of torch's allocated memory */
  METRIC_DEVICE_SLOPE,  /* MB/step: slope of NVML's device memory used */
  METRIC_GRAPH_NODES,   /* nodes/step: slope of live autograd nodes */
  METRIC_RSS_SLOPE,     /* KB/step: slope of the process's resident memory */
  METRIC_PEAK,          /* MB: highest allocated above the start, any step */
  METRIC_STEP_TIME,     /* ms: median step time over the steady steps */
  METRIC_GRAD_GROWTH,   /* x: gradient norm at the last step / first steady */
  METRIC_PARAM_CHANGE,  /* mean norm of the parameter change per step */
  METRIC_STATS_CHANGE,  /* mean norm of the batch-norm running statistics' change per step */
  METRIC_CRASH,         /* the step at which the script raised, 0 if none */
  METRIC_COUNT,
} Metric;

/* "alloc-slope", ...; metric_from_name returns METRIC_NONE if unknown. */
const char *metric_name(Metric metric);
Metric metric_from_name(const char *name);
/* "MB/step", "ms", "x", ... */
const char *metric_unit(Metric metric);
/* Whether `metric` can measure `effect`. */
bool metric_fits_effect(Metric metric, GlEffect effect);

typedef enum { SUBJECT_BAD, SUBJECT_GOOD, SUBJECT_RATIO } Subject;
typedef enum { COMPARE_GE, COMPARE_GT, COMPARE_LE, COMPARE_LT } Compare;

/* `expect [METRIC] SUBJECT OP NUMBER`; ratio is bad / good. */
typedef struct {
  Metric metric;
  Subject subject;
  Compare compare;
  double threshold;
} Expectation;

const char *subject_name(Subject subject);
const char *compare_name(Compare compare);
bool compare_holds(Compare compare, double value, double threshold);

typedef enum { ROLE_BAD, ROLE_GOOD } Role;

typedef struct {
  char *path;  /* owned */
  char *rule;  /* owned, "GPU101" */
  char *name;  /* owned, the case: "validation-loop" */
  char *title; /* owned */
  Role role;
  /* The rest is declared by the bad script only. */
  GlEffect effect;
  Metric metric;
  uint32_t steps;
  uint32_t steady;
  char *raises; /* owned; the crash text, or NULL */
  Array(Expectation) expectations;
} Script;

/* Parses the header of `text` (a script's bytes, borrowed). On failure
 * returns false and sets `error` to "PATH:LINE: why" (caller frees); the
 * script is then empty. */
bool script_parse(Script *self, const char *path, const char *text, char **error);
void script_delete(Script *self);

/* A case: the pitfall and its fix. */
typedef struct {
  Script bad;
  Script good;
} Repro;

typedef Array(Repro) ReproList;

/* Loads every NAME_bad.py / NAME_good.py pair in `dir`, sorted by file
 * name. Returns false and sets `error` (caller frees) on any header error,
 * an unpaired script, or an unreadable directory. */
bool repro_list_load(ReproList *self, const char *dir, char **error);
void repro_list_delete(ReproList *self);

/* The header's text for an expectation: "bad >= 10 MB/step". Caller frees. */
char *expectation_describe(const Expectation *self, Metric main_metric);

#endif
