/* GPU401 clip-before-unscale
 *
 *   scaler = torch.cuda.amp.GradScaler()
 *   for x, y in loader:
 *       with torch.autocast("cuda"):
 *           loss = criterion(model(x), y)
 *       scaler.scale(loss).backward()
 *       torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)   <- reported
 *       scaler.step(optimizer)
 *       scaler.update()
 *
 * A scaled backward (`S.scale(loss).backward()`, where S was built from
 * GradScaler, or is only ever used as one) leaves gradients multiplied by
 * the scale (65536 at first). A clip of torch's (`clip_grad_norm_`,
 * `clip_grad_value_`, any import form) that follows it in the same
 * iteration with no `unscale_()` between compares the threshold against
 * those scaled gradients. The backward may sit in a helper of the file, or
 * in a project function handed the scaler; the clip may sit in a helper
 * called after the backward. Not reported: a scaler built with the literal
 * `enabled=False` or from another class, a clip on a path that excludes
 * the backward (`if scaler: ... else: loss.backward(); clip(...)`) or
 * on a branch that tests the scaler away (`else:` of `if scaler is not
 * None:`), an
 * `unscale_()` between them (directly, in a helper of the file, or in a
 * project function handed the scaler), `accelerator.clip_grad_norm_` (it
 * unscales first). */
#include <stdlib.h>
#include <string.h>

#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU401_DETAIL                                                                                             \
  "After scaler.scale(loss).backward() every gradient is multiplied by the scale (65536 at the start), so "      \
  "clip_grad_norm_ compares its threshold with a norm about 65536 times too large and scales every step down "  \
  "to a tiny update (clip_grad_value_ cuts at a value 65536 times too small); scaler.step() then divides by "   \
  "the scale again. Measured on an H100 (PyTorch 2.11, 4x2048 MLP, fp16 autocast, SGD, max_norm 1.0): the "     \
  "clip saw a norm of 1253 instead of 0.019, each step moved the parameters 1/1140 as far as the fixed "        \
  "loop's, and the loss did not fall in 30 steps."

#define SCAN_MAX_DEPTH 500

typedef struct {
  TSNode node;
  int32_t function;
} Site;

typedef Array(Site) Sites;

/* What the rule needs that the facts do not hold: the clips and the
 * unscale_() calls of the file, and which functions unscale. */
typedef struct {
  Sites clips;
  Sites unscales;
  bool *unscales_in; /* per function: it, or a helper it calls, runs unscale_() */
} Scan;

typedef enum { SCALER_UNKNOWN, SCALER_BUILT, SCALER_USED, SCALER_DISABLED, SCALER_OTHER } ScalerState;

/* ---- Finding the calls ----------------------------------------------------- */

static bool gpu401__is_clip(const char *qualified) {
  static const char *const CLIPS[] = {
      "torch.nn.utils.clip_grad_norm_",           "torch.nn.utils.clip_grad_norm",
      "torch.nn.utils.clip_grad_value_",          "torch.nn.utils.clip_grad.clip_grad_norm_",
      "torch.nn.utils.clip_grad.clip_grad_norm",  "torch.nn.utils.clip_grad.clip_grad_value_",
      "torch.nn.utils.clip_grads_with_norm_",     "torch.nn.utils.clip_grad.clip_grads_with_norm_",
      NULL};
  for (const char *const *clip = CLIPS; *clip; clip++) {
    if (strcmp(qualified, *clip) == 0) return true;
  }
  return false;
}

/* A call of the scan's interest: a clip of torch's, or `x.unscale_(...)`. */
static void gpu401__visit_call(const RuleContext *ctx, Scan *scan, TSNode call) {
  Text method = call_method_name(ctx->source, call);
  if (text_is(method, "unscale_")) {
    array_push(&scan->unscales, ((Site){call, facts_function_at(ctx->facts, call)}));
    return;
  }
  char buffer[128];
  if (gpu401__is_clip(facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer))) {
    array_push(&scan->clips, ((Site){call, facts_function_at(ctx->facts, call)}));
  }
}

/* Where the calls of interest can be: the byte offsets of `clip_grad` (a
 * clip of torch's however qualified), `unscale_`, and the local names that
 * imports and aliases bind to a clip (`from torch.nn.utils import
 * clip_grad_norm_ as clip`), in ascending order. The scan descends only
 * into the nodes that hold one, so a file with two clips is not walked
 * whole. */
typedef Array(uint32_t) Offsets;


/* Adds the offset of every occurrence of `word` in the source. */
static void gpu401__add_offsets(Offsets *offsets, const Source *source, Text word) {
  if (word.length == 0 || word.length > source->length) return;
  for (uint32_t at = 0; at + word.length <= source->length; at++) {
    if (source->bytes[at] == word.ptr[0] && memcmp(source->bytes + at, word.ptr, word.length) == 0) {
      array_push(offsets, at);
      at += word.length - 1;
    }
  }
}

static int gpu401__compare_offsets(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Whether an import or alias binds a clip (`value` holds `clip_grad`). */
static bool gpu401__binds_a_clip(const Binding *binding) {
  if (binding->kind != BIND_IMPORT && binding->kind != BIND_ALIAS) return false;
  for (uint32_t i = 0; i + 9 <= binding->value.length; i++) {
    if (memcmp(binding->value.ptr + i, "clip_grad", 9) == 0) return true;
  }
  return false;
}

static void gpu401__add_clip_names(Offsets *offsets, const Source *source, const Binding *bindings, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    if (gpu401__binds_a_clip(&bindings[i])) gpu401__add_offsets(offsets, source, bindings[i].name);
  }
}

static void gpu401__offsets(const RuleContext *ctx, Offsets *offsets) {
  gpu401__add_offsets(offsets, ctx->source, (Text){"clip_grad", 9});
  gpu401__add_offsets(offsets, ctx->source, (Text){"unscale_", 8});
  gpu401__add_clip_names(offsets, ctx->source, ctx->facts->imports.contents, ctx->facts->imports.size);
  gpu401__add_clip_names(offsets, ctx->source, ctx->facts->bindings.contents, ctx->facts->bindings.size);
  qsort(offsets->contents, offsets->size, sizeof(uint32_t), gpu401__compare_offsets);
}

/* The index of the first of the sorted `offsets` at or after `at`. */
static uint32_t gpu401__next_offset(const Offsets *offsets, uint32_t at) {
  uint32_t low = 0, high = offsets->size;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (offsets->contents[middle] < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/* Every call of interest under `node`, in source order, down to
 * SCAN_MAX_DEPTH: only the children that hold an offset are entered, each
 * found from the offset (`ts_node_first_child_for_byte`). */
static void gpu401__scan_node(const RuleContext *ctx, Scan *scan, const Offsets *offsets, TSNode node,
                              uint32_t depth) {
  if (node_is(node, K_CALL)) gpu401__visit_call(ctx, scan, node);
  if (depth >= SCAN_MAX_DEPTH) return;
  uint32_t at = ts_node_start_byte(node), end = ts_node_end_byte(node);
  for (uint32_t next = gpu401__next_offset(offsets, at); next < offsets->size; next = gpu401__next_offset(offsets, at)) {
    uint32_t offset = offsets->contents[next];
    if (offset >= end) return;
    TSNode child = ts_node_first_child_for_byte(node, offset);
    if (ts_node_is_null(child)) return;
    if (ts_node_start_byte(child) <= offset) gpu401__scan_node(ctx, scan, offsets, child, depth + 1);
    at = ts_node_end_byte(child) > offset ? ts_node_end_byte(child) : offset + 1;
  }
}

static void gpu401__scan_calls(const RuleContext *ctx, Scan *scan) {
  Offsets offsets = array_new();
  gpu401__offsets(ctx, &offsets);
  gpu401__scan_node(ctx, scan, &offsets, ctx->root, 0);
  array_delete(&offsets);
}

static void gpu401__settle_unscales(const Facts *facts, Scan *scan) {
  scan->unscales_in = gl_calloc(facts->functions.size + 1, sizeof(bool));
  for (uint32_t i = 0; i < scan->unscales.size; i++) {
    if (scan->unscales.contents[i].function >= 0) scan->unscales_in[scan->unscales.contents[i].function] = true;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < facts->events.size; i++) {
      const Event *event = array_get(&facts->events, i);
      if (event->kind != EV_CALL || event->function < 0 || !scan->unscales_in[event->callee]) continue;
      if (!scan->unscales_in[event->function]) scan->unscales_in[event->function] = changed = true;
    }
  }
}

/* ---- The scaler -------------------------------------------------------------- */

static bool gpu401__is_scaler_class(const char *qualified) {
  static const char *const SCALERS[] = {
      "torch.cuda.amp.GradScaler", "torch.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler",
      "torch.amp.grad_scaler.GradScaler", "torch.distributed.fsdp.sharded_grad_scaler.ShardedGradScaler",
      "torch.distributed.fsdp.ShardedGradScaler", NULL};
  for (const char *const *scaler = SCALERS; *scaler; scaler++) {
    if (strcmp(qualified, *scaler) == 0) return true;
  }
  return false;
}

/* What the value of an assignment to a scaler name builds:
 *   GradScaler(...)                        SCALER_BUILT
 *   GradScaler(enabled=False)              SCALER_DISABLED
 *   GradScaler() if amp else None          SCALER_BUILT (its branches are read)
 *   NativeScaler()                         SCALER_OTHER
 *   None, a name, anything else            SCALER_UNKNOWN */
static ScalerState gpu401__built_from(const RuleContext *ctx, TSNode value, int depth) {
  value = node_unparenthesize(value);
  if (node_is(value, K_CONDITIONAL_EXPRESSION) && depth < 4) {
    ScalerState found = SCALER_UNKNOWN;
    for (uint32_t i = 0; i < ts_node_named_child_count(value); i += 2) {
      ScalerState branch = gpu401__built_from(ctx, ts_node_named_child(value, i), depth + 1);
      if (branch == SCALER_BUILT || found == SCALER_UNKNOWN) found = branch;
    }
    return found;
  }
  if (!node_is(value, K_CALL)) return SCALER_UNKNOWN;
  char buffer[128];
  if (!gpu401__is_scaler_class(facts_qualify(ctx->facts, node_field(value, F_FUNCTION), buffer, sizeof buffer))) {
    return SCALER_OTHER;
  }
  TSNode enabled = call_keyword(ctx->source, value, "enabled");
  return !ts_node_is_null(enabled) && node_is(enabled, K_FALSE) ? SCALER_DISABLED : SCALER_BUILT;
}

/* What the file builds `name` (`scaler`, `self.scaler`) from, over all its
 * assignments: built from GradScaler wins; only disabled ones, or only
 * another class, say so; never assigned (a parameter, an attribute set
 * from one) is SCALER_USED: the `.scale(loss).backward()` that named it is
 * GradScaler's interface. */
static ScalerState gpu401__scaler_state(const RuleContext *ctx, Text name) {
  ScalerState state = SCALER_USED;
  for (uint32_t i = 0; i < ctx->facts->assigns.size; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (assign->augmented || assign->unpacked || assign->subscript || !text_eq(assign->name, name)) continue;
    ScalerState built = gpu401__built_from(ctx, assign->value, 0);
    if (built == SCALER_BUILT) return SCALER_BUILT;
    if (built != SCALER_UNKNOWN) state = built;
  }
  return state;
}

/* The scaler of `S.scale(loss).backward()`: S, or a null node. */
static TSNode gpu401__scaled_backward_scaler(const RuleContext *ctx, const Event *backward) {
  if (backward->kind != EV_BACKWARD || backward->flag) return (TSNode){0};
  TSNode scaled = node_unparenthesize(call_receiver(backward->node));
  if (ts_node_is_null(scaled) || !node_is(scaled, K_CALL) || !text_is(call_method_name(ctx->source, scaled), "scale")) {
    return (TSNode){0};
  }
  return call_receiver(scaled);
}

/* Whether a call's arguments mention one of the file's scalers by name:
 * `amp_backward(loss, scaler)`, `unscale_and_clip(self.scaler, opt)`. */
static bool gpu401__hands_a_scaler(const RuleContext *ctx, TSNode call) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); i++) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (node_is(argument, K_KEYWORD_ARGUMENT)) argument = node_field(argument, F_VALUE);
    if (!node_is(argument, K_IDENTIFIER) && !node_is(argument, K_ATTRIBUTE)) continue;
    if (gpu401__scaler_state(ctx, node_text(ctx->source, argument)) == SCALER_BUILT) return true;
  }
  return false;
}

/* ---- Paths without a scaler -------------------------------------------------- */

/* The name a condition tests a scaler by, and whether the test passes
 * when the scaler is there: `S` and `S is not None` (true), `not S` and
 * `S is None` (false); a null node for any other condition. */
static TSNode gpu401__tested(const RuleContext *ctx, TSNode condition, bool *present_when_true) {
  condition = node_unparenthesize(condition);
  *present_when_true = true;
  if (node_is(condition, K_NOT_OPERATOR)) {
    *present_when_true = false;
    condition = node_unparenthesize(node_field(condition, F_ARGUMENT));
  } else if (node_is(condition, K_COMPARISON_OPERATOR) && ts_node_named_child_count(condition) == 2 &&
             node_is(ts_node_named_child(condition, 1), K_NONE)) {
    Text text = node_text(ctx->source, condition);
    if (!text_ends_with(text, " is not None") && !text_ends_with(text, " is None")) return (TSNode){0};
    *present_when_true = text_ends_with(text, " is not None");
    condition = ts_node_named_child(condition, 0);
  }
  return node_is(condition, K_IDENTIFIER) || node_is(condition, K_ATTRIBUTE) ? condition : (TSNode){0};
}

/* Whether the file uses `name` as a GradScaler: it builds it from one,
 * or calls `name.unscale_()` or `name.scale(loss).backward()` (the scan's
 * unscales and the facts' backwards, not the text again). */
static bool gpu401__used_as_scaler(const RuleContext *ctx, const Scan *scan, Text name) {
  if (gpu401__scaler_state(ctx, name) == SCALER_BUILT) return true;
  for (uint32_t i = 0; i < scan->unscales.size; i++) {
    TSNode receiver = call_receiver(scan->unscales.contents[i].node);
    if (!ts_node_is_null(receiver) && text_eq(node_text(ctx->source, receiver), name)) return true;
  }
  for (uint32_t i = 0; i < ctx->facts->events.size; i++) {
    TSNode scaler = gpu401__scaled_backward_scaler(ctx, array_get(&ctx->facts->events, i));
    if (!ts_node_is_null(scaler) && text_eq(node_text(ctx->source, scaler), name)) return true;
  }
  return false;
}

/* Whether `site` runs on a branch that tests a scaler away:
 *   if scaler is not None: ...
 *   else: clip_grad_norm_(...)          <- no scaler here
 * (also `if scaler: ... else:`, `if scaler is None:`, `if not scaler:`). */
static bool gpu401__scaler_absent(const RuleContext *ctx, const Scan *scan, TSNode site) {
  int32_t function = facts_function_at(ctx->facts, site);
  TSNode scope = function >= 0 ? ctx->facts->functions.contents[function].node : ctx->root;
  for (TSNode branch = node_branch_of(site, scope); !ts_node_is_null(branch);
       branch = node_branch_of(ts_node_parent(branch), scope)) {
    TSNode choice = ts_node_parent(branch);
    if (!node_is(choice, K_IF_STATEMENT)) continue; /* an except clause */
    bool present_when_true;
    TSNode tested = gpu401__tested(ctx, node_field(choice, F_CONDITION), &present_when_true);
    if (ts_node_is_null(tested) || !gpu401__used_as_scaler(ctx, scan, node_text(ctx->source, tested))) continue;
    if (node_branch_is_consequence(branch) != present_when_true) return true;
  }
  return false;
}

/* ---- One clip ----------------------------------------------------------------- */

/* The scaled backward a clip follows, and how it was found. */
typedef struct {
  const Event *backward; /* the backward, or the project call that runs it */
  TSNode anchor;         /* its statement's node in the clip's scope */
  TSNode scaler;         /* the scaler's expression, or null (a project call) */
  int32_t function;      /* where the anchor sits */
} Scaled;

/* The loop of `function` whose one iteration is the step that holds
 * `node`: the innermost loop whose body holds it, or the loop around that
 * one when it runs no backward (`for model, opt in zip(models, opts):
 * clip(model.parameters()); scaler.step(opt)` after the step's one scaled
 * backward). Its body, or the function's (the module's) whole body when
 * no such loop holds it. */
static TSNode gpu401__scope(const RuleContext *ctx, TSNode node, int32_t function, bool *in_loop) {
  const Facts *facts = ctx->facts;
  int32_t step = facts_innermost_loop(facts, function, node, REACH(EV_BACKWARD));
  if (step < 0 && (function < 0 || !(facts->functions.contents[function].reaches & REACH(EV_BACKWARD)))) {
    step = facts_innermost_loop(facts, function, node, 0); /* no backward around: the clip's own loop */
  }
  *in_loop = step >= 0;
  if (step >= 0) return facts->loops.contents[step].body;
  return function >= 0 ? facts->functions.contents[function].node : ctx->root;
}

/* Whether `event`, seen through `anchor`, runs before `site` on a path
 * that also runs `site`. */
static bool gpu401__runs_before(TSNode anchor, TSNode site) {
  return ts_node_start_byte(anchor) < ts_node_start_byte(site) && !node_contains(anchor, site) &&
         !facts_exclusive(anchor, site);
}

/* The last scaled backward before `site` in its scope, through the helpers
 * of the file and the project functions handed a scaler. */
static bool gpu401__scaled_before(const RuleContext *ctx, TSNode scope, TSNode site, int32_t function, Scaled *out) {
  FlatEvents events = array_new();
  facts_flatten(ctx->facts, function, scope, &events);
  bool found = false;
  for (uint32_t i = 0; i < events.size; i++) {
    const FlatEvent *flat = array_get(&events, i);
    if (!gpu401__runs_before(flat->anchor, site)) continue;
    const Event *event = flat->event;
    TSNode scaler = gpu401__scaled_backward_scaler(ctx, event);
    bool project = event->kind == EV_EXTERNAL && (event->reaches & REACH(EV_BACKWARD)) &&
                   gpu401__hands_a_scaler(ctx, event->node);
    if (ts_node_is_null(scaler) && !project) continue;
    if (!project) {
      ScalerState state = gpu401__scaler_state(ctx, node_text(ctx->source, scaler));
      if (state != SCALER_BUILT && state != SCALER_USED) continue;
    }
    *out = (Scaled){event, flat->anchor, scaler, function};
    found = true;
  }
  array_delete(&events);
  return found;
}

/* Whether gradients are unscaled between `after` (a null node: the
 * scope's start) and `site`: an `unscale_()` there, a helper of the file
 * that runs one, or a project function handed the scaler that runs no
 * backward (its text is not at hand: it may unscale, so it is taken to). */
static bool gpu401__unscaled_between(const RuleContext *ctx, const Scan *scan, TSNode scope, TSNode after,
                                     TSNode site, int32_t function) {
  uint32_t from = ts_node_is_null(after) ? ts_node_start_byte(scope) : ts_node_start_byte(after);
  for (uint32_t i = 0; i < scan->unscales.size; i++) {
    const Site *unscale = array_get(&scan->unscales, i);
    if (unscale->function != function || !node_contains(scope, unscale->node)) continue;
    if (ts_node_start_byte(unscale->node) >= from && gpu401__runs_before(unscale->node, site)) return true;
  }
  uint32_t first, end;
  facts_events_within(ctx->facts, scope, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *event = array_get(&ctx->facts->events, i);
    if (event->function != function || ts_node_start_byte(event->node) < from) continue;
    bool unscales = (event->kind == EV_CALL && scan->unscales_in[event->callee]) ||
                    (event->kind == EV_EXTERNAL && !(event->reaches & REACH(EV_BACKWARD)) &&
                     gpu401__hands_a_scaler(ctx, event->node));
    if (unscales && (ts_node_eq(event->node, after) || gpu401__runs_before(event->node, site))) return true;
  }
  return false;
}

/* Whether the clip that `site` leads to (the clip itself, or a call of the
 * helper holding it) runs on scaled gradients; fills `out` with the
 * backward. A clip in a helper with no backward of its own before it is
 * judged at each call of the helper in the file, a few calls deep. */
static bool gpu401__clips_scaled(const RuleContext *ctx, const Scan *scan, TSNode site, int32_t function,
                                 int depth, Scaled *out) {
  bool in_loop;
  if (gpu401__scaler_absent(ctx, scan, site)) return false;
  TSNode scope = gpu401__scope(ctx, site, function, &in_loop);
  if (gpu401__scaled_before(ctx, scope, site, function, out)) {
    return !gpu401__unscaled_between(ctx, scan, scope, out->anchor, site, function);
  }
  if (in_loop || function < 0 || depth >= 3) return false;
  if (gpu401__unscaled_between(ctx, scan, scope, (TSNode){0}, site, function)) return false;
  for (uint32_t i = 0; i < ctx->facts->events.size; i++) {
    const Event *call = array_get(&ctx->facts->events, i);
    if (call->kind != EV_CALL || call->callee != function || call->function == function) continue;
    if (gpu401__clips_scaled(ctx, scan, call->node, call->function, depth + 1, out)) return true;
  }
  return false;
}

/* ---- Reporting ------------------------------------------------------------------ */

/* The optimizer `scaler.step(X)` steps in `function`: X of the first such
 * step after `clip` (the one the clipped gradients feed), else of the
 * last before it; empty text when there is none. */
static Text gpu401__stepped_optimizer(const RuleContext *ctx, Text scaler, int32_t function, TSNode clip) {
  Text found = {"", 0};
  for (uint32_t i = 0; i < ctx->facts->events.size; i++) {
    const Event *step = array_get(&ctx->facts->events, i);
    if (step->kind != EV_STEP || step->function != function) continue;
    TSNode receiver = call_receiver(step->node), optimizer = call_positional(step->node, 0);
    if (ts_node_is_null(receiver) || ts_node_is_null(optimizer)) continue;
    if (!text_eq(node_text(ctx->source, receiver), scaler)) continue;
    found = node_text(ctx->source, optimizer);
    if (ts_node_start_byte(step->node) > ts_node_start_byte(clip)) break;
  }
  return found;
}

/* Fix (unsafe: it changes the gradients the step applies, which is the
 * point, and a second `unscale_()` of the same optimizer before update()
 * raises): `scaler.unscale_(optimizer)` on a line of its own before the
 * clip's statement, with the names the loop uses. Only when the clip sits
 * beside the scaled backward and the scaler steps one optimizer there. */
static void gpu401__fix(const RuleContext *ctx, GlFinding *finding, const Scaled *scaled, const Site *clip) {
  if (!finding || ts_node_is_null(scaled->scaler) || scaled->function != clip->function ||
      scaled->backward->function != clip->function) {
    return;
  }
  Text scaler = node_text(ctx->source, scaled->scaler);
  Text optimizer = gpu401__stepped_optimizer(ctx, scaler, clip->function, clip->node);
  TSNode statement = fix_statement_of(clip->node);
  if (optimizer.length == 0 || ts_node_is_null(statement)) return;
  uint32_t start = ts_node_start_byte(statement);
  Text indent = fix_indent_at(ctx->source, start);
  const char *line = ctx->source->bytes + start - indent.length;
  if (start < indent.length || memcmp(line, indent.ptr, indent.length) != 0 ||
      (start > indent.length && line[-1] != '\n')) {
    return; /* code precedes the statement on its line */
  }
  char *content = gl_format("%.*s.unscale_(%.*s)%s%.*s", (int)scaler.length, scaler.ptr, (int)optimizer.length,
                            optimizer.ptr, fix_newline(ctx->source), (int)indent.length, indent.ptr);
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Insert `%.*s.unscale_(%.*s)` before the clip",
                       (int)scaler.length, scaler.ptr, (int)optimizer.length, optimizer.ptr);
  fix_replace(fix, ctx->source, start, start, content);
  free(content);
  fix_finish(finding);
}

static void gpu401__report(RuleContext *ctx, const Site *clip, const Scaled *scaled) {
  Text callee = text_last_segment(call_function_text(ctx->source, clip->node));
  Shown name, scaler;
  rule_shown(callee.ptr, callee.length, 24, &name);
  Text scaler_text = ts_node_is_null(scaled->scaler) ? (Text){"the scaler", 10} : node_text(ctx->source, scaled->scaler);
  rule_shown(scaler_text.ptr, scaler_text.length, 24, &scaler);
  Where where;
  rule_where(ctx, scaled->anchor, &where);
  GlFinding *finding = rule_report_on(ctx, clip->node, GL_EFFECT_WRONG_GRADIENTS, (Basis){.detail = GPU401_DETAIL},
                                      "`%s()` clips scaled gradients (backward at %s); call `%s.unscale_()` first",
                                      name.text, where.text, scaler.text);
  gpu401__fix(ctx, finding, scaled, clip);
}

static void gpu401_check(RuleContext *ctx) {
  const Source *source = ctx->source;
  if (!strstr(source->bytes, "clip_grad") || !strstr(source->bytes, "scale")) return; /* bytes end with a NUL */
  Scan scan = {array_new(), array_new(), NULL};
  gpu401__scan_calls(ctx, &scan);
  if (scan.clips.size) {
    gpu401__settle_unscales(ctx->facts, &scan);
    for (uint32_t i = 0; i < scan.clips.size; i++) {
      const Site *clip = array_get(&scan.clips, i);
      Scaled scaled;
      if (gpu401__clips_scaled(ctx, &scan, clip->node, clip->function, 0, &scaled)) gpu401__report(ctx, clip, &scaled);
    }
  }
  free(scan.unscales_in);
  array_delete(&scan.clips);
  array_delete(&scan.unscales);
}

const Rule GPU401_CLIP_BEFORE_UNSCALE = {
    .info =
        {
            .code = "GPU401",
            .name = "clip-before-unscale",
            .summary = "Gradients are clipped while a GradScaler still scales them: unscale_() is missing "
                       "before clip_grad_norm_.",
            .fix_hint = "Call scaler.unscale_(optimizer) after the scaled backward and before clipping.",
            .effect = GL_EFFECT_WRONG_GRADIENTS,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = gpu401_check,
};
