/* verify.c — `gpulint verify`: the command line, and the loop that runs
 * each case's two scripts while sampling the device through NVML. */
#include "verify.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "findings.h"
#include "gpulint.h"
#include "nvml.h"
#include "output.h"
#include "run.h"
#include "suggest.h"
#include "data.h"

#define EXIT_MATCHED 0
#define EXIT_MISMATCH 1
#define EXIT_SETUP 2

static const char USAGE[] =
    "usage: gpulint verify [OPTIONS] [PATH ...]\n"
    "       gpulint verify --run [OPTIONS] -- COMMAND ...\n"
    "\n"
    "Replays each rule's reproduction pair (the pitfall and its fix) on an NVIDIA\n"
    "GPU with PyTorch, measures the effect and says CONFIRMED or NOT CONFIRMED.\n"
    "With PATHs, lints them first and replays only the rules found there.\n"
    "\n"
    "options:\n"
    "  --list               list the reproductions and what each measures\n"
    "  --rule CODE          replay only this rule (repeatable; CODE,CODE works)\n"
    "  --steps N            run N steps instead of each script's own count\n"
    "  --python PATH        the Python that has PyTorch (default: python3)\n"
    "  --device N           the GPU to use, in PCI bus order (default: 0)\n"
    "  --timeout S          stop a script after S seconds (default: 300)\n"
    "  --json FILE          write every measurement as JSON\n"
    "  --plot FILE.svg      draw memory against step for each case\n"
    "  --repros DIR         the reproductions (default: found beside gpulint)\n"
    "  --save-traces DIR    keep each run's output and NVML samples in DIR\n"
    "  --replay DIR         judge traces saved with --save-traces (no GPU needed)\n"
    "  --nvml-library PATH  load NVML from PATH (default: libnvidia-ml.so.1)\n"
    "  -h, --help           show this help\n"
    "\n"
    "gpulint verify --run [OPTIONS] -- COMMAND ... runs your own training script\n"
    "under a probe (every rank under torchrun) and says, per finding, whether it\n"
    "showed there; `gpulint verify --run --help` lists its options.\n"
    "\n"
    "With PATHs and no GPU, the findings are printed, then why nothing was\n"
    "measured. GPULINT_VERIFY_NO_GPU=1 in the environment hides the GPU.\n"
    "\n"
    "exit status: 0 every replayed case matched its declared expectation,\n"
    "1 one did not (or could not be measured), 2 setup error (no GPU, no NVML,\n"
    "no PyTorch, bad arguments, broken reproductions)\n";

typedef struct {
  Array(char *) rules; /* owned, upper case */
  Array(char *) paths; /* owned */
  uint32_t steps; /* 0: each script's own */
  const char *python;
  unsigned device;
  double timeout_s;
  const char *json_path;
  const char *plot_path;
  const char *repros;
  const char *save_dir;
  const char *replay_dir;
  const char *nvml_library;
  bool list;
} Options;

static void options__delete(Options *self) {
  for (uint32_t i = 0; i < self->rules.size; i++) free(self->rules.contents[i]);
  array_delete(&self->rules);
  for (uint32_t i = 0; i < self->paths.size; i++) free(self->paths.contents[i]);
  array_delete(&self->paths);
}

static int verify__usage_error(const char *message, const char *argument) {
  fprintf(stderr, "gpulint: verify: %s%s%s\n", message, argument ? ": " : "", argument ? argument : "");
  fprintf(stderr, "Run `gpulint verify --help` for usage.\n");
  return EXIT_SETUP;
}

static int verify__setup_error(const char *message) {
  fprintf(stderr, "gpulint: verify: %s\n", message);
  return EXIT_SETUP;
}

/* ---- Options ------------------------------------------------------------ */

static bool options__number(const char *text, double low, double high, double *out) {
  char *end;
  errno = 0;
  double value = strtod(text, &end);
  if (end == text || *end || errno || !(value >= low && value <= high)) return false;
  *out = value;
  return true;
}

/* --rule GPU101,GPU102 */
static void options__rules(Options *self, const char *list) {
  char *copy = gl_strdup(list);
  for (char *save = NULL, *code = strtok_r(copy, ", ", &save); code; code = strtok_r(NULL, ", ", &save)) {
    for (char *p = code; *p; p++) *p = (char)toupper((unsigned char)*p);
    array_push(&self->rules, gl_strdup(code));
  }
  free(copy);
}

/* Every option's name; those before "list" take a value. */
static const char *const OPTION_NAMES[] = {"rule",   "python",       "json",  "plot",   "repros",  "save-traces",
                                           "replay", "nvml-library", "steps", "device", "timeout", "list",
                                           "help"};
#define VALUE_OPTIONS 11

static bool options__takes_value(const char *name) {
  for (size_t i = 0; i < VALUE_OPTIONS; i++) {
    if (strncmp(name, "--", 2) == 0 && strcmp(OPTION_NAMES[i], name + 2) == 0) return true;
  }
  return false;
}

/* "unknown option `--jsn`; did you mean `--json`?" */
static int options__unknown(const char *name) {
  char *hint = suggest_option(name, OPTION_NAMES, sizeof OPTION_NAMES / sizeof OPTION_NAMES[0]);
  fprintf(stderr, "gpulint: verify: unknown option `%s`%s\nRun `gpulint verify --help` for usage.\n", name, hint);
  free(hint);
  return EXIT_SETUP;
}

/* An option that takes a value; returns -1 on success, else an exit status. */
static int options__value(Options *self, const char *name, const char *value) {
  double number;
  if (strcmp(name, "--rule") == 0) options__rules(self, value);
  else if (strcmp(name, "--python") == 0) self->python = value;
  else if (strcmp(name, "--json") == 0) self->json_path = value;
  else if (strcmp(name, "--plot") == 0) self->plot_path = value;
  else if (strcmp(name, "--repros") == 0) self->repros = value;
  else if (strcmp(name, "--save-traces") == 0) self->save_dir = value;
  else if (strcmp(name, "--replay") == 0) self->replay_dir = value;
  else if (strcmp(name, "--nvml-library") == 0) self->nvml_library = value;
  else if (strcmp(name, "--steps") == 0) {
    if (!options__number(value, 1, 100000, &number)) return verify__usage_error("--steps needs 1..100000", value);
    self->steps = (uint32_t)number;
  } else if (strcmp(name, "--device") == 0) {
    if (!options__number(value, 0, 1023, &number)) return verify__usage_error("--device needs a GPU index", value);
    self->device = (unsigned)number;
  } else if (strcmp(name, "--timeout") == 0) {
    if (!options__number(value, 1, 86400, &number)) return verify__usage_error("--timeout needs seconds", value);
    self->timeout_s = number;
  } else {
    return options__unknown(name);
  }
  return -1;
}

/* Returns -1 to go on, or an exit status (also after --help). */
static int options__parse(Options *self, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    char *arg = argv[i];
    char *equals = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(USAGE, stdout);
      return EXIT_MATCHED;
    } else if (strcmp(arg, "--list") == 0) {
      self->list = true;
    } else if (equals) {
      char *name = gl_strndup(arg, (size_t)(equals - arg));
      int status = options__takes_value(name) ? options__value(self, name, equals + 1)
                                              : options__unknown(name);
      free(name);
      if (status >= 0) return status;
    } else if (options__takes_value(arg)) {
      if (i + 1 >= argc) return verify__usage_error("missing value for", arg);
      int status = options__value(self, arg, argv[++i]);
      if (status >= 0) return status;
    } else if (arg[0] == '-' && arg[1]) {
      return options__unknown(arg);
    } else {
      array_push(&self->paths, gl_strdup(arg));
    }
  }
  return -1;
}

/* ---- Checking the options' paths ---------------------------------------- */

/* The folder `path` would be written in ("." for a bare name); caller frees. */
static char *paths__folder(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return gl_strdup(".");
  return slash == path ? gl_strdup("/") : gl_strndup(path, (size_t)(slash - path));
}

/* Why the file `path` (given with `option`) cannot be written, or NULL: its
 * folder is missing or not writable, or the path is a folder. Checked
 * before anything runs, so that a long run does not end in a lost
 * result. Caller frees. */
static char *paths__unwritable_file(const char *option, const char *path) {
  struct stat info;
  if (stat(path, &info) == 0) {
    if (S_ISDIR(info.st_mode)) return gl_format("%s %s: it is a folder, not a file", option, path);
    if (access(path, W_OK) != 0) return gl_format("%s %s: cannot write it: %s", option, path, strerror(errno));
    return NULL;
  }
  char *folder = paths__folder(path), *why = NULL;
  if (stat(folder, &info) != 0) why = gl_format("%s %s: the folder %s does not exist", option, path, folder);
  else if (!S_ISDIR(info.st_mode)) why = gl_format("%s %s: %s is not a folder", option, path, folder);
  else if (access(folder, W_OK | X_OK) != 0) why = gl_format("%s %s: cannot write in %s: %s", option, path, folder, strerror(errno));
  free(folder);
  return why;
}

/* --save-traces DIR: a writable folder, or one that can be made. */
static char *paths__unwritable_folder(const char *option, const char *dir) {
  struct stat info;
  if (stat(dir, &info) != 0) return paths__unwritable_file(option, dir);
  if (!S_ISDIR(info.st_mode)) return gl_format("%s %s: it is a file, not a folder", option, dir);
  if (access(dir, W_OK | X_OK) != 0) return gl_format("%s %s: cannot write in it: %s", option, dir, strerror(errno));
  return NULL;
}

/* --replay DIR: a folder that --save-traces wrote (it holds environment.json). */
static char *paths__unreadable_traces(const char *dir) {
  struct stat info;
  if (stat(dir, &info) != 0) return gl_format("--replay %s: %s", dir, strerror(errno));
  if (!S_ISDIR(info.st_mode)) return gl_format("--replay %s: not a folder of saved traces", dir);
  char *environment = gl_format("%s/environment.json", dir);
  bool found = access(environment, R_OK) == 0;
  free(environment);
  if (found) return NULL;
  return gl_format("--replay %s: no saved traces there (no environment.json); save them with --save-traces DIR", dir);
}

/* Every path option that can be checked before running; EXIT_SETUP (with
 * the reason on stderr) or -1 to go on. */
static int options__check_paths(const Options *self) {
  char *why = NULL;
  if (self->replay_dir) why = paths__unreadable_traces(self->replay_dir);
  if (!why && self->json_path) why = paths__unwritable_file("--json", self->json_path);
  if (!why && self->plot_path) why = paths__unwritable_file("--plot", self->plot_path);
  if (!why && self->save_dir) why = paths__unwritable_folder("--save-traces", self->save_dir);
  if (!why) return -1;
  int status = verify__usage_error(why, NULL);
  free(why);
  return status;
}

/* ---- Finding the reproductions ------------------------------------------ */

static bool verify__is_repro_dir(const char *dir) {
  char *harness = gl_format("%s/harness.py", dir);
  bool found = access(harness, R_OK) == 0;
  free(harness);
  return found;
}

/* --repros, else verify_data_dir's folder with the harness. Caller frees;
 * NULL with `error` set. */
static char *verify__repros_dir(const Options *options, char **error) {
  if (options->repros) {
    if (verify__is_repro_dir(options->repros)) return gl_strdup(options->repros);
    *error = gl_format("%s holds no reproductions (no harness.py)", options->repros);
    return NULL;
  }
  char *found = verify_data_dir("harness.py");
  if (!found) *error = gl_strdup("cannot find the reproductions (verify/); name them with --repros DIR");
  return found;
}

/* ---- Choosing cases ----------------------------------------------------- */

/* Whether case `repro` measures `found`: same rule, and the same effect
 * where the rule has a case for that effect. */
static bool verify__measures(const ReproList *repros, const Repro *repro, const Found *found) {
  const char *code = gl_rule_info(found->rule)->code;
  if (strcmp(repro->bad.rule, code) != 0) return false;
  if (repro->bad.effect == found->effect) return true;
  for (uint32_t i = 0; i < repros->size; i++) {
    if (strcmp(repros->contents[i].bad.rule, code) == 0 && repros->contents[i].bad.effect == found->effect) {
      return false;
    }
  }
  return true;
}

static bool verify__rule_wanted(const Options *options, const char *rule) {
  if (options->rules.size == 0) return true;
  for (uint32_t i = 0; i < options->rules.size; i++) {
    if (strcmp(options->rules.contents[i], rule) == 0) return true;
  }
  return false;
}

static char *verify__trace_path(const char *dir, const Script *script);

/* Whether --replay's folder holds the bad run of `repro`; a case left out
 * is said on stderr. */
static bool verify__has_traces(const Options *options, const Repro *repro) {
  char *path = verify__trace_path(options->replay_dir, &repro->bad);
  bool found = access(path, R_OK) == 0;
  if (!found) {
    fprintf(stderr, "gpulint: verify: %s %s: no saved trace in %s; left out\n", repro->bad.rule, repro->bad.name,
            options->replay_dir);
  }
  free(path);
  return found;
}

/* Marks the cases to replay; false (reported) when --rule names a rule with
 * no reproduction. */
static bool verify__select(const Options *options, const ReproList *repros, const FoundList *found, bool *chosen) {
  for (uint32_t i = 0; i < options->rules.size; i++) {
    bool known = false;
    for (uint32_t r = 0; r < repros->size; r++) known |= strcmp(repros->contents[r].bad.rule, options->rules.contents[i]) == 0;
    if (!known) {
      verify__usage_error("no reproduction for rule", options->rules.contents[i]);
      return false;
    }
  }
  for (uint32_t r = 0; r < repros->size; r++) {
    const Repro *repro = &repros->contents[r];
    chosen[r] = verify__rule_wanted(options, repro->bad.rule);
    if (options->paths.size == 0) continue;
    bool measured = false;
    for (uint32_t f = 0; f < found->size; f++) measured |= verify__measures(repros, repro, &found->contents[f]);
    chosen[r] = chosen[r] && measured;
  }
  return true;
}

/* --replay: keeps the chosen cases whose traces were saved; false
 * (reported) when none of them was. */
static bool verify__keep_saved(const Options *options, const ReproList *repros, bool *chosen) {
  if (!options->replay_dir) return true;
  bool wanted = false, kept = false;
  for (uint32_t r = 0; r < repros->size; r++) {
    wanted |= chosen[r];
    if (chosen[r]) chosen[r] = verify__has_traces(options, &repros->contents[r]);
    kept |= chosen[r];
  }
  if (wanted && !kept) verify__usage_error("--replay: no saved traces of the chosen cases in", options->replay_dir);
  return kept || !wanted;
}

/* ---- Checking the machine ----------------------------------------------- */

typedef struct {
  Text line; /* the probe's first JSON line */
} Probe;

static void probe__on_line(void *payload, const char *line, double t_ms) {
  (void)t_ms;
  Probe *probe = payload;
  if (probe->line.size == 0 && line[0] == '{') text_append(&probe->line, "%s", line);
}

static char *probe__string(const cJSON *object, const char *key) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
  return cJSON_IsString(item) ? gl_strdup(item->valuestring) : NULL;
}

/* Reads what probe.py printed into `environment`; NULL or why it will not do. */
static char *probe__judge(const Options *options, const char *line, Environment *environment) {
  cJSON *report = cJSON_Parse(line);
  if (!cJSON_IsObject(report)) {
    cJSON_Delete(report);
    return gl_format("no PyTorch: %s printed no probe report", options->python);
  }
  char *error = probe__string(report, "error");
  environment->python_version = probe__string(report, "python");
  environment->torch_version = probe__string(report, "torch");
  environment->cuda_version = probe__string(report, "cuda");
  const cJSON *count = cJSON_GetObjectItemCaseSensitive(report, "device_count");
  char *why = NULL;
  if (!environment->torch_version) {
    why = gl_format("no PyTorch: `import torch` fails in %s: %s", options->python, error ? error : "?");
  } else if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(report, "cuda_available"))) {
    why = gl_format("no GPU for PyTorch: torch %s in %s cannot use CUDA (a CPU-only build, or no driver)",
                    environment->torch_version, options->python);
  } else if (!cJSON_IsNumber(count) || options->device >= (unsigned)count->valuedouble) {
    why = gl_format("no GPU %u for PyTorch: it sees %d", options->device, cJSON_IsNumber(count) ? count->valueint : 0);
  }
  free(error);
  cJSON_Delete(report);
  return why;
}

/* Runs probe.py; NULL when PyTorch can use the GPU, else why not. */
static char *verify__probe(const Options *options, const char *repros, Environment *environment) {
  char *script = gl_format("%s/probe.py", repros);
  char device[16];
  snprintf(device, sizeof device, "%u", options->device);
  char *argv[] = {(char *)options->python, script, device, NULL};
  char *env[] = {"CUDA_DEVICE_ORDER=PCI_BUS_ID", "PYTHONDONTWRITEBYTECODE=1", NULL};
  Probe probe = {array_new()};
  ChildHooks hooks = {probe__on_line, NULL, &probe, 100};
  ChildResult result = child_run(argv, env, fmin(options->timeout_s, 120), &hooks);
  char *why = NULL;
  if (!result.spawned) why = gl_format("no Python: %s", result.stderr_tail);
  else if (probe.line.size == 0) why = gl_format("no PyTorch: %s %s printed nothing usable (exit %d): %.300s",
                                                 options->python, script, result.exit_code, result.stderr_tail);
  else why = probe__judge(options, text_string(&probe.line), environment);
  child_result_delete(&result);
  array_delete(&probe.line);
  free(script);
  return why;
}

/* Whether GPULINT_VERIFY_NO_GPU hides the GPU (set, and not 0 or empty):
 * the runner then acts as on a machine without one, for tests. */
static bool verify__gpu_hidden(void) {
  const char *value = getenv("GPULINT_VERIFY_NO_GPU");
  return value && value[0] && strcmp(value, "0") != 0;
}

/* NVML, then PyTorch; NULL when both can be used, else why not (caller
 * frees). */
static char *verify__preflight(const Options *options, const char *repros, Environment *environment, Nvml **nvml) {
  char *error = NULL;
  if (verify__gpu_hidden()) return gl_strdup("no GPU: hidden by GPULINT_VERIFY_NO_GPU");
  const char *library = options->nvml_library ? options->nvml_library : getenv("GPULINT_NVML_LIBRARY");
  *nvml = nvml_open(library, options->device, &error);
  if (!*nvml) return error;
  environment->device_name = gl_strdup(nvml_device_name(*nvml));
  environment->driver = gl_strdup(nvml_driver_version(*nvml));
  environment->memory_total = nvml_memory_total(*nvml);
  environment->device_index = options->device;
  environment->python = gl_strdup(options->python);
  return verify__probe(options, repros, environment);
}

/* ---- Running ------------------------------------------------------------ */

typedef struct {
  Run *run;
  Nvml *nvml;
} Sampler;

static void sampler__on_line(void *payload, const char *line, double t_ms) {
  Sampler *sampler = payload;
  run_add_line(sampler->run, line, t_ms);
}

static void sampler__on_tick(void *payload, double t_ms) {
  Sampler *sampler = payload;
  double used;
  if (sampler->nvml && nvml_memory_used(sampler->nvml, &used)) run_add_sample(sampler->run, t_ms, used);
}

/* Runs one script of a case to completion, sampling NVML every 10 ms. */
static void verify__run_script(const Options *options, const Script *script, uint32_t steps, Nvml *nvml, Run *run) {
  char steps_text[16], device[16];
  snprintf(steps_text, sizeof steps_text, "%u", steps);
  snprintf(device, sizeof device, "%u", options->device);
  char *argv[] = {(char *)options->python, script->path, "--steps", steps_text, "--device", device, NULL};
  char *env[] = {"PYTHONUNBUFFERED=1", "CUDA_DEVICE_ORDER=PCI_BUS_ID", "PYTHONDONTWRITEBYTECODE=1", NULL};
  Sampler sampler = {run, nvml};
  ChildHooks hooks = {sampler__on_line, sampler__on_tick, &sampler, 10};
  ChildResult result = child_run(argv, env, options->timeout_s, &hooks);
  run->spawned = result.spawned;
  run->exit_code = result.exit_code;
  run->term_signal = result.term_signal;
  run->timed_out = result.timed_out;
  run->wall_ms = result.wall_ms;
  run->stderr_tail = result.stderr_tail; /* taken over */
  run_finish(run);
}

/* The trace file of `script` in `dir`: NAME.jsonl for NAME.py; caller frees. */
static char *verify__trace_path(const char *dir, const Script *script) {
  const char *slash = strrchr(script->path, '/');
  const char *name = slash ? slash + 1 : script->path;
  size_t length = strlen(name);
  if (length > 3 && strcmp(name + length - 3, ".py") == 0) length -= 3;
  return gl_format("%s/%.*s.jsonl", dir, (int)length, name);
}

static bool verify__replay_run(const char *dir, const Script *script, Run *run) {
  char *path = verify__trace_path(dir, script), *error = NULL;
  bool ok = run_load(run, path, &error);
  if (!ok) {
    fprintf(stderr, "gpulint: verify: %s\n", error);
    free(error);
    run_init(run);
  }
  free(path);
  return ok;
}

static void verify__progress(const Script *script, uint32_t steps, const Run *run) {
  fprintf(stderr, "gpulint verify: %s %s, %s: %u/%u steps in %.1f s%s\n", script->rule, script->name,
          script->role == ROLE_BAD ? "bad " : "good", run->steps.size, steps, run->wall_ms / 1000,
          run->raised ? " (raised)" : run->timed_out ? " (timed out)" : "");
}

/* Runs (or replays) both scripts of `repro` and judges them. */
static CaseResult verify__case(const Options *options, const Repro *repro, Nvml *nvml) {
  CaseResult result = {.repro = repro};
  run_init(&result.bad);
  run_init(&result.good);
  uint32_t steps = options->steps ? options->steps : repro->bad.steps;
  const Script *scripts[2] = {&repro->bad, &repro->good};
  Run *runs[2] = {&result.bad, &result.good};
  for (int i = 0; i < 2; i++) {
    if (options->replay_dir) {
      verify__replay_run(options->replay_dir, scripts[i], runs[i]);
      continue;
    }
    verify__run_script(options, scripts[i], steps, nvml, runs[i]);
    verify__progress(scripts[i], steps, runs[i]);
  }
  result.outcome = outcome_judge(repro, &result.bad, &result.good);
  return result;
}

/* ---- Saving and replaying the environment ------------------------------- */

static bool verify__save_environment(const char *dir, const Environment *environment, char **error) {
  CaseResults none = array_new();
  char *json = output_json(environment, &none, NULL);
  char *path = gl_format("%s/environment.json", dir);
  bool ok = text_write_file(path, json, strlen(json), error);
  free(path);
  free(json);
  return ok;
}

static void verify__load_environment(const char *dir, Environment *environment) {
  char *path = gl_format("%s/environment.json", dir), *error = NULL;
  char *text = text_read_file(path, &error);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  const cJSON *device = cJSON_GetObjectItemCaseSensitive(root, "device");
  const cJSON *python = cJSON_GetObjectItemCaseSensitive(root, "python");
  const cJSON *total = cJSON_GetObjectItemCaseSensitive(device, "memory_total");
  const cJSON *index = cJSON_GetObjectItemCaseSensitive(device, "index");
  environment->device_name = probe__string(device, "name");
  environment->driver = probe__string(device, "driver");
  environment->memory_total = cJSON_IsNumber(total) ? total->valuedouble : 0;
  environment->device_index = cJSON_IsNumber(index) && index->valueint >= 0 ? (unsigned)index->valueint : 0;
  environment->python = probe__string(python, "path");
  environment->python_version = probe__string(python, "version");
  environment->torch_version = probe__string(python, "torch");
  environment->cuda_version = probe__string(python, "cuda");
  environment->replayed = true;
  cJSON_Delete(root);
  free(text);
  free(error);
  free(path);
}

static bool verify__save_traces(const char *dir, const Environment *environment, const CaseResults *results) {
  char *error = NULL;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "gpulint: verify: cannot create %s: %s\n", dir, strerror(errno));
    return false;
  }
  bool ok = verify__save_environment(dir, environment, &error);
  for (uint32_t i = 0; ok && i < results->size; i++) {
    const CaseResult *result = &results->contents[i];
    char *bad = verify__trace_path(dir, &result->repro->bad), *good = verify__trace_path(dir, &result->repro->good);
    ok = run_save(&result->bad, bad, &error) && run_save(&result->good, good, &error);
    free(bad);
    free(good);
  }
  if (!ok) {
    fprintf(stderr, "gpulint: verify: %s\n", error);
    free(error);
  }
  return ok;
}

/* ---- Reporting ---------------------------------------------------------- */

/* A setup error after the lint: the findings of the paths on stdout, as
 * `gpulint check` prints them, then on stderr why none could be measured.
 * Returns EXIT_SETUP. */
static int verify__unmeasured(const Options *options, const FoundList *found, const char *why) {
  if (options->paths.size == 0 || options->list) return verify__setup_error(why);
  for (uint32_t f = 0; f < found->size; f++) {
    const Found *finding = &found->contents[f];
    if (finding->cell) printf("%s:cell %u:", finding->path, finding->cell);
    else printf("%s:", finding->path);
    printf("%u:%u: %s %s\n", finding->start.line, finding->start.column, gl_rule_info(finding->rule)->code,
           finding->message);
  }
  fflush(stdout);
  char *message = gl_format("%u finding%s, none measured: %s", found->size, found->size == 1 ? "" : "s", why);
  verify__setup_error(message);
  free(message);
  return EXIT_SETUP;
}

/* Each finding, then the measured impact of each case that replays it. */
static void verify__print_findings(Text *out, const ReproList *repros, const FoundList *found,
                                   const CaseResults *results) {
  text_append(out, "\nfindings and their measured impact:\n");
  for (uint32_t f = 0; f < found->size; f++) {
    const Found *finding = &found->contents[f];
    const char *code = gl_rule_info(finding->rule)->code;
    if (finding->cell) text_append(out, "%s:cell %u:", finding->path, finding->cell);
    else text_append(out, "%s:", finding->path);
    text_append(out, "%u:%u: %s %s\n", finding->start.line, finding->start.column, code, finding->message);
    bool any = false;
    for (uint32_t i = 0; i < results->size; i++) {
      if (!verify__measures(repros, results->contents[i].repro, finding)) continue;
      text_append(out, "    measured: ");
      output_case_summary(out, &results->contents[i]);
      text_append(out, "\n");
      any = true;
    }
    if (!any) text_append(out, "    not measured: gpulint has no reproduction for %s\n", code);
  }
}

static cJSON *verify__findings_json(const FoundList *found) {
  cJSON *array = cJSON_CreateArray();
  for (uint32_t f = 0; f < found->size; f++) {
    const Found *finding = &found->contents[f];
    cJSON *object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "path", finding->path);
    cJSON_AddNumberToObject(object, "line", finding->start.line);
    cJSON_AddNumberToObject(object, "column", finding->start.column);
    if (finding->cell) cJSON_AddNumberToObject(object, "cell", finding->cell);
    cJSON_AddStringToObject(object, "code", gl_rule_info(finding->rule)->code);
    cJSON_AddStringToObject(object, "effect", gl_effect_name(finding->effect));
    cJSON_AddStringToObject(object, "message", finding->message);
    cJSON_AddItemToArray(array, object);
  }
  return array;
}

static bool verify__write(const char *path, char *content) {
  char *error = NULL;
  bool ok = text_write_file(path, content, strlen(content), &error);
  if (!ok) fprintf(stderr, "gpulint: verify: %s\n", error);
  free(error);
  free(content);
  return ok;
}

/* Prints the table and writes --json, --plot and --save-traces; false
 * when a file could not be written. */
static bool verify__report(const Options *options, const Environment *environment, const ReproList *repros,
                           const CaseResults *results, const FoundList *found) {
  Text out = array_new();
  text_append(&out, "gpulint verify on ");
  output_environment_line(&out, environment);
  text_append(&out, "\n");
  output_table(&out, results, environment);
  if (options->paths.size) verify__print_findings(&out, repros, found, results);
  fputs(text_string(&out), stdout);
  fflush(stdout);
  bool ok = true;
  if (options->json_path) {
    cJSON *findings = options->paths.size ? verify__findings_json(found) : NULL;
    ok = verify__write(options->json_path, output_json(environment, results, findings)) && ok;
  }
  if (options->plot_path) {
    Text caption = array_new();
    output_environment_line(&caption, environment);
    if (caption.size) caption.contents[--caption.size] = '\0';
    ok = verify__write(options->plot_path, output_svg(results, text_string(&caption))) && ok;
    array_delete(&caption);
  }
  if (options->save_dir) ok = verify__save_traces(options->save_dir, environment, results) && ok;
  array_delete(&out);
  return ok;
}

/* ---- The command -------------------------------------------------------- */

static int verify__status(const CaseResults *results) {
  for (uint32_t i = 0; i < results->size; i++) {
    if (results->contents[i].outcome.verdict != VERDICT_CONFIRMED) return EXIT_MISMATCH;
  }
  return EXIT_MATCHED;
}

/* Replays the chosen cases; the environment is filled by preflight or from
 * the saved traces. */
static int verify__replay_all(const Options *options, const char *repros_dir, const ReproList *repros,
                              const bool *chosen, const FoundList *found) {
  Environment environment = {0};
  Nvml *nvml = NULL;
  char *why = NULL;
  if (options->replay_dir) verify__load_environment(options->replay_dir, &environment);
  else if ((why = verify__preflight(options, repros_dir, &environment, &nvml))) {
    nvml_delete(nvml);
    environment_delete(&environment);
    int status = verify__unmeasured(options, found, why);
    free(why);
    return status;
  }
  CaseResults results = array_new();
  for (uint32_t r = 0; r < repros->size; r++) {
    if (chosen[r]) array_push(&results, verify__case(options, &repros->contents[r], nvml));
  }
  nvml_delete(nvml);
  int status = verify__report(options, &environment, repros, &results, found) ? verify__status(&results) : EXIT_SETUP;
  case_results_delete(&results);
  environment_delete(&environment);
  return status;
}

/* After the reproductions are loaded (and the paths linted into `found`):
 * list, or choose and replay. */
static int verify__with_repros(const Options *options, const char *repros_dir, const ReproList *repros,
                               const FoundList *found) {
  if (options->list) {
    Text out = array_new();
    output_list(&out, repros);
    fputs(text_string(&out), stdout);
    array_delete(&out);
    return EXIT_MATCHED;
  }
  bool *chosen = gl_calloc(repros->size, sizeof(bool));
  int status = EXIT_SETUP;
  if (verify__select(options, repros, found, chosen) && verify__keep_saved(options, repros, chosen)) {
    bool any = false;
    for (uint32_t r = 0; r < repros->size; r++) any |= chosen[r];
    if (any) status = verify__replay_all(options, repros_dir, repros, chosen, found);
    else {
      printf("gpulint verify: %u finding(s), none that a reproduction measures; nothing to replay\n", found->size);
      status = EXIT_MATCHED;
    }
  }
  free(chosen);
  return status;
}

/* The paths are linted first, so that their findings are printed even when
 * nothing can be measured. */
int verify_main(int argc, char **argv) {
  if (verify_run_wanted(argc, argv)) return verify_run_main(argc, argv);
  Options options = {array_new(), array_new(), 0, "python3", 0, 300, NULL, NULL, NULL, NULL, NULL, NULL, false};
  int status = options__parse(&options, argc, argv);
  if (status < 0) status = options__check_paths(&options);
  if (status >= 0) {
    options__delete(&options);
    return status;
  }
  FoundList found = array_new();
  char *error = NULL, *repros_dir = NULL;
  ReproList repros = array_new();
  if (!options.list && options.paths.size && !found_list_lint(&found, options.paths.contents, options.paths.size)) {
    status = EXIT_SETUP; /* each unreadable path was reported */
  } else if (!(repros_dir = verify__repros_dir(&options, &error)) || !repro_list_load(&repros, repros_dir, &error)) {
    status = verify__unmeasured(&options, &found, error);
  } else {
    status = verify__with_repros(&options, repros_dir, &repros, &found);
  }
  free(error);
  free(repros_dir);
  repro_list_delete(&repros);
  found_list_delete(&found);
  options__delete(&options);
  return status;
}
