/* elsewhere.h — the questions one file's model asks of the project's other
 * files, as a table that the layer above passes down.
 *
 * Settling a file's facts (settle.h), telling its modules (roles.h) and
 * its graphs (flow.h) are the model of one file: they call nothing above
 * them. Where the answer lies in another file (`from .models import Net`:
 * is Net a module?), they ask the Elsewhere that the facts were settled
 * with. The lint passes the one links.h fills for the linted file; a
 * summary is made from facts settled with none (NULL: every question
 * finds nothing), so that it is the same whatever other files say.
 * Names are qualified as the asking file writes them ("engine.evaluate",
 * ".meters.AverageMeter"). */
#ifndef GPULINT_ELSEWHERE_H
#define GPULINT_ELSEWHERE_H

#include <stdbool.h>
#include <stdint.h>

#include "syntax.h"

/* Bits of what a function returns (a summary's SummaryFunction.returns):
 * the whole value, and elements 0..29 of returned tuples. */
#define RETURNS_WHOLE 1u
#define RETURNS_ELEMENT(i) (2u << (i))
#define SUMMARY_MAX_PARAMETERS 30

/* Yes, no, or the code does not say. */
typedef enum { ANSWER_UNKNOWN = -1, ANSWER_NO = 0, ANSWER_YES = 1 } Answer;

/* What a qualified name defines in another file of the project. */
typedef enum {
  DEFINES_NOTHING,      /* no definition of the project */
  DEFINES_OTHER,        /* a function, a method, or a module */
  DEFINES_CLASS,        /* a class that is no nn.Module */
  DEFINES_MODULE_CLASS, /* a class that is an nn.Module (bases across files) */
} Defines;

/* A function or method of another file, as its summary tells it. */
typedef struct {
  bool grad_off_wrapper;    /* a decorator that runs its target under no_grad */
  uint32_t returns;         /* RETURNS_* bits: returned values that carry a graph, on evidence */
  uint32_t returns_given_arguments; /* RETURNS_* bits: ... when the arguments do */
  uint32_t plain_returns;   /* RETURNS_* bits: returned values that are Python numbers */
} ElsewhereFunction;

/* How the project's other files call one of the asking file's functions. */
typedef struct {
  bool any;              /* some file calls it */
  bool all_grad_off;     /* every such call runs with grad off */
  bool any_in_loop;      /* some call sits in a loop */
  bool any_per_step;     /* some call sits in a loop that runs per step */
  bool any_per_process;  /* some call sits in a function a launcher runs in every process it starts */
  uint32_t module_parameters; /* bit i: every caller passes a module as positional parameter i */
  uint32_t eval_parameters;   /* bit i: ... and every caller has put it in eval mode before the call */
  bool eval_receiver;         /* a method: every caller's instance was put in eval mode before the call */
} Callers;

/* The questions, each with `self` the table's own `self`. */
typedef struct Elsewhere {
  void *self;
  /* What `qualified` defines. */
  Defines (*defines)(void *self, Text qualified);
  /* The function or method `qualified` names: true with *out filled. */
  bool (*function)(void *self, Text qualified, ElsewhereFunction *out);
  /* What that function reaches (REACH bits, facts.h), through the
   * imported functions it calls, a few files deep; 0 for no function. */
  uint32_t (*reaches)(void *self, Text qualified);
  /* What `attribute` of an instance built by `constructor` is, when
   * `constructor` is a class of the project (or a factory that returns
   * one): ANSWER_YES a submodule, ANSWER_NO a method or a plain value. */
  Answer (*attribute)(void *self, Text constructor, Text attribute);
  /* Whether the project's module classes build a module into
   * `self.<attribute>` (ANSWER_YES) or define a method or plain value of
   * that name (ANSWER_NO), starting from what the asking file's own
   * classes say (`known`); ANSWER_UNKNOWN when none says. */
  Answer (*submodule)(void *self, Text attribute, Answer known);
  /* Whether the project class `qualified` freezes `attribute` ("self":
   * the whole module) in its __init__. */
  bool (*frozen)(void *self, Text qualified, Text attribute);
  /* The callers of the asking file's module-level function `name`, or of
   * its method "Class.method" (called on instances of the class). */
  Callers (*callers)(void *self, Text name);
  /* Whether every method named `method` in the project's other files is a
   * custom forward of a module class (REACH_GRAD_ON_OWN_LAYERS, nothing
   * trained), and some is: `decoder.init_hidden_state(x)` on a module
   * whose class the asking file cannot see runs its layers. */
  bool (*custom_forward)(void *self, Text method);
} Elsewhere;

/* The questions asked of `self`, which may be NULL (the file alone): then
 * nothing is defined elsewhere and no other file calls the asking one. */
static inline Defines elsewhere_defines(const Elsewhere *self, Text qualified) {
  return self ? self->defines(self->self, qualified) : DEFINES_NOTHING;
}
static inline bool elsewhere_function(const Elsewhere *self, Text qualified, ElsewhereFunction *out) {
  return self && self->function(self->self, qualified, out);
}
static inline uint32_t elsewhere_reaches(const Elsewhere *self, Text qualified) {
  return self ? self->reaches(self->self, qualified) : 0;
}
static inline Answer elsewhere_attribute(const Elsewhere *self, Text constructor, Text attribute) {
  return self ? self->attribute(self->self, constructor, attribute) : ANSWER_UNKNOWN;
}
static inline Answer elsewhere_submodule(const Elsewhere *self, Text attribute, Answer known) {
  return self ? self->submodule(self->self, attribute, known) : known;
}
static inline bool elsewhere_frozen(const Elsewhere *self, Text qualified, Text attribute) {
  return self && self->frozen(self->self, qualified, attribute);
}
static inline bool elsewhere_custom_forward(const Elsewhere *self, Text method) {
  return self && self->custom_forward(self->self, method);
}
static inline Callers elsewhere_callers(const Elsewhere *self, Text name) {
  return self ? self->callers(self->self, name) : (Callers){0};
}

#endif
