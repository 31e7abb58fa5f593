/* output.c — the case list, the result table and the JSON report. The SVG
 * plot is in plot.c. */
#include "output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

void case_results_delete(CaseResults *self) {
  for (uint32_t i = 0; i < self->size; i++) {
    run_delete(&self->contents[i].bad);
    run_delete(&self->contents[i].good);
    outcome_delete(&self->contents[i].outcome);
  }
  array_delete(self);
}

void environment_delete(Environment *self) {
  free(self->device_name);
  free(self->driver);
  free(self->python);
  free(self->python_version);
  free(self->torch_version);
  free(self->cuda_version);
  *self = (Environment){0};
}

void output_environment_line(Text *out, const Environment *environment) {
  text_append(out, "%s (GPU %u), driver %s, PyTorch %s%s\n",
              environment->device_name ? environment->device_name : "unknown device", environment->device_index,
              environment->driver ? environment->driver : "unknown",
              environment->torch_version ? environment->torch_version : "unknown",
              environment->replayed ? " (replayed from saved traces)" : "");
}

/* ---- Rows --------------------------------------------------------------- */

#define COLUMNS 7

static const char *const HEADINGS[COLUMNS] = {"RULE", "CASE", "EFFECT", "BAD", "GOOD", "RATIO", "VERDICT"};

typedef struct {
  char *cells[COLUMNS]; /* owned */
} Row;

static void row__delete(Row *self) {
  for (int i = 0; i < COLUMNS; i++) free(self->cells[i]);
}

/* The crash metric reads better in words than as a number. */
static char *row__good_cell(const CaseResult *result) {
  if (result->repro->bad.metric == METRIC_CRASH && result->outcome.verdict != VERDICT_ERROR) {
    return gl_format("ran %u steps", result->good.steps.size);
  }
  return metric_format(result->repro->bad.metric, result->outcome.good);
}

static Row row__of(const CaseResult *result) {
  const Script *bad = &result->repro->bad;
  Row row;
  row.cells[0] = gl_strdup(bad->rule);
  row.cells[1] = gl_strdup(bad->name);
  row.cells[2] = gl_strdup(gl_effect_name(bad->effect));
  row.cells[3] = metric_format(bad->metric, result->outcome.bad);
  row.cells[4] = row__good_cell(result);
  row.cells[5] = ratio_format(result->outcome.ratio);
  row.cells[6] = gl_strdup(verdict_name(result->outcome.verdict));
  return row;
}

static void row__print(Text *out, const char *const *cells, const size_t *widths) {
  for (int i = 0; i < COLUMNS; i++) {
    if (i + 1 < COLUMNS) text_append(out, "%-*s  ", (int)widths[i], cells[i]);
    else text_append(out, "%s\n", cells[i]);
  }
}

/* ---- Text --------------------------------------------------------------- */

void output_list(Text *out, const ReproList *repros) {
  for (uint32_t i = 0; i < repros->size; i++) {
    const Script *bad = &repros->contents[i].bad;
    text_append(out, "%s %s: %s, measured as %s over %u steps", bad->rule, bad->name, gl_effect_name(bad->effect),
                metric_name(bad->metric), bad->steps);
    if (bad->steady) text_append(out, " (%u warm-up)", bad->steady);
    text_append(out, "\n  bad:  %s\n  good: %s\n  confirmed when:", bad->title, repros->contents[i].good.title);
    if (bad->raises) text_append(out, " the bad script raises \"%s\" and the good one runs", bad->raises);
    for (uint32_t e = 0; e < bad->expectations.size; e++) {
      char *described = expectation_describe(&bad->expectations.contents[e], bad->metric);
      text_append(out, "%s %s", e ? "," : "", described);
      free(described);
    }
    text_append(out, "\n");
  }
}

/* "allocated +0.0 / +0.0 MB/step": one metric over both runs, if measurable. */
static void also__metric(Text *out, const CaseResult *result, const char *label, Metric metric) {
  const char *why;
  double bad = measure_run(&result->bad, result->repro->bad.steady, metric, &why);
  double good = measure_run(&result->good, result->repro->bad.steady, metric, &why);
  if (isnan(bad) && isnan(good)) return;
  char *b = metric_format(metric, bad), *g = metric_format(metric, good);
  text_append(out, "%s%s %s / %s", out->size && out->contents[out->size - 1] != ' ' ? ", " : "", label, b, g);
  free(b);
  free(g);
}

/* "loss 1.00 -> 0.52": a signal's first and last value over both runs. */
static void also__signal(Text *out, const CaseResult *result, const char *label, const char *field) {
  const Run *runs[2] = {&result->bad, &result->good};
  double ends[2][2];
  for (int r = 0; r < 2; r++) {
    if (runs[r]->steps.size == 0) return;
    ends[r][0] = step_field(&runs[r]->steps.contents[0], field);
    ends[r][1] = step_field(array_back(&runs[r]->steps), field);
    if (isnan(ends[r][0]) || isnan(ends[r][1])) return;
  }
  text_append(out, ", %s %.4g -> %.4g / %.4g -> %.4g", label, ends[0][0], ends[0][1], ends[1][0], ends[1][1]);
}

static void output__also(Text *out, const CaseResult *result) {
  Text line = array_new();
  text_append(&line, "  %s %s: ", result->repro->bad.rule, result->repro->bad.name);
  also__metric(&line, result, "allocated", METRIC_ALLOC_SLOPE);
  also__metric(&line, result, "device (NVML)", METRIC_DEVICE_SLOPE);
  also__metric(&line, result, "graph nodes", METRIC_GRAPH_NODES);
  also__metric(&line, result, "RSS", METRIC_RSS_SLOPE);
  also__metric(&line, result, "peak", METRIC_PEAK);
  also__metric(&line, result, "median step", METRIC_STEP_TIME);
  also__signal(&line, result, "grad norm", "grad_norm");
  also__signal(&line, result, "loss", "loss");
  text_append(out, "%s\n", text_string(&line));
  array_delete(&line);
  const Run *bad = &result->bad;
  if (bad->raised && result->repro->bad.metric == METRIC_CRASH) {
    text_append(out, "    bad raised %s at step %u: %.160s\n", bad->error_type ? bad->error_type : "?", bad->error_step,
                bad->error_message ? bad->error_message : "");
  }
}

static void output__widths(const Row *rows, uint32_t count, size_t *widths) {
  for (int c = 0; c < COLUMNS; c++) widths[c] = strlen(HEADINGS[c]);
  for (uint32_t r = 0; r < count; r++) {
    for (int c = 0; c < COLUMNS; c++) {
      if (strlen(rows[r].cells[c]) > widths[c]) widths[c] = strlen(rows[r].cells[c]);
    }
  }
}

/* The cases whose traces name another device than the run's: a replay of
 * traces recorded on several machines says which ran where. */
static void output__other_devices(Text *out, const CaseResults *results, const Environment *environment) {
  uint32_t notes = 0;
  for (uint32_t i = 0; i < results->size; i++) {
    const CaseResult *result = &results->contents[i];
    const char *device = result->bad.device_name ? result->bad.device_name : result->good.device_name;
    if (!device || !environment->device_name || strcmp(device, environment->device_name) == 0) continue;
    text_append(out, "%s%s %s: recorded on %s, PyTorch %s\n", notes++ ? "" : "\n", result->repro->bad.rule,
                result->repro->bad.name, device,
                result->bad.torch_version ? result->bad.torch_version : "unknown");
  }
}

void output_table(Text *out, const CaseResults *results, const Environment *environment) {
  Row *rows = gl_calloc(results->size + 1, sizeof(Row));
  size_t widths[COLUMNS];
  uint32_t counts[3] = {0};
  for (uint32_t i = 0; i < results->size; i++) {
    rows[i] = row__of(&results->contents[i]);
    counts[results->contents[i].outcome.verdict]++;
  }
  output__widths(rows, results->size, widths);
  row__print(out, HEADINGS, widths);
  for (uint32_t i = 0; i < results->size; i++) row__print(out, (const char *const *)rows[i].cells, widths);
  for (uint32_t i = 0; i < results->size; i++) row__delete(&rows[i]);
  free(rows);
  uint32_t reasons = 0;
  for (uint32_t i = 0; i < results->size; i++) {
    const CaseResult *result = &results->contents[i];
    if (result->outcome.reason) {
      text_append(out, "%s%s %s: %s: %s\n", reasons++ ? "" : "\n", result->repro->bad.rule,
                  result->repro->bad.name, verdict_name(result->outcome.verdict), result->outcome.reason);
    }
  }
  output__other_devices(out, results, environment);
  text_append(out, "\nalso measured (bad / good):\n");
  for (uint32_t i = 0; i < results->size; i++) output__also(out, &results->contents[i]);
  text_append(out, "\n%u case(s): %u confirmed, %u not confirmed, %u error(s)\n", results->size,
              counts[VERDICT_CONFIRMED], counts[VERDICT_NOT_CONFIRMED], counts[VERDICT_ERROR]);
}

void output_case_summary(Text *out, const CaseResult *result) {
  const Script *bad = &result->repro->bad;
  char *b = metric_format(bad->metric, result->outcome.bad);
  char *g = row__good_cell(result);
  char *r = ratio_format(result->outcome.ratio);
  text_append(out, "%s (%s): bad %s, good %s, ratio %s: %s", gl_effect_name(bad->effect), bad->name, b, g, r,
              verdict_name(result->outcome.verdict));
  free(b);
  free(g);
  free(r);
}

/* ---- JSON --------------------------------------------------------------- */

static void json__number_or_null(cJSON *object, const char *key, double value) {
  if (isnan(value) || isinf(value)) cJSON_AddNullToObject(object, key);
  else cJSON_AddNumberToObject(object, key, value);
}

static void json__string_or_null(cJSON *object, const char *key, const char *value) {
  if (value) cJSON_AddStringToObject(object, key, value);
  else cJSON_AddNullToObject(object, key);
}

static cJSON *json__step(const Step *step) {
  cJSON *object = cJSON_CreateObject();
  cJSON_AddNumberToObject(object, "step", step->step);
  json__number_or_null(object, "allocated", step->allocated);
  json__number_or_null(object, "reserved", step->reserved);
  json__number_or_null(object, "peak", step->peak);
  json__number_or_null(object, "peak_reserved", step->peak_reserved);
  json__number_or_null(object, "time_ms", step->time_ms);
  json__number_or_null(object, "device_used", step->device_used);
  static const char *const SIGNALS[] = {"graph_nodes", "rss", "loss", "grad_norm", "param_change", "stats_change"};
  for (size_t i = 0; i < sizeof SIGNALS / sizeof SIGNALS[0]; i++) {
    double value = step_field(step, SIGNALS[i]);
    if (!isnan(value)) cJSON_AddNumberToObject(object, SIGNALS[i], value);
  }
  return object;
}

static cJSON *json__run(const Run *run, const Script *script) {
  cJSON *object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "script", script->path);
  cJSON_AddStringToObject(object, "title", script->title);
  cJSON_AddNumberToObject(object, "exit", run->exit_code);
  cJSON_AddNumberToObject(object, "signal", run->term_signal);
  cJSON_AddBoolToObject(object, "timed_out", run->timed_out);
  json__number_or_null(object, "wall_ms", run->wall_ms);
  json__number_or_null(object, "baseline", run->baseline);
  cJSON_AddNumberToObject(object, "nvml_samples", run->samples.size);
  if (run->raised) {
    cJSON *raised = cJSON_AddObjectToObject(object, "raised");
    cJSON_AddNumberToObject(raised, "step", run->error_step);
    json__string_or_null(raised, "type", run->error_type);
    json__string_or_null(raised, "message", run->error_message);
  }
  cJSON *steps = cJSON_AddArrayToObject(object, "steps");
  for (uint32_t i = 0; i < run->steps.size; i++) cJSON_AddItemToArray(steps, json__step(&run->steps.contents[i]));
  return object;
}

/* Every metric that can be measured on both runs, by name. */
static cJSON *json__metrics(const CaseResult *result) {
  cJSON *object = cJSON_CreateObject();
  for (int m = METRIC_ALLOC_SLOPE; m < METRIC_CRASH; m++) {
    const char *why;
    double bad = measure_run(&result->bad, result->repro->bad.steady, (Metric)m, &why);
    double good = measure_run(&result->good, result->repro->bad.steady, (Metric)m, &why);
    if (isnan(bad) && isnan(good)) continue;
    cJSON *pair = cJSON_AddObjectToObject(object, metric_name((Metric)m));
    json__number_or_null(pair, "bad", bad);
    json__number_or_null(pair, "good", good);
    cJSON_AddStringToObject(pair, "unit", metric_unit((Metric)m));
  }
  return object;
}

static cJSON *json__case(const CaseResult *result) {
  const Script *bad = &result->repro->bad;
  cJSON *object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "rule", bad->rule);
  cJSON_AddStringToObject(object, "case", bad->name);
  cJSON_AddStringToObject(object, "effect", gl_effect_name(bad->effect));
  cJSON_AddStringToObject(object, "metric", metric_name(bad->metric));
  cJSON_AddStringToObject(object, "unit", metric_unit(bad->metric));
  cJSON_AddNumberToObject(object, "steps", bad->steps);
  cJSON_AddNumberToObject(object, "steady", bad->steady);
  cJSON *expect = cJSON_AddArrayToObject(object, "expect");
  for (uint32_t i = 0; i < bad->expectations.size; i++) {
    char *text = expectation_describe(&bad->expectations.contents[i], bad->metric);
    cJSON_AddItemToArray(expect, cJSON_CreateString(text));
    free(text);
  }
  if (bad->raises) cJSON_AddStringToObject(object, "raises", bad->raises);
  cJSON_AddStringToObject(object, "verdict", verdict_name(result->outcome.verdict));
  json__string_or_null(object, "reason", result->outcome.reason);
  json__number_or_null(object, "bad", result->outcome.bad);
  json__number_or_null(object, "good", result->outcome.good);
  json__number_or_null(object, "ratio", result->outcome.ratio);
  cJSON_AddItemToObject(object, "metrics", json__metrics(result));
  cJSON *runs = cJSON_AddObjectToObject(object, "runs");
  cJSON_AddItemToObject(runs, "bad", json__run(&result->bad, bad));
  cJSON_AddItemToObject(runs, "good", json__run(&result->good, &result->repro->good));
  return object;
}

static cJSON *json__environment(const Environment *environment) {
  cJSON *object = cJSON_CreateObject();
  cJSON *device = cJSON_AddObjectToObject(object, "device");
  cJSON_AddNumberToObject(device, "index", environment->device_index);
  json__string_or_null(device, "name", environment->device_name);
  json__string_or_null(device, "driver", environment->driver);
  json__number_or_null(device, "memory_total", environment->memory_total > 0 ? environment->memory_total : NAN);
  cJSON *python = cJSON_AddObjectToObject(object, "python");
  json__string_or_null(python, "path", environment->python);
  json__string_or_null(python, "version", environment->python_version);
  json__string_or_null(python, "torch", environment->torch_version);
  json__string_or_null(python, "cuda", environment->cuda_version);
  cJSON_AddBoolToObject(object, "replayed", environment->replayed);
  return object;
}

char *output_json(const Environment *environment, const CaseResults *results, cJSON *findings) {
  cJSON *root = json__environment(environment);
  cJSON_AddStringToObject(root, "gpulint", gl_version());
  cJSON_AddStringToObject(root, "units", "bytes in runs; MB = 2^20 bytes in metrics");
  uint32_t counts[3] = {0};
  cJSON *cases = cJSON_AddArrayToObject(root, "cases");
  for (uint32_t i = 0; i < results->size; i++) {
    counts[results->contents[i].outcome.verdict]++;
    cJSON_AddItemToArray(cases, json__case(&results->contents[i]));
  }
  cJSON *summary = cJSON_AddObjectToObject(root, "summary");
  cJSON_AddNumberToObject(summary, "confirmed", counts[VERDICT_CONFIRMED]);
  cJSON_AddNumberToObject(summary, "not_confirmed", counts[VERDICT_NOT_CONFIRMED]);
  cJSON_AddNumberToObject(summary, "error", counts[VERDICT_ERROR]);
  if (findings) cJSON_AddItemToObject(root, "findings", findings);
  char *printed = cJSON_Print(root);
  cJSON_Delete(root);
  char *result = gl_strdup(printed);
  cJSON_free(printed);
  return result;
}
