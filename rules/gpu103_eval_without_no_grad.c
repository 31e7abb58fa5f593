/* GPU103 eval-without-no-grad
 *
 *   model.eval()
 *   for x, y in val_loader:
 *       out = model(x)               <- reported: grad is on, no backward
 *
 * A forward of a module that is in eval mode (after `.eval()` or
 * `.train(False)` on it, in source order through helpers), or that runs in
 * a loop of an evaluation function (evaluate, validate, predict, infer; a
 * test function's loop only over data), or in a loop that trains nothing
 * and runs over data or in code that never trains, with grad on and no
 * backward after it on the same pass. Frozen modules (`requires_grad_(False)`) build no
 * graph and are not reported. */
#include <string.h>

#include "links.h"
#include "roles.h"
#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU103_DETAIL                                                                                               \
  "model.eval() changes dropout and batch norm, not autograd: with grad enabled, every forward records its graph " \
  "and keeps the activations saved for a backward that never runs, which raises the peak; kept outputs keep "      \
  "their graphs, and memory grows. Measured on an H200 (PyTorch 2.11, ResNet-50, batch 64): a peak of 5232 MB "     \
  "with grad on against 637 MB under `torch.no_grad()` or `torch.inference_mode()` (8.2x less); with the "          \
  "outputs kept, 5226 MB of growth per iteration against 0.24 MB."

#define MAX_MODES 16

typedef struct {
  Text module;
  bool eval;
  TSNode switch_node; /* the .eval()/.train() call that set it */
} Mode;

typedef struct {
  Mode modes[MAX_MODES];
  uint32_t count;
  TSNode self_switch; /* a method that every caller runs on an instance in eval mode: its def; else null */
} Modes;

static void gpu103__set(Modes *self, Text module, bool eval, TSNode switch_node) {
  module = text_strip_self(module);
  for (uint32_t i = 0; i < self->count; i++) {
    if (text_eq(self->modes[i].module, module)) {
      self->modes[i].eval = eval;
      self->modes[i].switch_node = switch_node;
      return;
    }
  }
  if (self->count < MAX_MODES) self->modes[self->count++] = (Mode){module, eval, switch_node};
}

/* Whether `name` is `owner`, an attribute of it (`model.head`) or an
 * entry of it (`nets["generator"]`, `nets[name].head`). */
static bool gpu103__owns(Text owner, Text name) {
  if (text_owns(owner, name)) return true;
  return name.length > owner.length && name.ptr[owner.length] == '[' && memcmp(name.ptr, owner.ptr, owner.length) == 0;
}

/* The .eval() call that put `module` or a module it belongs to (`model`
 * for `model.head`, `nets` for `nets["generator"]`) in eval mode last; a
 * null node when it is not. */
static TSNode gpu103__eval_switch(const Modes *self, Text module) {
  if (!ts_node_is_null(self->self_switch) && (text_is(module, "self") || text_strip_self(module).length != module.length)) {
    return self->self_switch;
  }
  module = text_strip_self(module);
  for (uint32_t i = 0; i < self->count; i++) {
    if (gpu103__owns(self->modes[i].module, module) && self->modes[i].eval) return self->modes[i].switch_node;
  }
  return (TSNode){0};
}

/* The eval switch that reaches a forward at `at` on the same pass: not one
 * in a branch that excludes the forward (`if gan: model.eval() ... else:
 * model(x)`: a mode carried into the next iteration is GPU004's case), nor
 * one whose module name is bound again between them to something else
 * (`model = lambda x: session.run(...)` after `model.eval()` is another
 * object; `model = model.to(device)` or `DDP(model)` still runs it). */
static TSNode gpu103__switch_reaching(const RuleContext *ctx, TSNode eval_switch, Text module, int32_t unit,
                                     TSNode at) {
  if (ts_node_is_null(eval_switch) || !node_is(eval_switch, K_CALL)) return eval_switch;
  if (facts_exclusive(eval_switch, at)) return (TSNode){0};
  AssignIter it = facts_assigns(ctx->facts, module, unit);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    uint32_t start = ts_node_start_byte(assign->statement);
    if (!assign->augmented && !assign->subscript && start > ts_node_end_byte(eval_switch) &&
        start < ts_node_start_byte(at) && !text_mentions(node_text(ctx->source, assign->value), module)) {
      return (TSNode){0};
    }
  }
  return eval_switch;
}

/* The condition of the innermost if around `node` and which branch holds
 * it; `if not x:` reads as `if x:` with the branches swapped. */
static bool gpu103__branch(const Source *source, TSNode node, Text *condition, bool *then_branch) {
  TSNode child = node, at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && steps < MAX_ASCENT; child = at, at = ts_node_parent(at), steps++) {
    if (node_is(at, K_FUNCTION_DEFINITION)) return false;
    if (!node_is(at, K_IF_STATEMENT)) continue;
    TSNode test = node_field(at, F_CONDITION);
    if (node_contains(test, node)) continue;
    *then_branch = ts_node_eq(child, node_field(at, F_CONSEQUENCE));
    if (!*then_branch && !node_is(child, K_ELSE_CLAUSE)) return false;
    if (node_is(test, K_NOT_OPERATOR)) {
      test = node_field(test, F_ARGUMENT);
      *then_branch = !*then_branch;
    }
    *condition = node_text(source, test);
    return true;
  }
  return false;
}

/* `if training: model.train() else: model.eval()` ... `if training:
 * loss.backward()`: the backward never runs while the model is in eval. */
static bool gpu103__opposite_branches(const Source *source, TSNode eval_switch, TSNode backward) {
  Text first, second;
  bool first_then, second_then;
  return !ts_node_is_null(eval_switch) && gpu103__branch(source, eval_switch, &first, &first_then) &&
         gpu103__branch(source, backward, &second, &second_then) && text_eq(first, second) &&
         first_then != second_then;
}

/* evaluate(), validate(), test_epoch(), predict(), run_inference() ... */
static bool gpu103__evaluation_function(const Facts *facts, int32_t function) {
  if (function < 0) return false;
  const Function *entry = array_get(&facts->functions, function);
  if (entry->reaches & REACH(EV_BACKWARD)) return false;
  Text name = entry->name;
  return text_contains_ci(name, "eval") || text_contains_ci(name, "valid") || text_contains_ci(name, "predict") ||
         text_contains_ci(name, "infer");
}

/* test(), test_epoch(): evaluation only when the loop runs over data, since
 * test_* functions of a test suite also loop over shapes and cases. */
static bool gpu103__test_function(const Facts *facts, int32_t function) {
  if (function < 0) return false;
  const Function *entry = array_get(&facts->functions, function);
  return !(entry->reaches & REACH(EV_BACKWARD)) && text_contains_ci(entry->name, "test");
}

/* A test suite's code: a file named test_*.py, *_test.py or conftest.py,
 * or a pytest function (`test_*` that no code of the project calls,
 * `assert_*`) or a method of a `Test*` class. Its loops run over shapes,
 * layouts and model variants, one check forward each: they are
 * evaluation only when the code puts the model in eval mode itself. */
static bool gpu103__test_code(const RuleContext *ctx, int32_t function) {
  const char *path = ctx->source->path;
  const char *name = strrchr(path, '/');
  name = name ? name + 1 : path;
  if (strncmp(name, "test_", 5) == 0 || strcmp(name, "conftest.py") == 0 || (strlen(name) > 8 && strcmp(name + strlen(name) - 8, "_test.py") == 0)) {
    return true;
  }
  for (int32_t at = function; at >= 0; at = ctx->facts->functions.contents[at].parent) {
    const Function *entry = array_get(&ctx->facts->functions, at);
    bool called = entry->call_count > 0 || entry->callers_elsewhere; /* `test_epoch(model, loader)` of a training loop */
    if (text_starts_with_any(entry->name, (const char *const[]){"assert_", NULL}) ||
        (!called && text_starts_with_any(entry->name, (const char *const[]){"test_", NULL}))) {
      return true;
    }
    if (entry->class_index >= 0 && text_starts_with_any(ctx->facts->classes.contents[entry->class_index].name,
                                                        (const char *const[]){"Test", NULL})) {
      return true;
    }
  }
  return false;
}

/* A backward that can run after position `at` on the same pass, while
 * the module is in the mode `eval_switch` set: later in the pass, or the
 * backward call that holds the forward (`criterion(model(x), y).backward()`
 * starts before the forward it runs after). */
static bool gpu103__backward_after(const Source *source, const FlatEvents *events, uint32_t at, TSNode eval_switch) {
  const FlatEvent *forward = array_get(events, at);
  for (uint32_t i = 0; i < events->size; i++) {
    const FlatEvent *later = array_get(events, i);
    if (later->event->kind != EV_BACKWARD || facts_exclusive(later->anchor, forward->anchor)) continue;
    if (i < at && !node_contains(later->event->node, forward->event->node)) continue;
    if (!gpu103__opposite_branches(source, eval_switch, later->anchor)) return true;
  }
  return false;
}

/* Whether the forward runs inside a method of an nn.Module class and is
 * reached through a call of that method on a module (`self.embed(x)`,
 * `model.validation_step(batch)`): the module's own method runs it. */
static bool gpu103__through_module_method(const RuleContext *ctx, const FlatEvent *flat) {
  const Event *event = flat->event;
  if (ts_node_eq(flat->anchor, event->node) || !node_is(flat->anchor, K_CALL) || event->function < 0) return false;
  if (!ctx->facts->functions.contents[event->function].in_module_class) return false;
  Text target = event->target;
  return (text_is(target, "self") || text_owns((Text){"self", 4}, target)) && !ts_node_is_null(call_receiver(flat->anchor));
}

/* The module a forward runs: for `self(x)` or `self.body(x)` inside a
 * method reached through `model.validation_step(batch)`, the receiver
 * `model`. */
static Text gpu103__module(const RuleContext *ctx, const FlatEvent *flat) {
  if (!gpu103__through_module_method(ctx, flat)) return flat->event->target;
  return facts_canonical(ctx->facts, node_text(ctx->source, call_receiver(flat->anchor)));
}

/* `model.tag_with_state(tokens, h)`, `model.encode(x)`: a method of the
 * model's class, with no loop of its own, that runs the model's
 * submodules (`self.embed(x)`, `self.rnn(e, h)`) is a forward itself, and
 * the call in this scope is the forward call site: one finding there, not
 * one at each submodule inside. A method that calls `self(x)` (a
 * `validation_step`) or loops over data keeps its own forward. Writes the
 * call as a forward of the receiver into `out`. */
static bool gpu103__forward_method_call(const RuleContext *ctx, const FlatEvent *flat, Event *out) {
  if (!gpu103__through_module_method(ctx, flat) || text_is(flat->event->target, "self")) return false;
  const Facts *facts = ctx->facts;
  uint32_t first, end;
  facts_events_within(facts, flat->anchor, &first, &end);
  if (first >= end || !ts_node_eq(facts->events.contents[first].node, flat->anchor)) return false;
  const Event *call = array_get(&facts->events, first);
  if (call->kind != EV_CALL || call->callee < 0) return false;
  if (facts->functions.contents[call->callee].reaches & (REACH_LOOP | REACH(EV_BACKWARD) | REACH(EV_STEP))) return false;
  *out = *call;
  out->kind = EV_FORWARD;
  out->target = facts_canonical(facts, node_text(ctx->source, call_receiver(flat->anchor)));
  out->weak = flat->event->weak;
  return true;
}

/* The index of the first of `names` that `node`'s text mentions, or -1. */
static int gpu103__mentions_any(const RuleContext *ctx, TSNode node, const Text *names, uint32_t count) {
  Text text = node_text(ctx->source, node);
  for (uint32_t k = 0; k < count; k++) {
    if (text_mentions(text, names[k])) return (int)k;
  }
  return -1;
}

/* What the forward's value flows into within its function: the names it
 * is bound to, values built from them, containers it is stored in (a list
 * holds what was appended, and a stack of the list too). At most 8. */
typedef struct {
  Text names[8];
  bool container[8];
  uint32_t count;
} Kept;

static void gpu103__keep(Kept *kept, Text name, bool container) {
  for (uint32_t k = 0; k < kept->count; k++) {
    if (!text_eq(kept->names[k], name)) continue;
    kept->container[k] |= container; /* rebound from a list that holds it */
    return;
  }
  if (kept->count == 8) return;
  kept->container[kept->count] = container;
  kept->names[kept->count++] = name;
}

/* Keeps the names that assignment `statement` binds. */
static void gpu103__keep_targets(const Facts *facts, TSNode statement, Kept *kept) {
  uint32_t first, end;
  facts_assigns_within(facts, statement, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    if (ts_node_eq(facts->assigns.contents[i].statement, statement)) gpu103__keep(kept, facts->assigns.contents[i].name, false);
  }
}

/* Two steps on from the names bound by the forward's statement. */
static void gpu103__follow(const RuleContext *ctx, const Event *forward, Kept *kept) {
  const Facts *facts = ctx->facts;
  TSNode body = node_field(facts->functions.contents[forward->function].node, F_BODY);
  uint32_t assigns_first, assigns_end, events_first, events_end;
  facts_assigns_within(facts, body, &assigns_first, &assigns_end);
  facts_events_within(facts, body, &events_first, &events_end);
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = assigns_first; i < assigns_end; i++) {
      const Assign *assign = array_get(&facts->assigns, i);
      int by = assign->function == forward->function ? gpu103__mentions_any(ctx, assign->value, kept->names, kept->count) : -1;
      if (by < 0) continue;
      /* `outputs[key] = out`: the value itself goes into the container, whatever flow knows of it */
      bool whole = assign->subscript && text_eq(node_text(ctx->source, assign->value), kept->names[by]);
      /* `acc += (out == y).sum().item()` keeps nothing; `torch.stack(outs)` keeps what the list holds */
      if (!whole && !kept->container[by] && flow_carries(ctx->flow, assign->value, forward->function) == CARRY_NONE) continue;
      gpu103__keep(kept, assign->name, kept->container[by] || whole);
    }
    for (uint32_t i = events_first; i < events_end; i++) {
      const Event *store = array_get(&facts->events, i);
      if (store->kind != EV_STORE || store->function != forward->function) continue;
      TSNode stored = call_positional(store->node, 0);
      if (gpu103__mentions_any(ctx, stored, kept->names, kept->count) >= 0 &&
          flow_carries(ctx->flow, stored, forward->function) != CARRY_NONE) {
        gpu103__keep(kept, store->target, true);
      }
    }
  }
}

/* Whether the forward's result leaves its function through a return
 * (directly, or through what it flows into): a caller elsewhere may train
 * on it (`_compute_loss` over a helper's logits). */
static bool gpu103__returned(const RuleContext *ctx, const Event *forward) {
  const Facts *facts = ctx->facts;
  if (forward->function < 0) return false;
  TSNode statement = ts_node_parent(forward->node);
  for (int steps = 0; steps < 4 && !ts_node_is_null(statement) && !node_is(statement, K_ASSIGNMENT) &&
                      !node_is(statement, K_RETURN_STATEMENT);
       steps++) {
    statement = ts_node_parent(statement);
  }
  if (node_is(statement, K_RETURN_STATEMENT)) return true;
  if (!node_is(statement, K_ASSIGNMENT)) return false;
  Kept kept = {.count = 0};
  gpu103__keep_targets(facts, statement, &kept);
  gpu103__follow(ctx, forward, &kept);
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *entry = array_get(&facts->returns, i);
    int by = entry->function == forward->function ? gpu103__mentions_any(ctx, entry->value, kept.names, kept.count) : -1;
    if (by >= 0 && (kept.container[by] || flow_carries(ctx->flow, entry->value, forward->function) != CARRY_NONE)) return true;
  }
  return false;
}

/* `for cls in (GCN, GAT): model = cls(16, 2); model(x)`: a module built
 * anew in the loop that runs it is a fresh configuration, not a trained
 * model being evaluated. */
static bool gpu103__built_in_loop(const RuleContext *ctx, const Event *forward, Text module) {
  if (forward->loop < 0) return false;
  const Binding *instance = facts_binding(ctx->facts, BIND_INSTANCE, facts_canonical(ctx->facts, module));
  if (!instance || ts_node_is_null(instance->node)) return false;
  return node_contains(ctx->facts->loops.contents[forward->loop].body, instance->node);
}

/* Whether `body` calls a `.step(...)` that may update a model: any but
 * an environment's (`obs, reward, done, info = env.step(action)`), whose
 * result is unpacked into several names; an optimizer's step returns
 * nothing, or one loss. */
static bool gpu103__steps_something(const RuleContext *ctx, TSNode body) {
  static const char *const STEP[] = {"step", NULL};
  uint32_t end = ts_node_end_byte(body), which;
  for (uint32_t from = ts_node_start_byte(body); from < end;) {
    uint32_t found = source_next_method_name(ctx->source, from, STEP, &which);
    if (found >= end) return false;
    TSNode call = call_of_method_name_at(ctx->root, found + 1, 4);
    TSNode parent = ts_node_is_null(call) ? call : ts_node_parent(call);
    TSNode left = node_is(parent, K_ASSIGNMENT) ? node_field(parent, F_LEFT) : (TSNode){0};
    if (ts_node_is_null(left) || !(node_is(left, K_PATTERN_LIST) || node_is(left, K_TUPLE))) return true;
    from = found + 1;
  }
  return false;
}

/* A loop that runs forwards and nothing that trains: no backward, step or
 * clear through helpers, and no optimizer, scaler or backward named in its
 * body (timm's `loss_scaler(loss, optimizer)` trains without a visible
 * backward). */
static bool gpu103__trains_nothing(const RuleContext *ctx, int32_t loop) {
  const Loop *entry = array_get(&ctx->facts->loops, loop);
  if (entry->reaches & (REACH(EV_BACKWARD) | REACH(EV_STEP) | REACH(EV_CLEAR))) return false;
  Text body = node_text(ctx->source, entry->body);
  return !text_contains_ci(body, "backward") && !text_contains_ci(body, "optim") &&
         !text_contains_ci(body, "scaler") && !gpu103__steps_something(ctx, entry->body);
}

/* `out, hidden = rnn(x, hidden)`: the forward feeds back a state it binds,
 * a recurrent unroll (GPU102's concern when it chains across steps). */
static bool gpu103__feeds_back(const RuleContext *ctx, const Event *forward) {
  TSNode statement = ts_node_parent(forward->node);
  if (!node_is(statement, K_ASSIGNMENT)) return false;
  Text arguments = node_text(ctx->source, node_field(forward->node, F_ARGUMENTS));
  uint32_t first, end;
  facts_assigns_within(ctx->facts, statement, &first, &end);
  if (first > 0 && ts_node_eq(ctx->facts->assigns.contents[first - 1].statement, statement)) first--;
  for (uint32_t i = first; i < end && i < ctx->facts->assigns.size; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (ts_node_eq(assign->statement, statement) && text_mentions(arguments, assign->name)) return true;
  }
  return false;
}

/* `model(x).detach()`, `model(x).item()`: the result is dropped at once
 * (building a style-transfer model, say), so nothing but one step's peak
 * is at stake; the broad route leaves these alone. */
static bool gpu103__stripped_at_once(const RuleContext *ctx, const Event *forward) {
  TSNode parent = ts_node_parent(forward->node);
  if (!node_is(parent, K_ATTRIBUTE)) return false;
  Text attribute = node_text(ctx->source, node_field(parent, F_ATTRIBUTE));
  return text_is(attribute, "detach") || text_is(attribute, "item") || text_is(attribute, "tolist");
}

/* `dist = policy(obs); memory.log_probs.append(dist)`: the result is kept
 * in a container for a later update (a rollout buffer that another method
 * backpropagates), so the graph is wanted. */
static bool gpu103__kept_for_later(const RuleContext *ctx, const Event *forward) {
  TSNode statement = ts_node_parent(forward->node);
  Text kept = {"", 0};
  if (node_is(statement, K_ASSIGNMENT)) kept = node_text(ctx->source, node_field(statement, F_LEFT));
  const Facts *facts = ctx->facts;
  uint32_t first, end;
  TSNode scope = forward->loop >= 0 ? facts->loops.contents[forward->loop].body : forward->node;
  facts_events_within(facts, scope, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *store = array_get(&facts->events, i);
    if (store->kind != EV_STORE || store->function != forward->function) continue;
    TSNode value = call_positional(store->node, 0);
    bool holds = node_contains(store->node, forward->node) ||
                 (kept.length && text_mentions(node_text(ctx->source, value), kept));
    if (holds && flow_carries(ctx->flow, value, forward->function) != CARRY_NONE) return true;
  }
  return false;
}

/* A forward inside a training loop whose result reaches no backward (a
 * validation batch scored between steps without .eval() or no_grad). The
 * loop must itself backpropagate, and the forward must be the loop's own,
 * not one inside a helper. */
static bool gpu103__side_forward(RuleContext *ctx, const FlatEvent *flat) {
  const Event *event = flat->event;
  if (event->loop < 0 || !ts_node_eq(flat->anchor, event->node)) return false;
  const Loop *loop = array_get(&ctx->facts->loops, event->loop);
  if (!(loop->reaches & REACH(EV_BACKWARD))) return false;
  if (gpu103__feeds_back(ctx, event) || gpu103__stripped_at_once(ctx, event)) return false;
  return !flow_node_feeds_backward(ctx->flow, event->node, event->function);
}

/* Code that never trains: a function that reaches no backward or step and
 * is not called from code that does; at module level, a file without any
 * backward or step. Its loops are inference, whatever they iterate. */
static bool gpu103__never_trains(const Facts *facts, int32_t function) {
  uint32_t training = REACH(EV_BACKWARD) | REACH(EV_STEP);
  if (function >= 0) {
    const Function *entry = array_get(&facts->functions, function);
    return !(entry->reaches & training) && !entry->backward_context && !entry->in_module_class;
  }
  return !facts->trains;
}

static bool gpu103__grad_on(const RuleContext *ctx, const FlatEvent *flat, int32_t unit) {
  if (flat->grad_off_on_the_way || facts_grad_mode(ctx->facts, flat->event) != GRAD_ON) return false;
  return ts_node_eq(flat->anchor, flat->event->node) ||
         facts_grad_mode_at(ctx->facts, flat->anchor, unit) == GRAD_ON;
}

static bool gpu103__in_comprehension(TSNode node) {
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    Kind kind = node_kind(at);
    if (kind == K_LIST_COMPREHENSION || kind == K_GENERATOR_EXPRESSION) return true;
    if (kind == K_FUNCTION_DEFINITION || kind == K_LAMBDA) return false;
  }
  return false;
}

/* Whether the forward runs again and again: in a loop or a comprehension,
 * or in a function (or a helper on the way to it) that is called in a
 * loop, in this file or another. A single forward outside any loop costs
 * one peak, not a pattern. */
static bool gpu103__repeated(const RuleContext *ctx, const FlatEvent *flat) {
  const Facts *facts = ctx->facts;
  if (flat->event->loop >= 0 || gpu103__in_comprehension(flat->event->node)) return true;
  if (flat->event->function >= 0 && facts->functions.contents[flat->event->function].called_in_loop) return true;
  if (ts_node_eq(flat->anchor, flat->event->node)) return false;
  if (gpu103__in_comprehension(flat->anchor)) return true;
  uint32_t first, end; /* the helper call's own event: the first within its node */
  facts_events_within(facts, flat->anchor, &first, &end);
  if (first < end && ts_node_eq(facts->events.contents[first].node, flat->anchor)) return facts->events.contents[first].loop >= 0;
  int32_t unit = facts_function_at(facts, flat->anchor);
  return unit >= 0 && facts->functions.contents[unit].called_in_loop;
}

/* `query = model(q)[0]` once, then `for g in gallery: score(model(g),
 * query)`: a single forward whose result a later loop of the same
 * function reads while it runs more forwards. Its graph stays alive
 * through every pass of that loop, on top of each pass's own. */
static bool gpu103__held_through_loop(const RuleContext *ctx, const Event *forward) {
  const Facts *facts = ctx->facts;
  if (forward->loop >= 0 || forward->function < 0) return false;
  TSNode statement = ts_node_parent(forward->node);
  for (int steps = 0; steps < 4 && !ts_node_is_null(statement) && !node_is(statement, K_ASSIGNMENT); steps++) {
    statement = ts_node_parent(statement);
  }
  if (!node_is(statement, K_ASSIGNMENT)) return false;
  Kept kept = {.count = 0};
  gpu103__keep_targets(facts, statement, &kept);
  for (uint32_t i = 0; kept.count > 0 && i < facts->loops.size; i++) {
    const Loop *loop = array_get(&facts->loops, i);
    if (loop->function != forward->function || loop->parent >= 0 || !(loop->reaches & REACH(EV_FORWARD)) ||
        ts_node_start_byte(loop->node) < ts_node_end_byte(statement)) {
      continue;
    }
    if (gpu103__mentions_any(ctx, loop->body, kept.names, kept.count) >= 0) return true;
  }
  return false;
}

/* ---- Scoring a model the code trains ---------------------------------------------- */

/* An evaluation loop without `.eval()` is reported at default settings
 * only beside the code that trains the same model: that shows both that
 * its forwards build a graph (the model has parameters that train) and
 * that this loop, which trains nothing, only scores it. */

#define GPU103_TRAINS (REACH(EV_BACKWARD) | REACH(EV_STEP))

/* `eval_model` beside `train_model` in the model's own class: the
 * forward runs `self` or a submodule of it, and a method of the same
 * class reaches a backward and a step. */
static bool gpu103__class_trains_itself(const Facts *facts, int32_t function, Text module) {
  if (function < 0 || !text_owns((Text){"self", 4}, module)) return false;
  int32_t owner = facts->functions.contents[function].class_index;
  for (uint32_t i = 0; owner >= 0 && i < facts->functions.size; i++) {
    const Function *method = array_get(&facts->functions, i);
    if (method->class_index == owner && (method->reaches & GPU103_TRAINS) == GPU103_TRAINS) return true;
  }
  return false;
}

/* Whether `call` runs a function that reaches a backward and a step:
 * one of this file, or one of another project file (links.h). */
static bool gpu103__call_trains(const Facts *facts, const Event *call) {
  if (call->kind == EV_CALL && call->callee >= 0) {
    return (facts->functions.contents[call->callee].reaches & GPU103_TRAINS) == GPU103_TRAINS;
  }
  return call->kind == EV_EXTERNAL && (call->reaches & GPU103_TRAINS) == GPU103_TRAINS;
}

/* Whether `call` passes `argument` (an expression's text) positionally. */
static bool gpu103__passes(const Source *source, TSNode call, Text argument) {
  for (uint32_t i = 0; i < call_positional_count(call); i++) {
    if (text_eq(node_text(source, node_unparenthesize(call_positional(call, i))), argument)) return true;
  }
  return false;
}

/* `train_epoch(model, loader, opt)` then `test_epoch(model, loader)`:
 * the module is a parameter of `function`, and a caller in this file
 * passes it the same argument that it hands, in the same function, to a
 * helper that reaches a backward and a step. */
static bool gpu103__caller_trains_argument(const RuleContext *ctx, int32_t function, Text module) {
  const Facts *facts = ctx->facts;
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.') head++;
  int32_t index = -1;
  for (uint32_t i = 0; function >= 0 && i < SUMMARY_MAX_PARAMETERS && index < 0; i++) {
    Text parameter = facts_parameter(facts, function, i);
    if (parameter.length == 0) break;
    if (text_eq(parameter, (Text){module.ptr, head})) index = (int32_t)i;
  }
  for (uint32_t i = 0; index >= 0 && i < facts->events.size; i++) {
    const Event *call = array_get(&facts->events, i);
    if (call->kind != EV_CALL || call->callee != function) continue;
    TSNode value = call_positional(call->node, (uint32_t)index);
    if (ts_node_is_null(value)) continue;
    Text argument = node_text(ctx->source, node_unparenthesize(value));
    for (uint32_t j = 0; j < facts->events.size; j++) {
      const Event *other = array_get(&facts->events, j);
      if (other != call && other->function == call->function && gpu103__call_trains(facts, other) &&
          gpu103__passes(ctx->source, other->node, argument)) {
        return true;
      }
    }
  }
  return false;
}

/* Whether the file hands `name`'s parameters to something
 * (`Adam(model.parameters())`, `chain(enc.parameters(), ...)`): a module
 * with parameters, not a tensor type or a function that a backward's
 * input was computed by. */
static bool gpu103__parameters_used(const RuleContext *ctx, Text name) {
  static const char *const PARAMETERS[] = {"parameters", "named_parameters", NULL};
  uint32_t which;
  for (uint32_t from = 0; from < ctx->source->length;) {
    uint32_t found = source_next_method_name(ctx->source, from, PARAMETERS, &which);
    if (found == UINT32_MAX) return false;
    TSNode call = call_of_method_name_at(ctx->root, found + 1, (uint32_t)strlen(PARAMETERS[which]));
    if (!ts_node_is_null(call) && text_eq(facts_canonical(ctx->facts, node_text(ctx->source, call_receiver(call))), name)) {
      return true;
    }
    from = found + 1;
  }
  return false;
}

/* `def test(): for x, y in test_loader: model(x)` on a module-level
 * `model` that `train()` (or the module's own loop) trains: the function
 * neither binds the name nor takes it as a parameter, the file uses the
 * global's parameters, and a forward of the same global elsewhere in the
 * file feeds a backward. */
static bool gpu103__global_trained_elsewhere(const RuleContext *ctx, const Event *forward, Text module) {
  const Facts *facts = ctx->facts;
  if (forward->function < 0 || text_owns((Text){"self", 4}, module)) return false;
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.' && module.ptr[head] != '[') head++;
  Text name = {module.ptr, head};
  TSNode value;
  for (int32_t at = forward->function; at >= 0; at = facts->functions.contents[at].parent) {
    AssignIter it = facts_assigns(facts, name, at);
    if (assign_iter_next(&it) || facts_parameter_named(facts, at, name, &value)) return false; /* a local */
  }
  AssignIter globals = facts_assigns(facts, name, -1);
  if (!assign_iter_next(&globals) || !gpu103__parameters_used(ctx, facts_canonical(facts, name))) return false;
  Text wanted = facts_canonical(facts, module);
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *other = array_get(&facts->events, i);
    if (other->kind != EV_FORWARD || other->function == forward->function) continue;
    if (text_eq(facts_canonical(facts, other->target), wanted) &&
        flow_node_feeds_backward(ctx->flow, other->node, other->function)) {
      return true;
    }
  }
  return false;
}

/* A scoring loop inside the training loop (`if step % 1000 == 0:` then a
 * loop of test batches): the loop around the outermost loop that trains
 * nothing reaches a backward and a step, and a forward of the same module
 * there, outside the scoring loop, feeds the backward. */
static bool gpu103__enclosing_loop_trains(const RuleContext *ctx, const Event *forward, Text module) {
  const Facts *facts = ctx->facts;
  int32_t scoring = forward->loop;
  while (scoring >= 0 && facts->loops.contents[scoring].parent >= 0 &&
         !(facts->loops.contents[facts->loops.contents[scoring].parent].reaches & GPU103_TRAINS)) {
    scoring = facts->loops.contents[scoring].parent;
  }
  int32_t training = scoring >= 0 ? facts->loops.contents[scoring].parent : -1;
  if (training < 0 || (facts->loops.contents[training].reaches & GPU103_TRAINS) != GPU103_TRAINS) return false;
  Text wanted = facts_canonical(facts, module);
  uint32_t first, end;
  facts_events_within(facts, facts->loops.contents[training].body, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *other = array_get(&facts->events, i);
    if (other->kind != EV_FORWARD || other->function != forward->function ||
        node_contains(facts->loops.contents[scoring].node, other->node)) {
      continue;
    }
    if (text_eq(facts_canonical(facts, other->target), wanted) && flow_node_feeds_backward(ctx->flow, other->node, other->function)) {
      return true;
    }
  }
  return false;
}

/* A forward, in a loop that trains nothing and with no `.eval()` on its
 * module, that scores a model the code beside it trains: the function
 * holding it reaches no backward, step or clear (or, inside a training
 * loop, the scoring loop reaches none, and no backward follows it on the
 * same pass: the caller checks that), its results are not kept for a
 * later update nor returned, and the same model trains in its class, in
 * its caller, or in the loop around it. */
static bool gpu103__scores_trained_model(RuleContext *ctx, const Event *forward, Text module) {
  if (forward->loop < 0 || !gpu103__trains_nothing(ctx, forward->loop) || gpu103__kept_for_later(ctx, forward) ||
      gpu103__returned(ctx, forward) || gpu103__built_in_loop(ctx, forward, module)) {
    return false;
  }
  /* a module whose own forward backpropagates (a MAML learner adapting to each episode) needs grad on */
  int32_t method = flow_forward_method(ctx->facts, forward->node, forward->function);
  if (method >= 0 && (ctx->facts->functions.contents[method].reaches & REACH(EV_BACKWARD))) return false;
  if (gpu103__enclosing_loop_trains(ctx, forward, module)) return true;
  uint32_t training = GPU103_TRAINS | REACH(EV_CLEAR);
  if (forward->function < 0 || (ctx->facts->functions.contents[forward->function].reaches & training)) return false;
  return gpu103__class_trains_itself(ctx->facts, forward->function, module) ||
         gpu103__caller_trains_argument(ctx, forward->function, module) ||
         gpu103__global_trained_elsewhere(ctx, forward, module);
}

/* ---- Inference with loaded weights ------------------------------------------------ */

/* `x, x_h = test()` in the same file, the result shown or scored and
 * never backpropagated: what the function returns trains nothing. Every
 * call of it is in this file (none elsewhere), none hands the result on
 * through its own return, and no backward uses it. */
static bool gpu103__callers_drop_result(RuleContext *ctx, int32_t function) {
  const Facts *facts = ctx->facts;
  if (function < 0) return false;
  const Function *entry = array_get(&facts->functions, function);
  if (entry->callers_elsewhere || entry->call_count == 0) return false;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *call = array_get(&facts->events, i);
    if (call->kind != EV_CALL || call->callee != function) continue;
    TSNode statement = ts_node_parent(call->node);
    if (node_is(statement, K_RETURN_STATEMENT) || !node_is(call->node, K_CALL)) return false;
    if (flow_node_feeds_backward(ctx->flow, call->node, call->function)) return false;
  }
  return true;
}

/* `model = load_model(args, device)`: a call of a function of this file
 * or of another project file that returns a module with trained weights
 * (it loads a state into the module it returns, or returns a load). */
static bool gpu103__loader_call(const RuleContext *ctx, TSNode call) {
  uint32_t first, end;
  facts_events_within(ctx->facts, call, &first, &end);
  if (first >= end || !ts_node_eq(ctx->facts->events.contents[first].node, call)) return false;
  const Event *event = array_get(&ctx->facts->events, first);
  if (event->kind == EV_CALL) return summary_returns_loaded(ctx->facts, event->callee);
  Linked linked;
  return event->kind == EV_EXTERNAL && links_find(ctx->links, NULL, event->target, &linked) && linked.function &&
         (linked.function->reaches & REACH_RETURNS_LOADED);
}

/* Whether `value` is `torch.load(...)` (or `torch.jit.load`), or an entry
 * of what it loaded (`checkpoint["model"]`, `checkpoint` from one). */
static bool gpu103__loaded_value(const RuleContext *ctx, TSNode value, int32_t function, uint32_t before, int depth) {
  value = node_unparenthesize(value);
  if (node_is(value, K_IDENTIFIER) && depth < 3) { /* `decoder = decoder.to(device)`: what it was bound to before */
    const Assign *last = NULL;
    AssignIter it = facts_assigns(ctx->facts, node_text(ctx->source, value), function);
    for (const Assign *assign; (assign = assign_iter_next(&it));) {
      if (ts_node_start_byte(assign->statement) < before && !assign->augmented && !assign->subscript) last = assign;
    }
    return last && !last->unpacked &&
           gpu103__loaded_value(ctx, last->value, function, ts_node_start_byte(last->statement), depth + 1);
  }
  if (node_is(value, K_SUBSCRIPT)) {
    TSNode holder = node_field(value, F_VALUE);
    return node_is(holder, K_IDENTIFIER) && gpu103__loaded_value(ctx, holder, function, before, depth);
  }
  if (!node_is(value, K_CALL)) return false;
  TSNode receiver = call_receiver(value); /* `checkpoint["decoder"].cuda()`, `torch.load(path).eval()` */
  if (!ts_node_is_null(receiver) && roles_returns_receiver(call_method_name(ctx->source, value))) {
    return gpu103__loaded_value(ctx, receiver, function, before, depth);
  }
  if (gpu103__loader_call(ctx, value)) return true;
  char buffer[96];
  const char *callee = facts_qualify(ctx->facts, node_field(value, F_FUNCTION), buffer, sizeof buffer);
  return strcmp(callee, "torch.load") == 0 || strcmp(callee, "torch.jit.load") == 0;
}

static bool gpu103__loaded_weights(const RuleContext *ctx, Text module, int32_t function, TSNode at, int depth);

/* `def generate(decoder, ...)` called as `generate(torch.load(path))` or
 * with a name loaded before the call, in this file: the parameter holds
 * loaded weights on that call. */
static bool gpu103__loaded_argument(const RuleContext *ctx, Text parameter, int32_t function, int depth) {
  int32_t index = -1;
  for (uint32_t i = 0; i < SUMMARY_MAX_PARAMETERS && index < 0; i++) {
    Text name = facts_parameter(ctx->facts, function, i);
    if (name.length == 0) break;
    if (text_eq(name, parameter)) index = (int32_t)i;
  }
  for (uint32_t i = 0; index >= 0 && i < ctx->facts->events.size; i++) {
    const Event *call = array_get(&ctx->facts->events, i);
    if (call->kind != EV_CALL || call->callee != function) continue;
    TSNode value = node_unparenthesize(call_positional(call->node, (uint32_t)index));
    if (ts_node_is_null(value)) continue;
    if (gpu103__loaded_value(ctx, value, call->function, ts_node_start_byte(call->node), 0)) return true;
    if ((node_is(value, K_IDENTIFIER) || node_is(value, K_ATTRIBUTE)) &&
        gpu103__loaded_weights(ctx, node_text(ctx->source, value), call->function, call->node, depth + 1)) {
      return true;
    }
  }
  return false;
}

/* `def greedy_decode(model, src): memory = model.encoder(src) ...` that
 * only this file calls, and from a loop that trains nothing (once per
 * sentence of a translation script): its forwards outside loops of its
 * own repeat once per item too. */
static bool gpu103__called_in_inference_loop(RuleContext *ctx, int32_t function) {
  if (function < 0 || ctx->facts->functions.contents[function].callers_elsewhere) return false;
  for (uint32_t i = 0; i < ctx->facts->events.size; i++) {
    const Event *call = array_get(&ctx->facts->events, i);
    if (call->kind == EV_CALL && call->callee == function && call->loop >= 0 && gpu103__trains_nothing(ctx, call->loop)) {
      return true;
    }
  }
  return false;
}

/* Whether the code before `at` in `function` (the module level for -1)
 * gives `module` trained weights: it binds it from a load (`model =
 * torch.load(path)`, `decoder = checkpoint["decoder"]`) or loads a state
 * into it (`model.load_state_dict(...)`), or a call of the function in
 * this file passes it such a module. Its parameters then require grad
 * as they did in training, and a forward records a graph. */
static bool gpu103__loaded_weights(const RuleContext *ctx, Text module, int32_t function, TSNode at, int depth) {
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.' && module.ptr[head] != '[') head++;
  Text name = facts_canonical(ctx->facts, (Text){module.ptr, head});
  uint32_t before = ts_node_start_byte(at);
  const Assign *last = NULL;
  AssignIter it = facts_assigns(ctx->facts, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (ts_node_start_byte(assign->statement) < before && !assign->augmented && !assign->subscript) last = assign;
  }
  if (last && !last->unpacked &&
      gpu103__loaded_value(ctx, last->value, function, ts_node_start_byte(last->statement), 0)) {
    return true;
  }
  TSNode scope = function >= 0 ? ctx->facts->functions.contents[function].node : ctx->root;
  const Source *source = ctx->source;
  for (uint32_t from = ts_node_start_byte(scope); from < before;) {
    uint32_t which;
    static const char *const LOADS[] = {"load_state_dict", NULL};
    uint32_t found = source_next_method_name(source, from, LOADS, &which);
    if (found >= before) break;
    TSNode call = call_of_method_name_at(ctx->root, found + 1, (uint32_t)strlen(LOADS[which]));
    if (!ts_node_is_null(call) && facts_function_at(ctx->facts, call) == function &&
        text_eq(facts_canonical(ctx->facts, node_text(source, call_receiver(call))), name)) {
      return true;
    }
    from = found + 1;
  }
  return function >= 0 && depth < 2 && !last && gpu103__loaded_argument(ctx, name, function, depth);
}

/* Where the forward runs: in eval mode, in a loop that trains nothing
 * (scoring a model the code beside it trains, or only shaped like
 * evaluation), or in a training loop that does not use it. */
typedef enum {
  IN_EVAL_MODE,
  IN_EVAL_MODE_BY_CALLERS,
  IN_SCORING_LOOP,
  IN_INFERENCE_LOOP,
  IN_EVALUATION_LOOP,
  IN_TRAINING_LOOP
} Context;

/* ---- Fix ----------------------------------------------------------------------------- */

/* Whether `node` holds a string that spans lines: re-indenting it would
 * change the string. */
static bool gpu103__multiline_string(TSNode node) {
  if (node_is(node, K_STRING)) return ts_node_start_point(node).row != ts_node_end_point(node).row;
  for (uint32_t i = 0; i < ts_node_named_child_count(node); i++) {
    if (gpu103__multiline_string(ts_node_named_child(node, i))) return true;
  }
  return false;
}

/* Whether `word` (lower case) starts `text` at `at`, ignoring ASCII case. */
static bool gpu103__word_at(Text text, uint32_t at, const char *word) {
  for (uint32_t i = 0; word[i]; i++) {
    if (at + i >= text.length) return false;
    char c = text.ptr[at + i];
    if ((c >= 'A' && c <= 'Z' ? (char)(c | 0x20) : c) != word[i]) return false;
  }
  return true;
}

/* Whether the code says anything about gradients itself (autograd.grad,
 * requires_grad, a grad-mode decorator or manager): no fix guesses there. */
static bool gpu103__touches_grad(const RuleContext *ctx, TSNode node) {
  static const char *const WORDS[] = {"autograd", "requires_grad", "grad_enabled", "enable_grad", "no_grad",
                                      "inference_mode"};
  Text text = node_text(ctx->source, node);
  for (uint32_t at = 0; at < text.length; at++) { /* one pass for every word: the text can be a whole loop */
    for (size_t w = 0; w < sizeof WORDS / sizeof WORDS[0]; w++) {
      if (gpu103__word_at(text, at, WORDS[w])) return true;
    }
  }
  return false;
}

/* `@torch.no_grad()` above the function's `def` (and its decorators). */
static void gpu103__decorate(const RuleContext *ctx, GlFix *fix, const Function *function) {
  TSNode definition = function->node, parent = ts_node_parent(definition);
  TSNode top = node_is(parent, K_DECORATED_DEFINITION) ? parent : definition;
  Text indent = fix_indent_at(ctx->source, ts_node_start_byte(definition));
  uint32_t at = ts_node_start_byte(top) - indent.length;
  char *line = gl_format("%.*s@torch.no_grad()%s", (int)indent.length, indent.ptr, fix_newline(ctx->source));
  fix_replace(fix, ctx->source, at, at, line);
  free(line);
}

/* `with torch.no_grad():` around the loop, its lines indented one level
 * (blank lines kept as they are). */
static void gpu103__wrap(const RuleContext *ctx, GlFix *fix, TSNode loop) {
  const Source *source = ctx->source;
  Text indent = fix_indent_at(source, ts_node_start_byte(loop)), unit = fix_indent_unit(source, ctx->root);
  uint32_t start = ts_node_start_byte(loop) - indent.length, end = ts_node_end_byte(loop);
  while (end < source->length && source->bytes[end] != '\n') end++;
  const char *newline = fix_newline(source);
  Array(char) text = array_new();
  char *header = gl_format("%.*swith torch.no_grad():%s", (int)indent.length, indent.ptr, newline);
  for (const char *c = header; *c; c++) array_push(&text, *c);
  free(header);
  for (uint32_t at = start; at < end;) {
    uint32_t line_end = at;
    while (line_end < end && source->bytes[line_end] != '\n') line_end++;
    bool blank = true;
    for (uint32_t i = at; i < line_end && blank; i++) blank = source->bytes[i] == ' ' || source->bytes[i] == '\t' || source->bytes[i] == '\r';
    for (uint32_t i = 0; !blank && i < unit.length; i++) array_push(&text, unit.ptr[i]);
    for (uint32_t i = at; i < line_end; i++) array_push(&text, source->bytes[i]);
    if (line_end < end) array_push(&text, '\n');
    at = line_end + 1;
  }
  array_push(&text, '\0');
  fix_replace(fix, source, start, end, text.contents);
  array_delete(&text);
}

/* The outermost loop around `event` in its function that trains nothing,
 * or a null node. */
static TSNode gpu103__evaluation_loop(const RuleContext *ctx, const Event *event) {
  TSNode found = {0};
  for (int32_t at = event->loop; at >= 0; at = ctx->facts->loops.contents[at].parent) {
    const Loop *loop = array_get(&ctx->facts->loops, at);
    if (loop->reaches & GPU103_TRAINS) break;
    found = loop->node;
  }
  return found;
}

/* Fix (safe: nothing in the wrapped code trains or asks for gradients, so
 * no result changes; only the graph is not recorded): `@torch.no_grad()`
 * on a function that trains nothing, else `with torch.no_grad():` around
 * the outermost loop that trains nothing; `import torch` when missing. */
static void gpu103__fix(RuleContext *ctx, GlFinding *finding, const Event *forward) {
  GlFix *fix = fix_new(finding, GL_FIX_SAFE, "Run it under `torch.no_grad()`");
  const Function *function = forward->function >= 0 ? array_get(&ctx->facts->functions, forward->function) : NULL;
  TSNode loop = gpu103__evaluation_loop(ctx, forward);
  bool decorate = function && !(function->reaches & GPU103_TRAINS) && !function->in_module_class &&
                  !gpu103__touches_grad(ctx, ts_node_parent(function->node));
  if (decorate) {
    gpu103__decorate(ctx, fix, function);
  } else if (!ts_node_is_null(loop) && !gpu103__multiline_string(loop) && !gpu103__touches_grad(ctx, loop)) {
    gpu103__wrap(ctx, fix, loop);
  } else {
    gl_fix_delete(fix);
    finding->fix = NULL;
    return;
  }
  fix_import_torch(fix, ctx->facts);
  fix_finish(finding);
}

/* ---- Reporting ---------------------------------------------------------------------- */

static GlFinding *gpu103__report(RuleContext *ctx, const FlatEvent *flat, Text module, Context context) {
  const Event *forward = flat->event;
  static const char *const WHERE[] = {
      [IN_EVAL_MODE] = "runs in eval mode with grad on and no backward",
      [IN_EVAL_MODE_BY_CALLERS] = "runs with grad on, in eval mode set by callers in other files",
      [IN_SCORING_LOOP] = "runs with grad on in a scoring loop beside its training",
      [IN_INFERENCE_LOOP] = "runs its loaded weights with grad on in a loop of code that never trains",
      [IN_EVALUATION_LOOP] = "runs with grad on in a loop that trains nothing",
      [IN_TRAINING_LOOP] = "runs with grad on in a training loop, but no backward uses it"};
  const char *where = WHERE[context];
  /* a forward whose result is dropped outside any loop (a warm-up) costs one peak per call */
  bool dropped = forward->loop < 0 && node_is(ts_node_parent(forward->node), K_EXPRESSION_STATEMENT);
  /* without an .eval(), only the loop's shape says it evaluates: in the blind
   * reviews those findings were false or ambiguous more often than real */
  bool shape_only = context == IN_EVALUATION_LOOP || context == IN_TRAINING_LOOP;
  /* a loaded value that the code calls is a module: the load is the evidence */
  bool weak = forward->weak && context != IN_INFERENCE_LOOP;
  bool repeated = gpu103__repeated(ctx, flat) || (context == IN_EVAL_MODE && gpu103__held_through_loop(ctx, forward));
  Basis basis = {.name_only = weak || dropped || shape_only || !repeated,
                 .detail = GPU103_DETAIL};
  Shown shown;
  rule_shown(module.ptr, module.length, RULE_SHOWN_MAX, &shown);
  return rule_report_on(ctx, forward->node, GL_EFFECT_PEAK, basis, "`%s` %s; use `torch.no_grad()`",
                        shown.text, where);
}

/* The parameters that every caller in the project's other files has put
 * in eval mode before the call (`model.eval(); evaluate(model, loader)`
 * in train.py), and for a module's method the module itself when every
 * caller runs it on an instance in eval mode (`model.eval();
 * model.evaluate_ppl(dev)`): the function starts with them in eval mode. */
static void gpu103__modes_from_callers(const RuleContext *ctx, int32_t unit, Modes *modes) {
  if (unit < 0) return;
  const Function *function = array_get(&ctx->facts->functions, unit);
  for (uint32_t i = 0; i < SUMMARY_MAX_PARAMETERS && function->eval_parameters; i++) {
    if (function->eval_parameters & (1u << i)) gpu103__set(modes, facts_parameter(ctx->facts, unit, i), true, function->node);
  }
  if (function->eval_self && function->in_module_class) modes->self_switch = function->node;
}

/* ---- Helpers of other files -------------------------------------------------------- */

/* The module a call of another file's helper runs: the receiver of a
 * method of a project class (`agent.act(obs)`, *argument -1), or the first
 * positional argument that is a module by evidence (`forward_batch(model,
 * batch)`); an empty text when none is shown to be one. */
static Text gpu103__external_module(const RuleContext *ctx, const Event *call, int *argument) {
  TSNode receiver = call_receiver(call->node);
  char method[256];
  if (!ts_node_is_null(receiver) && facts_instance_method(ctx->facts, call->node, method, sizeof method)) {
    Text module = node_text(ctx->source, receiver);
    *argument = -1;
    return roles_module(ctx->facts, module, call->function) == ROLE_EVIDENCE ? module : (Text){"", 0};
  }
  for (uint32_t i = 0; i < call_positional_count(call->node) && i < SUMMARY_MAX_PARAMETERS; i++) {
    TSNode value = node_unparenthesize(call_positional(call->node, i));
    if (!node_is(value, K_IDENTIFIER) && !node_is(value, K_ATTRIBUTE)) continue;
    Text module = node_text(ctx->source, value);
    if (roles_module(ctx->facts, module, call->function) != ROLE_EVIDENCE) continue;
    *argument = (int)i;
    return module;
  }
  return (Text){"", 0};
}

/* Whether the helper's own file reports its forward: every caller in the
 * project puts the module in eval mode first (its page's "eval mode set
 * by callers"). */
static bool gpu103__callee_reports(const RuleContext *ctx, const Linked *linked, int argument) {
  Text name = {linked->function->name, (uint32_t)strlen(linked->function->name)};
  Callers callers = links_callers_of(ctx->links, linked->summary, name);
  return argument < 0 ? callers.eval_receiver : (callers.eval_parameters >> argument) & 1u;
}

/* `net.forward_local(x)` on an instance of a project module class whose
 * method runs the class's own layers with grad on outside any loop of its
 * own (REACH_GRAD_ON_OWN_LAYERS): a custom forward of the module, so the
 * call is the forward call site. */
static bool gpu103__own_layers_method(RuleContext *ctx, const Linked *linked, int argument) {
  if (argument >= 0 || !(linked->function->reaches & REACH_GRAD_ON_OWN_LAYERS)) return false;
  const char *dot = strrchr(linked->function->name, '.');
  if (!dot) return false;
  const SummaryClass *class_ =
      summary_class(linked->summary, linked->function->name, (uint32_t)(dot - linked->function->name));
  return class_ && links_class_is_module(ctx->links, linked->summary, class_);
}

/* `agent.act(obs)` or `forward_batch(model, batch)` of another project
 * file, called here on a module put in eval mode, with grad on, in a
 * loop, and no backward after it: the helper runs the forward with grad
 * on (it serves training too, so it is reported at this call; when every
 * caller evaluates, the helper's own file reports it instead, unless the
 * helper is a custom forward of the module's class: then the call is the
 * forward and is reported here). */
static void gpu103__check_external(RuleContext *ctx, const FlatEvents *events, uint32_t at, const Modes *modes, int32_t unit) {
  const FlatEvent *flat = array_get(events, at);
  const Event *call = flat->event;
  uint32_t training = REACH(EV_BACKWARD) | REACH(EV_STEP) | REACH(EV_CLEAR);
  if (!(call->reaches & (REACH_GRAD_ON_FORWARD | REACH_GRAD_ON_OWN_LAYERS)) || (call->reaches & training) ||
      !ts_node_eq(flat->anchor, call->node)) {
    return;
  }
  int argument = -1;
  Text module = gpu103__external_module(ctx, call, &argument);
  if (module.length == 0 || roles_frozen(ctx->facts, module)) return;
  TSNode eval_switch = gpu103__switch_reaching(ctx, gpu103__eval_switch(modes, module), module, unit, flat->anchor);
  if (ts_node_is_null(eval_switch) || !node_is(eval_switch, K_CALL)) return;
  if (gpu103__backward_after(ctx->source, events, at, eval_switch) || !gpu103__grad_on(ctx, flat, unit)) return;
  if (!gpu103__repeated(ctx, flat) || gpu103__returned(ctx, call) || node_expects_error(ctx->source, call->node)) return;
  Linked linked;
  if (!links_find(ctx->links, NULL, call->target, &linked) || !linked.function) return;
  bool own_layers = gpu103__own_layers_method(ctx, &linked, argument);
  if (!own_layers && (!(call->reaches & REACH_GRAD_ON_FORWARD) || gpu103__callee_reports(ctx, &linked, argument))) return;
  Shown shown, callee;
  rule_shown(module.ptr, module.length, RULE_SHOWN_MAX, &shown);
  Text called = call_function_text(ctx->source, call->node);
  rule_shown(called.ptr, called.length, RULE_SHOWN_MAX, &callee);
  Basis basis = {.linked = &linked, .detail = GPU103_DETAIL};
  rule_report_on(ctx, call->node, GL_EFFECT_PEAK, basis,
                 "`%s` runs `%s` in eval mode with grad on, never backpropagated; run it under `torch.no_grad()`",
                 callee.text, shown.text);
}

/* A layer of a custom forward (`def forward_local(self, x): return
 * self.local_net(x)`), outside any loop of the method, in eval mode that
 * its callers in other files set: each caller's call is the forward call
 * site and is reported there (gpu103__check_external), not here. */
static bool gpu103__callers_report(const RuleContext *ctx, const FlatEvent *flat, const Modes *modes, TSNode eval_switch,
                                   int32_t unit) {
  if (unit < 0 || ts_node_is_null(eval_switch) || !ts_node_eq(eval_switch, modes->self_switch)) return false;
  if (flat->event->loop >= 0) return false;
  if (!ts_node_eq(flat->anchor, flat->event->node)) {
    uint32_t first, end; /* the method call's own event: the first within its node */
    facts_events_within(ctx->facts, flat->anchor, &first, &end);
    if (first >= end || ctx->facts->events.contents[first].loop >= 0) return false;
  }
  return summary_runs_own_layers(ctx->facts, unit);
}

static void gpu103__check_scope(RuleContext *ctx, int32_t unit, TSNode scope) {
  FlatEvents events = array_new();
  facts_flatten(ctx->facts, unit, scope, &events);
  Modes modes = {0};
  gpu103__modes_from_callers(ctx, unit, &modes);
  TSNode method_anchor = {0};
  for (uint32_t i = 0; i < events.size; i++) {
    const FlatEvent *flat = array_get(&events, i);
    const Event *event = flat->event;
    if (event->kind == EV_EVAL || event->kind == EV_TRAIN) {
      gpu103__set(&modes, event->target, event->kind == EV_EVAL, flat->anchor);
      Text switched[8]; /* `for name in nets: nets[name].eval()` switches every entry of `nets` */
      bool entries;
      uint32_t count = facts_switched_entries(ctx->facts, event->node, event->target, switched, 8, &entries);
      for (uint32_t k = 0; k < count; k++) gpu103__set(&modes, switched[k], event->kind == EV_EVAL, flat->anchor);
    }
    if (event->kind == EV_EXTERNAL) gpu103__check_external(ctx, &events, i, &modes, unit);
    if (event->kind != EV_FORWARD) continue;
    const FlatEvent *reached = flat; /* the grad mode is asked of the forward as the facts hold it */
    FlatEvent as_call;
    Event method_call; /* a copy with the call's place: never handed to facts_* */
    if (gpu103__forward_method_call(ctx, flat, &method_call)) {
      if (ts_node_eq(flat->anchor, method_anchor)) continue; /* one finding per call of the method */
      method_anchor = flat->anchor;
      as_call = (FlatEvent){&method_call, flat->anchor, flat->grad_off_on_the_way, flat->in_closure};
      flat = &as_call;
      event = flat->event;
    }
    Text module = gpu103__module(ctx, flat);
    bool in_loop = event->loop >= 0, over_data = in_loop && facts_loop_iterates_data(ctx->facts, event->loop);
    TSNode eval_switch = gpu103__switch_reaching(ctx, gpu103__eval_switch(&modes, module), module, unit, flat->anchor);
    if (gpu103__callers_report(ctx, flat, &modes, eval_switch, unit)) continue;
    bool loop_evaluates = !gpu103__test_code(ctx, event->function) &&
                          ((in_loop && gpu103__evaluation_function(ctx->facts, event->function)) ||
                          (over_data && gpu103__test_function(ctx->facts, event->function)) ||
                          (in_loop && gpu103__trains_nothing(ctx, event->loop) && !gpu103__kept_for_later(ctx, event) &&
                           !gpu103__built_in_loop(ctx, event, module) && !facts_loop_over_modules(ctx->facts, event->loop) &&
                           !gpu103__returned(ctx, event) &&
                           (over_data || (gpu103__never_trains(ctx->facts, event->function) &&
                                          !gpu103__test_function(ctx->facts, event->function) &&
                                          !gpu103__feeds_back(ctx, event) && !gpu103__stripped_at_once(ctx, event)))));
    /* without an .eval(), a scoring loop inside a training loop is evaluation too when the code shows it */
    bool scoring = ts_node_is_null(eval_switch) && in_loop && !gpu103__test_code(ctx, event->function) &&
                   gpu103__scores_trained_model(ctx, event, module);
    loop_evaluates |= scoring;
    /* without an .eval(), a loop of code that never trains runs inference on the weights it loaded
     * (a recurrent state fed back there is a generation's, not a training unroll's) */
    bool inference = !scoring && ts_node_is_null(eval_switch) && !gpu103__test_code(ctx, event->function) &&
                     gpu103__never_trains(ctx->facts, event->function) &&
                     (in_loop ? gpu103__trains_nothing(ctx, event->loop) && !gpu103__built_in_loop(ctx, event, module) &&
                                    !facts_loop_over_modules(ctx->facts, event->loop)
                              : gpu103__called_in_inference_loop(ctx, event->function)) &&
                     !gpu103__kept_for_later(ctx, event) &&
                     (!gpu103__returned(ctx, event) || gpu103__callers_drop_result(ctx, event->function)) &&
                     gpu103__loaded_weights(ctx, module, event->function, flat->anchor, 0);
    loop_evaluates |= inference;
    bool evaluating = !ts_node_is_null(eval_switch) || loop_evaluates;
    /* A side forward is told by where its value goes, not by what runs after it. */
    bool side = !evaluating && gpu103__side_forward(ctx, flat);
    bool unused = side || (evaluating && !gpu103__backward_after(ctx->source, &events, i, eval_switch));
    if (unused && !roles_frozen(ctx->facts, module) && gpu103__grad_on(ctx, reached, unit) &&
        !node_expects_error(ctx->source, event->node)) {
      Context context = scoring                           ? IN_SCORING_LOOP
                        : inference                        ? IN_INFERENCE_LOOP
                        : ts_node_is_null(eval_switch)     ? (evaluating ? IN_EVALUATION_LOOP : IN_TRAINING_LOOP)
                        : node_is(eval_switch, K_CALL) ? IN_EVAL_MODE
                                                       : IN_EVAL_MODE_BY_CALLERS; /* the function's own def */
      GlFinding *finding = gpu103__report(ctx, flat, module, context);
      if (finding && ts_node_eq(flat->anchor, event->node)) gpu103__fix(ctx, finding, event);
    }
  }
  array_delete(&events);
}

static void gpu103_check(RuleContext *ctx) {
  gpu103__check_scope(ctx, -1, ctx->root);
  for (uint32_t i = 0; i < ctx->facts->functions.size; i++) {
    const Function *function = array_get(&ctx->facts->functions, i);
    if (function->reaches & REACH(EV_FORWARD)) gpu103__check_scope(ctx, (int32_t)i, function->node);
  }
}

const Rule GPU103_EVAL_WITHOUT_NO_GRAD = {
    .info =
        {
            .code = "GPU103",
            .name = "eval-without-no-grad",
            .summary = "A model in eval mode runs forward passes with grad enabled and no backward.",
            .fix_hint = "Wrap evaluation in `with torch.no_grad():` or `torch.inference_mode()`.",
            .effect = GL_EFFECT_PEAK,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = true,
        },
    .check = gpu103_check,
};
