/* GPU101 tensor-kept-with-graph
 *
 *   losses = []
 *   for x, y in loader:
 *       loss = criterion(model(x), y)
 *       losses.append(loss)          <- reported: keeps loss and its graph
 *
 * In a loop, a value that carries autograd history (flow.h) is appended to
 * a container, accumulated (`total += loss`, `total = total + loss`),
 * stored under a changing key, or passed to a same-file helper that stores
 * it (`meter.update(loss)`), where the container or accumulator outlives
 * the iteration: it is defined outside the loop and neither rebuilt in an
 * enclosing loop nor cleared anywhere in the file. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "rule.h"

/* The findings' details (`--output-format full`), one per variant; the
 * page has the rest. */
#define GPU101_DETAIL_TRAINING                                                                                     \
  "The loop backpropagates the kept value, so backward() frees most of the activations its graph saved; what "    \
  "stays is the graph's host-side bookkeeping, kept alive by every stored tensor and growing every iteration. "    \
  "With some losses (F.mse_loss) the graph also keeps the model output on the GPU. Measured on an H200 "           \
  "(PyTorch 2.11, 6x4096 MLP, batch 512): 0.0 MB per iteration of GPU memory and about 38 KB of host memory "      \
  "(19 graph nodes); with mse_loss 8.0 MB per iteration of GPU memory."
#define GPU101_DETAIL_NO_BACKWARD                                                                                  \
  "Nothing in the loop backpropagates the kept value, so its whole graph, with every activation saved for a "      \
  "backward that never runs, stays on the GPU: memory grows every iteration until the loop ends or the GPU runs "  \
  "out. Measured on an H200 (PyTorch 2.11, 6x4096 MLP, batch 512): 48.0 MB per iteration (32 MB with a 4x4096 "   \
  "MLP), and 0.0 with `.item()` or `.detach()`. A loop that needs no gradients can run under `torch.no_grad()`."

#define GPU101_DETAIL_NODE                                                                                         \
  "An autograd node (`grad_fn`) references the nodes before it and every tensor they saved for backward, so "     \
  "keeping it keeps the forward's activations on the GPU as keeping the output would. Measured on an H100 "        \
  "(PyTorch 2.11, 6x4096 MLP, batch 512, no backward): 48.0 MB per iteration for `fns.append(out.grad_fn)`, "    \
  "0.0 for `type(out.grad_fn).__name__`."

#define GPU101_DETAIL_HOOK                                                                                         \
  "A forward hook runs on every forward of its layer, so a list it appends to and nobody clears holds one "      \
  "output per step: the output's own data stays on the GPU whether or not a backward ran, and where none ran, "  \
  "so does every activation its graph saved. Measured on an H100 (PyTorch 2.11, 6x4096 MLP, batch 512, a hook "  \
  "on one hidden layer of a training loop): 8.0 MB per step, one output, against 0.0 with the list cleared."

/* The longest message less the helper's name (" by `Meter.update`"):
 * what the kept value may take when shown, so that the message stays
 * within 110 characters. */
#define GPU101_MESSAGE_ROOM 35u

/* ---- Is the store per-iteration? ----------------------------------------- */

/* Whether the function of `loop` switches a module to eval mode before it
 * (`self.eval()` then `for batch in iter:`) and the loop, the outermost of
 * its function, runs forwards over items (not `range(max_len)`, the steps
 * of one decoding; not the beams of a search inside one): it scores
 * batches, as no forward() does. */
static bool gpu101__scores_batches(const Facts *facts, int32_t loop) {
  const Loop *entry = array_get(&facts->loops, loop);
  if (!(entry->reaches & REACH(EV_FORWARD)) || !node_is(entry->node, K_FOR_STATEMENT) || entry->parent >= 0) return false;
  TSNode iterable = node_unparenthesize(node_field(entry->node, F_RIGHT));
  if (node_is(iterable, K_CALL) && text_is(call_function_text(facts->source, iterable), "range")) return false;
  uint32_t start = ts_node_start_byte(entry->node);
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind == EV_EVAL && event->function == entry->function && ts_node_start_byte(event->node) < start) return true;
  }
  return false;
}

/* A loop over data: named so (facts.h), or scoring batches (above). */
static bool gpu101__over_data(const Facts *facts, int32_t loop) {
  return facts_loop_iterates_data(facts, loop) || gpu101__scores_batches(facts, loop);
}

/* Whether `name` is rebound on every pass of `loop` itself (a
 * per-iteration container; a reset under an if does not count), or inside
 * a loop around it while `loop` is a short inner loop (over heads,
 * augmentations, time steps) rather than over data; a loop that trains
 * inside an epoch loop (one whose passes are no steps) is a loop over
 * data. */
static bool gpu101__rebuilt_in_loop(const RuleContext *ctx, Text name, int32_t function, int32_t loop) {
  const Facts *facts = ctx->facts;
  bool over_data = gpu101__over_data(facts, loop);
  bool trains = facts->loops.contents[loop].reaches & (REACH(EV_BACKWARD) | REACH(EV_STEP));
  AssignIter it = facts_assigns(facts, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (assign->augmented || assign->subscript || assign->loop < 0) continue;
    if (text_mentions(node_text(ctx->source, assign->value), name)) continue; /* total = total + x */
    TSNode body = facts->loops.contents[loop].body;
    if (node_contains(body, assign->statement)) {
      if (!node_under_if(assign->statement, body)) return true; /* `if i % 100 == 0: total = 0` keeps the sum */
      continue;
    }
    /* up to the nearest loop over data or that trains: the container
     * outlives that loop's iterations unless rebuilt inside it */
    for (int32_t at = facts->loops.contents[loop].parent; at >= 0 && !over_data; at = facts->loops.contents[at].parent) {
      if (node_contains(facts->loops.contents[at].body, assign->statement)) {
        /* a loop that trains, whatever its iterable is named, inside an
         * epoch loop: the container lives across the steps */
        return !(trains && !facts_loop_per_step(facts, at));
      }
      if (gpu101__over_data(facts, at) || (facts->loops.contents[at].reaches & REACH(EV_BACKWARD))) break;
    }
  }
  return false;
}

/* A short loop (over heads, items, a few steps: not data, no backward or
 * step, and in no loop that has either) filling a container local to the
 * call: the call consumes it. */
static bool gpu101__local_to_call(const RuleContext *ctx, Text name, int32_t function, int32_t loop) {
  const Facts *facts = ctx->facts;
  const Loop *entry = array_get(&facts->loops, loop);
  if (function < 0 || text_contains_ci(name, "self.") || !node_is(entry->node, K_FOR_STATEMENT)) return false;
  for (int32_t at = loop; at >= 0; at = facts->loops.contents[at].parent) {
    if (gpu101__over_data(facts, at) || (facts->loops.contents[at].reaches & (REACH(EV_BACKWARD) | REACH(EV_STEP)))) {
      return false;
    }
  }
  AssignIter it = facts_assigns(facts, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (!assign->augmented && !assign->subscript) return true;
  }
  return false;
}

/* The body of the loop whose passes are the steps around `loop`: the
 * nearest loop (itself or around it) over data or that trains, else
 * `loop` itself; a null node for -1. */
static TSNode gpu101__step_loop_body(const Facts *facts, int32_t loop) {
  if (loop < 0) return (TSNode){0};
  for (int32_t at = loop; at >= 0; at = facts->loops.contents[at].parent) {
    if (gpu101__over_data(facts, at) || (facts->loops.contents[at].reaches & REACH(EV_BACKWARD))) {
      return facts->loops.contents[at].body;
    }
  }
  return facts->loops.contents[loop].body;
}

/* Whether what is stored in `name` outlives one iteration of `loop`
 * (-1: one call of a method that stores on `self`). */
static bool gpu101__outlives_iteration(const RuleContext *ctx, Text name, int32_t function, int32_t loop) {
  if (flow_container_emptied(ctx->flow, name, gpu101__step_loop_body(ctx->facts, loop))) return false;
  if (loop >= 0) {
    return !gpu101__rebuilt_in_loop(ctx, name, function, loop) && !gpu101__local_to_call(ctx, name, function, loop);
  }
  AssignIter it = facts_assigns(ctx->facts, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (!assign->augmented && !assign->subscript && !text_mentions(node_text(ctx->source, assign->value), name)) return false;
  }
  return true;
}

/* Whether `function` binds the plain name `name` itself (`history = []`):
 * then the name there is its own local, not the container of another
 * function that happens to share its name. */
static bool gpu101__binds_own(const Facts *facts, Text name, int32_t function) {
  if (memchr(name.ptr, '.', name.length) || memchr(name.ptr, '[', name.length)) return false;
  AssignIter it = facts_assigns(facts, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (!assign->augmented && !assign->subscript) return true;
  }
  return false;
}

/* Whether another function of the file backpropagates what the container
 * holds: a REINFORCE buffer of log-probs that each step fills and the
 * episode's end stacks into its loss (`torch.stack(self.saved_log_probs)`,
 * then backward). The graph is kept on purpose, until that backward. For
 * `self.` containers only the methods of the same class count; a
 * container of lists per key (`self.saved[ob_id]`) is the whole dict; a
 * function's local list is no other function's list of the same name. */
static bool gpu101__backpropagated_elsewhere(const RuleContext *ctx, Text container, int32_t function) {
  const Facts *facts = ctx->facts;
  const char *subscript = memchr(container.ptr, '[', container.length); /* a list per key: the whole dict */
  if (subscript) container.length = (uint32_t)(subscript - container.ptr);
  Text owner = text_strip_self(container);
  bool on_self = owner.length != container.length;
  int32_t class_index = function >= 0 ? facts->functions.contents[function].class_index : -1;
  if (on_self && class_index < 0) return false;
  bool local = function >= 0 && gpu101__binds_own(facts, container, function);
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *other = array_get(&facts->functions, i);
    if ((int32_t)i == function || (on_self && other->class_index != class_index)) continue;
    if (local && gpu101__binds_own(facts, container, (int32_t)i)) continue;
    if ((other->reaches & REACH(EV_BACKWARD)) && flow_feeds_backward(ctx->flow, container, (int32_t)i)) return true;
  }
  return false;
}

/* Whether each mention of `name` in `text` picks one element by a
 * number (`losses[-1]`, `losses[0]`); true when there is none. */
static bool gpu101__only_elements(Text text, Text name) {
  for (uint32_t at = 0; at + name.length <= text.length; at++) {
    if (memcmp(text.ptr + at, name.ptr, name.length) != 0) continue;
    bool starts = at == 0 || !(isalnum((unsigned char)text.ptr[at - 1]) || text.ptr[at - 1] == '_' ||
                               text.ptr[at - 1] == '.');
    uint32_t end = at + name.length;
    if (!starts || (end < text.length && (isalnum((unsigned char)text.ptr[end]) || text.ptr[end] == '_'))) continue;
    if (end >= text.length || text.ptr[end] != '[') return false;
    uint32_t digit = end + 1 < text.length && text.ptr[end + 1] == '-' ? end + 2 : end + 1, close = digit;
    while (close < text.length && isdigit((unsigned char)text.ptr[close])) close++;
    if (close == digit || close >= text.length || text.ptr[close] != ']') return false;
  }
  return true;
}

/* Whether what backpropagates in `function` is only the newest element
 * of the container (`losses.append(loss)` then `losses[-1].backward()`):
 * every backward that names it picks one element by a number, at least
 * one does, and no name bound from the container whole feeds a backward.
 * Each backward then frees one step's graph; the list keeps them all. */
static bool gpu101__backpropagates_one_element(RuleContext *ctx, Text container, int32_t function) {
  const Facts *facts = ctx->facts;
  bool named = false;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind != EV_BACKWARD || event->function != function) continue;
    Text text = node_text(ctx->source, event->node);
    if (!text_mentions(text, container)) continue;
    if (!gpu101__only_elements(text, container)) return false;
    named = true;
  }
  if (!named) return false;
  for (uint32_t i = 0; i < facts->assigns.size; i++) {
    const Assign *assign = array_get(&facts->assigns, i);
    if (assign->function != function || text_eq(assign->name, container)) continue;
    Text value = node_text(ctx->source, assign->value);
    if (text_mentions(value, container) && !gpu101__only_elements(value, container) &&
        flow_feeds_backward(ctx->flow, assign->name, function)) {
      return false;
    }
  }
  return true;
}


/* ---- Reporting ---------------------------------------------------------------- */

/* Whether the kept value is what a backward in its loop consumes: then
 * backward frees its activations and only host bookkeeping stays. A
 * validation loss kept in a training loop is never backpropagated. */
/* `for name, value in losses.items()` around `loop`: `losses`, the dict
 * the loop's values come from; an empty text otherwise. */
static Text gpu101__iterated_dict(const RuleContext *ctx, int32_t loop) {
  TSNode iterable = node_field(ctx->facts->loops.contents[loop].node, F_RIGHT);
  if (!node_is(iterable, K_CALL)) return (Text){"", 0};
  Text method = call_method_name(ctx->source, iterable);
  if (!text_is(method, "items") && !text_is(method, "values")) return (Text){"", 0};
  TSNode receiver = call_receiver(iterable);
  return node_is(receiver, K_IDENTIFIER) ? node_text(ctx->source, receiver) : (Text){"", 0};
}

static bool gpu101__binds(const Assign *assign, uint32_t at) {
  (void)at;
  return !assign->augmented && !assign->subscript;
}

/* Whether `call` runs a backward: a helper of this file, or another
 * file's function or method, that reaches one. */
static bool gpu101__call_backpropagates(const Facts *facts, TSNode call) {
  uint32_t first, end;
  facts_events_within(facts, call, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *event = array_get(&facts->events, i);
    if (!ts_node_eq(event->node, call)) continue;
    uint32_t reaches = event->kind == EV_CALL ? facts->functions.contents[event->callee].reaches
                       : event->kind == EV_EXTERNAL ? event->reaches : 0;
    return reaches & REACH(EV_BACKWARD);
  }
  return false;
}

/* Whether `value` holds what a backward already ran through: a result
 * of a call that backpropagates (`losses = trainer.train_step(x)`, also
 * unpacked, or item by item: `for k, v in losses.items()`, `losses[k]`), a sibling of
 * a backpropagated result (`loss, pos_dist = criterion(a, b)` then
 * `loss.backward()`), or arithmetic on one. */
static bool gpu101__from_backpropagated(RuleContext *ctx, TSNode value, int32_t function, int depth) {
  const Facts *facts = ctx->facts;
  value = node_unparenthesize(value);
  if (depth > 4) return false;
  if (node_is(value, K_BINARY_OPERATOR)) {
    return gpu101__from_backpropagated(ctx, node_field(value, F_LEFT), function, depth + 1) ||
           gpu101__from_backpropagated(ctx, node_field(value, F_RIGHT), function, depth + 1);
  }
  if (node_is(value, K_CALL) && (text_is(call_method_name(ctx->source, value), "items") ||
                                 text_is(call_method_name(ctx->source, value), "values"))) {
    return gpu101__from_backpropagated(ctx, call_receiver(value), function, depth + 1);
  }
  if (node_is(value, K_SUBSCRIPT)) return gpu101__from_backpropagated(ctx, node_field(value, F_VALUE), function, depth + 1);
  if (node_is(value, K_CALL)) return gpu101__call_backpropagates(facts, value);
  if (!node_is(value, K_IDENTIFIER)) return false;
  const Assign *assign = facts_assign_last_before(facts, node_text(ctx->source, value), function,
                                                  ts_node_start_byte(value), gpu101__binds);
  if (!assign) return false;
  if (node_is(assign->statement, K_FOR_STATEMENT)) {
    return gpu101__from_backpropagated(ctx, node_field(assign->statement, F_RIGHT), function, depth + 1);
  }
  if (assign->unpacked) {
    uint32_t first, end;
    facts_assigns_within(facts, assign->statement, &first, &end);
    if (first > 0 && ts_node_eq(facts->assigns.contents[first - 1].statement, assign->statement)) first--;
    for (uint32_t i = first; i < end && i < facts->assigns.size; i++) {
      const Assign *sibling = array_get(&facts->assigns, i);
      if (sibling != assign && ts_node_eq(sibling->statement, assign->statement) &&
          flow_feeds_backward(ctx->flow, sibling->name, function)) {
        return true;
      }
    }
  }
  TSNode bound = node_unparenthesize(assign->value);
  return (node_is(bound, K_CALL) || node_is(bound, K_IDENTIFIER)) &&
         gpu101__from_backpropagated(ctx, bound, function, depth + 1);
}

static bool gpu101__backpropagated_here(RuleContext *ctx, TSNode value, int32_t loop, int32_t function) {
  if (gpu101__from_backpropagated(ctx, value, function, 0)) return true;
  uint32_t reaches = loop >= 0 ? ctx->facts->loops.contents[loop].reaches : ctx->facts->functions.contents[function].reaches;
  Text dict = loop >= 0 && function >= 0 ? gpu101__iterated_dict(ctx, loop) : (Text){"", 0};
  /* each term of a loss dict whose sum the method backpropagates */
  if (!(reaches & REACH(EV_BACKWARD)) && dict.length && !facts_loop_iterates_data(ctx->facts, loop) &&
      (ctx->facts->functions.contents[function].reaches & REACH(EV_BACKWARD))) {
    return flow_feeds_backward(ctx->flow, dict, function);
  }
  if (!(reaches & REACH(EV_BACKWARD))) return false;
  value = node_unparenthesize(value);
  if (!node_is(value, K_IDENTIFIER) && !node_is(value, K_ATTRIBUTE)) return true;
  return flow_feeds_backward(ctx->flow, node_text(ctx->source, value), function);
}

/* The helper from another file that keeps the value: " by
 * `AverageMeter.update`" (where it is defined is the finding's related
 * location). */
static const char *gpu101__kept_by(const Linked *linked, char *buffer, size_t size) {
  if (!linked || !linked->function) return "";
  Shown name;
  snprintf(buffer, size, " by `%s`", rule_shown(linked->function->name, strlen(linked->function->name), 22, &name));
  return buffer;
}

/* ---- Fix -------------------------------------------------------------------------- */

/* Whether the name a value is kept in is the function's own (not an
 * attribute, not returned): then nothing outside the file can
 * backpropagate what it holds, and dropping the graph keeps the program's
 * meaning. */
static bool gpu101__private(const RuleContext *ctx, Text holder, int32_t function) {
  if (holder.length == 0 || memchr(holder.ptr, '.', holder.length) || memchr(holder.ptr, '[', holder.length)) return false;
  for (uint32_t i = 0; i < ctx->facts->returns.size; i++) {
    const Return *entry = array_get(&ctx->facts->returns, i);
    if (entry->function == function && text_mentions(node_text(ctx->source, entry->value), holder)) return false;
  }
  return true;
}

/* `total += loss` into a Python number (`total = 0` before the loop) that
 * is never used as a tensor (`total.item()`): keep `loss.item()`. */
static bool gpu101__number_total(const RuleContext *ctx, TSNode statement, Text total, int32_t function) {
  if (!node_is(statement, K_AUGMENTED_ASSIGNMENT)) return false;
  char *attribute = gl_format("%.*s.", (int)total.length, total.ptr);
  Text scope = node_text(ctx->source, function >= 0 ? ctx->facts->functions.contents[function].node : ctx->root);
  bool tensor_use = false;
  for (uint32_t at = 0; !tensor_use && at + strlen(attribute) <= scope.length; at++) {
    tensor_use = memcmp(scope.ptr + at, attribute, strlen(attribute)) == 0 &&
                 (at == 0 || !(isalnum((unsigned char)scope.ptr[at - 1]) || scope.ptr[at - 1] == '_'));
  }
  free(attribute);
  if (tensor_use) return false;
  AssignIter it = facts_assigns(ctx->facts, total, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    TSNode value = node_unparenthesize(assign->value);
    if (!assign->augmented && !node_is(value, K_INTEGER) && !node_is(value, K_FLOAT)) return false;
  }
  return true;
}

/* `value.method()`, parenthesized where `value` is no primary (`(a *
 * 2).detach()`); the caller frees it. */
static char *gpu101__stripped(const RuleContext *ctx, TSNode value, const char *method) {
  Text text = node_text(ctx->source, value);
  TSNode bare = node_unparenthesize(value);
  bool primary = node_is(bare, K_IDENTIFIER) || node_is(bare, K_ATTRIBUTE) || node_is(bare, K_CALL) ||
                 node_is(bare, K_SUBSCRIPT) || node_is(value, K_PARENTHESIZED_EXPRESSION);
  return gl_format("%s%.*s%s.%s()", primary ? "" : "(", (int)text.length, text.ptr, primary ? "" : ")", method);
}

/* Fix: keep the value without its graph, `loss.detach()` (or
 * `loss.item()` into a Python number; each element of a list or tuple
 * written out: `[a.detach(), (b * 2).detach()]`). Safe when what keeps
 * it is the function's own name (no caller or other file can
 * backpropagate it); unsafe otherwise. */
static void gpu101__fix(RuleContext *ctx, GlFinding *finding, TSNode node, TSNode value, Text holder, int32_t function) {
  bool number = gpu101__number_total(ctx, node, holder, function);
  const char *method = number ? "item" : "detach";
  bool elements = node_is(value, K_LIST) || node_is(value, K_TUPLE);
  Text text = node_text(ctx->source, value);
  TSNode bare = node_unparenthesize(value);
  bool primary = elements || node_is(bare, K_IDENTIFIER) || node_is(bare, K_ATTRIBUTE) || node_is(bare, K_CALL) ||
                 node_is(bare, K_SUBSCRIPT) || node_is(value, K_PARENTHESIZED_EXPRESSION);
  GlApplicability applicability = gpu101__private(ctx, holder, function) ? GL_FIX_SAFE : GL_FIX_UNSAFE;
  GlFix *fix = elements ? fix_new(finding, applicability, "Keep each element of `%.*s` with `.%s()`",
                                  (int)(text.length > 40 ? 40 : text.length), text.ptr, method)
                        : fix_new(finding, applicability, "Keep `%s%.*s%s.%s()`", primary ? "" : "(",
                                  (int)(text.length > 40 ? 40 : text.length), text.ptr, primary ? "" : ")", method);
  uint32_t count = elements ? ts_node_named_child_count(value) : 1;
  for (uint32_t i = 0; i < count; i++) {
    TSNode part = elements ? ts_node_named_child(value, i) : value;
    if (elements && flow_carries(ctx->flow, part, function) == CARRY_NONE) continue;
    char *content = gpu101__stripped(ctx, part, method);
    fix_replace(fix, ctx->source, ts_node_start_byte(part), ts_node_end_byte(part), content);
    free(content);
  }
  fix_finish(finding);
}

/* ---- Reporting, continued -------------------------------------------------------------- */

/* When `value` is an autograd node rather than a tensor
 * (`out.grad_fn`, `out.grad_fn.next_functions[0][0]`, or a name last bound
 * to one), the tensor it came from (`out`); else a null node. A node holds
 * its graph as that tensor would, but has no `.detach()`: what to keep
 * instead is its name. */
static TSNode gpu101__node_owner(const RuleContext *ctx, TSNode value, int32_t function) {
  uint32_t before = ts_node_start_byte(value);
  for (int hops = 0; hops < 8; hops++) {
    TSNode bare = node_unparenthesize(value);
    while (node_is(bare, K_SUBSCRIPT) || (node_is(bare, K_ATTRIBUTE) &&
                                          text_is(node_text(ctx->source, node_field(bare, F_ATTRIBUTE)), "next_functions"))) {
      bare = node_field(bare, node_is(bare, K_SUBSCRIPT) ? F_VALUE : F_OBJECT);
    }
    if (node_is(bare, K_ATTRIBUTE) && text_is(node_text(ctx->source, node_field(bare, F_ATTRIBUTE)), "grad_fn")) {
      return node_field(bare, F_OBJECT);
    }
    if (!node_is(bare, K_IDENTIFIER)) return (TSNode){0};
    /* `loss = loss[1]`: the name's binding before this assignment, not
     * this assignment itself, so every hop goes strictly backwards */
    const Assign *assign = facts_assign_last_before(ctx->facts, node_text(ctx->source, bare), function,
                                                    before, facts_plain_assign);
    if (!assign || node_is(node_unparenthesize(assign->value), K_IDENTIFIER)) return (TSNode){0};
    value = assign->value;
    before = ts_node_start_byte(assign->statement);
  }
  return (TSNode){0};
}

/* A kept `grad_fn`: same effect as keeping its tensor; no fix (a node
 * has no `.detach()`, and its name is a different value). */
static void gpu101__report_node(RuleContext *ctx, TSNode node, Basis basis, const char *shown, const char *kept_by) {
  if (basis.warning) {
    rule_report_on(ctx, node, GL_EFFECT_HOST_GROWTH, basis,
                   "`%s` is a graph node kept across iterations%s: host memory grows; keep `node.name()`",
                   shown, kept_by);
  } else {
    rule_report_on(ctx, node, GL_EFFECT_GPU_GROWTH, basis,
                   "`%s` is a graph node kept%s with no backward: GPU memory grows; keep `node.name()`",
                   shown, kept_by);
  }
}

/* `loop` is -1 for a method storing on `self` outside any loop; `carry`
 * says how the value is known to hold a graph; `holder` names what keeps
 * it (the container, the total, the helper's receiver), empty when the
 * finding gets no fix (the code backpropagates the kept element itself:
 * a detached one could not). */
static void gpu101__report(RuleContext *ctx, TSNode node, TSNode value, int32_t loop, int32_t function, Carry carry,
                           const Linked *linked, Text holder) {
  TSNode owner = gpu101__node_owner(ctx, value, function);
  bool node_kept = !ts_node_is_null(owner);
  bool training = gpu101__backpropagated_here(ctx, node_kept ? owner : value, loop, function);
  Text kept = node_text(ctx->source, value);
  Basis basis = {carry < CARRY_EVIDENCE, linked, training, training ? GPU101_DETAIL_TRAINING : GPU101_DETAIL_NO_BACKWARD,
                 false};
  char by[64];
  const char *kept_by = gpu101__kept_by(linked, by, sizeof by);
  /* the value as shown shares a short message with the helper's name */
  size_t room = GPU101_MESSAGE_ROOM - strlen(kept_by);
  Shown shown;
  rule_shown(kept.ptr, kept.length, room < 10 ? 10 : room > 30 ? 30 : room, &shown);
  if (node_kept) {
    if (!training) basis.detail = GPU101_DETAIL_NODE;
    gpu101__report_node(ctx, node, basis, shown.text, kept_by);
    return;
  }
  GlFinding *finding;
  if (training) {
    finding = rule_report_on(ctx, node, GL_EFFECT_HOST_GROWTH, basis,
                   "`%s` is kept with its graph%s: host memory grows; keep `.item()`",
                   shown.text, kept_by);
  } else {
    finding = rule_report_on(ctx, node, GL_EFFECT_GPU_GROWTH, basis,
                   "`%s` is kept with its graph%s and no backward: GPU memory grows; keep `.item()`",
                   shown.text, kept_by);
  }
  if (holder.length) gpu101__fix(ctx, finding, node, value, holder, function);
}

static bool gpu101__grad_on(const RuleContext *ctx, TSNode node, int32_t function) {
  return facts_grad_mode_at(ctx->facts, node, function) == GRAD_ON;
}

/* Whether another method of the module's class (not `__init__`) binds
 * the attribute afresh (`self.attention_weights_cum = torch.zeros(...)`
 * in the decoder's per-forward state initialisation): the module keeps
 * state of one forward, which its backward uses, not across steps. */
static bool gpu101__reset_by_the_module(const Facts *facts, Text target, int32_t function) {
  int32_t class_index = facts->functions.contents[function].class_index;
  for (uint32_t i = 0; i < facts->assigns.size; i++) {
    const Assign *assign = array_get(&facts->assigns, i);
    if (assign->augmented || assign->subscript || assign->unpacked || assign->function < 0 ||
        assign->function == function || !text_eq(assign->name, target)) {
      continue;
    }
    const Function *method = array_get(&facts->functions, (uint32_t)assign->function);
    if (method->class_index != class_index || text_is(method->name, "__init__")) continue;
    if (!text_mentions(node_text(facts->source, assign->value), target)) return true;
  }
  return false;
}

/* ---- The three shapes ------------------------------------------------------------- */

/* What a helper call keeps its argument in, for the fix: its receiver
 * (`meter` in `meter.update(loss)`), or "." (never the function's own)
 * for a plain function. */
static Text call_receiver_text(const RuleContext *ctx, const Event *call) {
  TSNode receiver = call_receiver(call->node);
  return ts_node_is_null(receiver) ? (Text){".", 1} : node_text(ctx->source, receiver);
}

typedef enum { KEEPS_NOT, KEEPS_BY_NAME, KEEPS_LINKED } Keeps;

/* Whether `receiver.method(value)` on an instance of a class from another
 * file of the project keeps its value, as that method's summary says
 * (`self.sum += val * n` without `.item()`; `v = v.data.sum()` first
 * strips it). KEEPS_LINKED or KEEPS_NOT when the method is found. */
/* The class expression of the values a container hands out: `Meter` in
 * `self.meters = defaultdict(Meter)` for `self.meters[name]`; a null node
 * when the target is no such element. */
static TSNode gpu101__element_class(const RuleContext *ctx, Text target) {
  const char *bracket = memchr(target.ptr, '[', target.length);
  if (!bracket || target.ptr[target.length - 1] != ']') return (TSNode){0};
  Text owner = {target.ptr, (uint32_t)(bracket - target.ptr)};
  const Binding *container = facts_binding(ctx->facts, BIND_INSTANCE, facts_canonical(ctx->facts, owner));
  if (!container || ts_node_is_null(container->node) || !node_is(container->node, K_CALL)) return (TSNode){0};
  if (!text_is(text_last_segment(call_function_text(ctx->source, container->node)), "defaultdict")) return (TSNode){0};
  TSNode factory = call_positional(container->node, 0);
  return node_is(factory, K_IDENTIFIER) || node_is(factory, K_ATTRIBUTE) ? factory : (TSNode){0};
}

static bool gpu101__linked_method(const RuleContext *ctx, const Event *store, Text method, Linked *linked,
                                  Keeps *keeps) {
  const Binding *instance = facts_binding(ctx->facts, BIND_INSTANCE, facts_canonical(ctx->facts, store->target));
  TSNode class_ = instance && !ts_node_is_null(instance->node) ? node_field(instance->node, F_FUNCTION)
                                                                : gpu101__element_class(ctx, store->target);
  if (ts_node_is_null(class_)) return false;
  char buffer[256];
  const char *qualified = facts_qualify(ctx->facts, class_, buffer, sizeof buffer);
  char *name = gl_format("%s.%.*s", qualified, (int)method.length, method.ptr);
  bool found = links_find(ctx->links, NULL, (Text){name, (uint32_t)strlen(name)}, linked) && linked->function;
  free(name);
  if (found) *keeps = (linked->function->keeps & 1u) ? KEEPS_LINKED : KEEPS_NOT;
  return found;
}

/* Whether `receiver.update(value)` keeps its value: the class's method
 * says so (above); else a class from elsewhere whose name says meter
 * (AverageMeter), on its name only; not loggers, which convert. A
 * container's own `append`/`add` keeps. */
static Keeps gpu101__store_keeps(const RuleContext *ctx, const Event *store, Text method, Linked *linked) {
  Keeps keeps = KEEPS_NOT;
  if (gpu101__linked_method(ctx, store, method, linked, &keeps)) return keeps;
  if (!text_is(method, "update")) return KEEPS_LINKED;
  Text constructor = facts_constructor_of(ctx->facts, store->target);
  Text named = constructor.length ? text_last_segment(constructor) : text_last_segment(store->target);
  return text_contains_ci(named, "meter") && !text_contains_ci(named, "logger") ? KEEPS_BY_NAME : KEEPS_NOT;
}

/* items.append(value), items.extend(values), items.insert(i, value),
 * meter.update(value, n), averager.add(value) */
static void gpu101__check_store(RuleContext *ctx, const Event *store) {
  Text method = call_method_name(ctx->source, store->node);
  Linked linked = {0};
  Keeps keeps = gpu101__store_keeps(ctx, store, method, &linked);
  if (keeps == KEEPS_NOT) return;
  TSNode value = call_positional(store->node, text_is(method, "insert") ? 1 : 0);
  if (ts_node_is_null(value) || !gpu101__grad_on(ctx, store->node, store->function)) return;
  bool newest_backpropagated = gpu101__backpropagates_one_element(ctx, store->target, store->function);
  Carry carry = flow_carries(ctx->flow, value, store->function);
  if (newest_backpropagated) carry = CARRY_EVIDENCE; /* a backward runs through what was stored: it has a graph */
  if (carry == CARRY_NONE) return;
  if (!gpu101__outlives_iteration(ctx, store->target, store->function, store->loop)) return;
  if (!newest_backpropagated && flow_feeds_backward(ctx->flow, store->target, store->function)) return;
  if (gpu101__backpropagated_elsewhere(ctx, store->target, store->function)) return;
  if (keeps == KEEPS_BY_NAME) carry = CARRY_NAME;
  gpu101__report(ctx, store->node, value, store->loop, store->function, carry, linked.function ? &linked : NULL,
                 newest_backpropagated ? (Text){"", 0} : store->target);
}

/* Whether `container` is bound to a NumPy array (`self.rewards =
 * np.zeros(n)`): storing into it copies a number, never a graph. */
static bool gpu101__numpy_array(const RuleContext *ctx, TSNode container) {
  char buffer[128];
  const char *qualified = facts_built_by(ctx->facts, node_text(ctx->source, container), buffer, sizeof buffer, NULL);
  return strncmp(qualified, "numpy.", 6) == 0 || strncmp(qualified, "np.", 3) == 0;
}

/* total += value, total = total + value, history[step] = value */
static void gpu101__check_assign(RuleContext *ctx, const Assign *assign) {
  TSNode value = assign->value;
  if (assign->subscript) {
    TSNode target = node_field(assign->statement, F_LEFT);
    TSNode key = ts_node_named_child(target, 1);
    if (!node_is(target, K_SUBSCRIPT)) return;
    /* `history["loss"] = loss` is overwritten each step; `stats["loss"] += loss` sums */
    if (!assign->augmented && (node_is(key, K_STRING) || node_is(key, K_INTEGER))) return;
    if (gpu101__numpy_array(ctx, node_field(target, F_VALUE))) return;
  } else if (!assign->augmented) {
    if (!node_is(value, K_BINARY_OPERATOR)) return;
    Text left = node_text(ctx->source, node_field(value, F_LEFT));
    if (!text_eq(left, assign->name)) return;
    value = node_field(value, F_RIGHT);
  }
  if (!gpu101__grad_on(ctx, assign->statement, assign->function)) return;
  Carry carry = flow_carries(ctx->flow, value, assign->function);
  if (carry == CARRY_NONE) return;
  if (!gpu101__outlives_iteration(ctx, assign->name, assign->function, assign->loop)) return;
  if (flow_feeds_backward(ctx->flow, assign->name, assign->function)) return;
  gpu101__report(ctx, assign->statement, value, assign->loop, assign->function, carry, NULL, assign->name);
}

/* meter.update(loss) where the meter's class in this file keeps `loss`. */
static void gpu101__check_helper_call(RuleContext *ctx, const Event *call) {
  if (!gpu101__grad_on(ctx, call->node, call->function)) return;
  for (uint32_t i = 0; i < call_positional_count(call->node); i++) {
    TSNode argument = call_positional(call->node, i);
    Carry carry = flow_carries(ctx->flow, argument, call->function);
    if (carry == CARRY_NONE) continue;
    Text parameter = facts_parameter(ctx->facts, call->callee, i);
    if (parameter.length == 0 || !flow_keeps_parameter(ctx->flow, call->callee, parameter)) continue;
    gpu101__report(ctx, call->node, argument, call->loop, call->function, carry, NULL, call_receiver_text(ctx, call));
    return;
  }
}

/* tracker.add(loss), record(loss): a function of another file of the
 * project that keeps its argument. */
static void gpu101__check_external_call(RuleContext *ctx, const Event *call) {
  Linked linked;
  if (!links_find(ctx->links, NULL, call->target, &linked) || !linked.function || !linked.function->keeps) return;
  if (!gpu101__grad_on(ctx, call->node, call->function)) return;
  for (uint32_t i = 0; i < call_positional_count(call->node) && i < SUMMARY_MAX_PARAMETERS; i++) {
    if (!(linked.function->keeps & (1u << i))) continue;
    TSNode argument = call_positional(call->node, i);
    Carry carry = flow_carries(ctx->flow, argument, call->function);
    if (carry == CARRY_NONE) continue;
    gpu101__report(ctx, call->node, argument, call->loop, call->function, carry, &linked, call_receiver_text(ctx, call));
    return;
  }
}

/* ---- Forward hooks ----------------------------------------------------------- */

/* layer.register_forward_hook(fn): fn runs on every forward of the layer
 * and gets its output as its last parameter. A hook that appends the
 * output (or its `grad_fn`) to a list that outlives the forward keeps one
 * graph per forward. */
typedef struct {
  TSNode node;      /* the hook's function_definition or lambda */
  int32_t function; /* the function whose events are the hook's: its own index, or the lambda's enclosing one */
  Text output;      /* its last parameter: the layer's output */
  Text name;        /* as the message shows it (`_record`); empty for a lambda */
} Hook;
typedef Array(Hook) Hooks;

/* The last plain parameter of a def or lambda, when it takes at least
 * three (module, inputs, output, after `self` and any bound by partial);
 * else empty text. */
static Text gpu101__hook_output(const Source *source, TSNode definition, bool method) {
  TSNode parameters = node_field(definition, F_PARAMETERS);
  uint32_t count = ts_node_named_child_count(parameters), plain = 0;
  Text last = {"", 0};
  for (uint32_t i = 0; i < count; i++) {
    TSNode parameter = ts_node_named_child(parameters, i);
    if (!node_is(parameter, K_IDENTIFIER)) return (Text){"", 0}; /* *args, defaults: not a hook's shape */
    last = node_text(source, parameter);
    plain++;
  }
  return plain >= (method ? 4u : 3u) ? last : (Text){"", 0};
}

/* Whether the handle the registration returns is kept and the file
 * removes handles: the hook is taken off again (a probe around one
 * forward), so what it keeps does not grow. */
static bool gpu101__hook_removed(const RuleContext *ctx, TSNode registration) {
  if (node_is(ts_node_parent(registration), K_EXPRESSION_STATEMENT)) return false;
  return text_contains_ci(node_text(ctx->source, ctx->root), ".remove()");
}

/* The hook that `register_forward_hook(argument)` installs: a def of this
 * file (by name, `self.method`, or through `partial(fn, ...)`) or a
 * lambda. False when it is none of these or does not take an output. */
static bool gpu101__hook_of(const RuleContext *ctx, TSNode argument, int32_t function, Hook *hook) {
  argument = node_unparenthesize(argument);
  if (node_is(argument, K_CALL) && text_ends_with(node_text(ctx->source, node_field(argument, F_FUNCTION)), "partial")) {
    argument = call_positional(argument, 0);
  }
  if (node_is(argument, K_LAMBDA)) {
    *hook = (Hook){argument, function, gpu101__hook_output(ctx->source, argument, false), {"", 0}};
    return hook->output.length > 0;
  }
  int32_t target = ts_node_is_null(argument) ? -1 : facts_resolve_call(ctx->facts, argument, function);
  if (target < 0) return false;
  const Function *entry = array_get(&ctx->facts->functions, target);
  *hook = (Hook){entry->node, target, gpu101__hook_output(ctx->source, entry->node, entry->class_index >= 0),
                 entry->name};
  return hook->output.length > 0;
}

static bool gpu101__hook_listed(const Hooks *hooks, TSNode node) {
  for (uint32_t i = 0; i < hooks->size; i++) {
    if (ts_node_eq(hooks->contents[i].node, node)) return true;
  }
  return false;
}

/* The forward hooks the file installs and keeps installed, each once
 * (one function may be installed by several calls). */
static void gpu101__collect_hooks(const RuleContext *ctx, Hooks *hooks) {
  static const char *const REGISTER[] = {"register_forward_hook", NULL};
  uint32_t name;
  for (uint32_t at = source_next_method_name(ctx->source, 0, REGISTER, &name); at != UINT32_MAX;
       at = source_next_method_name(ctx->source, at + 1, REGISTER, &name)) {
    TSNode call = call_of_method_name_at(ctx->root, at + 1, (uint32_t)strlen(REGISTER[0]));
    if (ts_node_is_null(call) || gpu101__hook_removed(ctx, call)) continue;
    Hook hook;
    if (gpu101__hook_of(ctx, call_positional(call, 0), facts_function_at(ctx->facts, call), &hook) &&
        !gpu101__hook_listed(hooks, hook.node)) {
      array_push(hooks, hook);
    }
  }
}

/* `output`, `output.grad_fn`, `output[0]`, `output.grad_fn.next_functions`:
 * the hook's output or a part or graph node of it, not a call's result
 * (`output.detach()`, `output.mean().item()`). */
static bool gpu101__is_output(const RuleContext *ctx, TSNode value, Text output) {
  value = node_unparenthesize(value);
  while (node_is(value, K_ATTRIBUTE) || node_is(value, K_SUBSCRIPT)) {
    if (node_is(value, K_ATTRIBUTE)) {
      Text attribute = node_text(ctx->source, node_field(value, F_ATTRIBUTE));
      if (!text_is(attribute, "grad_fn") && !text_is(attribute, "next_functions")) return false;
    }
    value = node_field(value, node_is(value, K_SUBSCRIPT) ? F_VALUE : F_OBJECT);
  }
  return node_is(value, K_IDENTIFIER) && text_eq(node_text(ctx->source, value), output);
}

/* Whether a container outside the hook is started afresh somewhere: a
 * list on `self` reset by a method, `feats.clear()`, or a plain name
 * bound more than once or inside a loop (the hook then appends to the
 * new list). */
static bool gpu101__hook_container_renewed(const RuleContext *ctx, Text container) {
  if (flow_container_emptied(ctx->flow, container, (TSNode){0})) return true;
  if (text_contains_ci(container, "self.") || memchr(container.ptr, '[', container.length)) return false;
  uint32_t bound = 0;
  for (int32_t function = -1; function < (int32_t)ctx->facts->functions.size; function++) {
    AssignIter it = facts_assigns(ctx->facts, container, function);
    for (const Assign *assign; (assign = assign_iter_next(&it));) {
      if (assign->augmented || assign->subscript) continue;
      if (assign->loop >= 0 || ++bound > 1) return true;
    }
  }
  return false;
}

static bool gpu101__bound_within(const RuleContext *ctx, Text name, const Hook *hook) {
  AssignIter it = facts_assigns(ctx->facts, name, hook->function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (node_contains(hook->node, assign->statement)) return true;
  }
  return false;
}

static bool gpu101__file_trains(const Facts *facts) {
  for (uint32_t i = 0; i < facts->events.size; i++) {
    if (facts->events.contents[i].kind == EV_BACKWARD) return true;
  }
  return false;
}

/* hook(module, inputs, output): self.nodes.append(output.grad_fn). The
 * graph node form is kept on purpose, so the output has a graph; a
 * tensor kept whole counts where the file trains (its forwards run with
 * grad on). */
static void gpu101__check_hook_store(RuleContext *ctx, const Event *store, const Hook *hook, bool trains) {
  Text method = call_method_name(ctx->source, store->node);
  if (!text_is(method, "append") && !text_is(method, "extend")) return;
  TSNode value = call_positional(store->node, 0);
  if (ts_node_is_null(value) || !gpu101__is_output(ctx, value, hook->output)) return;
  bool node_kept = !ts_node_is_null(gpu101__node_owner(ctx, value, store->function));
  if (!node_kept && !trains) return;
  if (!gpu101__grad_on(ctx, store->node, store->function)) return;
  if (gpu101__bound_within(ctx, store->target, hook)) return; /* a list of the hook's own call */
  if (gpu101__hook_container_renewed(ctx, store->target)) return;
  if (flow_feeds_backward(ctx->flow, store->target, store->function)) return;
  if (gpu101__backpropagated_elsewhere(ctx, store->target, store->function)) return;
  Text kept = node_text(ctx->source, value);
  Shown shown, hook_name;
  rule_shown(kept.ptr, kept.length, 24, &shown);
  rule_shown(hook->name.ptr, hook->name.length, 20, &hook_name);
  char by[64] = "a forward hook";
  if (hook->name.length) snprintf(by, sizeof by, "the forward hook `%s`", hook_name.text); /* each forward */
  if (!node_kept) { /* the output's own data stays on the GPU, backward or not */
    rule_report_on(ctx, store->node, GL_EFFECT_GPU_GROWTH, (Basis){.detail = GPU101_DETAIL_HOOK},
                   "`%s` is kept with its graph by %s: GPU memory grows; clear the list",
                   shown.text, by);
    return;
  }
  Basis basis = {.warning = trains, .detail = GPU101_DETAIL_NODE};
  rule_report_on(ctx, store->node, trains ? GL_EFFECT_HOST_GROWTH : GL_EFFECT_GPU_GROWTH, basis,
                 "`%s` is a graph node kept by %s: %s memory grows; keep `node.name()`", shown.text,
                 by, trains ? "host" : "GPU");
}

static void gpu101__check_hooks(RuleContext *ctx) {
  Hooks hooks = array_new();
  gpu101__collect_hooks(ctx, &hooks);
  bool trains = hooks.size > 0 && gpu101__file_trains(ctx->facts);
  for (uint32_t h = 0; h < hooks.size; h++) {
    const Hook *hook = array_get(&hooks, h);
    uint32_t first, end;
    facts_events_within(ctx->facts, hook->node, &first, &end);
    for (uint32_t i = first; i < end; i++) {
      const Event *event = array_get(&ctx->facts->events, i);
      if (event->kind == EV_STORE) gpu101__check_hook_store(ctx, event, hook, trains);
    }
  }
  array_delete(&hooks);
}

/* Stores count in a loop, or on `self` in a method (which runs once per
 * call, and is called again and again). Inside an nn.Module's methods
 * only stores on `self` count, and those in a loop over data (a module's
 * own `evaluate_ppl(dev_data)`), in a training loop (`train_epoch(self,
 * iter, loss, optimizer)`: a loop that reaches a backward or a step runs
 * over batches, whatever its iterable is named) or in a loop of forwards
 * after the method switched a module to eval mode (`validate(self, iter)`
 * after `self.eval()`): a forward that collects
 * its time steps in a local list and concatenates them keeps nothing past
 * the call. */
static bool gpu101__repeated(const Facts *facts, Text target, int32_t loop, int32_t function) {
  if (loop >= 0 && facts_loop_over_modules(facts, loop)) return false; /* model surgery: `model._modules[name] = ...` */
  bool on_self = text_contains_ci(target, "self.");
  uint32_t training = REACH(EV_BACKWARD) | REACH(EV_STEP);
  bool over_data = loop >= 0 && (gpu101__over_data(facts, loop) || (facts->loops.contents[loop].reaches & training));
  const Function *in = function >= 0 ? array_get(&facts->functions, (uint32_t)function) : NULL;
  if (in && in->in_module_class && !on_self && (!over_data || text_is(in->name, "forward"))) {
    return false; /* a module's own loop (chunks of its input) fills a list its call consumes */
  }
  if (in && in->in_module_class && on_self && gpu101__reset_by_the_module(facts, target, function)) return false;
  if (loop >= 0) return true;
  return function >= 0 && facts->functions.contents[function].class_index >= 0 && on_self &&
         !text_is(facts->functions.contents[function].name, "__init__");
}

static void gpu101_check(RuleContext *ctx) {
  const Facts *facts = ctx->facts;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind == EV_STORE && gpu101__repeated(facts, event->target, event->loop, event->function)) {
      gpu101__check_store(ctx, event);
    } else if (event->kind == EV_CALL && event->loop >= 0) {
      gpu101__check_helper_call(ctx, event);
    } else if (event->kind == EV_EXTERNAL && event->loop >= 0) {
      gpu101__check_external_call(ctx, event);
    }
  }
  for (uint32_t i = 0; i < facts->assigns.size; i++) {
    const Assign *assign = array_get(&facts->assigns, i);
    if (!assign->unpacked && gpu101__repeated(facts, assign->name, assign->loop, assign->function)) {
      gpu101__check_assign(ctx, assign);
    }
  }
  gpu101__check_hooks(ctx);
}

const Rule GPU101_TENSOR_KEPT_WITH_GRAPH = {
    .info =
        {
            .code = "GPU101",
            .name = "tensor-kept-with-graph",
            .summary = "A tensor that carries autograd history is kept across loop iterations.",
            .fix_hint = "Keep loss.item() or tensor.detach() instead of the tensor itself.",
            .effect = GL_EFFECT_GPU_GROWTH,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = gpu101_check,
};
