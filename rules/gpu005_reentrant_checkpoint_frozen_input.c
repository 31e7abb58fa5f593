/* GPU005 reentrant-checkpoint-frozen-input
 *
 *   class Encoder(nn.Module):
 *       def __init__(self, vectors):
 *           self.embed = nn.Embedding.from_pretrained(vectors)   # frozen
 *           self.blocks = nn.ModuleList(Block() for _ in range(6))
 *       def forward(self, ids):
 *           h = self.embed(ids)
 *           for block in self.blocks:
 *               h = checkpoint(block, h)          <- reported: nothing passed in requires grad
 *
 * The reentrant implementation of activation checkpointing
 * (`use_reentrant=True`, and PyTorch's default when it is left out) runs
 * the block under no_grad and hooks the backward onto its inputs: when
 * none of them requires grad, the output requires none either, and the
 * parameters inside the block never get a gradient. Reported: a
 * `torch.utils.checkpoint.checkpoint` or `checkpoint_sequential` (or
 * DeepSpeed's, always reentrant) with grad on, whose function is a module
 * or a module's method with parameters of its own, and whose every tensor
 * input is shown to require no grad: a frozen embedding's output
 * (`requires_grad_(False)` on it or its weight, `.weight.requires_grad =
 * False`, a `Parameter` without grad, `Embedding.from_pretrained` which
 * freezes by default; none unfrozen anywhere in the file), `.detach()`, a
 * value computed under `no_grad`, a torch factory, an element of a
 * loader's batch, or the model's own input (a parameter of a module's
 * forward that every call of the module in the file feeds such data).
 *
 * Across files (partial.h): a block whose inputs are its forward's
 * parameters is reported when a training script freezes the model whole,
 * unfreezes layers by name, turns checkpointing on, and the walk of the
 * model's forward shows nothing unfrozen running before the block.
 *
 * Not reported: `use_reentrant=False`, a flag that is not the literal True,
 * `**kwargs` that may hold it, an input that may require grad (the output
 * of a trainable layer, a parameter of the function whose callers the
 * walk cannot follow), a checkpoint under no_grad. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partial.h"
#include "roles.h"
#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU005_DETAIL                                                                                               \
  "The reentrant checkpoint runs the function under no_grad and attaches the backward to its inputs; when no "   \
  "input requires grad, the output requires none and the parameters inside the checkpointed function get no "     \
  "gradient (PyTorch warns \"None of the inputs have requires_grad=True\"). Measured on an H100 (PyTorch 2.11, " \
  "an MLP block behind a frozen embedding): the block's parameters moved 0 per step with use_reentrant=True, "   \
  "against 0.0179 per step with use_reentrant=False."

/* How deep the evidence for an input is followed (`h = x.to(d)`, `x =
 * self.embed(ids)`, ...). */
#define GPU005_DEPTH 6

/* Tensor methods whose result requires grad exactly when the receiver does. */
static const char *const GPU005_SAME_GRAD_METHODS[] = {
    "to", "cuda", "half", "float", "bfloat16", "double", "contiguous", "view", "reshape", "permute",
    "transpose", "unsqueeze", "squeeze", "flatten", "type", "clone", "expand", "mean", "sum", NULL};

/* ---- The call ------------------------------------------------------------------------------ */

typedef enum { CHECKPOINT_NONE, CHECKPOINT_ONE, CHECKPOINT_SEQUENTIAL, CHECKPOINT_DEEPSPEED } CheckpointKind;

static CheckpointKind gpu005__kind(const RuleContext *ctx, TSNode call) {
  char buffer[96];
  const char *qualified = facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  if (strcmp(qualified, "torch.utils.checkpoint.checkpoint") == 0) return CHECKPOINT_ONE;
  if (strcmp(qualified, "torch.utils.checkpoint.checkpoint_sequential") == 0) return CHECKPOINT_SEQUENTIAL;
  if (strcmp(qualified, "deepspeed.checkpointing.checkpoint") == 0) return CHECKPOINT_DEEPSPEED;
  return CHECKPOINT_NONE;
}

/* ---- The checkpointed function ------------------------------------------------------------ */

/* Whether `self.name` names a method of the module class `function` sits in. */
static bool gpu005__own_method(const Facts *facts, Text name, int32_t function) {
  int32_t class_index = facts_class_of_function(facts, function);
  if (class_index < 0 || !facts->classes.contents[class_index].is_module) return false;
  Text stripped = text_strip_self(name);
  if (stripped.length == name.length) return false;
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *method = array_get(&facts->functions, i);
    if (method->class_index == class_index && text_eq(method->name, stripped)) return true;
  }
  return false;
}

typedef bool (*LoopTest)(const Facts *facts, int32_t loop);

/* Whether `name` is a target of a for loop of `function` that holds `at`
 * and passes `test`: `for block in self.blocks:` (facts_loop_over_modules),
 * `for ids, labels in loader:` (facts_loop_iterates_data). */
static bool gpu005__loop_target(const Facts *facts, Text name, int32_t function, uint32_t at, LoopTest test) {
  for (uint32_t i = 0; i < facts->loops.size; i++) {
    const Loop *loop = array_get(&facts->loops, i);
    if (loop->function != function || !node_is(loop->node, K_FOR_STATEMENT)) continue;
    if (at < ts_node_start_byte(loop->body) || at >= ts_node_end_byte(loop->body)) continue;
    if (test(facts, (int32_t)i) && text_mentions(node_text(facts->source, node_field(loop->node, F_LEFT)), name)) {
      return true;
    }
  }
  return false;
}

/* Whether the checkpointed `fn` has parameters that train: a module shown
 * by evidence and not frozen (`block`, `self.layers`), its `.forward`, a
 * method of this module (`self._forward`) or of a module (`net.features`), a
 * layer of a loop over a module's layers, or a wrapper built around a
 * module (`custom_forward(layer)`). */
static bool gpu005__trains(const RuleContext *ctx, TSNode fn, int32_t function, int depth) {
  fn = node_unparenthesize(fn);
  if (node_is(fn, K_CALL) && depth > 0) {
    for (uint32_t i = 0; i < call_positional_count(fn); i++) {
      if (gpu005__trains(ctx, call_positional(fn, i), function, depth - 1)) return true;
    }
    return false;
  }
  if (node_is(fn, K_SUBSCRIPT)) fn = node_field(fn, F_VALUE); /* `self.blocks[0]`: a layer of the stack */
  if (!node_is(fn, K_IDENTIFIER) && !node_is(fn, K_ATTRIBUTE)) return false;
  Text name = node_text(ctx->source, fn);
  if (text_is(text_last_segment(name), "forward") && node_is(fn, K_ATTRIBUTE)) {
    return gpu005__trains(ctx, node_field(fn, F_OBJECT), function, depth);
  }
  if (gpu005__own_method(ctx->facts, name, function)) return !roles_frozen(ctx->facts, (Text){"self", 4});
  if (roles_frozen(ctx->facts, name)) return false;
  if (roles_module(ctx->facts, name, function) == ROLE_EVIDENCE) return true;
  if (node_is(fn, K_IDENTIFIER)) {
    return gpu005__loop_target(ctx->facts, name, function, ts_node_start_byte(fn), facts_loop_over_modules);
  }
  TSNode object = node_field(fn, F_OBJECT); /* `net.features`: a method or a submodule of a module */
  return roles_module(ctx->facts, node_text(ctx->source, object), function) == ROLE_EVIDENCE &&
         !roles_frozen(ctx->facts, node_text(ctx->source, object));
}

/* ---- Inputs that require no grad ---------------------------------------------------------- */

/* Why an input requires no grad, for the message. */
typedef struct {
  TSNode node; /* the expression or assignment that shows it */
  const char *what;
} NoGrad;

static bool gpu005__no_grad(const RuleContext *ctx, TSNode value, int32_t function, uint32_t at, int depth,
                            NoGrad *why);

/* The first assignment of `name` in `function` or, inside a class, in
 * any method of that class (`self.embed = ...` in __init__); NULL. */
static const Assign *gpu005__assignment_in_scope(const Facts *facts, Text name, int32_t function) {
  AssignIter it = facts_assigns(facts, name, function);
  const Assign *found = assign_iter_next(&it);
  int32_t class_index = facts_class_of_function(facts, function);
  for (uint32_t i = 0; !found && class_index >= 0 && i < facts->functions.size; i++) {
    if (facts->functions.contents[i].class_index != class_index) continue;
    it = facts_assigns(facts, name, (int32_t)i);
    found = assign_iter_next(&it);
  }
  return found;
}

/* The call `module` was built from (`nn.Embedding(...)`, seen through
 * `.cuda()` and `.to()`), or a null node. */
static TSNode gpu005__built_from(const Facts *facts, Text module, int32_t function) {
  const Assign *assign = gpu005__assignment_in_scope(facts, module, function);
  TSNode built = assign ? node_unparenthesize(assign->value) : (TSNode){0};
  while (node_is(built, K_CALL) && roles_returns_receiver(call_method_name(facts->source, built)) &&
         node_is(call_receiver(built), K_CALL)) {
    built = call_receiver(built); /* nn.Embedding.from_pretrained(v).cuda() */
  }
  return node_is(built, K_CALL) ? built : (TSNode){0};
}

/* Whether `flag` (a null node when absent) is the literal False. */
static bool gpu005__false(TSNode flag) {
  return !ts_node_is_null(flag) && node_is(node_unparenthesize(flag), K_FALSE);
}

/* The flag a `requires_grad_(...)` call passes, or a null node. */
static TSNode gpu005__requires_grad_flag(const Source *source, TSNode call) {
  TSNode flag = call_positional(call, 0);
  return ts_node_is_null(flag) ? call_keyword(source, call, "requires_grad") : flag;
}

/* The weight of `module` made to require no grad in `function` or its
 * class: `module.weight.requires_grad = False`, or a new weight
 * `module.weight = nn.Parameter(v, requires_grad=False)`. */
static bool gpu005__weight_frozen(const RuleContext *ctx, Text module, int32_t function) {
  char name[160];
  int length = snprintf(name, sizeof name, "%.*s.weight.requires_grad", (int)module.length, module.ptr);
  if (length <= 0 || (size_t)length >= sizeof name) return false;
  const Assign *assign = gpu005__assignment_in_scope(ctx->facts, (Text){name, (uint32_t)length}, function);
  if (assign && gpu005__false(assign->value)) return true;
  Text weight = {name, (uint32_t)length - (uint32_t)strlen(".requires_grad")};
  assign = gpu005__assignment_in_scope(ctx->facts, weight, function);
  TSNode value = assign ? node_unparenthesize(assign->value) : (TSNode){0};
  if (!node_is(value, K_CALL) || !text_ends_with(call_function_text(ctx->source, value), "Parameter")) return false;
  TSNode flag = call_keyword(ctx->source, value, "requires_grad");
  return gpu005__false(ts_node_is_null(flag) ? call_positional(value, 1) : flag);
}

/* Whether `module` was frozen where it was built:
 * `nn.Embedding(n, d).requires_grad_(False)`. */
static bool gpu005__frozen_when_built(const RuleContext *ctx, Text module, int32_t function) {
  const Assign *assign = gpu005__assignment_in_scope(ctx->facts, module, function);
  TSNode value = assign ? node_unparenthesize(assign->value) : (TSNode){0};
  for (; node_is(value, K_CALL) && roles_returns_receiver(call_method_name(ctx->source, value));
       value = call_receiver(value)) {
    if (text_is(call_method_name(ctx->source, value), "requires_grad_") &&
        gpu005__false(gpu005__requires_grad_flag(ctx->source, value))) {
      return true;
    }
  }
  return false;
}

/* Whether the file sets `requires_grad` of `module` or of its weight to
 * anything but False (`module.requires_grad_(True)` in an unfreeze
 * method, `module.weight.requires_grad = flag`): the order of freezing
 * and unfreezing is not shown, so the embedding may train. */
static bool gpu005__unfrozen_somewhere(const RuleContext *ctx, Text module) {
  const Source *source = ctx->source;
  for (const char *at = strstr(source->bytes, "requires_grad"); at; at = strstr(at + 1, "requires_grad")) {
    uint32_t start = (uint32_t)(at - source->bytes);
    TSNode name = ts_node_descendant_for_byte_range(ctx->root, start, start + 1);
    TSNode attribute = ts_node_parent(name);
    if (!node_is(name, K_IDENTIFIER) || !node_is(attribute, K_ATTRIBUTE)) continue;
    Text object = node_text(source, node_field(attribute, F_OBJECT));
    bool weight = object.length == module.length + 7 && text_owns(module, object) &&
                  text_is(text_last_segment(object), "weight");
    if (!text_eq(object, module) && !weight) continue;
    TSNode parent = ts_node_parent(attribute), flag = {0};
    if (node_is(parent, K_CALL) && text_is(node_text(source, name), "requires_grad_")) {
      flag = gpu005__requires_grad_flag(source, parent);
    } else if (node_is(parent, K_ASSIGNMENT) && ts_node_eq(node_field(parent, F_LEFT), attribute)) {
      flag = node_field(parent, F_RIGHT);
    } else {
      continue;
    }
    if (!gpu005__false(flag)) return true;
  }
  return false;
}

/* Whether `module` is an embedding whose weights do not train: frozen by
 * the file (the module or its weight: `requires_grad_(False)`, also where
 * it is built, `requires_grad = False`, a new `Parameter` that requires no
 * grad) and unfrozen nowhere, or built by `Embedding.from_pretrained`
 * without `freeze=False`.
 * An embedding takes indices, so its output requires grad only through
 * its weight. */
static bool gpu005__frozen_embedding(const RuleContext *ctx, Text module, int32_t function) {
  TSNode built = gpu005__built_from(ctx->facts, module, function);
  if (ts_node_is_null(built)) return false;
  Text constructor = call_function_text(ctx->source, built);
  if (gpu005__unfrozen_somewhere(ctx, module)) return false;
  if (text_ends_with(constructor, "Embedding.from_pretrained")) {
    TSNode freeze = call_keyword(ctx->source, built, "freeze");
    return ts_node_is_null(freeze) || !node_is(node_unparenthesize(freeze), K_FALSE);
  }
  if (!text_ends_with(constructor, "Embedding")) return false;
  char weight[160];
  int length = snprintf(weight, sizeof weight, "%.*s.weight", (int)module.length, module.ptr);
  bool weight_named = length > 0 && (size_t)length < sizeof weight;
  return roles_frozen(ctx->facts, module) || gpu005__frozen_when_built(ctx, module, function) ||
         (weight_named && roles_frozen(ctx->facts, (Text){weight, (uint32_t)length})) ||
         gpu005__weight_frozen(ctx, module, function);
}

/* Whether parameter `name` of a module class's `forward` (`function`)
 * is handed data that needs no grad by every call of that class's
 * instances in the file, of which there is one at least:
 *   for images, labels in loader:
 *       loss = criterion(model(images.cuda()), labels)   <- `x` of Net.forward
 * The model's raw input reaches its first checkpointed block unchanged. */
static bool gpu005__forward_fed_no_grad(const RuleContext *ctx, Text name, int32_t function, int depth, NoGrad *why) {
  const Facts *facts = ctx->facts;
  const Function *forward = array_get(&facts->functions, (uint32_t)function);
  if (!text_is(forward->name, "forward") || forward->class_index < 0) return false;
  Text class_name = facts->classes.contents[forward->class_index].name;
  int32_t position = -1;
  for (uint32_t i = 0; i < SUMMARY_MAX_PARAMETERS && position < 0; i++) {
    Text parameter = facts_parameter(facts, function, i);
    if (parameter.length == 0) return false;
    if (text_eq(parameter, name)) position = (int32_t)i;
  }
  uint32_t calls = 0;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind != EV_FORWARD || event->function == function) continue;
    Text constructor = facts_constructor_of(facts, event->target);
    if (constructor.length == 0 || !text_eq(text_last_segment(constructor), class_name)) continue;
    TSNode argument = call_positional(event->node, (uint32_t)position);
    NoGrad found;
    if (ts_node_is_null(argument) ||
        !gpu005__no_grad(ctx, argument, event->function, ts_node_start_byte(event->node), depth - 1, &found)) {
      return false;
    }
    if (calls++ == 0) *why = (NoGrad){found.node, "the model's input data"};
  }
  return calls > 0;
}

/* A name: its last assignment before `at` in `function`, a loop's batch,
 * or a parameter of a module's forward that its callers feed data. */
static bool gpu005__name_no_grad(const RuleContext *ctx, TSNode name_node, int32_t function, uint32_t at, int depth,
                                 NoGrad *why) {
  Text name = node_text(ctx->source, name_node);
  const Assign *last = NULL;
  AssignIter it = facts_assigns(ctx->facts, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it)) && ts_node_end_byte(assign->statement) <= at;) {
    if (!assign->augmented) last = assign; /* in source order: the last one before `at` wins */
  }
  if (!last) {
    if (function >= 0 && node_is(name_node, K_IDENTIFIER) &&
        gpu005__forward_fed_no_grad(ctx, name, function, depth, why)) {
      return true;
    }
    if (!gpu005__loop_target(ctx->facts, name, function, at, facts_loop_iterates_data)) return false;
    *why = (NoGrad){name_node, "loader batch data"};
    return true;
  }
  if (last->subscript) return false;
  TSNode value = last->value;
  if (last->unpacked) { /* `x, y = x.cuda(), y.cuda()`: the element at its place */
    if (!node_is(value, K_EXPRESSION_LIST) && !node_is(value, K_TUPLE)) return false;
    if (last->position == UNPACKED_DEEP || last->position >= ts_node_named_child_count(value)) return false;
    value = ts_node_named_child(value, last->position);
  }
  if (facts_grad_mode_at(ctx->facts, last->statement, function) != GRAD_ON) {
    *why = (NoGrad){last->statement, "under no_grad"};
    return true;
  }
  return gpu005__no_grad(ctx, value, function, ts_node_start_byte(last->statement), depth - 1, why);
}

static bool gpu005__inputs_need_no_grad(const RuleContext *ctx, TSNode call, uint32_t first, int32_t function,
                                        int depth, NoGrad *why);

/* A call: `.detach()`, a conversion of a value that needs none, a frozen
 * embedding's forward, a torch factory without `requires_grad=True`, a
 * reentrant checkpoint whose inputs need none (its output needs none). */
static bool gpu005__call_no_grad(const RuleContext *ctx, TSNode call, int32_t function, uint32_t at, int depth,
                                 NoGrad *why) {
  Text method = call_method_name(ctx->source, call);
  if (text_is(method, "detach")) {
    *why = (NoGrad){call, "detached"};
    return true;
  }
  if (text_in(method, GPU005_SAME_GRAD_METHODS)) {
    return gpu005__no_grad(ctx, call_receiver(call), function, at, depth - 1, why);
  }
  CheckpointKind kind = gpu005__kind(ctx, call);
  if (kind != CHECKPOINT_NONE) {
    return partial_reentrant(ctx->facts, call) &&
           gpu005__inputs_need_no_grad(ctx, call, kind == CHECKPOINT_SEQUENTIAL ? 2 : 1, function, depth - 1, why);
  }
  if (roles_forward(ctx->facts, call, function) == ROLE_EVIDENCE) {
    Text module = roles_forward_module(ctx->facts, call);
    if (!gpu005__frozen_embedding(ctx, module, function)) return false;
    *why = (NoGrad){call, "frozen embedding"};
    return true;
  }
  char buffer[96];
  const char *qualified = facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  static const char *const FACTORIES[] = {"torch.zeros", "torch.ones", "torch.randn", "torch.rand", "torch.empty",
                                          "torch.full", "torch.tensor", "torch.arange", NULL};
  if (!text_in((Text){qualified, (uint32_t)strlen(qualified)}, FACTORIES)) return false;
  TSNode requires = call_keyword(ctx->source, call, "requires_grad");
  if (!ts_node_is_null(requires) && !node_is(node_unparenthesize(requires), K_FALSE)) return false;
  *why = (NoGrad){call, "new tensor"};
  return true;
}

/* Whether `value`, at byte `at` of `function`, is shown to require no grad. */
static bool gpu005__no_grad(const RuleContext *ctx, TSNode value, int32_t function, uint32_t at, int depth,
                            NoGrad *why) {
  value = node_unparenthesize(value);
  if (depth <= 0 || ts_node_is_null(value)) return false;
  if (node_is(value, K_IDENTIFIER) || node_is(value, K_ATTRIBUTE)) {
    return gpu005__name_no_grad(ctx, value, function, at, depth, why);
  }
  if (node_is(value, K_COMPARISON_OPERATOR)) {
    *why = (NoGrad){value, "comparison"};
    return true;
  }
  return node_is(value, K_CALL) && gpu005__call_no_grad(ctx, value, function, at, depth, why);
}

/* Whether every input the call hands the function (positional arguments
 * from `first` on) is a constant or shown to require no grad, and one is
 * a tensor; `why` tells about the first tensor. */
static bool gpu005__inputs_need_no_grad(const RuleContext *ctx, TSNode call, uint32_t first, int32_t function,
                                        int depth, NoGrad *why) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  bool tensor = false;
  uint32_t position = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments); i++) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (node_is(argument, K_KEYWORD_ARGUMENT) || node_is(argument, K_COMMENT)) continue;
    if (strcmp(ts_node_type(argument), "list_splat") == 0 || strcmp(ts_node_type(argument), "dictionary_splat") == 0) {
      return false; /* `*inputs`: what they hold is not shown */
    }
    if (position++ < first || node_is_literal(argument)) continue;
    NoGrad found;
    if (!gpu005__no_grad(ctx, argument, function, ts_node_start_byte(call), depth, &found)) return false;
    if (!tensor) *why = found;
    tensor = true;
  }
  return tensor;
}

/* ---- Fix ----------------------------------------------------------------------------------- */

/* Fix: `use_reentrant=False`, in place of `True` or added last. Unsafe:
 * the parameters inside now get gradients, so training changes (that is
 * the point), and the non-reentrant implementation differs in corner
 * cases (`torch.autograd.grad` inside the function, hooks). */
static void gpu005__fix(const RuleContext *ctx, GlFinding *finding, TSNode call, CheckpointKind kind) {
  if (!finding || kind == CHECKPOINT_DEEPSPEED) return;
  TSNode flag = call_keyword(ctx->source, call, "use_reentrant");
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Use the non-reentrant checkpoint: `use_reentrant=False`");
  if (!ts_node_is_null(flag)) {
    fix_replace(fix, ctx->source, ts_node_start_byte(flag), ts_node_end_byte(flag), "False");
  } else {
    TSNode arguments = node_field(call, F_ARGUMENTS);
    TSNode last = ts_node_named_child(arguments, ts_node_named_child_count(arguments) - 1);
    fix_replace(fix, ctx->source, ts_node_end_byte(last), ts_node_end_byte(last), ", use_reentrant=False");
  }
  fix_finish(finding);
}

/* ---- Check --------------------------------------------------------------------------------- */

/* The checkpoints of the file that a training script's plan starves
 * (partial.h), asked once per file at the first call that needs them. */
typedef struct {
  RuleContext *ctx;
  bool asked;
  PartialStarvedList starved;
} Gpu005Scan;

/* A block of a model that a training script freezes as a whole and
 * unfreezes by name (partial.h): its inputs are the forward's
 * parameters, and the walk from the script's model class shows that
 * nothing trained runs before it. */
static void gpu005__visit_partial(Gpu005Scan *scan, TSNode call, CheckpointKind kind, int32_t function) {
  RuleContext *ctx = scan->ctx;
  if (function < 0 || !text_is(ctx->facts->functions.contents[function].name, "forward")) return;
  int32_t class_index = ctx->facts->functions.contents[function].class_index;
  if (class_index < 0 || !ctx->facts->classes.contents[class_index].is_module) return;
  if (!scan->asked) partial_starved_checkpoints(ctx->links, &scan->starved);
  scan->asked = true;
  uint32_t line = ts_node_start_point(call).row + 1;
  const PartialStarved *why = NULL;
  for (uint32_t i = 0; i < scan->starved.size && !why; i++) {
    if (scan->starved.contents[i].line == line) why = &scan->starved.contents[i];
  }
  if (!why) return;
  Shown block, script;
  Text fn_text = node_text(ctx->source, call_positional(call, 0));
  GlFinding *finding = rule_report_on(
      ctx, call, GL_EFFECT_WRONG_GRADIENTS, (Basis){.detail = GPU005_DETAIL},
      "reentrant checkpoint of `%s` gets no grad: %s froze the model before it",
      rule_shown(fn_text.ptr, fn_text.length, 16, &block),
      rule_shown(why->script, (uint32_t)strlen(why->script), 24, &script));
  gpu005__fix(ctx, finding, call, kind);
}

static void gpu005__visit(Gpu005Scan *scan, TSNode call) {
  RuleContext *ctx = scan->ctx;
  CheckpointKind kind = gpu005__kind(ctx, call);
  if (kind == CHECKPOINT_NONE || !partial_reentrant(ctx->facts, call)) return;
  int32_t function = facts_function_at(ctx->facts, call);
  if (facts_grad_mode_at(ctx->facts, call, function) != GRAD_ON) return;
  TSNode fn = call_positional(call, 0);
  uint32_t first_input = kind == CHECKPOINT_SEQUENTIAL ? 2 : 1;
  NoGrad why;
  if (ts_node_is_null(fn)) return;
  if (!gpu005__trains(ctx, fn, function, 2) ||
      !gpu005__inputs_need_no_grad(ctx, call, first_input, function, GPU005_DEPTH, &why)) {
    gpu005__visit_partial(scan, call, kind, function);
    return;
  }
  Shown block;
  Where where;
  Text fn_text = node_text(ctx->source, fn);
  GlFinding *finding = rule_report_on(
      ctx, call, GL_EFFECT_WRONG_GRADIENTS, (Basis){.detail = GPU005_DETAIL},
      "reentrant checkpoint of `%s` gets no grad: no input needs it (%s, %s)",
      rule_shown(fn_text.ptr, fn_text.length, 16, &block), why.what, rule_where(ctx, why.node, &where));
  gpu005__fix(ctx, finding, call, kind);
}

/* Visits every call whose callee's last name is `checkpoint` or
 * `checkpoint_sequential`, found in the text. */
static void gpu005_check(RuleContext *ctx) {
  static const char *const NAMES[] = {"checkpoint", "checkpoint_sequential"};
  const Source *source = ctx->source;
  Gpu005Scan scan = {.ctx = ctx};
  for (const char *at = strstr(source->bytes, "checkpoint"); at; at = strstr(at + 1, "checkpoint")) {
    uint32_t start = (uint32_t)(at - source->bytes);
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
      TSNode call = call_of_callee_name_at(ctx->root, start, (uint32_t)strlen(NAMES[i]));
      if (!ts_node_is_null(call)) gpu005__visit(&scan, call);
    }
  }
  array_delete(&scan.starved);
}

const Rule GPU005_REENTRANT_CHECKPOINT_FROZEN_INPUT = {
    .info =
        {
            .code = "GPU005",
            .name = "reentrant-checkpoint-frozen-input",
            .summary = "Reentrant activation checkpointing of a block none of whose inputs requires grad: the "
                       "block's parameters get no gradient.",
            .fix_hint = "Pass use_reentrant=False to torch.utils.checkpoint.checkpoint (or make an input "
                        "require grad).",
            .effect = GL_EFFECT_WRONG_GRADIENTS,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = gpu005_check,
};
