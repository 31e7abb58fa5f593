/* GPU104 retain-graph-in-loop
 *
 *   for x, y in loader:
 *       loss = criterion(model(x), y)
 *       optimizer.zero_grad()
 *       loss.backward(retain_graph=True)      <- reported: nothing uses the graph again
 *       optimizer.step()
 *
 * A backward with `retain_graph=True` (a tensor's `.backward()`,
 * `torch.autograd.backward`, `torch.autograd.grad`, `accelerator.backward`,
 * Lightning's `manual_backward`) that is the last backward of a per-step
 * iteration: no backward after it in the loop body, counting helpers the
 * body calls. The loop is per step when it iterates data or runs an
 * optimizer step; a backward in a loopless helper counts for each loop
 * that calls it, and Lightning's `training_step` is an iteration of its
 * own. The graph it keeps is used by nothing in the iteration,
 * so its saved activations stay alive until the next iteration rebinds the
 * loss, and for good when something keeps the loss (a list, an undetached
 * recurrent state).
 *
 * A later backward whose loss is computed anew after it (the generator's
 * loss from a second forward of both networks) does not run through the
 * retained graph, so it does not need it.
 *
 * A backward in an inner loop that neither iterates data nor steps
 * (`for head in heads:` over one shared forward) inside a per-step loop
 * needs the graph on every pass but the last, which keeps it into the
 * next step: reported, without a fix (`retain_graph=i < len(heads) - 1`).
 *
 * Not reported: `retain_graph=True` followed by another backward in the
 * same iteration that can run through its graph (several losses over one
 * graph, GAN updates, gradient penalties), a loop of backwards in no
 * per-step loop (saliency over classes), `retain_graph=` anything but the
 * literal True. */
#include <stdlib.h>
#include <string.h>

#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU104_DETAIL                                                                                             \
  "retain_graph=True keeps the graph's saved activations after the backward; with no later backward in the "    \
  "iteration nothing needs them, and they stay alive until the loss is rebound in the next iteration (or for "   \
  "good, if the loss or a recurrent state that depends on it is kept). Measured on an H100 (PyTorch 2.11, "      \
  "8x1024 MLP, batch 16384): peak memory 1249 MB against 869 MB (1.44x; 1.49x in a second run), 705 MB held "    \
  "between steps against 193 MB; with every loss also kept in a list (6x1024 MLP), memory grew 48.0 MB per "     \
  "step against 0.0 with a plain backward."

#define GPU104_STEP_LOOP (REACH(EV_STEP))

/* ---- The backward ------------------------------------------------------------------ */

/* The `retain_graph=True` keyword argument of `call`, or a null node. */
static TSNode gpu104__retain_keyword(const RuleContext *ctx, TSNode call) {
  TSNode value = call_keyword(ctx->source, call, "retain_graph");
  if (ts_node_is_null(value) || !node_is(node_unparenthesize(value), K_TRUE)) return (TSNode){0};
  return ts_node_parent(value);
}

/* ---- The iteration -------------------------------------------------------------- */

/* Whether `loop` runs once per training step: it iterates data or reaches
 * an optimizer step. */
static bool gpu104__per_step(const Facts *facts, int32_t loop) {
  return (facts->loops.contents[loop].reaches & GPU104_STEP_LOOP) || facts_loop_iterates_data(facts, loop);
}

/* ---- A later backward over a graph of its own ---------------------------------- */

#define GPU104_FRESH_DEPTH 8

/* The names whose graphs the retained backward's loss holds: the names
 * its expression reads, and theirs through their assignments before it
 * in the same function, except through `.detach()` or `.data`, which cut
 * the graph (`disc(fake.detach())` holds nothing of `fake`). A name
 * rebound from itself (`real = real.cuda()`) is listed once, and its
 * older value is followed. */
typedef struct {
  Array(Text) names;
} Gpu104Held;

static bool gpu104__held_lists(const Gpu104Held *held, Text name) {
  for (uint32_t i = 0; i < held->names.size; i++) {
    if (text_eq(held->names.contents[i], name)) return true;
  }
  return false;
}

/* Whether `call` cuts the graph of what it is called on: `x.detach()`. */
static bool gpu104__cuts(const RuleContext *ctx, TSNode call) {
  Text method = call_method_name(ctx->source, call);
  return text_is(method, "detach") || text_is(method, "item") || text_is(method, "tolist");
}

static void gpu104__collect_held(const RuleContext *ctx, TSNode expression, int32_t function, Gpu104Held *held,
                                 int depth) {
  if (depth > GPU104_FRESH_DEPTH || ts_node_is_null(expression)) return;
  if (node_is(expression, K_IDENTIFIER) || node_is(expression, K_ATTRIBUTE)) {
    if (node_is(expression, K_ATTRIBUTE) && text_is(node_text(ctx->source, node_field(expression, F_ATTRIBUTE)), "data")) {
      return;
    }
    Text name = node_text(ctx->source, expression);
    if (gpu104__held_lists(held, name)) return;
    array_push(&held->names, name);
    uint32_t at = ts_node_start_byte(expression);
    const Assign *bound = facts_assign_last_before(ctx->facts, name, function, at, facts_plain_assign);
    if (bound && at < ts_node_end_byte(bound->statement)) { /* `real = real.cuda()`: the older `real` */
      bound = facts_assign_last_before(ctx->facts, name, function, ts_node_start_byte(bound->statement),
                                       facts_plain_assign);
    }
    if (bound) gpu104__collect_held(ctx, bound->value, function, held, depth + 1);
    if (node_is(expression, K_ATTRIBUTE)) gpu104__collect_held(ctx, node_field(expression, F_OBJECT), function, held, depth + 1);
    return;
  }
  TSNode callee = node_is(expression, K_CALL) ? node_field(expression, F_FUNCTION) : (TSNode){0};
  if (!ts_node_is_null(callee) && gpu104__cuts(ctx, expression)) return;
  for (uint32_t i = 0; i < ts_node_named_child_count(expression); i++) {
    TSNode child = ts_node_named_child(expression, i);
    if (ts_node_eq(child, callee)) { /* only a method's receiver is a value (`out.mean()`) */
      if (node_is(child, K_ATTRIBUTE)) gpu104__collect_held(ctx, node_field(child, F_OBJECT), function, held, depth);
      continue;
    }
    if (node_is(child, K_KEYWORD_ARGUMENT)) child = node_field(child, F_VALUE);
    gpu104__collect_held(ctx, child, function, held, depth);
  }
}

static bool gpu104__fresh_graph(const RuleContext *ctx, TSNode expression, int32_t function, uint32_t retained_end,
                                const Gpu104Held *held, int depth);

/* Whether the value of `name`, read at byte `at`, holds no part of a graph
 * that the retained backward (ending at `retained_end`, its loss holding
 * `held`) kept: it was bound after that backward (from values that
 * themselves hold none), or it carries no graph at all (the batch, a
 * noise input), or it was bound before it from values the retained loss
 * does not hold (`fake = netG(z)` that the discriminator's loss read only
 * as `fake.detach()`). */
static bool gpu104__fresh_name(const RuleContext *ctx, Text name, int32_t function, uint32_t at, uint32_t retained_end,
                               const Gpu104Held *held, int depth) {
  const Assign *bound = facts_assign_last_before(ctx->facts, name, function, at, facts_plain_assign);
  if (bound && at < ts_node_end_byte(bound->statement)) return false; /* `x = x + 1`: the older x, unknown here */
  if (bound && ts_node_start_byte(bound->statement) >= retained_end) {
    return gpu104__fresh_graph(ctx, bound->value, function, retained_end, held, depth + 1);
  }
  if (flow_name_carries(ctx->flow, name, function, at) == CARRY_NONE) return true;
  if (!bound || gpu104__held_lists(held, name)) return false;
  return gpu104__fresh_graph(ctx, bound->value, function, retained_end, held, depth + 1);
}

/* Whether `expression` is computed only from values that hold no part of
 * the graph the retained backward kept (gpu104__fresh_name): so a
 * backward through it runs over a graph of its own (`fake = netG(z)`
 * computed anew for the generator's loss after the discriminator's
 * retained backward). The names of called functions and modules are not
 * values (their parameters are leaves, shared by every graph). */
static bool gpu104__fresh_graph(const RuleContext *ctx, TSNode expression, int32_t function, uint32_t retained_end,
                                const Gpu104Held *held, int depth) {
  if (depth > GPU104_FRESH_DEPTH || ts_node_is_null(expression)) return false;
  if (node_is(expression, K_IDENTIFIER)) {
    return gpu104__fresh_name(ctx, node_text(ctx->source, expression), function, ts_node_start_byte(expression),
                              retained_end, held, depth);
  }
  if (node_is(expression, K_ATTRIBUTE)) { /* `self.fake`, `out.logits`: a stored value's history is unknown */
    TSNode object = node_field(expression, F_OBJECT);
    return node_is(object, K_IDENTIFIER) && !text_is(node_text(ctx->source, object), "self") &&
           gpu104__fresh_graph(ctx, object, function, retained_end, held, depth);
  }
  TSNode callee = node_is(expression, K_CALL) ? node_field(expression, F_FUNCTION) : (TSNode){0};
  for (uint32_t i = 0; i < ts_node_named_child_count(expression); i++) {
    TSNode child = ts_node_named_child(expression, i);
    if (ts_node_eq(child, callee)) {
      /* `netD(x)`, `criterion(a, b)`: only a method's receiver is a value (`fake.mean()`) */
      if (node_is(child, K_ATTRIBUTE) && !gpu104__fresh_graph(ctx, node_field(child, F_OBJECT), function,
                                                             retained_end, held, depth)) {
        return false;
      }
      continue;
    }
    if (node_is(child, K_KEYWORD_ARGUMENT)) child = node_field(child, F_VALUE);
    if (!gpu104__fresh_graph(ctx, child, function, retained_end, held, depth)) return false;
  }
  return true;
}

/* The tensor a backward call runs from: `loss` of `loss.backward()`, the
 * first argument of `torch.autograd.backward(loss)` or
 * `accelerator.backward(loss)`. */
static TSNode gpu104__backward_root(const RuleContext *ctx, TSNode call) {
  TSNode callee = node_field(call, F_FUNCTION);
  if (node_is(callee, K_ATTRIBUTE) && text_is(node_text(ctx->source, node_field(callee, F_ATTRIBUTE)), "backward") &&
      call_positional_count(call) == 0) {
    return node_field(callee, F_OBJECT);
  }
  return call_positional(call, 0);
}

/* Whether `later`, a backward after the retained one in the same
 * function, runs only over a graph the retained one did not keep. */
static bool gpu104__over_fresh_graph(const RuleContext *ctx, const Event *retained, const Event *later) {
  if (later->function != retained->function) return false;
  Gpu104Held held = {array_new()};
  gpu104__collect_held(ctx, gpu104__backward_root(ctx, retained->node), retained->function, &held, 0);
  bool fresh = gpu104__fresh_graph(ctx, gpu104__backward_root(ctx, later->node), later->function,
                                   ts_node_end_byte(retained->node), &held, 0);
  array_delete(&held.names);
  return fresh;
}

/* Whether a backward other than `backward` can run after it through its
 * graph when `scope` (a loop body, or a step method's body) of `function`
 * runs once, counting the helpers it calls; not one in the other branch of
 * an `if` (`if debug: ...retain... else: loss.backward()`), nor one over a
 * graph computed anew after it. */
static bool gpu104__later_backward(const RuleContext *ctx, int32_t function, TSNode scope, const Event *backward) {
  FlatEvents flat = array_new();
  facts_flatten(ctx->facts, function, scope, &flat);
  const FlatEvent *seen = NULL;
  bool later = false;
  for (uint32_t i = 0; i < flat.size && !later; i++) {
    const FlatEvent *event = array_get(&flat, i);
    if (event->event == backward) {
      seen = event;
    } else if (seen && event->event->kind == EV_BACKWARD) {
      bool together = event->event->function == seen->event->function;
      later = !facts_exclusive(together ? seen->event->node : seen->anchor, together ? event->event->node : event->anchor) &&
              !gpu104__over_fresh_graph(ctx, backward, event->event);
    }
  }
  array_delete(&flat);
  return later;
}

/* Whether a backward after the loop, in its function, can run through
 * the graphs the loop retained: the loop binds a name that the code after
 * it reads up to that backward (`params` adapted step by step in an inner
 * loop, then a meta-loss on them backpropagated once). */
static bool gpu104__needed_after_loop(const Facts *facts, const Loop *loop) {
  uint32_t end = ts_node_end_byte(loop->node);
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *later = array_get(&facts->events, i);
    if (later->kind != EV_BACKWARD || later->function != loop->function || ts_node_start_byte(later->node) < end) continue;
    Text after = {facts->source->bytes + end, ts_node_end_byte(later->node) - end};
    for (uint32_t j = 0; j < facts->assigns.size; j++) {
      const Assign *assign = array_get(&facts->assigns, j);
      if (assign->subscript || !node_contains(loop->body, assign->statement)) continue;
      if (text_mentions(after, assign->name)) return true;
    }
  }
  return false;
}

static bool gpu104__last_in_loop(const RuleContext *ctx, int32_t loop, const Event *backward) {
  const Facts *facts = ctx->facts;
  const Loop *iteration = array_get(&facts->loops, loop);
  return gpu104__per_step(facts, loop) && !gpu104__later_backward(ctx, iteration->function, iteration->body, backward) &&
         !gpu104__needed_after_loop(facts, iteration);
}

/* `for loss in losses: loss.backward(retain_graph=True)` inside a
 * per-step loop: each pass but the last needs the graph again, the last
 * keeps it into the next step. Whether `backward` sits in a loop that is
 * no step of its own (over losses, heads, groups of losses) inside one
 * that is, with no later backward through its graph in that step, and
 * nothing after the inner loop that needs what it retained. */
static bool gpu104__last_pass(const RuleContext *ctx, const Event *backward) {
  const Facts *facts = ctx->facts;
  int32_t inner = backward->loop;
  if (inner < 0 || gpu104__per_step(facts, inner)) return false;
  int32_t step = facts->loops.contents[inner].parent;
  while (step >= 0 && !gpu104__per_step(facts, step)) step = facts->loops.contents[step].parent;
  if (step < 0) return false;
  const Loop *iteration = array_get(&facts->loops, step);
  return !gpu104__later_backward(ctx, iteration->function, iteration->body, backward) &&
         !gpu104__needed_after_loop(facts, array_get(&facts->loops, inner)) && !gpu104__needed_after_loop(facts, iteration);
}

/* Whether `function` is a step method a framework calls once per batch
 * (Lightning's `training_step`). */
static bool gpu104__framework_step(const Facts *facts, int32_t function) {
  const Function *method = array_get(&facts->functions, function);
  return method->class_index >= 0 && text_is(method->name, "training_step");
}

/* Whether `backward` is the last backward of a per-step iteration: in its
 * own loop; or, in a loopless helper, in some loop of the file that calls
 * the helper; or in a framework's step method. */
static bool gpu104__last_in_iteration(const RuleContext *ctx, const Event *backward) {
  const Facts *facts = ctx->facts;
  if (backward->loop >= 0) return gpu104__last_in_loop(ctx, backward->loop, backward);
  if (backward->function < 0 || facts->functions.contents[backward->function].has_loop) return false;
  if (gpu104__framework_step(facts, backward->function)) {
    TSNode body = node_field(facts->functions.contents[backward->function].node, F_BODY);
    return !gpu104__later_backward(ctx, backward->function, body, backward);
  }
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *call = array_get(&facts->events, i);
    if (call->kind == EV_CALL && call->callee == backward->function && call->loop >= 0 &&
        gpu104__last_in_loop(ctx, call->loop, backward)) {
      return true;
    }
  }
  return false;
}

/* ---- Fix ------------------------------------------------------------------------------ */

/* Fix: drop the keyword argument, with the comma that joins it to its
 * neighbour. Unsafe: when something does backpropagate through the graph
 * again (a recurrent state carried undetached into the next iteration),
 * the next backward raises instead of growing memory; the real fix there
 * is a `.detach()`. */
static void gpu104__fix(const RuleContext *ctx, GlFinding *finding, TSNode keyword) {
  if (!finding) return;
  TSNode previous = ts_node_prev_named_sibling(keyword), next = ts_node_next_named_sibling(keyword);
  uint32_t start = ts_node_start_byte(keyword), end = ts_node_end_byte(keyword);
  if (!ts_node_is_null(previous)) start = ts_node_end_byte(previous);
  else if (!ts_node_is_null(next)) end = ts_node_start_byte(next);
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Remove `retain_graph=True`");
  fix_replace(fix, ctx->source, start, end, "");
  fix_finish(finding);
}

/* ---- Check ------------------------------------------------------------------------------ */

static void gpu104_check(RuleContext *ctx) {
  const Facts *facts = ctx->facts;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind != EV_BACKWARD) continue;
    TSNode keyword = gpu104__retain_keyword(ctx, event->node);
    if (ts_node_is_null(keyword)) continue;
    if (gpu104__last_in_iteration(ctx, event)) {
      GlFinding *finding = rule_report_on(ctx, event->node, GL_EFFECT_PEAK, (Basis){.detail = GPU104_DETAIL},
                                          "`retain_graph=True`, but no later backward uses this graph: it stays "
                                          "alive into the next step");
      gpu104__fix(ctx, finding, keyword);
    } else if (gpu104__last_pass(ctx, event)) { /* no fix: the other passes need the graph */
      rule_report_on(ctx, event->node, GL_EFFECT_PEAK, (Basis){.detail = GPU104_DETAIL},
                     "`retain_graph=True` on every pass: the last one keeps the graph into the next step; retain "
                     "all but the last");
    }
  }
}

const Rule GPU104_RETAIN_GRAPH_IN_LOOP = {
    .info =
        {
            .code = "GPU104",
            .name = "retain-graph-in-loop",
            .summary = "backward(retain_graph=True) is the last backward of a training iteration: the graph "
                       "outlives the step for nothing.",
            .fix_hint = "Drop retain_graph=True; if a later iteration backpropagates through the graph again, "
                        "detach the state that carries it instead.",
            .effect = GL_EFFECT_PEAK,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = true,
        },
    .check = gpu104_check,
};
