/* run.c — `gpulint verify --run`: the user's own script under the probe.
 *
 *   lint the script ─► plan (findings, loops) ─► run the command with
 *   verify/run/ first on PYTHONPATH ─► the probe's trace ─► verdicts
 *
 * The probe (verify/run/gpulint_probe.py) records what it saw; every
 * judgement is made here, on the trace, so that a saved trace is judged
 * again anywhere with `--replay`. */
#include "run.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "child.h"
#include "findings.h"
#include "gpulint.h"
#include "measure.h"
#include "nvml.h"
#include "paired.h"
#include "data.h"

#define EXIT_NOTHING 0
#define EXIT_FOUND 1
#define EXIT_SETUP 2

#define MB (1024.0 * 1024.0)
/* What confirms growth in a loop, per iteration. */
#define GROWTH_MB 1.0
#define GROWTH_NODES 1.0
/* Iterations of a loop needed to fit a slope, and the first ones skipped. */
#define MIN_ITERATIONS 5
#define WARMUP_ITERATIONS 2
/* empty_cache(): slower by this much with it than without. */
#define CACHE_SLOWDOWN 1.05
/* An eval forward's peak with grad over the one under no_grad. */
#define GRAPH_PEAK_RATIO 1.2

static const char USAGE[] =
    "usage: gpulint verify --run [OPTIONS] -- COMMAND ...\n"
    "\n"
    "Lints the Python script that COMMAND starts, runs COMMAND with a probe\n"
    "injected (PyTorch's hooks, nothing in your files changes) for a bounded\n"
    "number of steps, and says for each finding whether it showed on this\n"
    "script: CONFIRMED, INCONCLUSIVE, NOT REACHED, NOT OBSERVED or NOT MEASURED.\n"
    "Under a launcher (torchrun, python -m torch.distributed.run, accelerate\n"
    "launch, mp.spawn) the probe runs in every rank; a finding confirmed on one\n"
    "rank is confirmed.\n"
    "\n"
    "options:\n"
    "  --steps N            stop after N optimizer steps (default: 50)\n"
    "  --eval-steps N       ... and N evaluation iterations (default: 20)\n"
    "  --seconds S          ... or after S seconds (default: 300)\n"
    "  --json FILE          write the verdicts and numbers as JSON\n"
    "  --save-trace FILE    keep the probe's trace (JSON lines)\n"
    "  --replay FILE        judge a saved trace again; runs nothing\n"
    "  --nvml-library PATH  load NVML from PATH (default: libnvidia-ml.so.1)\n"
    "  -h, --help           show this help\n"
    "\n"
    "exit status: 0 nothing confirmed, 1 a finding confirmed (or growth that no\n"
    "finding explains, or the script failed), 2 setup error\n";

/* ==== Finding the script ================================================ */

static bool run__ends_with(const char *text, const char *suffix) {
  size_t length = strlen(text), suffix_length = strlen(suffix);
  return length > suffix_length && strcmp(text + length - suffix_length, suffix) == 0;
}

/* `-m pkg.mod` -> cwd/pkg/mod.py or cwd/pkg/mod/__main__.py; caller frees. */
static char *run__module_path(const char *module, const char *cwd) {
  char *relative = gl_strdup(module);
  for (char *p = relative; *p; p++) {
    if (*p == '.') *p = '/';
  }
  char *candidates[] = {gl_format("%s/%s.py", cwd, relative), gl_format("%s/%s/__main__.py", cwd, relative)};
  free(relative);
  char *found = NULL;
  for (int i = 0; i < 2; i++) {
    if (!found && access(candidates[i], R_OK) == 0) found = candidates[i];
    else free(candidates[i]);
  }
  return found;
}

char *run_script_of(char *const *command, uint32_t count, const char *cwd) {
  if (count == 0) return NULL;
  if (run__ends_with(command[0], ".py")) return gl_strdup(command[0]);
  for (uint32_t i = 1; i < count; i++) {
    if (strcmp(command[i], "-m") == 0 && i + 1 < count) {
      char *module = run__module_path(command[i + 1], cwd);
      if (module) return module;
      i++; /* a module of an installed package (torch.distributed.run): its script follows */
      continue;
    }
    if (strcmp(command[i], "-c") == 0) return NULL;
    if (command[i][0] != '-' && run__ends_with(command[i], ".py")) return gl_strdup(command[i]);
  }
  return NULL;
}

/* ==== Loops ============================================================== */

typedef struct {
  const char *text; /* the line's first byte */
  uint32_t length;
  uint32_t indent;  /* columns, tabs to the next multiple of 8 */
  bool code;        /* not blank, not a comment, not inside a string */
} SourceLine;
typedef Array(SourceLine) SourceLines;

static void run__line_indent(SourceLine *line) {
  uint32_t column = 0, i = 0;
  for (; i < line->length && (line->text[i] == ' ' || line->text[i] == '\t'); i++) {
    column = line->text[i] == '\t' ? (column / 8 + 1) * 8 : column + 1;
  }
  line->indent = column;
  line->code = i < line->length && line->text[i] != '#' && line->text[i] != '\r';
}

/* How many triple quotes of either kind the line holds, roughly. */
static uint32_t run__triple_quotes(const SourceLine *line) {
  uint32_t count = 0;
  for (uint32_t i = 0; i + 2 < line->length; i++) {
    char c = line->text[i];
    if ((c == '"' || c == '\'') && line->text[i + 1] == c && line->text[i + 2] == c) {
      count++;
      i += 2;
    }
  }
  return count;
}

/* The lines of `source`, with those inside multi-line strings marked as no
 * code (a docstring's "for each batch" is no loop). */
static void run__split_lines(SourceLines *lines, const char *source) {
  bool in_string = false;
  for (const char *p = source; *p;) {
    const char *newline = strchr(p, '\n');
    SourceLine line = {p, (uint32_t)(newline ? (size_t)(newline - p) : strlen(p)), 0, false};
    run__line_indent(&line);
    bool was_in_string = in_string;
    if (run__triple_quotes(&line) % 2) in_string = !in_string;
    if (was_in_string) line.code = false;
    array_push(lines, line);
    p = newline ? newline + 1 : p + line.length;
  }
}

/* A line that opens a loop: `for ...`, `async for ...`, `while ...`. */
static bool run__opens_loop(const SourceLine *line) {
  const char *text = line->text + strspn(line->text, " \t");
  size_t length = line->length - (size_t)(text - line->text);
  if (length > 6 && strncmp(text, "async ", 6) == 0) text += 6, length -= 6;
  if (length > 4 && strncmp(text, "for", 3) == 0 && (text[3] == ' ' || text[3] == '(')) return true;
  return length > 6 && strncmp(text, "while", 5) == 0 && (text[5] == ' ' || text[5] == '(');
}

void run_loops_scan(RunLoops *self, const char *source) {
  SourceLines lines = array_new();
  run__split_lines(&lines, source);
  for (uint32_t i = 0; i < lines.size; i++) {
    if (!lines.contents[i].code || !run__opens_loop(&lines.contents[i])) continue;
    uint32_t end = i;
    for (uint32_t j = i + 1; j < lines.size; j++) {
      if (!lines.contents[j].code) continue;
      if (lines.contents[j].indent <= lines.contents[i].indent) break;
      end = j;
    }
    if (end > i) array_push(self, ((RunLoop){i + 1, end + 1}));
  }
  array_delete(&lines);
}

int run_loops_innermost(const RunLoops *self, uint32_t line) {
  int found = -1;
  for (uint32_t i = 0; i < self->size; i++) {
    const RunLoop *loop = &self->contents[i];
    if (loop->start <= line && line <= loop->end &&
        (found < 0 || loop->start >= self->contents[found].start)) found = (int)i;
  }
  return found;
}

/* ==== The plan =========================================================== */

/* The probe's plan: the findings of `script` (real paths), its loops, and
 * the folder the command runs in (reports show paths relative to it).
 * Caller frees. */
static char *run__plan(const char *script, const char *cwd, const FoundList *found, const RunLoops *loops) {
  cJSON *plan = cJSON_CreateObject(), *findings = cJSON_AddArrayToObject(plan, "findings");
  cJSON *loop_array = cJSON_AddArrayToObject(plan, "loops");
  cJSON_AddStringToObject(plan, "script", script);
  cJSON_AddStringToObject(plan, "cwd", cwd);
  for (uint32_t i = 0; i < found->size; i++) {
    const Found *finding = &found->contents[i];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "code", gl_rule_info(finding->rule)->code);
    cJSON_AddStringToObject(item, "path", script);
    cJSON_AddNumberToObject(item, "line", finding->start.line);
    cJSON_AddNumberToObject(item, "column", finding->start.column);
    cJSON_AddStringToObject(item, "effect", gl_effect_name(finding->effect));
    cJSON_AddStringToObject(item, "message", finding->message);
    int loop = run_loops_innermost(loops, finding->start.line);
    if (loop >= 0) cJSON_AddNumberToObject(item, "loop", loop);
    else cJSON_AddNullToObject(item, "loop");
    cJSON_AddItemToArray(findings, item);
  }
  for (uint32_t i = 0; i < loops->size; i++) {
    cJSON *item = cJSON_CreateObject();
    cJSON_AddNumberToObject(item, "id", i);
    cJSON_AddStringToObject(item, "path", script);
    cJSON_AddNumberToObject(item, "start", loops->contents[i].start);
    cJSON_AddNumberToObject(item, "end", loops->contents[i].end);
    cJSON_AddItemToArray(loop_array, item);
  }
  char *text = cJSON_PrintUnformatted(plan);
  cJSON_Delete(plan);
  return text;
}

/* ==== The trace ========================================================== */

typedef Array(double) Doubles;

typedef struct {
  char *code, *path, *message, *effect; /* owned */
  uint32_t line, column;
  int loop; /* index into the trace's loops, or -1 */
  bool reached;
  uint32_t forwards, forwards_grad, forwards_eval, cache_calls;
  RunVerdict verdict;
  char *detail; /* owned */
  cJSON *numbers; /* owned; the measured values for --json */
} TFinding;

typedef struct {
  char *path; /* owned */
  uint32_t start, end;
  Doubles n, alloc, node_n, nodes; /* per iteration; nodes when sampled */
} TLoop;

typedef struct {
  uint32_t n;
  double time_ms, grad_norm, alloc, peak; /* NAN when absent */
  bool grad_nonfinite; /* grad_norm was inf or nan: gradients were applied */
  int cleared; /* -1 unknown */
  int opt;     /* the optimizer's index; -1 unknown */
  uint32_t backwards; /* backward calls since this optimizer's last step */
  uint32_t cache_calls;
  bool cache_noop;
  int arm; /* the empty_cache A/B: 0 as written, 1 a no-op, -1 in no window */
} TStep;

typedef struct {
  char *path; /* owned: the innermost user frame */
  Array(uint32_t) lines; /* every user frame's line in `path`... */
  double grad_peak, nograd_peak, grad_kept, saved_bytes;
  char *skipped; /* owned */
  bool cuda;
  cJSON *at; /* owned: the stack */
} TAb;

typedef struct {
  char *path; /* owned */
  uint32_t line;
} TFrame;

/* A torch.load: the loaded tensors' bytes per device ({"cuda:0": ..}),
 * this process's allocated bytes per CUDA device ({"0": ..}) before,
 * after, and at the next optimizer step (NULL until one ran). All owned. */
typedef struct {
  cJSON *at, *bytes, *before, *after, *next_step;
} TLoad;

typedef struct {
  bool has_start, has_plan, has_torch, ended, runner, timed_out, cuda;
  char *torch, *python, *script, *cwd, *end_why, *end_budget, *error, *error_at, *stderr_tail, *device_name, *driver;
  cJSON *command, *budget, *nvml_devices; /* nvml_devices: the runner's per-device samples */
  int rank, device; /* -1 unknown; device: the CUDA device its steps ran on */
  int exit_code, term_signal;
  uint32_t steps_total, evals, forwards;
  double t_last, nvml_start, nvml_peak;
  Array(TFinding) findings;
  Array(TLoop) loops;
  Array(TStep) steps;
  Array(TAb) abs;
  Array(TFrame) backward_frames; /* each user frame a backward ran from, once */
  Array(TLoad) loads;
} Trace;

static double run__number(const cJSON *object, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

/* A measured number, where the probe writes one that is not finite as a
 * string ("inf", "-inf", "nan"): NAN when absent or null. */
static double run__measured(const cJSON *object, const char *key, bool *nonfinite) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  *nonfinite = cJSON_IsString(item);
  if (!*nonfinite) return cJSON_IsNumber(item) ? item->valuedouble : NAN;
  if (strcmp(item->valuestring, "inf") == 0) return INFINITY;
  if (strcmp(item->valuestring, "-inf") == 0) return -INFINITY;
  return NAN;
}

static char *run__string(const cJSON *object, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  return cJSON_IsString(item) ? gl_strdup(item->valuestring) : NULL;
}

static bool run__true(const cJSON *object, const char *key) {
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(object, key));
}

/* Whether the stack [[path, line], ...] holds path:line. */
static bool run__stack_has(const cJSON *stack, const char *path, uint32_t line) {
  const cJSON *frame;
  cJSON_ArrayForEach(frame, stack) {
    const cJSON *frame_path = cJSON_GetArrayItem(frame, 0), *frame_line = cJSON_GetArrayItem(frame, 1);
    if (cJSON_IsString(frame_path) && cJSON_IsNumber(frame_line) && frame_line->valueint == (int)line &&
        strcmp(frame_path->valuestring, path) == 0) return true;
  }
  return false;
}

static void trace__plan(Trace *self, const cJSON *plan) {
  self->has_plan = true;
  self->script = run__string(plan, "script");
  self->cwd = run__string(plan, "cwd"); /* NULL in traces from before it was recorded */
  const cJSON *item;
  cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(plan, "loops")) {
    TLoop loop = {run__string(item, "path"), (uint32_t)run__number(item, "start"), (uint32_t)run__number(item, "end"),
                  array_new(), array_new(), array_new(), array_new()};
    if (!loop.path) loop.path = gl_strdup("");
    array_push(&self->loops, loop);
  }
  cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(plan, "findings")) {
    double loop = run__number(item, "loop"), column = run__number(item, "column");
    TFinding finding = {.code = run__string(item, "code"), .path = run__string(item, "path"),
                        .message = run__string(item, "message"), .effect = run__string(item, "effect"),
                        .line = (uint32_t)run__number(item, "line"), .column = isnan(column) ? 1 : (uint32_t)column,
                        .loop = isnan(loop) || loop < 0 || loop >= self->loops.size ? -1 : (int)loop};
    if (!finding.code || !finding.path) {
      free(finding.code), free(finding.path), free(finding.message), free(finding.effect);
      continue;
    }
    array_push(&self->findings, finding);
  }
}

/* Remembers the user's frames of a backward (each path:line once). */
static void trace__backward_frames(Trace *self, const cJSON *at) {
  const cJSON *frame;
  cJSON_ArrayForEach(frame, at) {
    const cJSON *path = cJSON_GetArrayItem(frame, 0), *line = cJSON_GetArrayItem(frame, 1);
    if (!cJSON_IsString(path) || !cJSON_IsNumber(line) || line->valueint < 1) continue;
    bool known = false;
    for (uint32_t i = 0; i < self->backward_frames.size && !known; i++) {
      const TFrame *seen = &self->backward_frames.contents[i];
      known = seen->line == (uint32_t)line->valueint && strcmp(seen->path, path->valuestring) == 0;
    }
    if (!known) array_push(&self->backward_frames, ((TFrame){gl_strdup(path->valuestring), (uint32_t)line->valueint}));
  }
}

/* A forward, backward, step or empty_cache: which findings it reaches. */
static void trace__event_at(Trace *self, const cJSON *event, const char *kind) {
  const cJSON *at = cJSON_GetObjectItemCaseSensitive(event, "at");
  if (strcmp(kind, "bwd") == 0) trace__backward_frames(self, at);
  for (uint32_t i = 0; i < self->findings.size; i++) {
    TFinding *finding = &self->findings.contents[i];
    if (!run__stack_has(at, finding->path, finding->line)) continue;
    finding->reached = true;
    if (strcmp(kind, "fwd") == 0) {
      finding->forwards++;
      finding->forwards_grad += run__true(event, "grad");
      finding->forwards_eval += !run__true(event, "train");
    } else if (strcmp(kind, "cache") == 0) {
      finding->cache_calls++;
    }
  }
}

/* The step's arm in the empty_cache A/B: its window ("ab": the window's
 * index, null before the windows begin); in traces from before windows,
 * the steps that called empty_cache(), by `cache_noop`. */
static int trace__arm(const cJSON *event, const TStep *step) {
  const cJSON *window = cJSON_GetObjectItemCaseSensitive(event, "ab");
  if (window) return cJSON_IsNumber(window) ? step->cache_noop : -1;
  return step->cache_calls ? step->cache_noop : -1;
}

static void trace__step(Trace *self, const cJSON *event) {
  const cJSON *cleared = cJSON_GetObjectItemCaseSensitive(event, "cleared");
  bool nonfinite;
  double norm = run__measured(event, "grad_norm", &nonfinite);
  TStep step = {(uint32_t)run__number(event, "n"), run__number(event, "time_ms"), norm,
                run__number(event, "alloc"), run__number(event, "peak"), nonfinite,
                cJSON_IsBool(cleared) ? cJSON_IsTrue(cleared) : -1, -1, 0, 0, run__true(event, "cache_noop"), -1};
  double calls = run__number(event, "cache_calls"), opt = run__number(event, "opt");
  double backwards = run__number(event, "backwards");
  step.cache_calls = isnan(calls) ? 0 : (uint32_t)calls;
  step.arm = trace__arm(event, &step);
  step.opt = isnan(opt) || opt < 0 ? -1 : (int)opt;
  /* traces from before "backwards": a known `cleared` means one ran */
  step.backwards = !isnan(backwards) && backwards >= 0 ? (uint32_t)backwards : step.cleared >= 0;
  array_push(&self->steps, step);
  trace__event_at(self, event, "step");
  double device = run__number(event, "dev");
  if (!isnan(device)) self->device = (int)device;
  const cJSON *devices = cJSON_GetObjectItemCaseSensitive(event, "alloc_devices");
  if (devices && self->loads.size && !self->loads.contents[self->loads.size - 1].next_step) {
    self->loads.contents[self->loads.size - 1].next_step = cJSON_Duplicate(devices, true);
  }
}

static cJSON *trace__copy(const cJSON *event, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(event, key);
  return item ? cJSON_Duplicate(item, true) : cJSON_CreateObject();
}

static void trace__load(Trace *self, const cJSON *event) {
  TLoad load = {trace__copy(event, "at"), trace__copy(event, "bytes"), trace__copy(event, "alloc_before"),
                trace__copy(event, "alloc_after"), NULL};
  array_push(&self->loads, load);
  double device = run__number(event, "dev");
  if (!isnan(device) && self->device < 0) self->device = (int)device;
  trace__event_at(self, event, "load");
}

/* The rank: RANK or LOCAL_RANK at the start, init_process_group's later. */
static void trace__rank(Trace *self, const cJSON *event) {
  double rank = run__number(event, "rank");
  if (!isnan(rank)) self->rank = (int)rank;
}

static void trace__iter(Trace *self, const cJSON *event) {
  double loop = run__number(event, "loop"), n = run__number(event, "n");
  if (isnan(loop) || loop < 0 || loop >= self->loops.size || isnan(n)) return;
  TLoop *target = &self->loops.contents[(uint32_t)loop];
  double alloc = run__number(event, "alloc"), nodes = run__number(event, "nodes");
  array_push(&target->n, n);
  array_push(&target->alloc, alloc);
  if (!isnan(nodes)) {
    array_push(&target->node_n, n);
    array_push(&target->nodes, nodes);
  }
  for (uint32_t i = 0; i < self->findings.size; i++) {
    if (self->findings.contents[i].loop == (int)loop) self->findings.contents[i].reached = true;
  }
}

static void trace__ab(Trace *self, const cJSON *event) {
  const cJSON *at = cJSON_GetObjectItemCaseSensitive(event, "at");
  TAb ab = {.grad_peak = run__number(event, "grad_peak"), .nograd_peak = run__number(event, "nograd_peak"),
            .grad_kept = run__number(event, "grad_kept"), .saved_bytes = run__number(event, "saved_bytes"),
            .skipped = run__string(event, "skipped"), .at = cJSON_Duplicate(at, true)};
  char *device = run__string(event, "device");
  ab.cuda = device && strcmp(device, "cuda") == 0;
  if (!ab.skipped) ab.skipped = run__string(event, "error");
  free(device);
  array_push(&self->abs, ab);
}

static void trace__end(Trace *self, const cJSON *event) {
  if (self->ended) return;
  self->ended = true;
  self->end_why = run__string(event, "why");
  self->end_budget = run__string(event, "budget");
  self->error = run__string(event, "error");
  const cJSON *at = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(event, "at"), 0);
  if (cJSON_IsArray(at) && cJSON_IsString(cJSON_GetArrayItem(at, 0)) && cJSON_IsNumber(cJSON_GetArrayItem(at, 1))) {
    self->error_at = gl_format("%s:%d", cJSON_GetArrayItem(at, 0)->valuestring, cJSON_GetArrayItem(at, 1)->valueint);
  }
  double evals = run__number(event, "evals"), forwards = run__number(event, "forwards");
  self->evals = isnan(evals) ? 0 : (uint32_t)evals;
  self->forwards = isnan(forwards) ? 0 : (uint32_t)forwards;
}

static void trace__runner(Trace *self, const cJSON *event) {
  self->runner = true;
  double code = run__number(event, "exit"), signal = run__number(event, "signal");
  self->exit_code = isnan(code) ? -1 : (int)code;
  self->term_signal = isnan(signal) ? 0 : (int)signal;
  self->timed_out = run__true(event, "timed_out");
  self->stderr_tail = run__string(event, "stderr_last");
  free(self->device_name), free(self->driver);
  self->device_name = run__string(event, "device_name");
  self->driver = run__string(event, "driver");
  cJSON_Delete(self->nvml_devices);
  self->nvml_devices = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(event, "nvml_devices"), true);
  self->nvml_start = run__number(event, "nvml_start");
  self->nvml_peak = run__number(event, "nvml_peak");
  cJSON_Delete(self->command);
  self->command = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(event, "command"), true);
}

/* One line of the trace; lines that are not JSON objects are skipped. */
static void trace__line(Trace *self, const char *line) {
  cJSON *event = cJSON_Parse(line);
  char *kind = event ? run__string(event, "e") : NULL;
  double t = run__number(event, "t");
  if (!isnan(t) && t > self->t_last) self->t_last = t;
  if (!kind) {
  } else if (strcmp(kind, "start") == 0) {
    self->has_start = true;
    self->python = run__string(event, "python");
    cJSON_Delete(self->budget);
    self->budget = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(event, "budget"), true);
    trace__rank(self, event);
  } else if (strcmp(kind, "rank") == 0) {
    trace__rank(self, event);
  } else if (strcmp(kind, "load") == 0) {
    trace__load(self, event);
  } else if (strcmp(kind, "plan") == 0 && !self->has_plan) {
    trace__plan(self, event);
  } else if (strcmp(kind, "torch") == 0) {
    self->has_torch = true;
    self->torch = run__string(event, "torch");
  } else if (strcmp(kind, "fwd") == 0 || strcmp(kind, "bwd") == 0 || strcmp(kind, "cache") == 0) {
    trace__event_at(self, event, kind);
  } else if (strcmp(kind, "step") == 0) {
    trace__step(self, event);
  } else if (strcmp(kind, "iter") == 0) {
    trace__iter(self, event);
  } else if (strcmp(kind, "ab103") == 0) {
    trace__ab(self, event);
  } else if (strcmp(kind, "end") == 0) {
    trace__end(self, event);
  } else if (strcmp(kind, "runner") == 0) {
    trace__runner(self, event);
  }
  if (kind && (strcmp(kind, "step") == 0 || strcmp(kind, "iter") == 0)) {
    char *device = run__string(event, "device");
    if (device && strcmp(device, "cuda") == 0) self->cuda = true;
    free(device);
  }
  free(kind);
  cJSON_Delete(event);
}

static void trace__init(Trace *self, const char *text) {
  memset(self, 0, sizeof *self);
  self->exit_code = -1;
  self->rank = self->device = -1;
  self->nvml_start = self->nvml_peak = NAN;
  for (const char *p = text; *p;) {
    const char *newline = strchr(p, '\n');
    size_t length = newline ? (size_t)(newline - p) : strlen(p);
    char *line = gl_strndup(p, length);
    trace__line(self, line);
    free(line);
    p += length + (newline ? 1 : 0);
  }
  self->steps_total = self->steps.size;
}

static void trace__delete(Trace *self) {
  for (uint32_t i = 0; i < self->findings.size; i++) {
    TFinding *f = &self->findings.contents[i];
    free(f->code), free(f->path), free(f->message), free(f->effect), free(f->detail);
    cJSON_Delete(f->numbers);
  }
  for (uint32_t i = 0; i < self->loops.size; i++) {
    TLoop *loop = &self->loops.contents[i];
    free(loop->path);
    array_delete(&loop->n), array_delete(&loop->alloc), array_delete(&loop->node_n), array_delete(&loop->nodes);
  }
  for (uint32_t i = 0; i < self->abs.size; i++) {
    free(self->abs.contents[i].skipped);
    cJSON_Delete(self->abs.contents[i].at);
  }
  for (uint32_t i = 0; i < self->loads.size; i++) {
    TLoad *load = &self->loads.contents[i];
    cJSON_Delete(load->at), cJSON_Delete(load->bytes), cJSON_Delete(load->before), cJSON_Delete(load->after);
    cJSON_Delete(load->next_step);
  }
  array_delete(&self->loads);
  for (uint32_t i = 0; i < self->backward_frames.size; i++) free(self->backward_frames.contents[i].path);
  array_delete(&self->backward_frames);
  array_delete(&self->findings), array_delete(&self->loops), array_delete(&self->steps), array_delete(&self->abs);
  free(self->torch), free(self->python), free(self->script), free(self->cwd), free(self->end_why), free(self->end_budget);
  free(self->error), free(self->error_at), free(self->stderr_tail), free(self->device_name), free(self->driver);
  cJSON_Delete(self->nvml_devices);
  cJSON_Delete(self->command);
  cJSON_Delete(self->budget);
}

/* ==== Measures =========================================================== */

typedef Array(const TLoop *) LoopRefs;

typedef struct {
  uint32_t iterations;
  double alloc_slope; /* bytes per iteration; NAN off CUDA or too few */
  double node_slope;  /* autograd nodes per iteration; NAN unsampled */
} Growth;

/* The slope of `y` over `x` past the warm-up; NAN with too few points or
 * any NAN value. */
static double run__slope(const Doubles *x, const Doubles *y) {
  uint32_t skip = x->size > MIN_ITERATIONS + WARMUP_ITERATIONS ? WARMUP_ITERATIONS : 0;
  if (x->size - skip < MIN_ITERATIONS - 1) return NAN;
  for (uint32_t i = skip; i < y->size; i++) {
    if (isnan(y->contents[i])) return NAN;
  }
  return fit_slope(x->contents + skip, y->contents + skip, x->size - skip);
}

static Growth run__growth(const TLoop *loop) {
  Growth growth = {loop->n.size, NAN, NAN};
  if (loop->n.size < MIN_ITERATIONS) return growth;
  growth.alloc_slope = run__slope(&loop->n, &loop->alloc);
  growth.node_slope = run__slope(&loop->node_n, &loop->nodes);
  return growth;
}

static bool run__grows(Growth growth) {
  return (!isnan(growth.alloc_slope) && growth.alloc_slope >= GROWTH_MB * MB) ||
         (!isnan(growth.node_slope) && growth.node_slope >= GROWTH_NODES);
}

/* "48.0 MB/iteration allocated, 7.0 autograd nodes/iteration" */
static void run__growth_text(Text *out, Growth growth) {
  const char *separator = "";
  if (!isnan(growth.alloc_slope)) {
    text_append(out, "allocated memory %+.1f MB/iteration", growth.alloc_slope / MB);
    separator = ", ";
  }
  if (!isnan(growth.node_slope)) text_append(out, "%slive autograd nodes %+.1f/iteration", separator, growth.node_slope);
}


/* ==== Verdicts =========================================================== */

static void finding__set(TFinding *self, RunVerdict verdict, Text *detail) {
  self->verdict = verdict;
  free(self->detail);
  self->detail = text_take(detail);
}

static void finding__number(TFinding *self, const char *key, double value) {
  if (!self->numbers) self->numbers = cJSON_CreateObject();
  if (!isnan(value) && !isinf(value)) cJSON_AddNumberToObject(self->numbers, key, value);
}

/* The optimizer of the first step whose gradients were not cleared (-1:
 * none, or the trace does not say), whose gradient norms GPU001 quotes. */
static int run__uncleared_optimizer(const Trace *trace) {
  for (uint32_t i = 1; i < trace->steps.size; i++) {
    if (trace->steps.contents[i].cleared == 0) return trace->steps.contents[i].opt;
  }
  return -1;
}

/* GPU001: gradients not cleared before backward, and their norm growing
 * (the norms of the optimizer that was not cleared, where there are
 * several). */
static void judge__gpu001(const Trace *trace, TFinding *finding, Text *detail) {
  uint32_t uncleared = 0, known = 0;
  double first = NAN, last = NAN;
  int opt = run__uncleared_optimizer(trace);
  for (uint32_t i = 0; i < trace->steps.size; i++) {
    const TStep *step = &trace->steps.contents[i];
    if (i > 0 && step->cleared >= 0) known++, uncleared += step->cleared == 0;
    if (!isnan(step->grad_norm) && (opt < 0 || step->opt == opt)) {
      if (isnan(first)) first = step->grad_norm;
      last = step->grad_norm;
    }
  }
  finding__number(finding, "steps", trace->steps.size);
  finding__number(finding, "steps_not_cleared", uncleared);
  finding__number(finding, "grad_norm_first", first);
  finding__number(finding, "grad_norm_last", last);
  if (known < 2) {
    text_append(detail, "only %u optimizer step(s) ran after a backward; nothing to compare", known + 1);
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  if (uncleared == 0) {
    text_append(detail, "gradients were cleared before every backward (%u steps)", known + 1);
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  text_append(detail, "gradients were not cleared before %u of %u steps; the gradient norm went %.4g -> %.4g (x%.2f)",
              uncleared, known, first, last, last / first);
  finding__set(finding, RUN_CONFIRMED, detail);
}

/* GPU002: steps that followed a backward and applied no gradient (every
 * .grad None, or all zero). */
static void judge__gpu002(const Trace *trace, TFinding *finding, Text *detail) {
  uint32_t after_backward = 0, empty = 0;
  for (uint32_t i = 0; i < trace->steps.size; i++) {
    const TStep *step = &trace->steps.contents[i];
    if (step->backwards == 0) continue;
    after_backward++;
    empty += !step->grad_nonfinite && (isnan(step->grad_norm) || step->grad_norm == 0);
  }
  finding__number(finding, "steps_after_backward", after_backward);
  finding__number(finding, "steps_without_gradient", empty);
  if (after_backward < 2) {
    text_append(detail, "only %u optimizer step(s) ran after a backward; nothing to compare", after_backward);
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  text_append(detail, "%u of %u step(s) after a backward applied no gradient (every .grad None or zero at step())",
              empty, after_backward);
  finding__set(finding, empty >= 2 ? RUN_CONFIRMED : RUN_NOT_OBSERVED, detail);
}

static bool run__crashed_with(const Trace *trace, const char *text) {
  return trace->error && strstr(trace->error, text);
}

/* GPU101, GPU102: growth of the loop the finding sits in, or GPU102's
 * second backward through a freed graph. */
static void judge__growth(const Trace *trace, TFinding *finding, Text *detail) {
  if (strcmp(finding->code, "GPU102") == 0 && run__crashed_with(trace, "backward through the graph a second time")) {
    text_append(detail, "the run raised: %.200s", trace->error);
    finding__set(finding, RUN_CONFIRMED, detail);
    return;
  }
  if (finding->loop < 0) {
    text_append(detail, "the line is in no loop; --run measures growth per loop iteration");
    finding__set(finding, RUN_NOT_MEASURED, detail);
    return;
  }
  const TLoop *loop = &trace->loops.contents[finding->loop];
  Growth growth = run__growth(loop);
  finding__number(finding, "iterations", growth.iterations);
  finding__number(finding, "alloc_mb_per_iteration", growth.alloc_slope / MB);
  finding__number(finding, "nodes_per_iteration", growth.node_slope);
  if (growth.iterations < MIN_ITERATIONS) {
    text_append(detail, "only %u iteration(s) of the loop at line %u ran; %u needed", growth.iterations, loop->start,
                MIN_ITERATIONS);
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  run__growth_text(detail, growth);
  text_append(detail, " over %u iterations of the loop at line %u", growth.iterations, loop->start);
  finding__set(finding, run__grows(growth) ? RUN_CONFIRMED : RUN_NOT_OBSERVED, detail);
}

/* The GPU103 comparison made at the finding's line, or NULL. */
static const TAb *run__ab_at(const Trace *trace, const TFinding *finding) {
  for (uint32_t i = 0; i < trace->abs.size; i++) {
    if (run__stack_has(trace->abs.contents[i].at, finding->path, finding->line)) return &trace->abs.contents[i];
  }
  return NULL;
}

/* "12.5 MB", "3.0 KB", "512 bytes" */
static void run__bytes_text(Text *out, double bytes) {
  if (bytes >= MB) text_append(out, "%.1f MB", bytes / MB);
  else if (bytes >= 1024) text_append(out, "%.1f KB", bytes / 1024);
  else text_append(out, "%.0f bytes", bytes);
}

/* GPU103 whose one-forward comparison showed nothing: the finding's own
 * loop growing with grad on (each forward's graph kept from one iteration
 * to the next, e.g. through a state fed back) confirms it. */
static void judge__gpu103_growth(const Trace *trace, TFinding *finding, Text *detail) {
  Growth growth = {0, NAN, NAN};
  if (finding->loop >= 0) growth = run__growth(&trace->loops.contents[finding->loop]);
  if (isnan(growth.alloc_slope) || growth.alloc_slope < GROWTH_MB * MB) {
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  finding__number(finding, "alloc_mb_per_iteration", growth.alloc_slope / MB);
  text_append(detail, "; with grad on the loop at line %u grew %+.1f MB/iteration over %u iterations: each forward's "
              "graph is kept", trace->loops.contents[finding->loop].start, growth.alloc_slope / MB, growth.iterations);
  finding__set(finding, RUN_CONFIRMED, detail);
}

/* GPU103: the same forward again under no_grad; off CUDA, the bytes the
 * graph saved; else the growth of its loop. */
static void judge__gpu103(const Trace *trace, TFinding *finding, Text *detail) {
  const TAb *ab = run__ab_at(trace, finding);
  if (finding->forwards_grad == 0) {
    text_append(detail, "all %u forward(s) at this line ran with grad off", finding->forwards);
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  text_append(detail, "%u of %u forward(s) here ran with grad on (%u in eval mode)", finding->forwards_grad,
              finding->forwards, finding->forwards_eval);
  if (!ab || ab->skipped) {
    text_append(detail, "; no no_grad comparison: %s", ab ? ab->skipped : "no forward in eval mode with grad on");
    finding__set(finding, finding->forwards_eval ? RUN_CONFIRMED : RUN_NOT_OBSERVED, detail);
    return;
  }
  finding__number(finding, "graph_saved_mb", ab->saved_bytes / MB);
  text_append(detail, "; its graph saved ");
  run__bytes_text(detail, ab->saved_bytes);
  text_append(detail, " of tensors");
  if (!ab->cuda || isnan(ab->grad_peak) || isnan(ab->nograd_peak)) {
    finding__set(finding, ab->saved_bytes > 0 ? RUN_CONFIRMED : RUN_NOT_OBSERVED, detail);
    return;
  }
  double ratio = ratio_of(ab->grad_peak, ab->nograd_peak);
  finding__number(finding, "peak_grad_mb", ab->grad_peak / MB);
  finding__number(finding, "peak_no_grad_mb", ab->nograd_peak / MB);
  text_append(detail, "; peak %.1f MB with grad, %.1f MB under no_grad (x%.2f)", ab->grad_peak / MB,
              ab->nograd_peak / MB, ratio);
  if (ratio >= GRAPH_PEAK_RATIO) finding__set(finding, RUN_CONFIRMED, detail);
  else judge__gpu103_growth(trace, finding, detail);
}

/* GPU201: step times in windows with empty_cache() as written and a
 * no-op, alternating from steady state, compared pair by pair (paired.h). */
static void judge__gpu201(const Trace *trace, TFinding *finding, Text *detail) {
  text_append(detail, "called %u time(s)", finding->cache_calls);
  if (!trace->cuda) {
    text_append(detail, "; without CUDA empty_cache() does nothing to measure");
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  PairedStep *steps = gl_malloc((trace->steps.size ? trace->steps.size : 1) * sizeof *steps);
  for (uint32_t i = 0; i < trace->steps.size; i++) {
    steps[i] = (PairedStep){trace->steps.contents[i].time_ms, trace->steps.contents[i].arm};
  }
  PairedResult result = paired_compare(steps, trace->steps.size, CACHE_SLOWDOWN);
  free(steps);
  finding__number(finding, "pairs", result.pairs);
  finding__number(finding, "step_ms_with", result.with_ms);
  finding__number(finding, "step_ms_without", result.without_ms);
  finding__number(finding, "ratio_median", result.ratio_median);
  finding__number(finding, "ratio_min", result.ratio_min);
  finding__number(finding, "ratio_max", result.ratio_max);
  if (result.pairs < PAIRED_MIN_PAIRS) {
    text_append(detail, "; too few window pairs to compare (%u; %u needed)", result.pairs, PAIRED_MIN_PAIRS);
    finding__set(finding, RUN_INCONCLUSIVE, detail);
    return;
  }
  text_append(detail, "; step %.2f ms with it, %.2f ms with it a no-op (%+.0f%%, median of %u window pairs, "
              "pairs %+.0f%% to %+.0f%%; %u steps kept, %u slow or switching steps dropped)", result.with_ms,
              result.without_ms, (result.ratio_median - 1) * 100, result.pairs, (result.ratio_min - 1) * 100,
              (result.ratio_max - 1) * 100, result.steps_kept, result.steps_dropped);
  if (result.verdict == PAIRED_INCONCLUSIVE) text_append(detail, ": the pairs disagree");
  finding__set(finding, result.verdict == PAIRED_EFFECT      ? RUN_CONFIRMED
                        : result.verdict == PAIRED_NO_EFFECT ? RUN_NOT_OBSERVED
                                                             : RUN_INCONCLUSIVE,
               detail);
}

/* The sum of a {"key": bytes} object's values whose key starts with
 * `prefix` ("cuda"), or all of them (prefix NULL). */
static double run__bytes_sum(const cJSON *object, const char *prefix) {
  const cJSON *item;
  double sum = 0;
  cJSON_ArrayForEach(item, object) {
    if (cJSON_IsNumber(item) && (!prefix || strncmp(item->string, prefix, strlen(prefix)) == 0)) sum += item->valuedouble;
  }
  return sum;
}

/* The torch.load at the finding's line, or NULL. */
static const TLoad *run__load_at(const Trace *trace, const TFinding *finding) {
  for (uint32_t i = 0; i < trace->loads.size; i++) {
    if (run__stack_has(trace->loads.contents[i].at, finding->path, finding->line)) return &trace->loads.contents[i];
  }
  return NULL;
}

/* "cuda:0 0 -> 512 MB (1024 MB at the next step)" for each device this
 * process had memory on around the load. */
static void run__load_memory_text(Text *out, const TLoad *load) {
  const cJSON *item;
  const char *separator = "; this process's allocated memory: ";
  cJSON_ArrayForEach(item, load->after) {
    double before = run__number(load->before, item->string), next = run__number(load->next_step, item->string);
    text_append(out, "%scuda:%s %.1f -> %.1f MB", separator, item->string, isnan(before) ? 0 : before / MB,
                item->valuedouble / MB);
    if (!isnan(next)) text_append(out, " (%.1f MB at the next step)", next / MB);
    separator = ", ";
  }
}

/* GPU501: where torch.load put the checkpoint's tensors. */
static void judge__gpu501(const Trace *trace, TFinding *finding, Text *detail) {
  const TLoad *load = run__load_at(trace, finding);
  if (!load) {
    text_append(detail, "the line ran, but no torch.load was seen there");
    finding__set(finding, RUN_NOT_OBSERVED, detail);
    return;
  }
  double on_cuda = run__bytes_sum(load->bytes, "cuda"), total = run__bytes_sum(load->bytes, NULL);
  finding__number(finding, "loaded_mb", total / MB);
  finding__number(finding, "loaded_on_cuda_mb", on_cuda / MB);
  const cJSON *item;
  const char *separator = "torch.load put ";
  cJSON_ArrayForEach(item, load->bytes) {
    if (!cJSON_IsNumber(item)) continue;
    text_append(detail, "%s", separator);
    run__bytes_text(detail, item->valuedouble);
    text_append(detail, " on %s", item->string);
    separator = ", ";
  }
  if (total == 0) text_append(detail, "torch.load returned no tensors");
  run__load_memory_text(detail, load);
  finding__set(finding, on_cuda > 0 ? RUN_CONFIRMED : RUN_NOT_OBSERVED, detail);
}

/* What stopped the run, for NOT REACHED: "the script raised ... first". */
static void run__not_reached(const Trace *trace, TFinding *finding, Text *detail) {
  text_append(detail, "line %u did not run", finding->line);
  if (trace->end_why && strcmp(trace->end_why, "crash") == 0) text_append(detail, ": the script raised first");
  else if (trace->end_why && strcmp(trace->end_why, "exit") == 0) text_append(detail, ": the script exited first");
  else if (trace->timed_out) text_append(detail, ": the run was killed at the timeout first");
  else text_append(detail, " within the budget");
  finding__set(finding, RUN_NOT_REACHED, detail);
}

static void run__judge_finding(const Trace *trace, TFinding *finding) {
  Text detail = array_new();
  if (!finding->reached) {
    run__not_reached(trace, finding, &detail);
    array_delete(&detail);
    return;
  }
  if (strcmp(finding->code, "GPU001") == 0) judge__gpu001(trace, finding, &detail);
  else if (strcmp(finding->code, "GPU002") == 0) judge__gpu002(trace, finding, &detail);
  else if (strcmp(finding->code, "GPU101") == 0 || strcmp(finding->code, "GPU102") == 0) {
    judge__growth(trace, finding, &detail);
  } else if (strcmp(finding->code, "GPU103") == 0) judge__gpu103(trace, finding, &detail);
  else if (strcmp(finding->code, "GPU201") == 0) judge__gpu201(trace, finding, &detail);
  else if (strcmp(finding->code, "GPU501") == 0) judge__gpu501(trace, finding, &detail);
  else {
    text_append(&detail, "the line ran; --run has no measurement for %s", finding->code);
    finding__set(finding, RUN_NOT_MEASURED, &detail);
  }
  array_delete(&detail);
}

const char *run_verdict_name(RunVerdict verdict) {
  static const char *const NAMES[] = {"CONFIRMED", "NOT REACHED", "NOT OBSERVED", "NOT MEASURED", "INCONCLUSIVE"};
  return NAMES[verdict];
}

/* Whether a backward ran from a line after `loop` and inside the loop
 * that holds it (anywhere after it at the top level): the graph grown over
 * the loop's iterations is backpropagated and freed after it (a rollout or
 * a sequence unrolled within one training step), not kept. */
static bool run__backpropagated_after(const Trace *trace, const TLoop *loop) {
  const TLoop *outer = NULL;
  for (uint32_t i = 0; i < trace->loops.size; i++) {
    const TLoop *other = &trace->loops.contents[i];
    if (other == loop || strcmp(other->path, loop->path) != 0) continue;
    if (other->start < loop->start && loop->end <= other->end && (!outer || other->start > outer->start)) outer = other;
  }
  for (uint32_t i = 0; i < trace->backward_frames.size; i++) {
    const TFrame *frame = &trace->backward_frames.contents[i];
    if (strcmp(frame->path, loop->path) == 0 && frame->line > loop->end && (!outer || frame->line <= outer->end)) {
      return true;
    }
  }
  return false;
}

/* Whether a finding explains growth in `loop`: a growth finding (or
 * GPU103, whose graph the loop may keep) whose line is inside the loop, or
 * a growth finding whose own loop holds this one or sits inside it. */
static bool run__explained(const Trace *trace, const TLoop *loop) {
  for (uint32_t i = 0; i < trace->findings.size; i++) {
    const TFinding *finding = &trace->findings.contents[i];
    if (strcmp(finding->path, loop->path) != 0) continue;
    bool growth = strcmp(finding->code, "GPU101") == 0 || strcmp(finding->code, "GPU102") == 0;
    bool inside = loop->start <= finding->line && finding->line <= loop->end;
    if (inside && (growth || strcmp(finding->code, "GPU103") == 0)) return true;
    if (!growth) continue;
    if (finding->loop < 0) continue;
    const TLoop *own = &trace->loops.contents[finding->loop];
    if ((own->start <= loop->start && loop->end <= own->end) || (loop->start <= own->start && own->end <= loop->end)) {
      return true;
    }
  }
  return false;
}

/* ==== Report ============================================================= */

/* "python3 train.py --epochs 1" from the runner's line, or the script. */
static void run__command_text(Text *out, const Trace *trace) {
  const cJSON *word;
  const char *separator = "";
  if (!cJSON_IsArray(trace->command) || cJSON_GetArraySize(trace->command) == 0) {
    text_append(out, "%s", trace->script ? trace->script : "?");
    return;
  }
  cJSON_ArrayForEach(word, trace->command) {
    if (cJSON_IsString(word)) text_append(out, "%s%s", separator, word->valuestring);
    separator = " ";
  }
}

/* How the run ended, one sentence; sets *failed for a crash or a kill. */
static void run__ending(Text *out, const Trace *trace, bool *failed) {
  *failed = false;
  if (trace->end_why && strcmp(trace->end_why, "budget") == 0) {
    text_append(out, "stopped at the budget (%s)", trace->end_budget ? trace->end_budget : "?");
  } else if (trace->end_why && strcmp(trace->end_why, "crash") == 0) {
    text_append(out, "the script raised %.200s%s%s", trace->error ? trace->error : "an exception",
                trace->error_at ? " at " : "", trace->error_at ? trace->error_at : "");
    *failed = true;
  } else if (trace->end_why && strcmp(trace->end_why, "exit") == 0) {
    text_append(out, "the script exited on its own");
    if (trace->runner && trace->exit_code >= 0) text_append(out, " (status %d)", trace->exit_code);
    *failed = trace->runner && trace->exit_code > 0;
  } else if (trace->timed_out) {
    text_append(out, "killed at the timeout");
    *failed = true;
  } else if (trace->term_signal) {
    text_append(out, "killed by signal %d", trace->term_signal);
    *failed = true;
  } else {
    text_append(out, "the trace ends without saying why");
    *failed = true;
  }
}

/* `path` as the report shows it: relative to the folder the run started in
 * (the plan's; for older traces, the current one) when it lies under it,
 * as `gpulint check` shows paths, else as recorded. Points into `path`. */
static const char *run__display_path(const Trace *trace, const char *path) {
  char here[PATH_MAX];
  const char *cwd = trace->cwd ? trace->cwd : getcwd(here, sizeof here);
  if (!cwd) return path;
  size_t length = strlen(cwd);
  if (length > 1 && strncmp(path, cwd, length) == 0 && path[length] == '/') return path + length + 1;
  return path;
}

/* NVML's memory per device, as the runner sampled it: one line, or one
 * per device where it sampled several. */
static void run__devices_text(Text *out, const Trace *trace) {
  const cJSON *device;
  if (cJSON_GetArraySize(trace->nvml_devices) < 2) {
    if (!isnan(trace->nvml_peak)) {
      text_append(out, "device memory (NVML): %.0f MB before, %.0f MB at most\n", trace->nvml_start / MB,
                  trace->nvml_peak / MB);
    }
    return;
  }
  text_append(out, "device memory (NVML%s%s):\n", trace->driver ? ", driver " : "", trace->driver ? trace->driver : "");
  cJSON_ArrayForEach(device, trace->nvml_devices) {
    text_append(out, "    GPU %.0f: %.0f MB before, %.0f MB at most, %.0f MB at the end\n", run__number(device, "index"),
                run__number(device, "start") / MB, run__number(device, "peak") / MB, run__number(device, "end") / MB);
  }
}

/* One line per rank: its steps, median step time, peak allocated memory. */
static void run__ranks_text(Text *out, const Trace *ranks, uint32_t count) {
  if (count < 2) return;
  text_append(out, "%u ranks:\n", count);
  for (uint32_t r = 0; r < count; r++) {
    const Trace *rank = &ranks[r];
    Doubles times = array_new();
    double peak = NAN;
    for (uint32_t i = 0; i < rank->steps.size; i++) {
      const TStep *step = &rank->steps.contents[i];
      if (!isnan(step->time_ms)) array_push(&times, step->time_ms);
      if (!isnan(step->peak) && (isnan(peak) || step->peak > peak)) peak = step->peak;
    }
    double middle = times.size ? median(times.contents, times.size) : NAN;
    text_append(out, "    rank %d", rank->rank);
    if (rank->device >= 0) text_append(out, " on cuda:%d", rank->device);
    text_append(out, ": %u step(s), median step %.2f ms", rank->steps.size, middle);
    if (!isnan(peak)) text_append(out, ", peak allocated %.0f MB", peak / MB);
    text_append(out, "; ");
    bool failed;
    run__ending(out, rank, &failed);
    text_append(out, "\n");
    array_delete(&times);
  }
}

typedef Array(Trace) Traces;

static void run__report_text(Text *out, const Trace *trace, const LoopRefs *unexplained, const Traces *ranks) {
  bool failed;
  text_append(out, "gpulint verify --run: ");
  run__command_text(out, trace);
  text_append(out, "\non %s, torch %s, Python %s\n", trace->cuda ? (trace->device_name ? trace->device_name : "cuda") : "cpu",
              trace->torch ? trace->torch : "(never imported)", trace->python ? trace->python : "?");
  text_append(out, "ran %u optimizer step(s), %u evaluation iteration(s) in %.1f s; ", trace->steps.size, trace->evals,
              trace->t_last / 1000);
  run__ending(out, trace, &failed);
  text_append(out, "\n");
  run__devices_text(out, trace);
  run__ranks_text(out, ranks->contents, ranks->size);
  if (trace->findings.size == 0) text_append(out, "\nno findings in %s\n", trace->script ? trace->script : "the script");
  for (uint32_t i = 0; i < trace->findings.size; i++) {
    const TFinding *finding = &trace->findings.contents[i];
    text_append(out, "\n%s:%u:%u: %s %s\n    %s: %s\n", run__display_path(trace, finding->path), finding->line, finding->column, finding->code,
                finding->message ? finding->message : "", run_verdict_name(finding->verdict),
                finding->detail ? finding->detail : "");
  }
  for (uint32_t i = 0; i < unexplained->size; i++) {
    const TLoop *loop = unexplained->contents[i];
    text_append(out, "\n%s:%u: memory grows in this loop and no finding explains it\n    ", run__display_path(trace, loop->path),
                loop->start);
    run__growth_text(out, run__growth(loop));
    text_append(out, " over %u iterations\n", loop->n.size);
  }
}

static cJSON *run__report_json(const Trace *trace, const LoopRefs *unexplained, const Traces *ranks) {
  cJSON *root = cJSON_CreateObject(), *run = cJSON_AddObjectToObject(root, "run");
  Text ending = array_new();
  bool failed;
  run__ending(&ending, trace, &failed);
  if (trace->command) cJSON_AddItemToObject(run, "command", cJSON_Duplicate(trace->command, true));
  cJSON_AddStringToObject(run, "device", trace->cuda ? (trace->device_name ? trace->device_name : "cuda") : "cpu");
  if (trace->torch) cJSON_AddStringToObject(run, "torch", trace->torch);
  if (trace->python) cJSON_AddStringToObject(run, "python", trace->python);
  cJSON_AddNumberToObject(run, "steps", trace->steps.size);
  cJSON_AddNumberToObject(run, "eval_iterations", trace->evals);
  cJSON_AddNumberToObject(run, "seconds", trace->t_last / 1000);
  cJSON_AddStringToObject(run, "ending", text_string(&ending));
  cJSON_AddBoolToObject(run, "failed", failed);
  if (trace->error) cJSON_AddStringToObject(run, "error", trace->error);
  array_delete(&ending);
  if (trace->driver) cJSON_AddStringToObject(run, "driver", trace->driver);
  if (trace->nvml_devices) cJSON_AddItemToObject(run, "nvml_devices", cJSON_Duplicate(trace->nvml_devices, true));
  cJSON *rank_list = cJSON_AddArrayToObject(run, "ranks");
  for (uint32_t r = 0; r < ranks->size; r++) {
    const Trace *rank = &ranks->contents[r];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddNumberToObject(item, "rank", rank->rank);
    cJSON_AddNumberToObject(item, "device", rank->device);
    cJSON_AddNumberToObject(item, "steps", rank->steps.size);
    cJSON *times = cJSON_AddArrayToObject(item, "step_ms"), *peaks = cJSON_AddArrayToObject(item, "peak_allocated");
    for (uint32_t i = 0; i < rank->steps.size; i++) {
      const TStep *step = &rank->steps.contents[i];
      cJSON_AddItemToArray(times, isnan(step->time_ms) ? cJSON_CreateNull() : cJSON_CreateNumber(step->time_ms));
      cJSON_AddItemToArray(peaks, isnan(step->peak) ? cJSON_CreateNull() : cJSON_CreateNumber(step->peak));
    }
    cJSON_AddItemToArray(rank_list, item);
  }
  cJSON *findings = cJSON_AddArrayToObject(root, "findings");
  for (uint32_t i = 0; i < trace->findings.size; i++) {
    const TFinding *finding = &trace->findings.contents[i];
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "path", finding->path);
    cJSON_AddNumberToObject(item, "line", finding->line);
    cJSON_AddNumberToObject(item, "column", finding->column);
    cJSON_AddStringToObject(item, "code", finding->code);
    cJSON_AddStringToObject(item, "message", finding->message ? finding->message : "");
    cJSON_AddStringToObject(item, "verdict", run_verdict_name(finding->verdict));
    cJSON_AddStringToObject(item, "detail", finding->detail ? finding->detail : "");
    cJSON_AddItemToObject(item, "measured", finding->numbers ? cJSON_Duplicate(finding->numbers, true) : cJSON_CreateObject());
    cJSON_AddItemToArray(findings, item);
  }
  cJSON *growth = cJSON_AddArrayToObject(root, "unexplained_growth");
  for (uint32_t i = 0; i < unexplained->size; i++) {
    const TLoop *loop = unexplained->contents[i];
    Growth measured = run__growth(loop);
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "path", loop->path);
    cJSON_AddNumberToObject(item, "line", loop->start);
    cJSON_AddNumberToObject(item, "iterations", measured.iterations);
    if (!isnan(measured.alloc_slope)) cJSON_AddNumberToObject(item, "alloc_mb_per_iteration", measured.alloc_slope / MB);
    if (!isnan(measured.node_slope)) cJSON_AddNumberToObject(item, "nodes_per_iteration", measured.node_slope);
    cJSON_AddItemToArray(growth, item);
  }
  return root;
}

/* ==== Ranks ============================================================== */

#define PROCESS_LINE "{\"e\":\"process\""
#define RUNNER_LINE "{\"e\":\"runner\""
static bool run__is_process_line(const char *line) { return strncmp(line, PROCESS_LINE, sizeof PROCESS_LINE - 1) == 0; }
/* The runner's line (older runners wrote "command" before "e"). */
static bool run__is_runner_line(const char *line) {
  if (strncmp(line, RUNNER_LINE, sizeof RUNNER_LINE - 1) == 0) return true;
  if (!strstr(line, "\"runner\"")) return false;
  cJSON *event = cJSON_Parse(line);
  const cJSON *kind = cJSON_GetObjectItemCaseSensitive(event, "e");
  bool runner = cJSON_IsString(kind) && strcmp(kind->valuestring, "runner") == 0;
  cJSON_Delete(event);
  return runner;
}

/* The processes of a merged trace (the runner writes a "process" line
 * before each process's lines, and its own line last); a trace without
 * "process" lines is one process. The runner's line goes to each. */
static void traces__read(Traces *self, const char *text) {
  Array(Text) sections = array_new();
  Text runner = array_new(), first = array_new();
  array_push(&sections, first);
  for (const char *p = text; *p;) {
    const char *newline = strchr(p, '\n');
    size_t length = newline ? (size_t)(newline - p) + 1 : strlen(p);
    char *line = gl_strndup(p, length);
    if (run__is_runner_line(line)) text_append(&runner, "%s%s", line, newline ? "" : "\n");
    else {
      if (run__is_process_line(line) && sections.contents[sections.size - 1].size) {
        Text next = array_new();
        array_push(&sections, next);
      }
      text_append(&sections.contents[sections.size - 1], "%s", line);
    }
    free(line);
    p += length;
  }
  for (uint32_t i = 0; i < sections.size; i++) {
    text_append(&sections.contents[i], "%s", text_string(&runner));
    Trace trace;
    trace__init(&trace, text_string(&sections.contents[i]));
    array_push(self, trace);
    array_delete(&sections.contents[i]);
  }
  array_delete(&sections);
  array_delete(&runner);
}

/* Whether a process's trace is a rank of the run: it stepped, ran a
 * forward or a torch.load, or it is a rank that raised. A launcher and
 * workers that ran no model are not. */
static bool trace__is_rank(const Trace *self) {
  return self->has_plan && (self->steps.size || self->forwards || self->loads.size || (self->rank >= 0 && self->error));
}

/* Moves the ranks of `all` into `ranks`, in rank order (the first process
 * alone when none is one); deletes the others. */
static void traces__ranks(Traces *all, Traces *ranks) {
  for (uint32_t i = 0; i < all->size; i++) {
    if (trace__is_rank(&all->contents[i])) array_push(ranks, all->contents[i]);
  }
  bool none = ranks->size == 0;
  if (none) array_push(ranks, all->contents[0]);
  for (uint32_t i = none ? 1 : 0; i < all->size; i++) {
    if (none || !trace__is_rank(&all->contents[i])) trace__delete(&all->contents[i]);
  }
  for (uint32_t i = 1; i < ranks->size; i++) { /* insertion sort by rank */
    for (uint32_t j = i; j > 0 && ranks->contents[j - 1].rank > ranks->contents[j].rank; j--) {
      Trace swap = ranks->contents[j];
      ranks->contents[j] = ranks->contents[j - 1];
      ranks->contents[j - 1] = swap;
    }
  }
  array_delete(all);
}

/* Which verdict of one finding on several ranks wins: confirmed on one
 * rank is confirmed, then one that disagreed, then one that ran. */
static int run__verdict_rank(RunVerdict verdict) {
  static const int ORDER[] = {[RUN_CONFIRMED] = 0, [RUN_INCONCLUSIVE] = 1, [RUN_NOT_OBSERVED] = 2,
                              [RUN_NOT_MEASURED] = 3, [RUN_NOT_REACHED] = 4};
  return ORDER[verdict];
}

/* GPU501 over ranks: for each CUDA device, the ranks whose torch.load put
 * tensors on it ("GPU 0 holds 2 copies"). */
static void run__gpu501_devices(Text *out, const Traces *ranks, uint32_t index) {
  for (int device = 0; device < 64; device++) {
    char key[16];
    snprintf(key, sizeof key, "cuda:%d", device);
    uint32_t copies = 0;
    Text who = array_new();
    for (uint32_t r = 0; r < ranks->size; r++) {
      const Trace *rank = &ranks->contents[r];
      const TLoad *load = run__load_at(rank, &rank->findings.contents[index]);
      double bytes = load ? run__number(load->bytes, key) : NAN;
      if (isnan(bytes) || bytes <= 0) continue;
      text_append(&who, "%srank %d ", copies ? ", " : "", rank->rank);
      run__bytes_text(&who, bytes);
      copies++;
    }
    if (copies) text_append(out, "; GPU %d holds %u cop%s of it (%s)", device, copies, copies == 1 ? "y" : "ies",
                            text_string(&who));
    array_delete(&who);
  }
}

/* Judges each finding on every rank and leaves the verdict that wins in
 * the first rank's finding, its detail prefixed with the rank. */
static void traces__judge(Traces *ranks) {
  for (uint32_t r = 0; r < ranks->size; r++) {
    Trace *rank = &ranks->contents[r];
    for (uint32_t i = 0; i < rank->findings.size; i++) run__judge_finding(rank, &rank->findings.contents[i]);
  }
  if (ranks->size < 2) return;
  Trace *first = &ranks->contents[0];
  for (uint32_t i = 0; i < first->findings.size; i++) {
    uint32_t best = 0, agree = 0;
    for (uint32_t r = 1; r < ranks->size; r++) {
      if (i >= ranks->contents[r].findings.size) continue;
      RunVerdict verdict = ranks->contents[r].findings.contents[i].verdict;
      if (run__verdict_rank(verdict) < run__verdict_rank(ranks->contents[best].findings.contents[i].verdict)) best = r;
    }
    TFinding *winner = &ranks->contents[best].findings.contents[i], *target = &first->findings.contents[i];
    for (uint32_t r = 0; r < ranks->size; r++) {
      agree += i < ranks->contents[r].findings.size && ranks->contents[r].findings.contents[i].verdict == winner->verdict;
    }
    Text detail = array_new();
    text_append(&detail, "rank %d", ranks->contents[best].rank);
    if (agree > 1) text_append(&detail, " (the same on %u of %u ranks)", agree, ranks->size);
    text_append(&detail, ": %s", winner->detail ? winner->detail : "");
    if (strcmp(target->code, "GPU501") == 0) run__gpu501_devices(&detail, ranks, i);
    if (best != 0) {
      cJSON_Delete(target->numbers);
      target->numbers = winner->numbers;
      winner->numbers = NULL;
    }
    finding__set(target, winner->verdict, &detail);
    array_delete(&detail);
  }
}

int run_trace_judge(const char *text, Text *out, char **json) {
  Traces all = array_new(), ranks = array_new();
  traces__read(&all, text);
  traces__ranks(&all, &ranks);
  Trace *trace = &ranks.contents[0];
  if (!trace->has_start || !trace->has_plan) {
    for (uint32_t r = 0; r < ranks.size; r++) trace__delete(&ranks.contents[r]);
    array_delete(&ranks);
    return EXIT_SETUP;
  }
  traces__judge(&ranks);
  bool confirmed = false, failed = false;
  for (uint32_t i = 0; i < trace->findings.size; i++) confirmed |= trace->findings.contents[i].verdict == RUN_CONFIRMED;
  LoopRefs unexplained = array_new();
  for (uint32_t r = 0; r < ranks.size; r++) {
    const Trace *rank = &ranks.contents[r];
    for (uint32_t i = 0; i < rank->loops.size; i++) {
      const TLoop *loop = &rank->loops.contents[i];
      if (run__grows(run__growth(loop)) && !run__explained(rank, loop) && !run__backpropagated_after(rank, loop)) {
        array_push(&unexplained, loop);
      }
    }
    bool rank_failed;
    Text ignored = array_new();
    run__ending(&ignored, rank, &rank_failed);
    array_delete(&ignored);
    failed |= rank_failed;
  }
  run__report_text(out, trace, &unexplained, &ranks);
  if (json) {
    cJSON *root = run__report_json(trace, &unexplained, &ranks);
    *json = cJSON_Print(root);
    cJSON_Delete(root);
  }
  int status = confirmed || unexplained.size || failed ? EXIT_FOUND : EXIT_NOTHING;
  array_delete(&unexplained);
  for (uint32_t r = 0; r < ranks.size; r++) trace__delete(&ranks.contents[r]);
  array_delete(&ranks);
  return status;
}

/* ==== Options ============================================================ */

typedef struct {
  uint32_t steps, eval_steps;
  double seconds;
  const char *json_path, *save_trace, *replay, *nvml_library;
  char **command; /* borrowed from argv: the words after `--` */
  uint32_t command_count;
} RunOptions;

static int run__usage_error(const char *message, const char *argument) {
  fprintf(stderr, "gpulint: verify --run: %s%s%s\n", message, argument ? ": " : "", argument ? argument : "");
  fprintf(stderr, "Run `gpulint verify --run --help` for usage.\n");
  return EXIT_SETUP;
}

static bool run__number_option(const char *text, double low, double high, double *out) {
  char *end;
  errno = 0;
  double value = strtod(text, &end);
  if (end == text || *end || errno || !(value >= low && value <= high)) return false;
  *out = value;
  return true;
}

/* An option with a value; -1 when it was taken, else an exit status. */
static int run__option(RunOptions *self, const char *name, const char *value) {
  double number;
  if (strcmp(name, "--json") == 0) self->json_path = value;
  else if (strcmp(name, "--save-trace") == 0) self->save_trace = value;
  else if (strcmp(name, "--replay") == 0) self->replay = value;
  else if (strcmp(name, "--nvml-library") == 0) self->nvml_library = value;
  else if (strcmp(name, "--steps") == 0 || strcmp(name, "--eval-steps") == 0) {
    if (!run__number_option(value, 1, 1000000, &number)) return run__usage_error("needs a count of 1 or more", name);
    *(name[2] == 's' ? &self->steps : &self->eval_steps) = (uint32_t)number;
  } else if (strcmp(name, "--seconds") == 0) {
    if (!run__number_option(value, 1, 86400 * 7, &number)) return run__usage_error("--seconds needs 1 or more", value);
    self->seconds = number;
  } else {
    return run__usage_error("unknown option", name);
  }
  return -1;
}

static bool run__takes_value(const char *name) {
  static const char *const NAMES[] = {"--json", "--save-trace", "--replay", "--nvml-library", "--steps",
                                      "--eval-steps", "--seconds"};
  for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
    if (strcmp(NAMES[i], name) == 0) return true;
  }
  return false;
}

/* Returns -1 to go on, or an exit status (also after --help). */
static int run__parse(RunOptions *self, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    char *arg = argv[i], *equals = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    int status = -1;
    if (strcmp(arg, "--") == 0) {
      self->command = argv + i + 1;
      self->command_count = (uint32_t)(argc - i - 1);
      break;
    } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(USAGE, stdout);
      return EXIT_NOTHING;
    } else if (strcmp(arg, "--run") == 0) {
      continue;
    } else if (equals) {
      char *name = gl_strndup(arg, (size_t)(equals - arg));
      status = run__takes_value(name) ? run__option(self, name, equals + 1) : run__usage_error("unknown option", name);
      free(name);
    } else if (run__takes_value(arg)) {
      if (i + 1 >= argc) return run__usage_error("missing value for", arg);
      status = run__option(self, arg, argv[++i]);
    } else {
      status = run__usage_error(arg[0] == '-' ? "unknown option" : "the command goes after `--`", arg);
    }
    if (status >= 0) return status;
  }
  if (!self->replay && self->command_count == 0) return run__usage_error("no command after `--`", NULL);
  return -1;
}

bool verify_run_wanted(int argc, char **argv) {
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--run") == 0) return true;
  }
  return false;
}

/* ==== Finding the probe ================================================== */

/* verify/run/, in the first verify/ folder that holds it (data.h says
 * where it looks). Caller frees; NULL when none does. */
static char *run__probe_dir(void) {
  char *verify = verify_data_dir("run/sitecustomize.py");
  if (!verify) return NULL;
  char *run = gl_format("%s/run", verify);
  char *found = realpath(run, NULL);
  free(run);
  free(verify);
  return found;
}

/* ==== Running ============================================================ */

#define SAMPLED_DEVICES 16

/* NVML's memory used on each device (the first SAMPLED_DEVICES), bytes:
 * the first sample, the highest and the last; NAN until sampled. */
typedef struct {
  Nvml *nvml;
  unsigned devices;
  double start[SAMPLED_DEVICES], peak[SAMPLED_DEVICES], end[SAMPLED_DEVICES];
} RunSampler;

static void sampler__init(RunSampler *self, Nvml *nvml) {
  self->nvml = nvml;
  self->devices = nvml ? nvml_device_count(nvml) : 0;
  if (self->devices > SAMPLED_DEVICES) self->devices = SAMPLED_DEVICES;
  for (unsigned i = 0; i < SAMPLED_DEVICES; i++) self->start[i] = self->peak[i] = self->end[i] = NAN;
}

static void sampler__tick(void *payload, double t_ms) {
  (void)t_ms;
  RunSampler *self = payload;
  double used;
  for (unsigned i = 0; i < self->devices; i++) {
    if (!nvml_device_memory_used(self->nvml, i, &used)) continue;
    if (isnan(self->start[i])) self->start[i] = used;
    if (isnan(self->peak[i]) || used > self->peak[i]) self->peak[i] = used;
    self->end[i] = used;
  }
}

/* The script's own output goes to stderr: stdout is the report's. */
static void sampler__line(void *payload, const char *line, double t_ms) {
  (void)payload, (void)t_ms;
  fprintf(stderr, "%s\n", line);
}

/* The last non-empty line of `text`; caller frees. */
static char *run__last_line(const char *text) {
  const char *end = text + strlen(text);
  while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ')) end--;
  const char *start = end;
  while (start > text && start[-1] != '\n') start--;
  return gl_strndup(start, (size_t)(end - start));
}

/* The runner's own line for the trace: the command, how it ended, NVML. */
static char *run__runner_line(const RunOptions *options, const ChildResult *result, const RunSampler *sampler) {
  cJSON *line = cJSON_CreateObject();
  cJSON_AddStringToObject(line, "e", "runner");
  cJSON *command = cJSON_AddArrayToObject(line, "command");
  for (uint32_t i = 0; i < options->command_count; i++) cJSON_AddItemToArray(command, cJSON_CreateString(options->command[i]));
  cJSON_AddNumberToObject(line, "exit", result->exit_code);
  cJSON_AddNumberToObject(line, "signal", result->term_signal);
  cJSON_AddBoolToObject(line, "timed_out", result->timed_out);
  char *last = run__last_line(result->stderr_tail ? result->stderr_tail : "");
  cJSON_AddStringToObject(line, "stderr_last", last);
  free(last);
  if (sampler->nvml) {
    cJSON_AddStringToObject(line, "device_name", nvml_device_name(sampler->nvml));
    cJSON_AddStringToObject(line, "driver", nvml_driver_version(sampler->nvml));
    if (sampler->devices && !isnan(sampler->peak[0])) {
      cJSON_AddNumberToObject(line, "nvml_start", sampler->start[0]);
      cJSON_AddNumberToObject(line, "nvml_peak", sampler->peak[0]);
    }
    cJSON *devices = cJSON_AddArrayToObject(line, "nvml_devices");
    for (unsigned i = 0; i < sampler->devices; i++) {
      if (isnan(sampler->peak[i])) continue;
      cJSON *device = cJSON_CreateObject();
      cJSON_AddNumberToObject(device, "index", i);
      cJSON_AddNumberToObject(device, "start", sampler->start[i]);
      cJSON_AddNumberToObject(device, "peak", sampler->peak[i]);
      cJSON_AddNumberToObject(device, "end", sampler->end[i]);
      cJSON_AddItemToArray(devices, device);
    }
  }
  char *text = cJSON_PrintUnformatted(line);
  cJSON_Delete(line);
  return text;
}

/* Whether `name` is a rank's trace beside `base`: BASE.<pid>. */
static bool run__rank_trace_name(const char *name, const char *base) {
  size_t length = strlen(base);
  if (strncmp(name, base, length) != 0 || name[length] != '.' || !name[length + 1]) return false;
  for (const char *p = name + length + 1; *p; p++) {
    if (!isdigit((unsigned char)*p)) return false;
  }
  return true;
}

/* The probe's trace at `trace_path`, and those the ranks wrote beside it
 * (TRACE.<pid>), each after a "process" line when there are several;
 * NULL when there is none. Caller frees. */
static char *run__merge_traces(const char *trace_path) {
  char *dir_path = gl_strdup(trace_path), *slash = strrchr(dir_path, '/');
  const char *base = slash ? slash + 1 : trace_path;
  if (slash) *slash = '\0';
  Text merged = array_new();
  char *error = NULL, *main_trace = text_read_file(trace_path, &error);
  uint32_t files = main_trace != NULL;
  DIR *dir = opendir(slash ? dir_path : ".");
  struct dirent *entry;
  Text ranks = array_new();
  while (dir && (entry = readdir(dir))) {
    if (!run__rank_trace_name(entry->d_name, base)) continue;
    char *path = gl_format("%s/%s", slash ? dir_path : ".", entry->d_name), *text = text_read_file(path, &error);
    if (text) text_append(&ranks, "{\"e\":\"process\",\"file\":\"%s\"}\n%s", entry->d_name, text), files++;
    free(path), free(text), free(error);
    error = NULL;
  }
  if (dir) closedir(dir);
  if (main_trace) text_append(&merged, files > 1 ? "{\"e\":\"process\",\"file\":\"%s\"}\n%s" : "%.0s%s", base, main_trace);
  text_append(&merged, "%s", text_string(&ranks));
  free(main_trace), free(error), free(dir_path);
  array_delete(&ranks);
  if (files == 0) {
    array_delete(&merged);
    return NULL;
  }
  return text_take(&merged);
}

/* Removes the folder of a run: the traces, the files the ranks shared. */
static void run__remove_dir(const char *path) {
  DIR *dir = opendir(path);
  struct dirent *entry;
  while (dir && (entry = readdir(dir))) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    char *file = gl_format("%s/%s", path, entry->d_name);
    unlink(file);
    free(file);
  }
  if (dir) closedir(dir);
  rmdir(path);
}

/* Runs the command with the probe; returns the trace (caller frees) with
 * the runner's line at its end, or NULL (reported). */
static char *run__child(const RunOptions *options, const char *probe_dir, const char *plan_path,
                        const char *trace_path) {
  const char *old = getenv("PYTHONPATH");
  char *env[] = {
      old && *old ? gl_format("PYTHONPATH=%s:%s", probe_dir, old) : gl_format("PYTHONPATH=%s", probe_dir),
      gl_format("GPULINT_PROBE_TRACE=%s", trace_path), gl_format("GPULINT_PROBE_FINDINGS=%s", plan_path),
      gl_format("GPULINT_PROBE_STEPS=%u", options->steps), gl_format("GPULINT_PROBE_EVAL_STEPS=%u", options->eval_steps),
      gl_format("GPULINT_PROBE_SECONDS=%g", options->seconds), gl_strdup("PYTHONUNBUFFERED=1"), NULL};
  char *error = NULL;
  const char *library = options->nvml_library ? options->nvml_library : getenv("GPULINT_NVML_LIBRARY");
  RunSampler sampler;
  sampler__init(&sampler, nvml_open(library, 0, &error));
  free(error);
  ChildHooks hooks = {sampler__line, sampler__tick, &sampler, 20};
  ChildResult result = child_run(options->command, env, options->seconds + 60, &hooks);
  char *trace = NULL;
  if (!result.spawned) {
    fprintf(stderr, "gpulint: verify --run: cannot run %s: %s\n", options->command[0], result.stderr_tail);
  } else {
    char *runner = run__runner_line(options, &result, &sampler);
    char *probe = run__merge_traces(trace_path);
    if (!probe) {
      fprintf(stderr, "gpulint: verify --run: the probe wrote no trace (is %s a Python of version 3.8 or later, "
                      "run without -S or -I?); exit %d: %s\n", options->command[0], result.exit_code,
              result.stderr_tail ? result.stderr_tail : "");
    } else {
      trace = gl_format("%s%s\n", probe, runner);
    }
    free(probe), free(runner);
  }
  nvml_delete(sampler.nvml);
  child_result_delete(&result);
  for (char **entry = env; *entry; entry++) free(*entry);
  return trace;
}

/* ==== The command ======================================================== */

/* Lints the script, writes the plan into `dir`; false (reported) when the
 * script cannot be found or linted. */
static bool run__write_plan(const RunOptions *options, const char *dir, char **plan_path) {
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, ".");
  char *script = run_script_of(options->command, options->command_count, cwd);
  if (!script) {
    run__usage_error("cannot find the Python script in the command (a *.py argument, or -m MODULE)", NULL);
    return false;
  }
  char *real = realpath(script, NULL), *source = NULL, *error = NULL;
  FoundList found = array_new();
  bool ok = real && (source = text_read_file(real, &error)) && found_list_lint(&found, &real, 1);
  if (!real || !source) fprintf(stderr, "gpulint: verify --run: %s: %s\n", script, real ? error : strerror(errno));
  if (ok) {
    RunLoops loops = array_new();
    run_loops_scan(&loops, source);
    char *plan = run__plan(real, cwd, &found, &loops);
    *plan_path = gl_format("%s/plan.json", dir);
    ok = text_write_file(*plan_path, plan, strlen(plan), &error);
    if (!ok) fprintf(stderr, "gpulint: verify --run: %s\n", error);
    free(plan);
    array_delete(&loops);
  }
  found_list_delete(&found);
  free(script), free(real), free(source), free(error);
  return ok;
}

/* Lints, runs and returns the trace (caller frees), or NULL (reported). */
static char *run__measure(const RunOptions *options) {
  char *probe_dir = run__probe_dir();
  if (!probe_dir) {
    fprintf(stderr, "gpulint: verify --run: cannot find the probe (verify/run/sitecustomize.py); "
                    "set GPULINT_VERIFY_DIR to the verify folder\n");
    return NULL;
  }
  const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char *dir = gl_format("%s/gpulint-run-XXXXXX", tmp), *plan_path = NULL, *trace = NULL;
  if (!mkdtemp(dir)) {
    fprintf(stderr, "gpulint: verify --run: cannot create a folder in %s: %s\n", tmp, strerror(errno));
  } else {
    char *trace_path = gl_format("%s/trace.jsonl", dir);
    if (run__write_plan(options, dir, &plan_path)) trace = run__child(options, probe_dir, plan_path, trace_path);
    run__remove_dir(dir);
    free(trace_path);
  }
  free(plan_path), free(dir), free(probe_dir);
  return trace;
}

static bool run__write(const char *path, const char *content) {
  char *error = NULL;
  bool ok = text_write_file(path, content, strlen(content), &error);
  if (!ok) fprintf(stderr, "gpulint: verify --run: %s\n", error);
  free(error);
  return ok;
}

/* Judges `trace`, prints the report and writes --json and --save-trace. */
static int run__report(const RunOptions *options, const char *trace) {
  Text out = array_new();
  char *json = NULL;
  int status = run_trace_judge(trace, &out, options->json_path ? &json : NULL);
  if (status == EXIT_SETUP) {
    fprintf(stderr, "gpulint: verify --run: the trace has no probe start or plan: the probe did not run\n");
  } else {
    fputs(text_string(&out), stdout);
    fflush(stdout);
    if (json && !run__write(options->json_path, json)) status = EXIT_SETUP;
  }
  if (options->save_trace && !run__write(options->save_trace, trace)) status = EXIT_SETUP;
  free(json);
  array_delete(&out);
  return status;
}

int verify_run_main(int argc, char **argv) {
  RunOptions options = {50, 20, 300, NULL, NULL, NULL, NULL, NULL, 0};
  int status = run__parse(&options, argc, argv);
  if (status >= 0) return status;
  char *error = NULL;
  char *trace = options.replay ? text_read_file(options.replay, &error) : run__measure(&options);
  if (!trace) {
    if (error) fprintf(stderr, "gpulint: verify --run: %s\n", error);
    free(error);
    return EXIT_SETUP;
  }
  status = run__report(&options, trace);
  free(trace);
  return status;
}
