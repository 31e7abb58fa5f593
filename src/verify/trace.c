/* trace.c — reading harness lines and NVML samples into a Run, and saving
 * and loading runs as trace files. */
#include "trace.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

void run_init(Run *self) {
  *self = (Run){0};
  self->baseline = NAN;
}

void run_delete(Run *self) {
  for (uint32_t i = 0; i < self->lines.size; i++) free(self->lines.contents[i].text);
  array_delete(&self->lines);
  array_delete(&self->steps);
  array_delete(&self->samples);
  free(self->torch_version);
  free(self->device_name);
  free(self->error_type);
  free(self->error_message);
  free(self->first_malformed);
  free(self->stderr_tail);
  run_init(self);
}

/* ---- Harness lines ------------------------------------------------------ */

static double json__number(const cJSON *object, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

static int json__int(const cJSON *object, const char *key) {
  double value = json__number(object, key);
  return isnan(value) || value < -1e6 || value > 1e6 ? 0 : (int)value;
}

static char *json__string(const cJSON *object, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  return cJSON_IsString(item) ? gl_strdup(item->valuestring) : NULL;
}

/* {"step": k, "allocated": .., "reserved": .., "peak": .., "time_ms": ..} */
static bool run__step(Run *self, const cJSON *object, double t_ms) {
  Step step = {0};
  double number = json__number(object, "step");
  step.allocated = json__number(object, "allocated");
  step.reserved = json__number(object, "reserved");
  step.peak = json__number(object, "peak");
  step.time_ms = json__number(object, "time_ms");
  if (isnan(number) || number < 0 || number > 1e9 || isnan(step.allocated) || isnan(step.reserved) ||
      isnan(step.peak) || isnan(step.time_ms)) {
    return false;
  }
  step.step = (uint32_t)number;
  step.peak_reserved = json__number(object, "peak_reserved");
  step.graph_nodes = json__number(object, "graph_nodes");
  step.rss = json__number(object, "rss");
  step.loss = json__number(object, "loss");
  step.grad_norm = json__number(object, "grad_norm");
  step.param_change = json__number(object, "param_change");
  step.stats_change = json__number(object, "stats_change");
  step.device_used = NAN;
  step.received_ms = t_ms;
  array_push(&self->steps, step);
  return true;
}

/* {"event": "start" | "error" | "end", ...} */
static bool run__event(Run *self, const cJSON *object, const char *event) {
  if (strcmp(event, "start") == 0) {
    self->started = true;
    free(self->torch_version);
    free(self->device_name);
    self->torch_version = json__string(object, "torch");
    self->device_name = json__string(object, "device");
    self->baseline = json__number(object, "baseline");
  } else if (strcmp(event, "error") == 0) {
    double step = json__number(object, "step");
    self->raised = true;
    self->error_step = isnan(step) || step < 0 || step > 1e9 ? 0 : (uint32_t)step;
    free(self->error_type);
    free(self->error_message);
    self->error_type = json__string(object, "type");
    self->error_message = json__string(object, "message");
  } else if (strcmp(event, "end") == 0) {
    self->ended = true;
  } else {
    return false;
  }
  return true;
}

static void run__malformed(Run *self, const char *line) {
  if (self->malformed++ == 0) self->first_malformed = gl_strndup(line, strnlen(line, 200));
}

void run_add_line(Run *self, const char *line, double t_ms) {
  array_push(&self->lines, ((Line){t_ms, gl_strdup(line)}));
  const char *p = line;
  while (*p == ' ' || *p == '\t') p++;
  if (*p != '{') return; /* a warning or a print: not the harness's */
  cJSON *object = cJSON_Parse(p);
  bool ok = cJSON_IsObject(object);
  if (ok) {
    const cJSON *event = cJSON_GetObjectItemCaseSensitive(object, "event");
    ok = cJSON_IsString(event) ? run__event(self, object, event->valuestring) : run__step(self, object, t_ms);
  }
  if (!ok) run__malformed(self, line);
  cJSON_Delete(object);
}

void run_add_sample(Run *self, double t_ms, double used) {
  array_push(&self->samples, ((Sample){t_ms, used}));
}

/* A sample belongs to the first step whose line arrived at or after it, so
 * each step gets the samples taken while it ran (and its setup, for the
 * first). */
void run_finish(Run *self) {
  uint32_t step = 0;
  for (uint32_t i = 0; i < self->samples.size; i++) {
    const Sample *sample = &self->samples.contents[i];
    while (step < self->steps.size && self->steps.contents[step].received_ms < sample->t_ms) step++;
    if (step == self->steps.size) break;
    Step *target = &self->steps.contents[step];
    if (isnan(target->device_used) || sample->used > target->device_used) target->device_used = sample->used;
  }
}

double step_field(const Step *self, const char *name) {
  if (strcmp(name, "graph_nodes") == 0) return self->graph_nodes;
  if (strcmp(name, "rss") == 0) return self->rss;
  if (strcmp(name, "loss") == 0) return self->loss;
  if (strcmp(name, "grad_norm") == 0) return self->grad_norm;
  if (strcmp(name, "param_change") == 0) return self->param_change;
  if (strcmp(name, "stats_change") == 0) return self->stats_change;
  return NAN;
}

/* ---- Trace files -------------------------------------------------------- */

static void trace__append(Text *text, cJSON *object) {
  char *line = cJSON_PrintUnformatted(object);
  text_append(text, "%s\n", line);
  cJSON_free(line);
  cJSON_Delete(object);
}

/* Lines and samples in time order, then how the process ended. */
bool run_save(const Run *self, const char *path, char **error) {
  Text text = array_new();
  uint32_t l = 0, s = 0;
  while (l < self->lines.size || s < self->samples.size) {
    bool take_line = s == self->samples.size ||
                     (l < self->lines.size && self->lines.contents[l].t_ms <= self->samples.contents[s].t_ms);
    cJSON *object = cJSON_CreateObject();
    if (take_line) {
      cJSON_AddNumberToObject(object, "t", self->lines.contents[l].t_ms);
      cJSON_AddStringToObject(object, "out", self->lines.contents[l++].text);
    } else {
      cJSON_AddNumberToObject(object, "t", self->samples.contents[s].t_ms);
      cJSON_AddNumberToObject(object, "used", self->samples.contents[s++].used);
    }
    trace__append(&text, object);
  }
  cJSON *end = cJSON_CreateObject();
  cJSON_AddNumberToObject(end, "exit", self->exit_code);
  cJSON_AddNumberToObject(end, "signal", self->term_signal);
  cJSON_AddBoolToObject(end, "timed_out", self->timed_out);
  cJSON_AddNumberToObject(end, "wall_ms", self->wall_ms);
  cJSON_AddStringToObject(end, "stderr", self->stderr_tail ? self->stderr_tail : "");
  trace__append(&text, end);
  bool ok = text_write_file(path, text_string(&text), text.size, error);
  array_delete(&text);
  return ok;
}

static void run__load_end(Run *self, const cJSON *object) {
  self->spawned = true;
  self->exit_code = json__int(object, "exit");
  self->term_signal = json__int(object, "signal");
  self->timed_out = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(object, "timed_out"));
  self->wall_ms = json__number(object, "wall_ms");
  self->stderr_tail = json__string(object, "stderr");
}

/* One trace line; false when it is none of the three kinds. */
static bool run__load_line(Run *self, const char *line) {
  cJSON *object = cJSON_Parse(line);
  double t = json__number(object, "t");
  const cJSON *out = cJSON_GetObjectItemCaseSensitive(object, "out");
  double used = json__number(object, "used");
  bool ok = true;
  if (cJSON_IsString(out) && !isnan(t)) run_add_line(self, out->valuestring, t);
  else if (!isnan(used) && !isnan(t)) run_add_sample(self, t, used);
  else if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(object, "exit"))) run__load_end(self, object);
  else ok = false;
  cJSON_Delete(object);
  return ok;
}

bool run_load(Run *self, const char *path, char **error) {
  run_init(self);
  char *text = text_read_file(path, error);
  if (!text) return false;
  bool ok = true;
  uint32_t number = 1;
  for (char *line = text; ok && *line; number++) {
    char *end = strchr(line, '\n');
    if (end) *end = '\0';
    if (*line && !run__load_line(self, line)) {
      *error = gl_format("%s:%u: not a trace line", path, number);
      ok = false;
    }
    line = end ? end + 1 : line + strlen(line);
  }
  free(text);
  if (ok) run_finish(self);
  else run_delete(self);
  return ok;
}
