/* facts.h — what one walk over a file's syntax tree learns, so that rules
 * stay small.
 *
 * The walk (walk.h) records functions, classes, loops, assignments,
 * bindings and *events*: the calls that matter to training (backward,
 * optimizer step, gradient clearing, helper calls, forwards, stores,
 * empty_cache, eval/train mode, freezing, grad toggles), each with the loop
 * and function it sits in and whether grad is off there. Settling them
 * (settle.h) resolves helper calls to functions defined in the file,
 * optimizers to the modules they update, and gives each function and loop
 * a summary of what it reaches, directly or through helpers. facts.c
 * answers the questions asked of them; it calls neither the walk nor the
 * settling. */
#ifndef GPULINT_FACTS_H
#define GPULINT_FACTS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "array.h"
#include "source.h"
#include "syntax.h"

typedef enum {
  EV_BACKWARD,    /* loss.backward(), accelerator.backward(loss) */
  EV_STEP,        /* optimizer.step(), scaler.step(optimizer) */
  EV_CLEAR,       /* optimizer.zero_grad(), model.zero_grad(), p.grad = None */
  EV_CALL,        /* a call of a function or method defined in this file */
  EV_EMPTY_CACHE, /* torch.cuda.empty_cache() */
  EV_EVAL,        /* module.eval(), module.train(False) */
  EV_TRAIN,       /* module.train() */
  EV_GRAD_TOGGLE, /* torch.set_grad_enabled(flag) as a statement */
  EV_FORWARD,     /* model(x), model.forward(x): a call of a module */
  EV_STORE,       /* items.append(x), .extend, .insert, .appendleft, .add,
                     meter.update(x) */
  EV_RESET,       /* items.clear(), del items[:], del items */
  EV_FREEZE,      /* module.requires_grad_(False); p.requires_grad = False over module.parameters() */
  EV_GRAD_SET,    /* p.grad = g, shared._grad = p.grad: gradients written, not cleared */
  EV_EXTERNAL,    /* a call of a name imported from outside the torch libraries:
                     `engine.evaluate(model)`, `AverageMeter()`; the
                     project's other files may define it (elsewhere.h) */
  EV_KIND_COUNT
} EventKind;

#define REACH(kind) (1u << (kind))
/* Among REACH bits: the function, or one it calls, holds a loop. */
#define REACH_LOOP (1u << 31)
/* Among REACH bits of a summary (summary.h): the function runs a module's
 * forward itself with grad on (not under no_grad, nor decorated with it). */
#define REACH_GRAD_ON_FORWARD (1u << 30)
/* Among REACH bits of a summary: a method runs its own class's layers
 * with grad on outside any loop of its own (`self(x)`, or `self.head(x)`
 * where __init__ builds `self.head`), in its body or through methods of
 * the same class it calls: a custom forward (`net.forward_local(x)`). */
#define REACH_GRAD_ON_OWN_LAYERS (1u << 29)
/* Among REACH bits of a summary (never propagated to callers): the
 * function returns a module with trained weights, one it loaded
 * (`return torch.load(path)`) or loaded a state into (`model.
 * load_state_dict(state); return model`). */
#define REACH_RETURNS_LOADED (1u << 28)

/* Grad mode at a point, as far as the file shows. */
typedef enum {
  GRAD_ON,    /* nothing turns grad off here */
  GRAD_OFF,   /* no_grad, inference_mode, set_grad_enabled(False) */
  GRAD_MAYBE, /* set_grad_enabled(expr): off on some paths; treated as off */
} GradMode;

typedef struct {
  EventKind kind;
  TSNode node;      /* the call, or the `p.grad = None` assignment */
  int32_t function; /* enclosing function index, -1 at module level */
  int32_t loop;     /* innermost enclosing loop index, -1 outside loops */
  int32_t callee;   /* EV_CALL: function index */
  Text target;      /* EV_STEP/EV_CLEAR: the optimizer (aliases resolved);
                       empty when a clear covers every optimizer.
                       EV_EVAL/EV_TRAIN/EV_FORWARD: the module.
                       EV_STORE/EV_RESET: the container.
                       EV_FREEZE: the module. */
  GradMode lexical_grad; /* from with-blocks and decorators around it */
  bool flag;        /* EV_STEP: the engine clears itself (DeepSpeed);
                       EV_GRAD_TOGGLE: the value it sets;
                       EV_BACKWARD: torch.autograd.grad(), which returns
                       gradients and accumulates none */
  Text module;      /* EV_CLEAR of a module (`netD.zero_grad()`): the module;
                       EV_STEP: the module its optimizer was built over
                       (`optim.Adam(netD.parameters())`), when known */
  bool weak;        /* EV_FORWARD: only a name says the callee is a module */
  uint32_t reaches; /* EV_EXTERNAL: what the function it runs reaches (elsewhere.h) */
} Event;

typedef struct {
  TSNode node;          /* function_definition */
  Text name;
  int32_t class_index;  /* enclosing class, -1 */
  int32_t parent;       /* enclosing function, -1 */
  GradMode decorated;   /* grad mode its decorators set */
  bool wraps_grad_off;  /* a same-file decorator that runs its target under no_grad */
  bool all_callers_grad_off; /* called in this file, and only with grad off */
  uint32_t call_count;  /* calls of it in this file */
  uint32_t reaches;     /* REACH bits, through helpers */
  bool in_module_class; /* a method of an nn.Module subclass */
  bool has_loop;        /* holds a loop of its own */
  bool backward_context; /* it, or a function that calls it, reaches a backward */
  uint8_t max_tuple_return; /* the most elements of a tuple it returns */
  bool callers_elsewhere;   /* other files of the project call it */
  bool callers_elsewhere_grad_off; /* ... and all of them with grad off */
  bool called_in_loop;      /* some call of it, here or elsewhere, sits in a loop */
  bool called_per_step_elsewhere; /* another file calls it in a loop that runs per step (facts_loop_per_step) */
  bool called_per_process_elsewhere; /* another file calls it from a function that a launcher runs in every
                                        process it starts (facts_launched_functions) */
  uint32_t module_parameters; /* bit i: every caller elsewhere passes a module as parameter i */
  uint32_t eval_parameters;   /* bit i: every caller elsewhere passes parameter i in eval mode */
  bool eval_self;             /* a method every caller elsewhere calls on an instance in eval mode */
  bool maybe_annotated;       /* its parameters' text has a `:` (a type annotation, or only in a default) */
} Function;

typedef struct {
  TSNode node;
  Text name;
  bool is_module; /* subclasses nn.Module (or any *Module), or defines forward */
} Class;

typedef struct {
  TSNode node;         /* for_statement or while_statement */
  TSNode body;
  int32_t parent;      /* enclosing loop in the same function, -1 */
  int32_t function;    /* enclosing function, -1 */
  uint32_t reaches;    /* REACH bits of its body, through helpers */
} Loop;

/* One target of an assignment: `name = value`, `name += value`,
 * `a, name = value` (unpacked), `name[key] = value` (subscript). */
typedef struct {
  Text name;        /* identifier or dotted attribute text */
  TSNode statement; /* the assignment or augmented_assignment */
  TSNode value;     /* the right-hand side */
  int32_t function;
  int32_t loop;
  bool augmented;
  bool unpacked;
  bool subscript;
  uint8_t position; /* unpacked: index in `a, b = ...`; UNPACKED_DEEP when nested */
} Assign;

#define UNPACKED_DEEP 255

/* A local name bound to something known: an import alias, an optimizer
 * alias, an instance of a class defined in this file. */
typedef enum { BIND_IMPORT, BIND_ALIAS, BIND_INSTANCE, BIND_OPTIMIZER, BIND_SCHEDULER, BIND_OPTIMIZES } BindingKind;

typedef struct {
  BindingKind kind;
  Text name;   /* the local name */
  Text value;  /* BIND_IMPORT: qualified name; BIND_ALIAS: the aliased name;
                  BIND_INSTANCE: the class name; BIND_OPTIMIZES: the module
                  whose parameters the optimizer updates */
  TSNode node; /* BIND_INSTANCE, BIND_OPTIMIZER: the call it was bound from */
} Binding;

/* `return value` in a function. */
typedef struct {
  int32_t function;
  TSNode value;
} Return;

/* The walk does not descend below this depth of the tree; the engine then
 * notes that the code below it was not checked. Real code stays under about
 * 60 levels, and CPython itself refuses more than 200 nested brackets or 100
 * indentation levels. The bound keeps the rules' upward walks (each
 * ts_node_parent costs the node's depth) from going cubic on hostile input
 * such as 5,000 nested calls. */
#define FACTS_MAX_DEPTH 500

struct Elsewhere;

typedef struct Facts {
  const Source *source; /* borrowed */
  const struct Elsewhere *elsewhere; /* what the project's other files say (elsewhere.h), set by
                                        facts_settle; borrowed, NULL: the file alone */
  TSNode root;
  Array(Function) functions;
  Array(Class) classes;
  Array(Loop) loops;
  Array(Event) events;  /* in source order */
  Array(Assign) assigns; /* in source order */
  Array(uint32_t) assigns_by_name;
  Array(TSNode) top_level;        /* the root's children, in order */
  Array(Binding) imports;   /* BIND_IMPORT only, in source order */
  TextMap imports_by_name;  /* local name -> 1 + index of its last import */
  Array(Text) star_imports; /* the modules of `from M import *`, in source order */
  Array(Binding) bindings;  /* the other kinds, in source order */
  /* Lookup by name, built after the walk: indices sorted by name. */
  Array(uint32_t) functions_by_name;
  Array(uint32_t) bindings_by_name;
  Array(Text) switched;      /* modules switched with .eval()/.train() */
  Array(Text) frozen;        /* modules whose parameters were frozen */
  Array(int32_t) frozen_class; /* the class each was frozen in, -1 */
  Array(Text) module_uses;   /* used as modules (facts_used_as_module); sorted once the walk's
                                done, then only looked up */
  Array(Return) returns;     /* in source order */
  Array(char *) owned_strings;
  bool has_toggles;
  bool trains;      /* a backward or an optimizer step runs somewhere in the file */
  bool has_prepare; /* calls a `.prepare(...)` (Accelerate maps its arguments one to one) */
  bool uses_torch; /* imports torch or a framework built on it, uses
                      `torch.` without the import, or calls backward()
                      while importing no other framework */
  bool imports_torch;   /* imports torch or a framework built on it */
  bool other_framework; /* imports MXNet, TensorFlow, JAX, ...: without
                           torch, its training code is none of ours */
  bool truncated;  /* nodes below FACTS_MAX_DEPTH were left out */
} Facts;

/* The top-level module names that make `uses_torch` true (torch and the
 * frameworks built on it); static storage. */
const char *const *facts_torch_modules(uint32_t *count);

/* After the walk (walk.h): the root's children and the look-ups by name. */
void facts_index(Facts *self);

/* A walked, unsettled Facts copied, to be settled apart from it; the
 * caller deletes it before `self` (strings the walk made stay `self`'s). */
Facts *facts_copy(const Facts *self);
void facts_delete(Facts *self);

/* An event as seen from a block: `anchor` is the node in that block that
 * leads to it (the helper call for events inside helpers). */
typedef struct {
  const Event *event;
  TSNode anchor;
  bool grad_off_on_the_way; /* a helper call between the block and the
                               event runs with grad off */
  bool in_closure;          /* reached through a closure handed to
                               `optimizer.step(closure)` */
} FlatEvent;

typedef Array(FlatEvent) FlatEvents;

/* The events that run when `scope` (a node of function `function`, -1 for
 * the module) runs, in source order, with helper calls expanded in place.
 * Appends to `out`, which the caller owns. */
void facts_flatten(const Facts *self, int32_t function, TSNode scope, FlatEvents *out);

/* The grad mode that holds at `event`, counting its function's decorators,
 * grad toggles before it and, for helpers, the mode at every call site. */
GradMode facts_grad_mode(const Facts *self, const Event *event);

/* `model.evaluate_ppl(dev)` on an instance of a class imported from
 * elsewhere, and no method every nn.Module has: true, with the method's
 * qualified name ("model.Seq2seq.evaluate_ppl") written to `buffer`. */
bool facts_instance_method(const Facts *self, TSNode call, char *buffer, size_t size);

/* Whether the last `.eval()` / `.train()` on `module` before `event`, in
 * the event's function, put it in eval mode. */
bool facts_in_eval_mode_before(const Facts *self, const Event *event, Text module);

/* Whether `call` runs a name imported from outside torch and the
 * frameworks built on it (the project's own modules, or another
 * library): `engine.evaluate(model)`, `AverageMeter()`. */
bool facts_external_call(const Facts *self, TSNode call);

/* The grad mode a grad manager sets: `no_grad()`, `inference_mode()`,
 * `set_grad_enabled(x)`, `enable_grad()`, called or bare (decorators), or
 * a helper of the file returning one; -1 when it is none. */
int facts_grad_manager(const Facts *self, TSNode expression);

/* The grad mode a with-statement sets for its body (GRAD_OFF for
 * `with torch.no_grad():`), or -1 when it sets none. */
int facts_with_grad_mode(const Facts *self, TSNode with);

/* Whether `a` and `b` sit in different branches of one if/try, so that one
 * pass through the code cannot run both. */
bool facts_exclusive(TSNode a, TSNode b);

/* Ancestors asked for at once: the parent first, up to MAX_ASCENT + 1. */
#define FACTS_ANCESTORS (MAX_ASCENT + 1)

/* Writes the ancestors of `node` to `out`, nearest first (its parent at
 * [0], the root last), at most FACTS_ANCESTORS of them, and returns how
 * many. The same nodes as ts_node_parent asked again and again, found in
 * one descent from the root (each ts_node_parent descends from the root). */
uint32_t facts_ancestors(TSNode node, TSNode out[FACTS_ANCESTORS]);

/* The qualified name of an expression through import aliases:
 * `T.cuda.empty_cache` -> "torch.cuda.empty_cache". Writes at most `size`
 * bytes to `buffer` and returns it. */
const char *facts_qualify(const Facts *self, TSNode expression, char *buffer, size_t size);

/* The qualified callee that `name` (through its aliases) was last built by
 * (`b = torch.zeros(...)` -> "torch.zeros"), written to `buffer` as by
 * facts_qualify; "" when no call built it. Sets `*call` to that call when
 * `call` is not NULL. */
const char *facts_built_by(const Facts *self, Text name, char *buffer, size_t size, TSNode *call);

/* The canonical name of an optimizer or module expression: aliases
 * (`opt = optimizer`) resolved, `self.` kept. */
Text facts_canonical(const Facts *self, Text name);

/* The constructor text that `name` was last bound from (`AverageMeter` for
 * `meter = AverageMeter("loss")`), or empty text. */
Text facts_constructor_of(const Facts *self, Text name);

/* The last binding of `kind` for `name`, or NULL. */
const Binding *facts_binding(const Facts *self, BindingKind kind, Text name);
/* The last `max` bindings of `kind` for `name`, newest first, into
 * `out` (borrowed from the facts); returns how many there are. */
uint32_t facts_bindings_last(const Facts *self, BindingKind kind, Text name, const Binding **out, uint32_t max);
/* The instance `receiver` was last built as by a call of an import from
 * outside torch (a class of the project: `algo = FixMatch(net)`), among
 * its last few instance bindings: a torch wrapper bound over it on
 * another branch (`algo = nn.DataParallel(algo.model)`) does not hide
 * the project's class, whose methods the calls on `receiver` run. NULL
 * when none. */
const Binding *facts_external_instance(const Facts *self, Text receiver);

/* The import that binds `name` (a local name), or NULL. */
const Binding *facts_import(const Facts *self, Text name);

/* The class of this file named `name`, or -1. */
int32_t facts_class_named(const Facts *self, Text name);

/* The class whose method (or a function nested in one) `function` is, or -1. */
int32_t facts_class_of_function(const Facts *self, int32_t function);

/* The name of positional parameter `index` of `function` (methods skip
 * `self`), or empty text. */
Text facts_parameter(const Facts *self, int32_t function, uint32_t index);

/* The parameter `name` of `function` (keyword-only ones too): true when it
 * is one, with its default value (or a null node) in *value. */
bool facts_parameter_named(const Facts *self, int32_t function, Text name, TSNode *value);

/* Whether the call `call` of `function` (an event of kind EV_CALL) cannot
 * reach `node`, a node of the callee's body: a branch around it tests a
 * parameter that the call binds to a literal (`None`, `False`, `True`, a
 * number), by argument or by default, that the callee never rebinds, and
 * the test rules the branch out (`run_epoch(model, dev, optimizer=None)`
 * skips `if optimizer is not None: loss.backward()`). */
bool facts_call_rules_out(const Facts *self, const Event *call, TSNode node);

/* Whether the code uses `name` (canonical) as a module: `.parameters()`,
 * `.eval()`, `.train()`, `.zero_grad()` of no optimizer,
 * `.load_state_dict()`, an optimizer built over it, or a callee whose
 * result a backward runs on. */
bool facts_used_as_module(const Facts *self, Text name);

/* The function defined in this file that a call runs, or -1. */
int32_t facts_resolve_call(const Facts *self, TSNode call, int32_t function);

/* The innermost loop of `function` whose body holds `node` and reaches
 * all of `reaching` (REACH bits; 0 for any loop), or -1. */
int32_t facts_innermost_loop(const Facts *self, int32_t function, TSNode node, uint32_t reaching);

/* Whether a for loop iterates data: a loader, batches, a dataset
 * (`for x, y in train_loader`, `enumerate(tqdm(val_dl))`), not range(). */
bool facts_loop_iterates_data(const Facts *self, int32_t loop);

/* Whether each loop runs once per training or evaluation step, into
 * `per_step` (one entry per loop, the caller's): the loop iterates data
 * or its body runs a forward, backward or optimizer step, and either it
 * holds no loop of its function (nor a call of a helper of this file
 * with a loop) that steps on its own, or it updates the model itself
 * outside them (a batch loop with a periodic evaluation loop inside). An
 * epoch loop is not one: what it does besides its batch loop runs once
 * per pass. One pass over the loops and events. */
void facts_loops_per_step(const Facts *self, bool *per_step);
/* facts_loops_per_step's answer for one loop (false for -1). */
bool facts_loop_per_step(const Facts *self, int32_t loop);

/* Whether `function` is a step method a framework calls once per batch,
 * with the batch as its first parameter: Lightning's `training_step`,
 * `validation_step`, `test_step`, `predict_step`. */
bool facts_framework_step(const Facts *self, int32_t function);

/* Marks in `launched` (one entry per function, the caller's) each
 * function of the file that a launcher runs once in every process it
 * starts: the function handed to `parallel.run(fn, ...)` inside `with
 * idist.Parallel(...) as parallel:` (ignite), to `mp.spawn(fn, ...)`
 * (torch.multiprocessing), or to `idist.spawn(backend, fn, ...)`.
 * Returns how many it marked. */
uint32_t facts_launched_functions(const Facts *self, bool *launched);

/* Whether a for loop walks a module's structure: `model.named_children()`,
 * `.modules()`, `.parameters()`, or `self.layers` inside a module's
 * method (model surgery or a layer stack, not steps over data). */
bool facts_loop_over_modules(const Facts *self, int32_t loop);

/* `for name in nets.keys(): nets[name].eval()`, `for net in
 * nets.values(): net.eval()`, `for _, net in nets.items(): ...`, `for
 * net in [encoder, head]: net.eval()`: a mode switch `switch_call` of
 * `target` that runs once per entry of a container of modules switches
 * them all. Writes the container's name (`nets`; *entries true: its
 * entries `nets["generator"]` are the modules) or the names a list or
 * tuple written out holds (*entries false), at most `max`, into `out`
 * (borrowed from the source) and returns how many; 0 when the switch is
 * no such loop's. */
uint32_t facts_switched_entries(const Facts *self, TSNode switch_call, Text target, Text *out, uint32_t max,
                                bool *entries);

/* The function whose body holds `node`, or -1 at module level. */
int32_t facts_function_at(const Facts *self, TSNode node);

/* The grad mode at any node of `function` (see facts_grad_mode). */
GradMode facts_grad_mode_at(const Facts *self, TSNode node, int32_t function);

/* The assignments of `name` in `function`, in source order:
 *   AssignIter it = facts_assigns(facts, name, function);
 *   for (const Assign *a; (a = assign_iter_next(&it));) ... */
typedef struct {
  const Facts *facts;
  Text name;
  int32_t function;
  uint32_t next;
} AssignIter;

AssignIter facts_assigns(const Facts *self, Text name, int32_t function);

/* Whether a callee names a class (`Net(...)`, `nn.Linear(...)`): its
 * last name is capitalized, unless it is a plain name that `function`
 * or the file assigns and no class or import of the file defines
 * (`BACKBONE = build(cfg)`, `G = Generator()`): a value, then, whatever
 * its case. */
bool facts_class_like(const Facts *self, Text callee, int32_t function);

/* The events (facts_events_within) or assignments (facts_assigns_within)
 * that lie within `node`, as a range [*first, *end) of indices; both
 * arrays are in source order. */
void facts_events_within(const Facts *self, TSNode node, uint32_t *first, uint32_t *end);
void facts_assigns_within(const Facts *self, TSNode node, uint32_t *first, uint32_t *end);

const Assign *assign_iter_next(AssignIter *self);

/* The last assignment of `name` in `function`, in source order, that
 * starts before byte `at` and that `accept` takes, or NULL. */
const Assign *facts_assign_last_before(const Facts *self, Text name, int32_t function, uint32_t at,
                                       bool (*accept)(const Assign *assign, uint32_t at));
/* An `accept` for facts_assign_last_before: a plain `name = value`, not
 * augmented, unpacked or into a subscript. */
bool facts_plain_assign(const Assign *assign, uint32_t at);

#endif
