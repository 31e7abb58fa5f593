/* GPU102 hidden-state-not-detached
 *
 *   hidden = model.init_hidden(batch_size)
 *   for x, y in loader:
 *       output, hidden = model(x, hidden)   <- reported: the state carries
 *       loss = criterion(output, y)            every earlier iteration's graph
 *       loss.backward()
 *
 * In a loop, a forward whose argument is a state that the same loop binds
 * from that forward's outputs, with no detach, repackaging or fresh state
 * inside the loop. With a backward in the loop this crashes on the second
 * backward; with grad on and no backward it grows GPU memory. A decoder
 * unrolled over time steps whose loss is backpropagated after the loop is
 * truncated backpropagation done right, and is not reported. */
#include <stdlib.h>
#include <string.h>

#include "rule.h"

/* The findings' details (`--output-format full`), one per variant; the
 * page has the rest. */
#define GPU102_DETAIL_TRAINING                                                                                      \
  "The state still points into the previous iteration's graph, which backward() has freed: the next backward "     \
  "raises \"Trying to backward through the graph a second time\". With retain_graph=True the graph instead grows " \
  "every step, until step() modifies a saved weight in place and backward raises an in-place modification "        \
  "error. Measured on an H200 (PyTorch 2.11, 2-layer LSTM, 1024 units): a crash at iteration 2 either way; "        \
  "detached, it runs with no growth."
#define GPU102_DETAIL_NO_BACKWARD                                                                                   \
  "With grad on and no backward, each iteration's graph is chained to the previous one through the state, and "    \
  "every activation saved for it stays on the GPU. Measured on an H200 (PyTorch 2.11, 2-layer LSTM, 1024 units): " \
  "106 MB per iteration (13.5 MB in a second run), and 0.0 under `torch.no_grad()`."

/* The assignment statement whose right-hand side holds `call`, or null. */
static TSNode gpu102__assignment_of(TSNode call) {
  TSNode at = ts_node_parent(call);
  for (int steps = 0; !ts_node_is_null(at) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    Kind kind = node_kind(at);
    if (kind == K_ASSIGNMENT) return at;
    if (kind == K_EXPRESSION_STATEMENT || kind == K_BLOCK) break;
  }
  return (TSNode){0};
}

/* Whether `value` mentions a name that `statement` binds. */
static bool gpu102__mentions_outputs(const RuleContext *ctx, TSNode value, TSNode statement, int32_t function) {
  Text text = node_text(ctx->source, value);
  for (uint32_t i = 0; i < ctx->facts->assigns.size; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (assign->function == function && ts_node_eq(assign->statement, statement) && text_mentions(text, assign->name)) {
      return true;
    }
  }
  return false;
}

/* Whether a state rebound to `value` starts fresh: detached
 * (`h.detach()`, `repackage_hidden(h)` when that helper detaches), or built
 * anew from something other than the forward's outputs. */
/* h.detach(), h.data, tuple(each.data for each in h), Variable(h.data),
 * or a same-file helper that detaches. */
static bool gpu102__detached(const RuleContext *ctx, TSNode value, int32_t function) {
  Text text = node_text(ctx->source, value);
  if (text_contains_ci(text, "detach") || text_mentions_attribute(text, "data")) return true;
  if (!node_is(value, K_CALL)) return false;
  int32_t helper = facts_resolve_call(ctx->facts, value, function);
  if (helper >= 0) return text_contains_ci(node_text(ctx->source, ctx->facts->functions.contents[helper].node), "detach");
  return text_contains_ci(call_function_text(ctx->source, value), "repackage");
}

/* The nearest if_statement around `node` below `scope`, or a null node. */
static TSNode gpu102__enclosing_if(TSNode node, TSNode scope) {
  for (TSNode at = ts_node_parent(node); !ts_node_is_null(at) && !ts_node_eq(at, scope); at = ts_node_parent(at)) {
    if (node_is(at, K_IF_STATEMENT)) return at;
  }
  return (TSNode){0};
}

/* Whether `block` binds `name` outside any further if within it. */
static bool gpu102__block_binds(const RuleContext *ctx, TSNode block, Text name, int32_t function) {
  uint32_t first, end;
  facts_assigns_within(ctx->facts, block, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (assign->function == function && text_eq(assign->name, name) && !assign->augmented && !assign->subscript &&
        node_contains(block, assign->statement) && !node_under_if(assign->statement, block)) {
      return true;
    }
  }
  return false;
}

/* Whether every branch of `branching` (if, elif..., else) binds `name`:
 * `if vit: out = cat(...) else: out = model(x)` defines it on every path. */
static bool gpu102__bound_on_every_branch(const RuleContext *ctx, TSNode branching, Text name, int32_t function) {
  if (!gpu102__block_binds(ctx, node_field(branching, F_CONSEQUENCE), name, function)) return false;
  bool otherwise = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(branching); i++) {
    TSNode clause = ts_node_named_child(branching, i);
    TSNode block = node_is(clause, K_ELIF_CLAUSE) ? node_field(clause, F_CONSEQUENCE)
                   : node_is(clause, K_ELSE_CLAUSE) ? node_field(clause, F_BODY)
                                                    : (TSNode){0};
    if (ts_node_is_null(block)) continue;
    if (!gpu102__block_binds(ctx, block, name, function)) return false;
    otherwise |= node_is(clause, K_ELSE_CLAUSE);
  }
  return otherwise;
}

/* Whether `node` runs on every pass of the loop: under no if, or in
 * branches that together cover every path and bind `name` on each. */
static bool gpu102__every_pass(const RuleContext *ctx, TSNode node, Text name, const Loop *loop) {
  for (int depth = 0; depth < 8; depth++) {
    if (!node_under_if(node, loop->body)) return true;
    TSNode branching = gpu102__enclosing_if(node, loop->body);
    if (ts_node_is_null(branching) || !gpu102__bound_on_every_branch(ctx, branching, name, loop->function)) return false;
    node = branching;
  }
  return false;
}

/* Whether rebinding the state to `value` at `assign` starts it fresh each
 * iteration: a detach (even under a condition such as `if h is not None`),
 * or a new state built from other values on every path through the body. */
static bool gpu102__fresh(const RuleContext *ctx, const Assign *assign, const Loop *loop, TSNode statement) {
  if (gpu102__detached(ctx, assign->value, loop->function)) return true;
  if (gpu102__mentions_outputs(ctx, assign->value, statement, loop->function)) return false;
  return gpu102__every_pass(ctx, assign->statement, assign->name, loop);
}

/* Whether `assign` runs before `statement` on every pass that runs the
 * statement: an earlier statement of a block that holds it, within the
 * loop body (`d = {"y": y_pred, "x": x}` then `d = post(d)` under the
 * same `if`): the state it feeds is new each time. */
static bool gpu102__bound_just_before(const Assign *assign, TSNode statement, const Loop *loop) {
  TSNode bound = ts_node_parent(assign->statement); /* the expression statement */
  TSNode block = ts_node_parent(bound);
  if (ts_node_start_byte(bound) >= ts_node_start_byte(statement) || !node_contains(loop->body, block)) return false;
  for (TSNode at = statement; !ts_node_is_null(at) && node_contains(loop->body, at); at = ts_node_parent(at)) {
    if (ts_node_eq(ts_node_parent(at), block)) return true;
  }
  return false;
}

/* Whether the loop feeds `name` back from the outputs of the forward bound
 * by `statement` (directly, or rebuilt from them) and never makes it fresh;
 * a target of the loop itself is fresh every iteration. */
static bool gpu102__carried(const RuleContext *ctx, Text name, const Loop *loop, TSNode statement) {
  bool carried = false;
  /* only the loop's own assignments count: those within it, in source order */
  uint32_t first, end;
  facts_assigns_within(ctx->facts, loop->node, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (assign->function != loop->function || !text_eq(assign->name, name)) continue;
    if (ts_node_eq(assign->statement, loop->node)) return false; /* `for x, y in loader:` rebinds it */
    if (!node_contains(loop->body, assign->statement)) continue;
    if (ts_node_eq(assign->statement, statement)) {
      carried = true;
    } else if (gpu102__fresh(ctx, assign, loop, statement)) {
      return false;
    } else if (!gpu102__mentions_outputs(ctx, assign->value, statement, loop->function) &&
               gpu102__bound_just_before(assign, statement, loop)) {
      return false;
    } else if (gpu102__mentions_outputs(ctx, assign->value, statement, loop->function)) {
      carried = true;
    }
  }
  return carried;
}

/* Whether the model hands the state back detached: its forward returns,
 * at the position `state` is unpacked from (`out, state = model(x,
 * state)`), a value without a graph (`return out, (h.detach(),
 * c.detach())`), as this file's class or another file's summary says. */
static bool gpu102__returned_detached(const RuleContext *ctx, const Event *forward, TSNode statement, Text state) {
  uint32_t first, end;
  facts_assigns_within(ctx->facts, statement, &first, &end);
  const Assign *bound = NULL;
  for (uint32_t i = first; i < end && !bound; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (ts_node_eq(assign->statement, statement) && assign->unpacked && text_eq(assign->name, state)) bound = assign;
  }
  if (!bound || bound->position == UNPACKED_DEEP) return false;
  int32_t method = flow_forward_method(ctx->facts, forward->node, forward->function);
  if (method >= 0) return flow_returns(ctx->flow, method, bound->position) == CARRY_NONE;
  const Binding *instance = facts_binding(ctx->facts, BIND_INSTANCE, facts_canonical(ctx->facts, forward->target));
  if (!instance || ts_node_is_null(instance->node) || bound->position >= SUMMARY_MAX_PARAMETERS) return false;
  char buffer[256];
  const char *qualified = facts_qualify(ctx->facts, node_field(instance->node, F_FUNCTION), buffer, sizeof buffer);
  char *name = gl_format("%s.forward", qualified);
  Linked linked;
  bool found = links_find(ctx->links, NULL, (Text){name, (uint32_t)strlen(name)}, &linked) && linked.function;
  free(name);
  return found && (linked.function->returns & RETURNS_WHOLE) && !(linked.function->returns & RETURNS_ELEMENT(bound->position));
}

/* An in-place `.detach_()` anywhere in the loop body. */
static bool gpu102__detaches_in_place(const RuleContext *ctx, const Loop *loop) {
  Text body = node_text(ctx->source, loop->body);
  for (uint32_t at = 0; at + 9 <= body.length; at++) {
    if (memcmp(body.ptr + at, ".detach_(", 9) == 0) return true;
  }
  return false;
}

/* The state arguments of the forward: plain names and the names inside
 * tuples such as `(h, c)`, as text; at most 8. */
static uint32_t gpu102__state_arguments(const RuleContext *ctx, TSNode call, Text *out) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  uint32_t count = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments) && count < 8; i++) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (node_is(argument, K_KEYWORD_ARGUMENT)) argument = node_field(argument, F_VALUE);
    argument = node_unparenthesize(argument);
    if (node_is(argument, K_TUPLE) || node_is(argument, K_LIST)) {
      for (uint32_t j = 0; j < ts_node_named_child_count(argument) && count < 8; j++) {
        TSNode element = ts_node_named_child(argument, j);
        if (node_is(element, K_IDENTIFIER) || node_is(element, K_ATTRIBUTE)) out[count++] = node_text(ctx->source, element);
      }
    } else if (node_is(argument, K_IDENTIFIER) || node_is(argument, K_ATTRIBUTE)) {
      out[count++] = node_text(ctx->source, argument);
    }
  }
  return count;
}

/* A backward after the loop in the scope around it (the enclosing loop's
 * body or the function): the state's graph is consumed once per sequence. */
static bool gpu102__backpropagated_after(const RuleContext *ctx, const Loop *loop) {
  TSNode scope = loop->parent >= 0 ? ctx->facts->loops.contents[loop->parent].body
                 : loop->function >= 0 ? ctx->facts->functions.contents[loop->function].node
                                       : ctx->root;
  FlatEvents events = array_new();
  facts_flatten(ctx->facts, loop->function, scope, &events);
  bool found = false;
  for (uint32_t i = 0; i < events.size && !found; i++) {
    const FlatEvent *flat = array_get(&events, i);
    found = flat->event->kind == EV_BACKWARD && ts_node_start_byte(flat->anchor) >= ts_node_end_byte(loop->node);
  }
  array_delete(&events);
  return found;
}

/* len(seq), x.size(0), x.size()[0], x.shape[1]: exactly a length. */
static bool gpu102__length_of(const RuleContext *ctx, TSNode bound) {
  if (node_is(bound, K_SUBSCRIPT)) bound = node_field(bound, F_VALUE);
  if (node_is(bound, K_ATTRIBUTE)) return text_is(node_text(ctx->source, node_field(bound, F_ATTRIBUTE)), "shape");
  if (!node_is(bound, K_CALL)) return false;
  Text callee = call_function_text(ctx->source, bound);
  return text_is(callee, "len") || text_is(call_method_name(ctx->source, bound), "size");
}

/* for i in range(x.size(0)), for t in range(len(seq)), for x_t in
 * x.split(1), for x_t in inputs, for i in range(2): a loop over the steps of one input
 * sequence (not range(0, data.size(0), bptt), which walks a stream in
 * chunks, nor a loop over a loader or batches). */
static bool gpu102__over_one_sequence(const RuleContext *ctx, const Loop *loop) {
  if (!node_is(loop->node, K_FOR_STATEMENT)) return false;
  TSNode iterable = node_field(loop->node, F_RIGHT);
  Text text = node_text(ctx->source, iterable);
  if (node_is(iterable, K_IDENTIFIER) || node_is(iterable, K_ATTRIBUTE)) {
    return !facts_loop_iterates_data(ctx->facts, (int32_t)(loop - ctx->facts->loops.contents));
  }
  if (node_is(iterable, K_CALL) && text_is(call_function_text(ctx->source, iterable), "range")) {
    TSNode bound = call_positional(iterable, 0);
    bool few = node_is(bound, K_INTEGER) && atoi(node_text(ctx->source, bound).ptr) <= 16;
    return call_positional_count(iterable) == 1 && (few || gpu102__length_of(ctx, bound));
  }
  return text_contains_ci(text, ".split(") || text_contains_ci(text, ".unbind(") || text_contains_ci(text, ".chunk(");
}

/* A loop that backpropagates only after it, or in a helper whose caller
 * backpropagates, is one sequence unrolled within a training step; so is a
 * loop over the steps of one input sequence, whose graph ends with the
 * call (an evaluation unrolled that way is GPU103's business). */
static bool gpu102__unrolled_within_step(const RuleContext *ctx, const Loop *loop) {
  if (gpu102__backpropagated_after(ctx, loop) || gpu102__over_one_sequence(ctx, loop)) return true;
  if (loop->function < 0) return false;
  const Function *function = array_get(&ctx->facts->functions, loop->function);
  return !(function->reaches & REACH(EV_BACKWARD)) && function->backward_context;
}

/* Whether `state` is set to None somewhere in its function (the first
 * iteration feeds None in). */
static bool gpu102__starts_as_none(const RuleContext *ctx, Text state, int32_t function) {
  AssignIter it = facts_assigns(ctx->facts, state, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (node_is(node_unparenthesize(assign->value), K_NONE)) return true;
  }
  return false;
}

/* Fix (unsafe: gradients stop at the iteration's start, truncated
 * backpropagation through time, which changes training; it is what the
 * loop almost always means): detach each carried state just before the
 * forward, whether the model returns a tensor or a tuple (an LSTM's
 * (h, c)), and leave a first None alone. */
static void gpu102__fix(RuleContext *ctx, GlFinding *finding, const Event *forward, TSNode statement,
                        const Text *states, uint32_t count, const Loop *loop) {
  const Source *source = ctx->source;
  Text indent = fix_indent_at(source, ts_node_start_byte(statement)), unit = fix_indent_unit(source, ctx->root);
  const char *newline = fix_newline(source);
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Detach the state before feeding it back");
  Array(char) text = array_new();
  for (uint32_t i = 0; i < count; i++) {
    if (!gpu102__carried(ctx, states[i], loop, statement)) continue;
    int n = (int)states[i].length;
    const char *s = states[i].ptr;
    bool none = gpu102__starts_as_none(ctx, states[i], forward->function);
    char *line = none ? gl_format("%.*sif %.*s is not None:%s%.*s%.*s", (int)indent.length, indent.ptr, n, s, newline,
                                  (int)indent.length, indent.ptr, (int)unit.length, unit.ptr)
                      : gl_format("%.*s", (int)indent.length, indent.ptr);
    char *detach = gl_format("%s%.*s = tuple(each.detach() for each in %.*s) if isinstance(%.*s, tuple) else "
                             "%.*s.detach()%s",
                             line, n, s, n, s, n, s, n, s, newline);
    for (const char *c = detach; *c; c++) array_push(&text, *c);
    free(line);
    free(detach);
  }
  array_push(&text, '\0');
  uint32_t at = ts_node_start_byte(statement) - indent.length;
  fix_replace(fix, source, at, at, text.contents);
  array_delete(&text);
  fix_finish(finding);
}

static GlFinding *gpu102__report(RuleContext *ctx, const Event *forward, Text state, bool training) {
  Shown shown;
  rule_shown(state.ptr, state.length, RULE_SHOWN_MAX, &shown);
  if (training) {
    return rule_report_on(ctx, forward->node, GL_EFFECT_CRASH, (Basis){.detail = GPU102_DETAIL_TRAINING},
                "`%s` is fed back without `.detach()`: the next backward through it fails; detach it",
                shown.text);
  } else {
    /* a generation or evaluation loop: its root cause is GPU103's, and in the
     * blind reviews these were never real by the labelling policy (ambiguous
     * or false): reported with --pedantic */
    Basis basis = {.name_only = true, .detail = GPU102_DETAIL_NO_BACKWARD};
    return rule_report_on(ctx, forward->node, GL_EFFECT_GPU_GROWTH, basis,
                "`%s` is fed back with grad on and no backward: GPU memory grows; detach it",
                shown.text);
  }
}

/* forward in a loop -> check the states it is fed */
/* `for layer in layers: h = layer(h)`: a different module each pass, a
 * stack of layers rather than a state carried between steps. */
static bool gpu102__callee_is_loop_target(const RuleContext *ctx, const Event *forward, const Loop *loop) {
  Text callee = forward->target;
  AssignIter it = facts_assigns(ctx->facts, callee, forward->function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (ts_node_eq(assign->statement, loop->node)) return true;
  }
  return false;
}

static void gpu102__check_forward(RuleContext *ctx, const Event *forward) {
  const Facts *facts = ctx->facts;
  const Loop *loop = array_get(&facts->loops, forward->loop);
  if (forward->function >= 0 && facts->functions.contents[forward->function].in_module_class) return;
  if (facts_loop_over_modules(facts, forward->loop) || gpu102__callee_is_loop_target(ctx, forward, loop)) return;
  if (facts_grad_mode(facts, forward) != GRAD_ON) return;
  TSNode statement = gpu102__assignment_of(forward->node);
  if (ts_node_is_null(statement) || gpu102__detaches_in_place(ctx, loop)) return;
  Text states[8];
  uint32_t count = gpu102__state_arguments(ctx, forward->node, states);
  for (uint32_t i = 0; i < count; i++) {
    if (!gpu102__carried(ctx, states[i], loop, statement) || gpu102__returned_detached(ctx, forward, statement, states[i])) {
      continue;
    }
    bool training = (loop->reaches & REACH(EV_BACKWARD)) != 0;
    if (!training && gpu102__unrolled_within_step(ctx, loop)) return;
    GlFinding *finding = gpu102__report(ctx, forward, states[i], training);
    TSNode line = ts_node_parent(statement); /* the expression statement holding the assignment */
    if (finding && node_is(line, K_EXPRESSION_STATEMENT) && node_is(ts_node_parent(line), K_BLOCK)) {
      gpu102__fix(ctx, finding, forward, statement, states, count, loop);
    }
    return;
  }
}

/* Whether some method rebinds `state` (an attribute of self) detached. */
static bool gpu102__attribute_detached(const RuleContext *ctx, Text state) {
  for (uint32_t i = 0; i < ctx->facts->assigns.size; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (text_eq(assign->name, state) && assign->function >= 0 && gpu102__detached(ctx, assign->value, assign->function)) {
      return true;
    }
  }
  return false;
}

/* class Trainer: def step(self, x): out, self.hidden = self.model(x, self.hidden); loss.backward()
 * A training step kept on `self` carries the state across calls the way a
 * loop carries it across iterations. */
static void gpu102__check_stateful_step(RuleContext *ctx, const Event *forward) {
  const Facts *facts = ctx->facts;
  if (forward->function < 0) return;
  const Function *method = array_get(&facts->functions, forward->function);
  if (method->class_index < 0 || method->in_module_class || !(method->reaches & REACH(EV_BACKWARD))) return;
  if (facts_grad_mode(facts, forward) != GRAD_ON) return;
  TSNode statement = gpu102__assignment_of(forward->node);
  if (ts_node_is_null(statement)) return;
  Text states[8];
  uint32_t count = gpu102__state_arguments(ctx, forward->node, states);
  for (uint32_t i = 0; i < count; i++) {
    Text state = states[i];
    if (!text_contains_ci(state, "self.")) continue;
    AssignIter it = facts_assigns(facts, state, forward->function);
    bool rebound = false;
    for (const Assign *assign; (assign = assign_iter_next(&it));) rebound |= ts_node_eq(assign->statement, statement);
    if (!rebound || gpu102__attribute_detached(ctx, state)) continue;
    if (text_contains_ci(node_text(ctx->source, method->node), ".detach_(")) return;
    gpu102__report(ctx, forward, state, true);
    return;
  }
}

static void gpu102_check(RuleContext *ctx) {
  for (uint32_t i = 0; i < ctx->facts->events.size; i++) {
    const Event *event = array_get(&ctx->facts->events, i);
    if (event->kind != EV_FORWARD) continue;
    if (event->loop >= 0) gpu102__check_forward(ctx, event);
    else gpu102__check_stateful_step(ctx, event);
  }
}

const Rule GPU102_HIDDEN_STATE_NOT_DETACHED = {
    .info =
        {
            .code = "GPU102",
            .name = "hidden-state-not-detached",
            .summary = "A recurrent state returned by a model is fed back on the next iteration without detach().",
            .fix_hint = "Detach the state once per iteration: hidden = hidden.detach() (or repackage_hidden).",
            .effect = GL_EFFECT_CRASH,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = gpu102_check,
};
