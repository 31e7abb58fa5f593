/* trace.h — one run of one script: the harness's JSON lines, the runner's
 * own NVML samples, and how the process ended.
 *
 * A run is filled while the script runs (run_add_line, run_add_sample) or
 * from a saved trace (run_load), then closed with run_finish. Both paths go
 * through the same functions, so recorded traces test the live logic.
 *
 * A trace file is JSON lines, written by run_save:
 *   {"t": MS, "out": "<a line the script printed>"}
 *   {"t": MS, "used": BYTES}                       an NVML sample
 *   {"exit": N, "signal": N, "timed_out": B, "wall_ms": MS, "stderr": "..."} */
#ifndef GPULINT_VERIFY_TRACE_H
#define GPULINT_VERIFY_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"

/* One harness step line. Optional signals are NAN when absent. */
typedef struct {
  uint32_t step;
  double allocated;     /* bytes after the step */
  double reserved;      /* bytes after the step */
  double peak;          /* highest allocated bytes during the step */
  double peak_reserved; /* highest reserved bytes during the step */
  double time_ms;
  double graph_nodes;
  double rss;
  double loss;
  double grad_norm;
  double param_change;
  double stats_change; /* the running statistics' change (a training-mode signal) */
  double device_used; /* NVML: highest device memory used during the step */
  double received_ms; /* the runner's clock when the line arrived */
} Step;

typedef struct {
  double t_ms;
  double used; /* bytes */
} Sample;

typedef struct {
  double t_ms;
  char *text; /* owned */
} Line;

typedef struct {
  Array(Line) lines; /* everything the script printed, in order */
  Array(Step) steps;
  Array(Sample) samples;
  /* From the harness's start line. */
  bool started;
  char *torch_version; /* owned or NULL */
  char *device_name;   /* owned or NULL */
  double baseline;     /* allocated bytes before the first step */
  /* From its error and end lines. */
  bool raised;
  uint32_t error_step;
  char *error_type;    /* owned or NULL */
  char *error_message; /* owned or NULL */
  bool ended;
  /* Lines that start with '{' but are not harness lines. */
  uint32_t malformed;
  char *first_malformed; /* owned or NULL */
  /* The process. */
  bool spawned;
  int exit_code;
  int term_signal;
  bool timed_out;
  double wall_ms;
  char *stderr_tail; /* owned or NULL */
} Run;

void run_init(Run *self);
void run_delete(Run *self);

/* Records one line of the script's stdout (borrowed), read at `t_ms`. */
void run_add_line(Run *self, const char *line, double t_ms);
/* Records one NVML sample of device memory used. */
void run_add_sample(Run *self, double t_ms, double used);
/* Assigns each sample to the step that was running when it was taken. */
void run_finish(Run *self);

/* A step's optional field by its JSON name ("graph_nodes"), or NAN. */
double step_field(const Step *self, const char *name);

/* Writes the run as a trace file; false and `error` (caller frees). */
bool run_save(const Run *self, const char *path, char **error);
/* Reads a trace file into a fresh run and finishes it. */
bool run_load(Run *self, const char *path, char **error);

#endif
