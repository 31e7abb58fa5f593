/* GPU004 eval-mode-not-restored
 *
 *   model.train()
 *   for epoch in range(epochs):
 *       for x, y in loader:
 *           loss = criterion(model(x), y)
 *           loss.backward()
 *           optimizer.step()
 *       validate(model, val_loader)        <- reported: validate() calls model.eval()
 *
 * A training loop (its body runs a backward) reaches `M.eval()` (or
 * `M.train(False)`) through a helper it calls, or inside an `if` of its
 * body, and M's next training forward after the switch (later in the
 * iteration, or from the top of the next one) runs before any `M.train()`
 * that surely runs after the switch: from then on M trains in evaluation
 * mode (dropout off, batch norm on its running statistics, which stop
 * updating). Helpers are followed in the file (their parameter is mapped
 * to the argument: `validate(model)` puts `model` in eval mode when
 * validate does `net.eval()`, also through helpers in between:
 * `validate(context)` -> `predict(context.model)`), methods on self through their alias of a
 * self attribute, helpers that switch a variable they share with the
 * loop's function (a global, or a local of the function both are nested
 * in), and a project function of another file that reaches `.eval()` and
 * is handed M counts too. The finding points at the
 * statement of the loop that reaches the switch, once per module and loop.
 *
 * Not reported: a `.train()` that runs whenever the switch ran (not one
 * under a condition of its own: `if loss < best: model.train()`), a mode
 * set on purpose before the training (a linear probe's training helper
 * that calls `model.eval()`, an unconditional `M.eval()` in the loop body
 * before M's training forwards,
 * an if/else that chooses M's mode, a GAN phase that sets its modes first),
 * the evaluation's own forwards, a module that is frozen. An
 * unconditional `M.eval()` in the loop body is judged when the body trains
 * M before it on the same pass (an epoch's validation after its batch
 * loop), and not when it comes first (frozen batch norm on purpose). The finding is a
 * warning when M is built from a class of this file that has no dropout
 * and no batch norm (eval mode changes nothing there). */
#include <stdlib.h>
#include <string.h>

#include "roles.h"
#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU004_DETAIL                                                                                          \
  "After the first evaluation the model stays in eval mode: dropout is off and batch norm normalises with its " \
  "running statistics, which stop updating, for the rest of training. Measured on an H100 (PyTorch 2.11, a "    \
  "conv net with batch norm and dropout, batch 256): after validate() the running statistics moved 0 per "     \
  "step for the rest of the run, against a median of 0.195 per step when model.train() follows it."

typedef enum { NAMES_OTHER, NAMES_SAME, NAMES_UNKNOWN } Names;

/* ---- Which module an event names ------------------------------------------------------ */

static bool gpu004__related(const Facts *facts, Text a, Text b) {
  a = facts_canonical(facts, a);
  b = facts_canonical(facts, b);
  return text_owns(a, b) || text_owns(b, a);
}

/* Whether `function` binds `name` itself: a parameter, or an assignment
 * (a `for` target too) in its own body. */
static bool gpu004__binds(const Facts *facts, int32_t function, Text name) {
  TSNode unused;
  if (facts_parameter_named(facts, function, name, &unused)) return true;
  AssignIter it = facts_assigns(facts, name, function);
  return assign_iter_next(&it) != NULL;
}

/* The function whose variable `name` means inside `function`: the
 * nearest of it and its enclosing functions that binds the name, or -1
 * (the file's global). */
static int32_t gpu004__scope_of(const Facts *facts, int32_t function, Text name) {
  for (; function >= 0; function = facts->functions.contents[function].parent) {
    if (gpu004__binds(facts, function, name)) return function;
  }
  return -1;
}

/* Whether the module an event of `helper` names (`model.eval()` in a
 * nested `def evaluate():` or a function of the script) is the very
 * variable the loop's `function` sees by that name: the helper does not
 * bind it and both read it from one scope (the enclosing function's
 * local, or the global).
 *   def main():
 *       model = Net()
 *       def evaluate(): model.eval() ...
 *       def train_epoch(): ... evaluate()     <- the same `model` */
static bool gpu004__shared_variable(const Facts *facts, int32_t helper, int32_t function, Text target) {
  Text root = target;
  for (uint32_t i = 0; i < target.length; i++) {
    if (target.ptr[i] == '.') {
      root.length = i;
      break;
    }
  }
  if (helper < 0 || text_is(root, "self") || gpu004__binds(facts, helper, root)) return false;
  return gpu004__scope_of(facts, facts->functions.contents[helper].parent, root) ==
         gpu004__scope_of(facts, function, root);
}

/* `target`, a module named in `callee`, as the caller writes it at
 * `call` (a call of `callee`): for a parameter of `callee`, the argument
 * (`validate(model)` with `def validate(net): net.eval()` -> `model`),
 * and for an attribute of one (`context.model` of `def validate(context)`),
 * the same text when the argument is the parameter's own name. An empty
 * text when it cannot be told. */
static Text gpu004__argument_for(const RuleContext *ctx, TSNode call, int32_t callee, Text target) {
  for (uint32_t i = 0; i < SUMMARY_MAX_PARAMETERS; i++) {
    Text parameter = facts_parameter(ctx->facts, callee, i);
    if (parameter.length == 0) break;
    if (!text_owns(parameter, target)) continue;
    TSNode argument = call_positional(call, i);
    if (ts_node_is_null(argument)) return (Text){0};
    Text named = node_text(ctx->source, argument);
    if (text_eq(parameter, target)) return named;
    return text_eq(named, parameter) ? target : (Text){0}; /* `reranker.model` of `evaluate(reranker)` */
  }
  return (Text){0};
}

/* `target`, a module named in `callee`, as `caller` writes it when it
 * calls `callee`, directly or through up to `depth` helpers in between:
 *   def predict(processor, model, loader): model.eval() ...
 *   def validate(context): predict(context.processor, context.model, ...)
 * `model` of predict is `context.model` in validate. An empty text when
 * no call of `caller` leads there with a known argument. */
static Text gpu004__lifted(const RuleContext *ctx, int32_t caller, int32_t callee, Text target, int depth) {
  const Facts *facts = ctx->facts;
  uint32_t first, end;
  facts_events_within(facts, facts->functions.contents[caller].node, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *call = array_get(&facts->events, i);
    if (call->kind != EV_CALL || call->function != caller || call->callee < 0 || call->callee == caller) continue;
    Text inner = call->callee == callee ? target : (Text){0};
    if (inner.length == 0 && depth > 0) inner = gpu004__lifted(ctx, call->callee, callee, target, depth - 1);
    if (inner.length == 0) continue;
    Text named = gpu004__argument_for(ctx, call->node, call->callee, inner);
    if (named.length > 0) return named;
  }
  return (Text){0};
}

/* The module `flat`'s event names, written as the loop's function writes
 * it: its own target in that function or in a method on `self`, or, for
 * a helper's parameter (`def validate(net): net.eval()`), the argument of
 * the call in the loop that runs it, also when that helper runs the
 * switch's function (gpu004__lifted: one helper in between, which keeps
 * the switches judged few). An empty text when it cannot be told. */
static Text gpu004__module_of(const RuleContext *ctx, const FlatEvent *flat, int32_t function) {
  const Event *event = flat->event;
  Text self = {"self", 4};
  if (event->function == function || text_owns(self, event->target)) return event->target;
  Text canonical = facts_canonical(ctx->facts, event->target); /* `model = self.model` in a method on self */
  bool method = event->function >= 0 && ctx->facts->functions.contents[event->function].class_index >= 0;
  if (method && text_owns(self, canonical)) return canonical;
  if (gpu004__shared_variable(ctx->facts, event->function, function, event->target)) return event->target;
  if (!node_is(flat->anchor, K_CALL)) return (Text){0};
  int32_t called = facts_resolve_call(ctx->facts, flat->anchor, function);
  if (called < 0) return (Text){0};
  /* only a mode switch is followed through the helpers in between */
  bool switches = event->kind == EV_EVAL || event->kind == EV_TRAIN;
  if (called != event->function && !switches) return (Text){0};
  Text target = called == event->function ? event->target
                                          : gpu004__lifted(ctx, called, event->function, event->target, 0);
  return target.length == 0 ? target : gpu004__argument_for(ctx, flat->anchor, called, target);
}

/* A loop's flattened events, with the module each names as the loop's
 * function writes it (gpu004__module_of), found once per event: `events`
 * comes first, so that a `const FlatEvents *` of one is one of these. */
typedef struct {
  FlatEvents events;
  Text *modules;    /* per event; owned */
  int32_t function; /* the loop's function, whose names `modules` are */
} Gpu004Flat;

/* The module `event` (of the loop's `flat`) names; empty when unknown. */
static Text gpu004__module(const FlatEvents *flat, const FlatEvent *event) {
  return ((const Gpu004Flat *)flat)->modules[event - flat->contents];
}

/* `module`, or the module it wraps (`engine` of `engine, *_ =
 * deepspeed.initialize(model=net)` is `net`, also through wrappers of
 * wrappers: `torch.compile(DDP(net))`): the module whose mode a switch
 * of it sets. */
static Text gpu004__unwrapped(const RuleContext *ctx, const FlatEvents *flat, Text module) {
  for (int hops = 0; hops < 4; hops++) {
    Text wrapped = roles_wrapped(ctx->facts, facts_canonical(ctx->facts, module), ((const Gpu004Flat *)flat)->function);
    if (wrapped.length == 0) break;
    module = wrapped;
  }
  return module;
}

static Names gpu004__names(const RuleContext *ctx, const FlatEvents *flat, const FlatEvent *event, Text module) {
  Text named = gpu004__module(flat, event);
  if (named.length == 0) return NAMES_UNKNOWN;
  if (gpu004__related(ctx->facts, named, module)) return NAMES_SAME;
  Text inner_named = gpu004__unwrapped(ctx, flat, named), inner_module = gpu004__unwrapped(ctx, flat, module);
  return gpu004__related(ctx->facts, inner_named, inner_module) ? NAMES_SAME : NAMES_OTHER;
}

typedef Array(TSNode) Anchors;

/* Whether one of `nodes` holds `anchor`. */
static bool gpu004__within_any(const Anchors *nodes, TSNode anchor) {
  for (uint32_t i = 0; i < nodes->size; i++) {
    if (node_contains(nodes->contents[i], anchor)) return true;
  }
  return false;
}

/* Whether `anchor` is one of `anchors`. */
static bool gpu004__listed(const Anchors *anchors, TSNode anchor) {
  for (uint32_t i = 0; i < anchors->size; i++) {
    if (ts_node_eq(anchors->contents[i], anchor)) return true;
  }
  return false;
}

/* ---- The loop's iteration ------------------------------------------------------------------ */

static bool gpu004__trains_here(const RuleContext *ctx, const FlatEvent *event) {
  return event->event->kind == EV_FORWARD && !event->grad_off_on_the_way &&
         facts_grad_mode(ctx->facts, event->event) == GRAD_ON;
}

/* Whether the iteration trains `module`: one of its forwards runs with
 * grad on. */
static bool gpu004__trains(const RuleContext *ctx, const FlatEvents *flat, Text module) {
  for (uint32_t i = 0; i < flat->size; i++) {
    const FlatEvent *event = array_get(flat, i);
    if (gpu004__trains_here(ctx, event) && gpu004__names(ctx, flat, event, module) == NAMES_SAME) return true;
  }
  return false;
}

/* Whether `anchor` (a statement of the loop body `body`) runs whenever
 * the switch at `switch_anchor` has run: every branch that holds it holds
 * the switch too.
 *   if step % 500 == 0:
 *       validate(model)
 *       model.train()                    <- runs with the switch
 *       if loss < best: model.train()    <- may not */
static bool gpu004__runs_with(TSNode anchor, TSNode switch_anchor, TSNode body) {
  for (TSNode branch = node_branch_of(anchor, body); !ts_node_is_null(branch);
       branch = node_branch_of(ts_node_parent(branch), body)) {
    if (!node_contains(branch, switch_anchor)) return false;
  }
  return true;
}

/* Whether the helper call at `anchor` runs a backward. */
static bool gpu004__backpropagates(const FlatEvents *flat, TSNode anchor) {
  for (uint32_t i = 0; i < flat->size; i++) {
    const FlatEvent *event = array_get(flat, i);
    if (event->event->kind == EV_BACKWARD && ts_node_eq(event->anchor, anchor)) return true;
  }
  return false;
}

/* Whether a forward after the switch belongs to the evaluation itself:
 * it runs in the switch's own branch after it (an inline `model.eval()`
 * then `model(val_x)`), or inside the same helper call, which runs no
 * backward (a `validate()` that forgets no_grad). */
static bool gpu004__evaluates(const FlatEvents *flat, const FlatEvent *forward, TSNode switch_anchor,
                              TSNode switch_branch, bool wrapped) {
  if (wrapped) return false;
  if (ts_node_eq(forward->anchor, switch_anchor)) return !gpu004__backpropagates(flat, switch_anchor);
  return !ts_node_is_null(switch_branch) && node_contains(switch_branch, forward->anchor);
}

/* Whether `event` (a `.train()` or `.eval()` of `module` under an `if`
 * of the loop body) is one arm of a choice of the module's mode: another
 * branch of the same `if` sets its mode too. Such a choice sets the mode
 * whichever way it goes, and its `.eval()` arm is no evaluation.
 *   if args.train_encoder: encoder.train()
 *   else: encoder.eval()                      <- a frozen encoder, on purpose */
static bool gpu004__mode_chosen(const RuleContext *ctx, const FlatEvents *flat, const FlatEvent *event,
                                const Loop *loop, Text module) {
  TSNode branch = node_branch_of(event->anchor, loop->body);
  if (ts_node_is_null(branch)) return false;
  TSNode choice = ts_node_parent(branch); /* the `if` of the branch (a clause's, or its consequence's) */
  for (uint32_t i = 0; i < flat->size; i++) {
    const FlatEvent *other = array_get(flat, i);
    EventKind kind = other->event->kind;
    if ((kind != EV_TRAIN && kind != EV_EVAL) || !node_contains(choice, other->anchor) ||
        node_contains(branch, other->anchor)) {
      continue;
    }
    if (gpu004__names(ctx, flat, other, module) != NAMES_OTHER) return true;
  }
  return false;
}

/* Whether `event`, an `.eval()` of the module judged, puts it in eval
 * mode on purpose for the training that follows: an unconditional `model.eval()` in the loop body itself
 * (frozen batch norm), or in a helper that then trains (a linear probe's
 * training helper). Another evaluation's switch restores nothing. */
static bool gpu004__deliberate_eval(const FlatEvents *flat, const FlatEvent *event, const Loop *loop) {
  if (event->event->function == loop->function) return !node_under_if(event->event->node, loop->body);
  return gpu004__backpropagates(flat, event->anchor);
}

/* Whether, after the switch `flat[at]`, `module` trains in eval mode: its
 * next training forward (later in the iteration, or from the top of the
 * next one) comes before any `.train()` or `.eval()` of it that surely
 * runs after the switch. A mode set on purpose before the training (a
 * linear probe's helper calls `model.eval()` before its batch loop) and
 * a `.train()` at the top of the epoch both come first; a helper that
 * switches and then trains, itself, does so on purpose; a forward in a
 * branch that sets the mode before it (`elif phase == "D":
 * disc.train()`) runs in that branch's mode, one in a branch that
 * excludes the switch's runs on another pass, and one after the module's
 * `.eval()` in a helper call that runs no backward is that evaluation's
 * own (`check(net)` after `run_epoch(net)` whose last step is a check). */
static bool gpu004__trains_in_eval(const RuleContext *ctx, const FlatEvents *flat, uint32_t at, const Loop *loop,
                                   Text module) {
  const FlatEvent *switched = array_get(flat, at);
  TSNode switch_anchor = switched->anchor;
  TSNode switch_branch = node_branch_of(switch_anchor, loop->body);
  /* an unconditional switch of the body itself comes after the training:
   * the rest of this pass is its evaluation */
  bool evaluates_to_the_end = switched->event->kind == EV_EVAL && switched->event->function == loop->function &&
                              !node_under_if(switched->event->node, loop->body);
  Anchors set_in = array_new();     /* branches that set the mode before their own forwards (GAN phases) */
  Anchors evaluating = array_new(); /* helper calls that switch M to eval and run no backward */
  bool found = false;
  for (uint32_t k = 1; k < flat->size; k++) {
    const FlatEvent *event = array_get(flat, (at + k) % flat->size);
    EventKind kind = event->event->kind;
    if (kind != EV_TRAIN && kind != EV_EVAL && kind != EV_FORWARD && kind != EV_EXTERNAL) continue;
    Names names = kind == EV_EXTERNAL ? NAMES_UNKNOWN : gpu004__names(ctx, flat, event, module);
    bool names_it = (kind == EV_TRAIN || kind == EV_EVAL) && names != NAMES_OTHER;
    bool chosen = names_it && gpu004__mode_chosen(ctx, flat, event, loop, module);
    bool sets_mode = (kind == EV_EXTERNAL && (event->event->reaches & REACH(EV_TRAIN))) ||
                     (kind == EV_TRAIN && names_it) || chosen ||
                     (kind == EV_EVAL && names_it && gpu004__deliberate_eval(flat, event, loop));
    if (sets_mode && (chosen || gpu004__runs_with(event->anchor, switch_anchor, loop->body))) break;
    TSNode branch = sets_mode ? node_branch_of(event->anchor, loop->body) : (TSNode){0};
    if (!ts_node_is_null(branch)) array_push(&set_in, branch);
    if (names_it && kind == EV_EVAL && !gpu004__backpropagates(flat, event->anchor)) {
      array_push(&evaluating, event->anchor);
    }
    if (!gpu004__trains_here(ctx, event) || names != NAMES_SAME) continue;
    if (gpu004__listed(&evaluating, event->anchor)) continue; /* that helper's own evaluation */
    bool wrapped = at + k >= flat->size;
    if (!wrapped && facts_exclusive(switch_anchor, event->anchor)) continue; /* the other branch of this pass */
    if (gpu004__evaluates(flat, event, switch_anchor, switch_branch, wrapped)) continue;
    if (evaluates_to_the_end && !wrapped) continue;
    if (gpu004__within_any(&set_in, event->anchor)) continue;
    found = !ts_node_eq(event->anchor, switch_anchor); /* not a helper that trains in eval mode on purpose */
    break;
  }
  array_delete(&set_in);
  array_delete(&evaluating);
  return found;
}

/* The module a function of another file puts in eval mode: the argument
 * of the call that the iteration trains; an empty text when none. */
static Text gpu004__external_eval(const RuleContext *ctx, const FlatEvents *flat, const FlatEvent *call) {
  if (!(call->event->reaches & REACH(EV_EVAL)) || (call->event->reaches & REACH(EV_TRAIN))) return (Text){0};
  if (!ts_node_eq(call->anchor, call->event->node)) return (Text){0};
  for (uint32_t i = 0; i < call_positional_count(call->event->node); i++) {
    Text argument = node_text(ctx->source, call_positional(call->event->node, i));
    if (gpu004__trains(ctx, flat, argument)) return argument;
  }
  return (Text){0};
}

/* ---- Severity ---------------------------------------------------------------------------------- */

/* Whether `module` is built from a class of this file whose text holds no
 * dropout and no batch norm: eval mode changes nothing in it. */
static bool gpu004__mode_free(const RuleContext *ctx, Text module) {
  static const char *const MODAL[] = {"ropout", "atchNorm", "atch_norm", "nstanceNorm", "drop_path", "DropPath", NULL};
  Text constructor = facts_constructor_of(ctx->facts, facts_canonical(ctx->facts, module));
  if (constructor.length == 0) return false;
  int32_t index = facts_class_named(ctx->facts, text_last_segment(constructor));
  if (index < 0) return false;
  Text body = node_text(ctx->source, ctx->facts->classes.contents[index].node);
  for (const char *const *word = MODAL; *word; word++) {
    if (text_contains_ci(body, *word)) return false;
  }
  return true;
}

/* ---- Check ---------------------------------------------------------------------------------------- */

static void gpu004__report(RuleContext *ctx, const FlatEvent *eval, Text module) {
  TSNode at = eval->anchor;
  while (!ts_node_is_null(ts_node_parent(at)) && !node_is(ts_node_parent(at), K_BLOCK) &&
         !node_is(ts_node_parent(at), K_MODULE)) {
    at = ts_node_parent(at);
  }
  bool mode_free = gpu004__mode_free(ctx, module);
  Shown shown;
  rule_shown(module.ptr, module.length, 24, &shown);
  rule_report_on(ctx, at, GL_EFFECT_WRONG_GRADIENTS, (Basis){.warning = mode_free, .detail = GPU004_DETAIL},
                 mode_free ? "`%s` is trained again in eval mode, with no `.train()` (it has no dropout or batch norm "
                             "yet)"
                           : "`%s` is trained again in eval mode, with no `.train()`: dropout and batch "
                             "norm stay off",
                 shown.text);
}

/* The outermost branch of the loop body that holds `anchor`; a null node
 * when none does. */
static TSNode gpu004__outer_branch_of(TSNode anchor, TSNode body) {
  TSNode outer = {0};
  for (TSNode branch = node_branch_of(anchor, body); !ts_node_is_null(branch);
       branch = node_branch_of(ts_node_parent(branch), body)) {
    outer = branch;
  }
  return outer;
}

/* Whether an inline `M.eval()` under an `if` starts an evaluation: after
 * it, its branch runs a forward of M or calls a function. A branch that
 * only sets modes (`if cfg.FREEZE_TEXT: model.text_encoder.eval()`, each
 * step, before the forward) freezes a part on purpose. */
static bool gpu004__evaluation_follows(const RuleContext *ctx, const FlatEvents *flat, const FlatEvent *event,
                                       const Loop *loop, Text module) {
  TSNode branch = gpu004__outer_branch_of(event->anchor, loop->body);
  if (ts_node_is_null(branch)) return true;
  uint32_t after = ts_node_end_byte(event->anchor);
  for (uint32_t i = 0; i < flat->size; i++) {
    const FlatEvent *other = array_get(flat, i);
    if (ts_node_start_byte(other->anchor) < after || !node_contains(branch, other->anchor)) continue;
    EventKind kind = other->event->kind;
    if (kind == EV_CALL || kind == EV_EXTERNAL || other->event->function != loop->function) return true;
    if (kind == EV_FORWARD && gpu004__names(ctx, flat, other, module) == NAMES_SAME) return true;
  }
  return false;
}

/* Whether an unconditional `M.eval()` of the loop body comes after a
 * training forward of M on the same pass: the iteration trains, then
 * evaluates (the epoch's validation after its batch loop), so from the
 * second iteration on M trains in eval mode. A switch before the
 * training forwards puts M in eval mode on purpose (frozen batch norm).
 *   for epoch in range(n):
 *       for x, y in loader: criterion(model(x), y).backward() ...
 *       model.eval()                          <- judged */
static bool gpu004__trained_before(const RuleContext *ctx, const FlatEvents *flat, const FlatEvent *event,
                                   Text module) {
  if (module.length == 0) return false;
  for (const FlatEvent *other = array_get(flat, 0); other < event; other++) {
    if (!gpu004__trains_here(ctx, other) || facts_exclusive(other->anchor, event->anchor)) continue;
    if (gpu004__names(ctx, flat, other, module) == NAMES_SAME) return true;
  }
  return false;
}

/* The eval switch of `module` that `event` makes, if it is one this rule
 * judges: through a helper, or in an `if` of the loop's own body. */
static Text gpu004__switched(const RuleContext *ctx, const FlatEvents *flat, const FlatEvent *event, const Loop *loop) {
  if (event->event->kind == EV_EXTERNAL) return gpu004__external_eval(ctx, flat, event);
  if (event->event->kind != EV_EVAL) return (Text){0};
  bool inline_switch = event->event->function == loop->function;
  Text module = gpu004__module(flat, event);
  if (inline_switch && !node_under_if(event->event->node, loop->body)) {
    return gpu004__trained_before(ctx, flat, event, module) ? module : (Text){0};
  }
  if (!inline_switch) return module;
  bool evaluates = !gpu004__mode_chosen(ctx, flat, event, loop, module) &&
                   gpu004__evaluation_follows(ctx, flat, event, loop, module);
  return evaluates ? module : (Text){0};
}

typedef Array(Text) Texts;

static bool gpu004__module_listed(const RuleContext *ctx, const Texts *modules, Text module) {
  for (uint32_t i = 0; i < modules->size; i++) {
    if (gpu004__related(ctx->facts, modules->contents[i], module)) return true;
  }
  return false;
}

/* Fills `named->modules` with gpu004__module_of of each event. Its answer
 * depends on the event and the loop's statement that reaches it (the
 * anchor), and a helper reached along many paths repeats its events
 * under one anchor: each event is named once per anchor. */
static void gpu004__name_modules(const RuleContext *ctx, Gpu004Flat *named, int32_t function) {
  const Facts *facts = ctx->facts;
  const FlatEvents *flat = &named->events;
  uint32_t count = facts->events.size;
  uint32_t *named_under = gl_calloc(count + 1, sizeof(uint32_t)); /* per event: the anchor's number + 1, 0 */
  Text *known = gl_calloc(count + 1, sizeof(Text));
  named->modules = gl_calloc(flat->size + 1, sizeof(Text));
  uint32_t anchors = 0;
  for (uint32_t i = 0; i < flat->size; i++) {
    const FlatEvent *event = array_get(flat, i);
    if (i == 0 || !ts_node_eq(event->anchor, flat->contents[i - 1].anchor)) anchors++;
    uint32_t at = (uint32_t)(event->event - facts->events.contents);
    if (named_under[at] != anchors) {
      known[at] = gpu004__module_of(ctx, event, function);
      named_under[at] = anchors;
    }
    named->modules[i] = known[at];
  }
  free(named_under);
  free(known);
}

/* Whether a later event under the same statement of the loop as `flat[at]`
 * switches `module` to eval mode too. Only what that statement leaves
 * behind trains in eval mode (forwards under it are its own), and its
 * last switch leaves eval mode behind whenever an earlier one does: the
 * last is the one judged. */
static bool gpu004__switched_again(const RuleContext *ctx, const FlatEvents *flat, uint32_t at, Text module) {
  TSNode anchor = flat->contents[at].anchor;
  for (uint32_t i = at + 1; i < flat->size && ts_node_eq(flat->contents[i].anchor, anchor); i++) {
    const FlatEvent *event = array_get(flat, i);
    Text named = gpu004__module(flat, event);
    if (event->event->kind == EV_EVAL && named.length > 0 && gpu004__related(ctx->facts, named, module)) return true;
  }
  return false;
}

/* Reports the first switch of each module of the loop after which the
 * module trains in eval mode; `reported` holds the anchors already
 * reported (from an inner loop). */
static void gpu004__check_loop(RuleContext *ctx, const Loop *loop, Anchors *reported) {
  Gpu004Flat named = {array_new(), NULL, loop->function};
  const FlatEvents *flat = &named.events;
  Texts modules = array_new(); /* reported in this loop: later switches of them add nothing */
  facts_flatten(ctx->facts, loop->function, loop->body, &named.events);
  gpu004__name_modules(ctx, &named, loop->function);
  for (uint32_t i = 0; i < flat->size; i++) {
    const FlatEvent *event = array_get(flat, i);
    Text module = gpu004__switched(ctx, flat, event, loop);
    if (module.length == 0 || roles_frozen(ctx->facts, module) || gpu004__listed(reported, event->anchor)) continue;
    if (gpu004__switched_again(ctx, flat, i, module)) continue;
    if (gpu004__module_listed(ctx, &modules, module) || !gpu004__trains_in_eval(ctx, flat, i, loop, module)) continue;
    array_push(reported, event->anchor);
    array_push(&modules, module);
    gpu004__report(ctx, event, module);
  }
  array_delete(&modules);
  free(named.modules);
  array_delete(&named.events);
}

/* Inner loops first: a switch inside the batch loop is judged there. */
static void gpu004_check(RuleContext *ctx) {
  const Facts *facts = ctx->facts;
  Anchors reported = array_new();
  uint32_t wanted = REACH(EV_BACKWARD);
  for (uint32_t i = facts->loops.size; i-- > 0;) {
    const Loop *loop = array_get(&facts->loops, i);
    if ((loop->reaches & wanted) != wanted) continue;
    if (!(loop->reaches & (REACH(EV_EVAL) | REACH(EV_EXTERNAL)))) continue;
    gpu004__check_loop(ctx, loop, &reported);
  }
  array_delete(&reported);
}

const Rule GPU004_EVAL_MODE_NOT_RESTORED = {
    .info =
        {
            .code = "GPU004",
            .name = "eval-mode-not-restored",
            .summary = "A training loop switches the model to eval mode (in a validation helper or branch) and "
                       "trains it again without .train().",
            .fix_hint = "Call model.train() at the start of each training epoch, or at the end of the "
                        "evaluation helper.",
            .effect = GL_EFFECT_WRONG_GRADIENTS,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = gpu004_check,
};
