/* summary.h — what one file tells the others.
 *
 * A Summary is computed from a file's own facts (facts.h) and flow
 * (flow.h), without looking at other files; links.h joins summaries
 * across files when a question needs it. Names are stored as written in
 * the file, qualified through its imports ("torch.nn.Module",
 * ".meters.AverageMeter"). Everything a Summary holds is owned by it. */
#ifndef GPULINT_SUMMARY_H
#define GPULINT_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "binio.h"
#include "elsewhere.h"

/* SummaryFunction.returns holds RETURNS_* bits (elsewhere.h). */

typedef struct {
  char *name;            /* "evaluate", or "AverageMeter.update" for methods */
  uint32_t line;         /* 1-based line of the `def` */
  uint32_t reaches;      /* REACH bits (facts.h), through the file's own helpers */
  uint8_t decorated;     /* GradMode its decorators set */
  bool wraps_grad_off;   /* usable as a decorator that turns grad off */
  uint32_t keeps;        /* bit i: positional parameter i (after self) is kept past the call */
  uint32_t returns;      /* RETURNS_* bits: which returned values carry a graph, on evidence */
  uint32_t returns_given_arguments; /* RETURNS_* bits: which carry when the arguments do */
  uint32_t plain_returns; /* RETURNS_* bits: returned values that are Python numbers */
  uint32_t external_calls_start, external_calls_count; /* its calls of imported names */
  char *returns_class;   /* a factory: the class every return builds an instance of (qualified), or NULL */
  Array(char *) builds;  /* the classes its returns build instances of (qualified), each once */
} SummaryFunction;

typedef struct {
  char *name;
  uint32_t line;
  Array(char *) bases;      /* qualified base expressions */
  bool defines_forward;
  bool module_base;         /* a base is a torch (or framework) module class */
  Array(char *) submodules; /* "encoder=torch.nn.LSTM": attributes set from a constructor in __init__;
                               "decoder=": from an __init__ parameter that the class calls */
  Array(char *) frozen;     /* attributes frozen in __init__; "self" for the whole module */
  Array(char *) parts;      /* the classes of its layers, through ModuleLists and factories (partial.h) */
  Array(char *) steps;      /* what its forward runs, in order (partial.h) */
} SummaryClass;

typedef struct {
  char *local;     /* the name bound in the file */
  char *qualified; /* "pkg.mod.name", ".mod.name" */
} SummaryImport;

/* A call of an imported name, `engine.evaluate(model, loader)`. */
typedef struct {
  char *callee;       /* qualified through imports: "engine.evaluate" */
  int32_t function;   /* the SummaryFunction it sits in, -1 at module level */
  uint32_t line;
  uint8_t grad;       /* GradMode at the call */
  bool in_loop;
  bool in_step_loop;  /* its innermost loop runs once per step (facts_loop_per_step) */
  uint32_t module_arguments; /* bit i: positional argument i is a module by evidence */
  uint32_t eval_arguments;   /* bit i: positional argument i was put in eval mode before the call */
  bool receiver_eval;        /* `model.evaluate(...)`: the instance was put in eval mode before the call */
  bool per_process;          /* it sits in a function that a launcher runs in every process it starts
                                (facts_launched_functions) */
} SummaryCall;

typedef struct {
  char *path;           /* absolute */
  uint64_t hash;        /* of the bytes it was computed from */
  bool uses_torch;
  Array(SummaryFunction) functions;
  Array(SummaryClass) classes;
  Array(SummaryImport) imports;
  Array(SummaryCall) calls; /* grouped by function: see external_calls_start */
  Array(char *) plans;      /* models frozen whole and unfrozen by name (partial.h) */
} Summary;

struct Facts;
struct Flow;

/* Summarises a file from its facts and flow; the caller deletes it.
 * Copies what it keeps. */
Summary *summary_new(const char *path, uint64_t hash, const struct Facts *facts, struct Flow *flow);
void summary_delete(Summary *self);
/* Summarises a file from facts walked and not yet settled
 * (facts_walk, facts_copy), which it settles alone (no links) and leaves
 * to the caller to delete. The summary is the same whichever parse of
 * the same bytes the facts came from. */
Summary *summary_of_walk(const char *path, uint64_t hash, struct Facts *walked);

/* Whether method `function` of the facts runs its own class's layers with
 * grad on outside any loop of its own (REACH_GRAD_ON_OWN_LAYERS): a
 * custom forward, whose callers' calls are the forward call sites. */
bool summary_runs_own_layers(const struct Facts *facts, int32_t function);

/* Whether function `function` of the facts returns a module with trained
 * weights (REACH_RETURNS_LOADED). */
bool summary_returns_loaded(const struct Facts *facts, int32_t function);

/* The function or method named `name` ("f", "Class.f"), or NULL. */
const SummaryFunction *summary_function(const Summary *self, const char *name, uint32_t length);
const SummaryClass *summary_class(const Summary *self, const char *name, uint32_t length);
/* The qualified name the file's import binds to `local`, or NULL. */
const char *summary_import(const Summary *self, const char *local, uint32_t length);

/* The summary as bytes that summary_read turns back into it (the same
 * build only: the project index that keeps them is keyed by build). */
void summary_write(const Summary *self, BinWriter *out);
/* A summary from summary_write's bytes, for the file at `path`; NULL
 * when they are damaged. The caller deletes it. */
Summary *summary_read(const char *path, const void *bytes, size_t length);

/* A stable 64-bit hash of bytes (for content identity). */
uint64_t summary_hash_bytes(const char *bytes, size_t length);

#endif
