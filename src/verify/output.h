/* output.h — what `gpulint verify` prints and writes: the list of cases,
 * the result table, the JSON report and the SVG plot. */
#ifndef GPULINT_VERIFY_OUTPUT_H
#define GPULINT_VERIFY_OUTPUT_H

#include <cjson/cJSON.h>

#include "measure.h"
#include "repro.h"
#include "text.h"
#include "trace.h"

/* One replayed case. */
typedef struct {
  const Repro *repro; /* borrowed from the ReproList */
  Run bad;            /* owned */
  Run good;           /* owned */
  Outcome outcome;    /* owned */
} CaseResult;

typedef Array(CaseResult) CaseResults;

void case_results_delete(CaseResults *self);

/* Where the measurements were taken. Strings owned; NULL when unknown. */
typedef struct {
  char *device_name;
  char *driver;
  double memory_total; /* bytes, 0 when unknown */
  unsigned device_index;
  char *python;
  char *python_version;
  char *torch_version;
  char *cuda_version;
  bool replayed; /* judged from saved traces */
} Environment;

void environment_delete(Environment *self);
/* "NVIDIA H100 80GB HBM3 (GPU 0), driver 580.159.04, PyTorch 2.11.0+cu130" */
void output_environment_line(Text *out, const Environment *environment);

/* `gpulint verify --list`. */
void output_list(Text *out, const ReproList *repros);
/* The table (rule, case, effect, bad, good, ratio, verdict), then why each
 * unconfirmed case is so, the cases recorded on another device than
 * `environment`'s, what else was measured, and a summary line. */
void output_table(Text *out, const CaseResults *results, const Environment *environment);
/* "gpu-growth: bad 48.0 MB/step, good 0.0 MB/step (inf) CONFIRMED" */
void output_case_summary(Text *out, const CaseResult *result);

/* The JSON report; `findings` (may be NULL) is taken over. Caller frees. */
char *output_json(const Environment *environment, const CaseResults *results, cJSON *findings);

/* Memory against step, bad and good curves, one panel per case; `caption`
 * (borrowed) goes under the title. Caller frees. */
char *output_svg(const CaseResults *results, const char *caption);

#endif
