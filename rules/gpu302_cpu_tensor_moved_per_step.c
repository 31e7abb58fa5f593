/* GPU302 cpu-tensor-moved-per-step
 *
 *   for x, y in loader:
 *       noise = torch.randn(256, 2048).cuda()              <- reported
 *       h0 = torch.zeros(2, x.size(0), 512).to(device)     (not reported)
 *       out, _ = model(x + noise, h0)
 *
 * Inside a loop that runs per step (it iterates data, or runs a forward,
 * backward or optimizer step), or in a function whose call runs per step
 * (gpu302__runs_per_step), a random tensor is drawn on the host by a
 * torch factory without `device=` (`torch.rand`, `randn`, `randint`,
 * `randperm`) and moved to the device: in the same expression
 * (`.to(device)`, `.cuda()`), or by the next statement (`z = z.to(device)`).
 * The finding points at the factory call.
 *
 * Constant factories (`torch.zeros`, `ones`, `full`, `empty`, `eye`,
 * `arange`, `linspace`, `torch.Tensor(n, m)`, ...) moved the same way are
 * recognised but not reported: on an H100 they cost no measurable time
 * (the host fills small tensors faster than the GPU runs a step); only the
 * host's random generator was measurably slower. Not reported either: a
 * factory with `device=`, `.to(dtype)` only, `torch.tensor(data)` and
 * `torch.from_numpy(a)` (they carry host data), `*_like` factories (they
 * follow their argument's device), factories outside per-step loops. */
#include <stdlib.h>
#include <string.h>

#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU302_DETAIL                                                                                      \
  "The host's generator draws every number, then .to(device)/.cuda() copies the tensor from pageable memory, "  \
  "which makes the host wait for the copy; with device= the GPU draws them in one kernel and the host runs "     \
  "ahead. Measured on an H100 (PyTorch 2.11): a 4x2048 MLP, batch 256, drawing torch.randn(256, 2048) noise "  \
  "on the host each step took 4.7 to 5.5 ms per step against 1.5 to 1.8 ms with device= (2.7x to 3.7x in two " \
  "runs)."

#define GPU302_WORK (REACH(EV_FORWARD) | REACH(EV_BACKWARD) | REACH(EV_STEP))

/* ---- The factory --------------------------------------------------------------- */

static bool gpu302__is_random(const char *qualified) {
  static const char *const RANDOM[] = {"torch.rand", "torch.randn", "torch.randint", "torch.randperm", NULL};
  for (const char *const *name = RANDOM; *name; name++) {
    if (strcmp(qualified, *name) == 0) return true;
  }
  return false;
}

/* Whether the call's positional arguments are sizes: numbers, names,
 * attributes, arithmetic, `x.size(0)`, `len(x)`; not a list, a tuple or a string
 * (`torch.Tensor([1, 2])` carries data). */
static bool gpu302__sizes_only(const Source *source, TSNode call) {
  uint32_t count = call_positional_count(call);
  for (uint32_t i = 0; i < count; i++) {
    TSNode argument = node_unparenthesize(call_positional(call, i));
    if (node_is(argument, K_LIST) || node_is(argument, K_TUPLE) || node_is(argument, K_STRING) ||
        node_is(argument, K_LIST_COMPREHENSION) || node_is(argument, K_FLOAT)) {
      return false;
    }
    if (node_is(argument, K_CALL) && !text_is(call_method_name(source, argument), "size") &&
        !text_is(call_function_text(source, argument), "len")) {
      return false; /* np.array(...), a tensor: host data */
    }
  }
  TSNode only = node_unparenthesize(call_positional(call, 0));
  if (count == 1 && !node_is(only, K_INTEGER) && !node_is(only, K_CALL) && !node_is(only, K_BINARY_OPERATOR)) {
    return false; /* torch.FloatTensor(weights): a size or a list of data */
  }
  return count > 0;
}

/* Whether `call` builds a host tensor that needs no host data: a torch
 * factory of the list above, with no `device=` (and, for the legacy
 * typed constructors, sizes only). */
static bool gpu302__is_factory(const RuleContext *ctx, TSNode call, bool *random) {
  static const char *const FACTORIES[] = {"torch.zeros", "torch.ones",     "torch.full",  "torch.empty",
                                          "torch.eye",   "torch.arange",   "torch.linspace", "torch.logspace",
                                          "torch.rand",  "torch.randn",    "torch.randint", "torch.randperm",
                                          NULL};
  static const char *const TYPED[] = {"torch.Tensor",     "torch.FloatTensor", "torch.LongTensor", "torch.DoubleTensor",
                                      "torch.IntTensor",  "torch.ByteTensor",  "torch.BoolTensor", "torch.HalfTensor",
                                      NULL};
  if (!node_is(call, K_CALL) || !ts_node_is_null(call_keyword(ctx->source, call, "device"))) return false;
  char buffer[128];
  const char *qualified = facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  *random = gpu302__is_random(qualified);
  for (const char *const *name = FACTORIES; *name; name++) {
    if (strcmp(qualified, *name) == 0) return true;
  }
  for (const char *const *name = TYPED; *name; name++) {
    if (strcmp(qualified, *name) == 0) return gpu302__sizes_only(ctx->source, call);
  }
  return false;
}

/* ---- The move ---------------------------------------------------------------------- */

/* Whether `argument` of `.to(argument)` is a dtype rather than a device:
 * `torch.float16`, `dtype`, `self.dtype`, `x.dtype`. */
static bool gpu302__is_dtype(const RuleContext *ctx, TSNode argument) {
  static const char *const DTYPES[] = {"float", "float16", "float32", "float64", "half", "double", "bfloat16",
                                       "int", "int8", "int16", "int32", "int64", "long", "uint8", "bool", NULL};
  Text text = node_text(ctx->source, argument);
  if (text_ends_with(text, "dtype")) return true;
  if (text.length > 6 && memcmp(text.ptr, "torch.", 6) == 0) {
    return text_in((Text){text.ptr + 6, text.length - 6}, DTYPES);
  }
  return false;
}

/* Whether `call` is `X.to(device...)`, `X.cuda(...)` or `X.type_as(t)`
 * (the type of `t` names its device: `torch.cuda.FloatTensor`): a move to
 * a device (not `.to(dtype)` only). */
static bool gpu302__is_move(const RuleContext *ctx, TSNode call) {
  Text method = call_method_name(ctx->source, call);
  if (text_is(method, "cuda")) return true;
  if (text_is(method, "type_as")) return call_positional_count(call) == 1;
  if (!text_is(method, "to")) return false;
  if (!ts_node_is_null(call_keyword(ctx->source, call, "device"))) return true;
  TSNode first = call_positional(call, 0);
  return !ts_node_is_null(first) && !gpu302__is_dtype(ctx, first);
}

/* ---- The loop ------------------------------------------------------------------------ */

/* What the questions about one file share: its facts, which of its
 * loops run per step (facts_loops_per_step), computed once, and each
 * function's answer to gpu302__runs_per_step, computed at the first
 * question (a function on the way counts as no). */
typedef struct {
  const Facts *facts;
  bool *per_step; /* one entry per loop; owned */
  int8_t *runs;   /* one entry per function: -1 unknown, else the answer; owned */
} Gpu302Steps;

#define GPU302_TRAINS (REACH(EV_BACKWARD) | REACH(EV_STEP))

/* Whether a loop of `function` reaches one of `events` (REACH bits,
 * through helpers) or iterates data. */
static bool gpu302__loop_reaching(const Facts *facts, int32_t function, uint32_t events) {
  for (uint32_t i = 0; i < facts->loops.size; i++) {
    const Loop *loop = array_get(&facts->loops, i);
    if (loop->function != function) continue;
    if ((loop->reaches & events) || facts_loop_iterates_data(facts, (int32_t)i)) return true;
  }
  return false;
}

/* Whether `function` runs a batch loop itself rather than work within
 * one step: one of its loops iterates data or trains (a backward or an
 * optimizer step, through helpers). A loop of its over the scales of
 * a loss, the frames of a clip or the timesteps of a trajectory is
 * none of these. */
static bool gpu302__runs_batch_loop(const Facts *facts, int32_t function) {
  return gpu302__loop_reaching(facts, function, GPU302_TRAINS);
}

/* Whether a loop of `function` runs a forward, backward or step, or
 * iterates data. */
static bool gpu302__loops_work(const Facts *facts, int32_t function) {
  return gpu302__loop_reaching(facts, function, GPU302_WORK);
}

/* Whether the method `function` overrides `other` (`step` of a subclass,
 * where the base class's `training_step` calls `self.step(batch)`): both
 * are methods of the file's classes with one name. */
static bool gpu302__overrides(const Facts *facts, int32_t function, int32_t other) {
  const Function *entry = array_get(&facts->functions, function), *base = array_get(&facts->functions, other);
  return entry->class_index >= 0 && base->class_index >= 0 && entry->class_index != base->class_index &&
         text_eq(entry->name, base->name);
}

static bool gpu302__site_per_step(Gpu302Steps *steps, int32_t function, TSNode node, int depth);

/* Whether each call of `function` runs within one step, once per step or
 * more: a framework's step method (Lightning's `training_step`,
 * `validation_step`, ...); a loopless helper that runs a forward,
 * backward or step and is called from a loop (`loss = train_step(batch)`);
 * a function another file calls in a per-step loop; or a function whose
 * call here runs per step (in a per-step loop, or in a function that runs
 * per step itself, a few calls deep: `training_step` -> `self.step(batch)`
 * -> `self.preprocess_batch(x)`; the batch loop -> `process_batch` ->
 * `compute_losses`). Never a function that runs a batch loop itself (the
 * epoch loop's `train_epoch()`): what it does outside that loop runs once
 * per epoch. */
static bool gpu302__runs_per_step_uncached(Gpu302Steps *steps, int32_t function, int depth) {
  const Facts *facts = steps->facts;
  const Function *entry = array_get(&facts->functions, function);
  if (gpu302__runs_batch_loop(facts, function)) return false;
  if (entry->class_index >= 0 && facts_framework_step(facts, function)) return true;
  if (!entry->has_loop && entry->called_in_loop && (entry->reaches & GPU302_WORK)) return true;
  /* another file's loop judged per step may be its epoch loop, which only
   * a function with no working loop of its own cannot be called from */
  if (entry->called_per_step_elsewhere && !gpu302__loops_work(facts, function)) return true;
  if (depth >= 4) return false;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *call = array_get(&facts->events, i);
    if (call->kind != EV_CALL || call->function == function || call->callee < 0) continue;
    if (call->callee != function && !gpu302__overrides(facts, function, call->callee)) continue;
    if (gpu302__site_per_step(steps, call->function, call->node, depth + 1)) return true;
  }
  return false;
}

/* gpu302__runs_per_step_uncached, each function's answer computed once
 * (one past the depth counts as no). */
static bool gpu302__runs_per_step(Gpu302Steps *steps, int32_t function, int depth) {
  if (steps->runs[function] >= 0) return steps->runs[function];
  steps->runs[function] = 0;
  bool answer = gpu302__runs_per_step_uncached(steps, function, depth);
  steps->runs[function] = answer;
  return answer;
}

/* Whether `node` (in `function`, -1 at module level) runs once per step:
 * a loop around it in its function runs per step, or its function does
 * (gpu302__runs_per_step). A loop around it that does not run per step
 * (over the scales of a loss) repeats it within the step, never less
 * often; an epoch loop around it is found by its function, which then
 * runs a batch loop. */
static bool gpu302__site_per_step(Gpu302Steps *steps, int32_t function, TSNode node, int depth) {
  const Facts *facts = steps->facts;
  for (int32_t loop = facts_innermost_loop(facts, function, node, 0); loop >= 0;
       loop = facts->loops.contents[loop].parent) {
    if (steps->per_step[loop]) return true;
  }
  return function >= 0 && gpu302__runs_per_step(steps, function, depth);
}

/* `Variable(torch.randn(b, z))` of old code -> `torch.randn(b, z)`; a
 * null node for anything else. */
static TSNode gpu302__variable_of(const RuleContext *ctx, TSNode call) {
  if (!node_is(call, K_CALL)) return (TSNode){0};
  char buffer[128];
  const char *qualified = facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  if (strcmp(qualified, "torch.autograd.Variable") != 0 && strcmp(qualified, "Variable") != 0) return (TSNode){0};
  return node_unparenthesize(call_positional(call, 0));
}

/* Whether `call` runs a helper of this file whose every return is a host
 * draw: `self.sample_timesteps(n).to(device)` with `return
 * torch.randint(1, steps, (n,))`. */
static bool gpu302__returns_draw(const RuleContext *ctx, TSNode call, bool *random) {
  if (!node_is(call, K_CALL)) return false;
  const Facts *facts = ctx->facts;
  int32_t helper = facts_resolve_call(facts, call, facts_function_at(facts, call));
  if (helper < 0) return false;
  uint32_t count = 0;
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *entry = array_get(&facts->returns, i);
    if (entry->function != helper) continue;
    bool drawn = false;
    if (!gpu302__is_factory(ctx, node_unparenthesize(entry->value), &drawn) || !drawn) return false;
    count++;
  }
  *random = count > 0;
  return count > 0;
}

/* `t` of `t.detach()`, `t.expand(n, m)`, `t.float()`, `t * 2.0 - 1.0`:
 * what a host tensor stays when it is reshaped, retyped, detached or
 * scaled by a number before its move; `value` itself otherwise. */
static TSNode gpu302__host_origin(const RuleContext *ctx, TSNode value) {
  static const char *const KEEPING[] = {"detach", "expand", "expand_as", "view", "reshape", "contiguous", "unsqueeze",
                                        "squeeze", "permute", "transpose", "repeat", "float", "half", "double",
                                        "long", "int", "clone", "mul", "add", "sub", "div", NULL};
  for (int steps = 0; steps < 8; steps++) {
    value = node_unparenthesize(value);
    if (node_is(value, K_CALL) && text_in(call_method_name(ctx->source, value), KEEPING)) {
      value = call_receiver(value);
    } else if (node_is(value, K_BINARY_OPERATOR)) {
      TSNode left = node_unparenthesize(node_field(value, F_LEFT)), right = node_unparenthesize(node_field(value, F_RIGHT));
      bool left_number = node_is(left, K_INTEGER) || node_is(left, K_FLOAT);
      bool right_number = node_is(right, K_INTEGER) || node_is(right, K_FLOAT);
      if (left_number == right_number) break;
      value = left_number ? right : left;
    } else {
      break;
    }
  }
  return value;
}

/* The draw that `name`, read at byte `at` of `function`, holds: the value
 * of its last plain assignment before `at` there, when that is a random
 * factory (through gpu302__host_origin), or, when it rebinds the name
 * from itself (`alpha = alpha.expand(real.size())`), the draw that one
 * holds. A null node when there is none. */
static TSNode gpu302__drawn_into(const RuleContext *ctx, Text name, int32_t function, uint32_t at, bool *random,
                                 int depth) {
  if (depth > 4) return (TSNode){0};
  const Assign *bound = facts_assign_last_before(ctx->facts, name, function, at, facts_plain_assign);
  if (bound && at < ts_node_end_byte(bound->statement)) { /* `alpha = alpha.cuda()`: the older `alpha` */
    bound = facts_assign_last_before(ctx->facts, name, function, ts_node_start_byte(bound->statement), facts_plain_assign);
  }
  if (!bound) return (TSNode){0};
  TSNode origin = gpu302__host_origin(ctx, bound->value);
  if (gpu302__is_factory(ctx, origin, random)) return origin;
  if ((node_is(origin, K_IDENTIFIER) || node_is(origin, K_ATTRIBUTE)) && text_eq(node_text(ctx->source, origin), name)) {
    return gpu302__drawn_into(ctx, name, function, ts_node_start_byte(bound->statement), random, depth + 1);
  }
  return (TSNode){0};
}

/* The factory that `move` (a `.to`/`.cuda` call) moves: its receiver
 * (also inside `Variable(...)`, or the call of a helper whose every return
 * is a draw), or, for a name (`alpha.cuda()`, `return z.detach().to(d)`),
 * the draw an earlier statement of the function bound to it
 * (gpu302__drawn_into). A null node when there is none. */
static TSNode gpu302__moved_factory(const RuleContext *ctx, TSNode move, bool *direct, bool *random) {
  TSNode receiver = node_unparenthesize(call_receiver(move));
  *direct = true;
  if (gpu302__is_factory(ctx, receiver, random)) return receiver;
  *direct = false;
  TSNode wrapped = gpu302__variable_of(ctx, receiver);
  if (gpu302__is_factory(ctx, wrapped, random)) return wrapped;
  if (gpu302__returns_draw(ctx, receiver, random)) return receiver;
  receiver = gpu302__host_origin(ctx, receiver);
  if (!node_is(receiver, K_IDENTIFIER) && !node_is(receiver, K_ATTRIBUTE)) return (TSNode){0};
  return gpu302__drawn_into(ctx, node_text(ctx->source, receiver), facts_function_at(ctx->facts, move),
                            ts_node_start_byte(receiver), random, 0);
}

/* ---- Fix -------------------------------------------------------------------------------- */

/* Fix: `torch.randn(n, m).to(device)` -> `torch.randn(n, m, device=device)`,
 * `.cuda()` -> `device="cuda"`. Only for the move in the same expression
 * with one device argument and nothing else (no dtype, no non_blocking,
 * no `.cuda(i)`). Unsafe: the GPU's generator draws other numbers than
 * the host's for the same seed. */
static void gpu302__fix(const RuleContext *ctx, GlFinding *finding, TSNode factory, TSNode move) {
  if (!finding) return;
  TSNode move_arguments = node_field(move, F_ARGUMENTS), arguments = node_field(factory, F_ARGUMENTS);
  if (ts_node_is_null(arguments) || ts_node_is_null(move_arguments)) return;
  uint32_t count = ts_node_named_child_count(move_arguments);
  Text device;
  if (text_is(call_method_name(ctx->source, move), "type_as")) return; /* the dtype would change too */
  if (text_is(call_method_name(ctx->source, move), "cuda")) {
    if (count != 0) return;
    device = (Text){"\"cuda\"", 6};
  } else {
    if (count != 1) return;
    TSNode only = ts_node_named_child(move_arguments, 0);
    if (node_is(only, K_KEYWORD_ARGUMENT)) only = call_keyword(ctx->source, move, "device");
    if (ts_node_is_null(only)) return;
    device = node_text(ctx->source, only);
  }
  bool empty = ts_node_named_child_count(arguments) == 0;
  char *content = gl_format("%sdevice=%.*s)", empty ? "" : ", ", (int)device.length, device.ptr);
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Draw it with `device=%.*s`",
                       (int)device.length, device.ptr);
  uint32_t close = ts_node_end_byte(arguments) - 1;
  fix_replace(fix, ctx->source, close, ts_node_end_byte(move), content);
  free(content);
  fix_finish(finding);
}

/* ---- Check ---------------------------------------------------------------------------------- */

/* Checks one `.to(`/`.cuda(` call; `*reported_row` is the 0-based row of
 * the last finding (UINT32_MAX for none): two draws on one line
 * (`return torch.randn(...).to(d), torch.randn(...).to(d)`) are one
 * finding. */
static void gpu302__visit_move(RuleContext *ctx, Gpu302Steps *steps, TSNode move, uint32_t *reported_row) {
  if (!gpu302__is_move(ctx, move)) return;
  bool direct = false, random = false;
  TSNode factory = gpu302__moved_factory(ctx, move, &direct, &random);
  if (ts_node_is_null(factory) || !random) return; /* constant factories measured no cost */
  if (ts_node_start_point(factory).row == *reported_row) return;
  int32_t function = facts_function_at(ctx->facts, factory);
  if (!gpu302__site_per_step(steps, function, factory, 0)) return;
  /* a draw moved by a later statement: the move runs per step too */
  if (!direct && !gpu302__site_per_step(steps, facts_function_at(ctx->facts, move), move, 0)) return;
  *reported_row = ts_node_start_point(factory).row;
  Text callee = call_function_text(ctx->source, factory);
  Shown name;
  rule_shown(callee.ptr, callee.length, 24, &name);
  GlFinding *finding = rule_report_on(ctx, factory, GL_EFFECT_SLOWDOWN, (Basis){.detail = GPU302_DETAIL},
                                      "`%s()` makes a tensor on the host every iteration, then copies it; "
                                      "pass `device=` instead",
                                      name.text);
  if (direct) gpu302__fix(ctx, finding, factory, move);
}

/* Visits every `.to(`, `.cuda(` and `.type_as(` of the file, found in its text. */
static void gpu302_check(RuleContext *ctx) {
  const Source *source = ctx->source;
  if (!strstr(source->bytes, "torch")) return; /* bytes end with a NUL */
  /* A script that trains on the CPU (Intel's extension, CPU autocast)
   * moves nothing to a GPU: its `.to(device)` copies nothing. */
  if (strstr(source->bytes, "intel_extension_for_pytorch") || strstr(source->bytes, "torch.cpu.amp")) return;
  static const char *const MOVES[] = {"to", "cuda", "type_as", NULL};
  uint32_t name, reported_row = UINT32_MAX;
  Gpu302Steps steps = {ctx->facts, gl_calloc(ctx->facts->loops.size + 1, sizeof(bool)),
                       gl_malloc(ctx->facts->functions.size + 1)};
  facts_loops_per_step(ctx->facts, steps.per_step);
  memset(steps.runs, -1, ctx->facts->functions.size + 1);
  for (uint32_t at = source_next_method_name(source, 0, MOVES, &name); at != UINT32_MAX;
       at = source_next_method_name(source, at + 1, MOVES, &name)) {
    TSNode call = call_of_method_name_at(ctx->root, at + 1, (uint32_t)strlen(MOVES[name]));
    if (!ts_node_is_null(call)) gpu302__visit_move(ctx, &steps, call, &reported_row);
  }
  free(steps.per_step);
  free(steps.runs);
}

const Rule GPU302_CPU_TENSOR_MOVED_PER_STEP = {
    .info =
        {
            .code = "GPU302",
            .name = "cpu-tensor-moved-per-step",
            .summary = "A random tensor is drawn on the host every iteration, then copied to the device: pass "
                       "device= to draw it there.",
            .fix_hint = "Draw it on the device: torch.randn(n, m, device=device).",
            .effect = GL_EFFECT_SLOWDOWN,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = true,
        },
    .check = gpu302_check,
};
