/* walk.c — the one walk over a file's syntax tree.
 *
 * Pre-order with an explicit cursor and a stack of context frames (the
 * function, loop, class and grad mode around each node). It records what
 * facts.h describes: functions, classes, loops, events, assignments and
 * bindings; settle.c resolves and summarises them afterwards. */
#include "walk.h"

#include <stdlib.h>
#include <string.h>

#include "roles_names.h"

/* ---- The walk's context stack ------------------------------------------ */

typedef struct {
  uint32_t depth;       /* cursor depth of the node that opened the frame */
  int32_t function;
  int32_t loop;
  int32_t class_index;  /* the class whose body this is, -1 */
  GradMode grad;
} Frame;

typedef struct {
  Facts *facts;
  Array(Frame) frames;
  TSTreeCursor cursor;
  int32_t pending_loop; /* the loop whose body comes next */
  uint32_t pending_depth; /* the cursor depth of that loop's node */
} Walk;

static Frame *walk__top(Walk *self) { return array_back(&self->frames); }

static void walk__push(Walk *self, uint32_t depth, Frame frame) {
  frame.depth = depth;
  array_push(&self->frames, frame);
}

static void walk__pop_to(Walk *self, uint32_t depth) {
  while (self->frames.size > 1 && array_back(&self->frames)->depth >= depth) self->frames.size--;
}

static Event *walk__event(Walk *self, EventKind kind, TSNode node) {
  Frame *top = walk__top(self);
  Event event = {.kind = kind, .node = node, .function = top->function, .loop = top->loop, .callee = -1,
                 .target = {"", 0}, .lexical_grad = top->grad, .module = {"", 0}};
  array_push(&self->facts->events, event);
  return array_back(&self->facts->events);
}

static Text walk__text(Walk *self, TSNode node) { return node_text(self->facts->source, node); }

/* ---- Grad mode of context managers and decorators ---------------------- */

static bool walk__is_false(const Source *source, TSNode node) {
  return node_is(node, K_FALSE) || text_is(node_text(source, node), "False");
}

/* A decorator from elsewhere whose name says it turns grad off:
 * yolov5's @smart_inference_mode(), @torch_no_grad. */
static int walk__grad_off_by_name(const Facts *self, TSNode expression) {
  TSNode callee = node_is(expression, K_CALL) ? node_field(expression, F_FUNCTION) : expression;
  Text name = text_last_segment(node_text(self->source, callee));
  return text_contains_ci(name, "inference_mode") || text_contains_ci(name, "no_grad") ? GRAD_OFF : -1;
}

static void walk__mark_contains_grad_off(Walk *self);

/* decorated_definition -> decorator* definition: the grad mode set there. */
static GradMode walk__decorated_grad(Walk *self, TSNode function) {
  TSNode parent = ts_node_parent(function);
  if (!node_is(parent, K_DECORATED_DEFINITION)) return GRAD_ON;
  GradMode mode = GRAD_ON;
  uint32_t count = ts_node_named_child_count(parent);
  for (uint32_t i = 0; i < count; i++) {
    TSNode decorator = ts_node_named_child(parent, i);
    if (!node_is(decorator, K_DECORATOR)) continue;
    TSNode expression = ts_node_named_child(decorator, 0);
    int found = facts_grad_manager(self->facts, expression);
    if (found < 0) found = walk__grad_off_by_name(self->facts, expression);
    if (found >= 0) mode = (GradMode)found;
  }
  return mode;
}

/* Methods that frameworks call with grad off: Lightning's evaluation hooks
 * and the HF Trainer's prediction_step, in classes derived from theirs. */
static const char *const NO_GRAD_HOOKS[] = {
    "validation_step", "test_step", "predict_step", "prediction_step",
    "on_validation_batch_end", "on_test_batch_end", "on_predict_batch_end",
};

static bool walk__no_grad_hook(Walk *self, Text name) {
  int32_t class_index = walk__top(self)->class_index;
  if (class_index < 0) return false;
  Text bases = walk__text(self, node_field(self->facts->classes.contents[class_index].node, F_SUPERCLASSES));
  if (!text_contains_ci(bases, "Lightning") && !text_contains_ci(bases, "Trainer")) return false;
  for (size_t i = 0; i < sizeof NO_GRAD_HOOKS / sizeof NO_GRAD_HOOKS[0]; i++) {
    if (text_is(name, NO_GRAD_HOOKS[i])) return true;
  }
  return false;
}

/* ---- Scopes ------------------------------------------------------------- */

static void walk__function(Walk *self, TSNode node, uint32_t depth) {
  Frame *top = walk__top(self);
  Text parameters = walk__text(self, node_field(node, F_PARAMETERS));
  Function function = {
      .node = node,
      .name = walk__text(self, node_field(node, F_NAME)),
      .class_index = top->class_index,
      .parent = top->function,
      .decorated = walk__decorated_grad(self, node),
      .maybe_annotated = memchr(parameters.ptr, ':', parameters.length) != NULL,
  };
  if (function.decorated == GRAD_ON && walk__no_grad_hook(self, function.name)) function.decorated = GRAD_OFF;
  array_push(&self->facts->functions, function);
  int32_t index = (int32_t)self->facts->functions.size - 1;
  walk__push(self, depth, (Frame){0, index, -1, -1, function.decorated});
  if (function.decorated == GRAD_OFF) walk__mark_contains_grad_off(self);
}

static void walk__class(Walk *self, TSNode node, uint32_t depth) {
  Text bases = walk__text(self, node_field(node, F_SUPERCLASSES));
  Class class_ = {node, walk__text(self, node_field(node, F_NAME)), text_contains_ci(bases, "Module")};
  array_push(&self->facts->classes, class_);
  Frame frame = *walk__top(self);
  frame.class_index = (int32_t)self->facts->classes.size - 1;
  walk__push(self, depth, frame);
}

static void walk__assign(Walk *self, TSNode target, TSNode statement, TSNode value, bool unpacked, uint8_t position);

/* for_statement -> FOR targets IN iterable ':' block; the targets are
 * bound from the iterable (`for l in loss: l.backward()`). */
static void walk__loop(Walk *self, TSNode node, uint32_t depth) {
  Frame *top = walk__top(self);
  Loop loop = {node, node_field(node, F_BODY), top->loop, top->function, 0};
  array_push(&self->facts->loops, loop);
  self->pending_loop = (int32_t)self->facts->loops.size - 1;
  self->pending_depth = depth;
  if (node_is(node, K_FOR_STATEMENT)) {
    walk__assign(self, node_field(node, F_LEFT), node, node_field(node, F_RIGHT), true, UNPACKED_DEEP);
  }
}

static void walk__loop_body(Walk *self, uint32_t depth) {
  Frame frame = *walk__top(self);
  frame.loop = self->pending_loop;
  frame.class_index = -1;
  self->pending_loop = -1;
  walk__push(self, depth, frame);
}

/* Marks the enclosing functions as holding a grad-off region, which makes
 * them usable as grad-off decorators. */
static void walk__mark_contains_grad_off(Walk *self) {
  for (uint32_t i = 0; i < self->frames.size; i++) {
    int32_t function = self->frames.contents[i].function;
    if (function >= 0) self->facts->functions.contents[function].wraps_grad_off = true;
  }
}

static void walk__with(Walk *self, TSNode node, uint32_t depth) {
  int mode = facts_with_grad_mode(self->facts, node);
  if (mode < 0) return;
  if (mode != GRAD_ON) walk__mark_contains_grad_off(self);
  Frame frame = *walk__top(self);
  frame.grad = (GradMode)mode;
  frame.class_index = -1;
  walk__push(self, depth, frame);
}

/* ---- Bindings ------------------------------------------------------------ */

/* Frameworks with their own autograd: their `loss.backward()` and
 * `trainer.step()` are not PyTorch's. */
static const char *const OTHER_FRAMEWORKS[] = {"mxnet", "tensorflow", "keras", "jax", "flax", "paddle",
                                               "mindspore", "oneflow", "chainer", "tinygrad", NULL};

/* Notes whether an imported module is torch or built on it, or another
 * framework. */
static void walk__note_import(Facts *self, Text module) {
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.') head++;
  Text top = {module.ptr, head};
  uint32_t count = 0;
  const char *const *torch = facts_torch_modules(&count);
  for (uint32_t i = 0; i < count; i++) {
    if (text_is(top, torch[i])) self->uses_torch = self->imports_torch = true;
  }
  if (text_in(top, OTHER_FRAMEWORKS)) self->other_framework = true;
}

static void walk__bind(Facts *self, BindingKind kind, Text name, Text value) {
  Binding binding = {.kind = kind, .name = name, .value = value};
  if (kind == BIND_IMPORT) {
    array_push(&self->imports, binding);
    *text_map_at(&self->imports_by_name, name) = self->imports.size;
  } else {
    array_push(&self->bindings, binding);
  }
}

/* import_statement -> IMPORT dotted_name [AS identifier], ...
 * `import a.b as c` binds c to "a.b"; `import a.b` binds a to "a" (what
 * Python binds), so that the module is known as imported. */
static void walk__import(Walk *self, TSNode node) {
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode name = ts_node_named_child(node, i);
    bool aliased = node_is(name, K_ALIASED_IMPORT);
    Text module = walk__text(self, aliased ? node_field(name, F_NAME) : name);
    walk__note_import(self->facts, module);
    if (aliased) {
      walk__bind(self->facts, BIND_IMPORT, walk__text(self, node_field(name, F_ALIAS)), module);
      continue;
    }
    uint32_t head = 0;
    while (head < module.length && module.ptr[head] != '.') head++;
    walk__bind(self->facts, BIND_IMPORT, (Text){module.ptr, head}, (Text){module.ptr, head});
  }
}

/* import_from_statement -> FROM dotted_name IMPORT name [AS alias], ...
 * Binds each local name to "module.name"; the text lives in a string the
 * facts own, so it is kept in `qualified` storage. */
static void walk__import_from(Walk *self, TSNode node) {
  Text module = walk__text(self, node_field(node, F_MODULE_NAME));
  walk__note_import(self->facts, module);
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode name = ts_node_named_child(node, i);
    if (ts_node_eq(name, node_field(node, F_MODULE_NAME))) continue;
    TSNode imported = name, local = name;
    if (node_is(name, K_ALIASED_IMPORT)) {
      imported = node_field(name, F_NAME);
      local = node_field(name, F_ALIAS);
    } else if (node_is(name, K_WILDCARD_IMPORT)) {
      array_push(&self->facts->star_imports, module); /* its names are bound when settled (elsewhere.h) */
      continue;
    } else if (!node_is(name, K_DOTTED_NAME)) {
      continue;
    }
    Text imported_text = walk__text(self, imported);
    char *qualified = gl_format("%.*s.%.*s", (int)module.length, module.ptr,
                                (int)imported_text.length, imported_text.ptr);
    array_push(&self->facts->owned_strings, qualified);
    walk__bind(self->facts, BIND_IMPORT, walk__text(self, local),
                (Text){qualified, (uint32_t)strlen(qualified)});
  }
}

static bool walk__is_name(TSNode node) {
  return node_is(node, K_IDENTIFIER) || node_is(node, K_ATTRIBUTE);
}

static bool walk__looks_like_scheduler(Text text) {
  return text_contains_ci(text, "sched") || text_contains_ci(text, "warmup") ||
         text_contains_ci(text, "lr_");
}

/* `Net(...).cuda().eval()` -> `Net(...)`: methods that return the module
 * they are called on, applied to a constructor. */
static TSNode walk__constructor(const Source *source, TSNode call) {
  for (int steps = 0; steps < 8 && node_is(call, K_CALL); steps++) {
    TSNode receiver = node_unparenthesize(call_receiver(call));
    if (!node_is(receiver, K_CALL) || !roles_returns_receiver(call_method_name(source, call))) break;
    call = receiver;
  }
  return call;
}

/* `self.train()`, `net.eval()` -> the module named (`self`, `net`):
 * nn.Module's mode switches return the module itself. A null node for
 * any other call. */
static TSNode walk__mode_switched(const Source *source, TSNode call) {
  Text method = call_method_name(source, call);
  if (!text_is(method, "train") && !text_is(method, "eval")) return (TSNode){0};
  TSNode receiver = node_unparenthesize(call_receiver(call));
  return walk__is_name(receiver) ? receiver : (TSNode){0};
}

/* `x = Cls(...)`, `opt = torch.optim.SGD(...)`, `opt = optimizer`,
 * `model = self.train()` (an alias of `self`); `a, b = Meter(), Meter()`
 * binds each name to its own value. */
static void walk__assignment_binding(Walk *self, TSNode left, TSNode right) {
  bool pairs = (node_is(left, K_PATTERN_LIST) || node_is(left, K_TUPLE_PATTERN) || node_is(left, K_TUPLE)) &&
               (node_is(right, K_EXPRESSION_LIST) || node_is(right, K_TUPLE)) &&
               ts_node_named_child_count(left) == ts_node_named_child_count(right);
  for (uint32_t i = 0; pairs && i < ts_node_named_child_count(left); i++) {
    walk__assignment_binding(self, ts_node_named_child(left, i), node_unparenthesize(ts_node_named_child(right, i)));
  }
  if (!walk__is_name(left)) return;
  Text name = walk__text(self, left);
  if (walk__is_name(right)) {
    walk__bind(self->facts, BIND_ALIAS, name, walk__text(self, right));
    return;
  }
  if (!node_is(right, K_CALL)) return;
  TSNode switched = walk__mode_switched(self->facts->source, right);
  if (!ts_node_is_null(switched)) {
    walk__bind(self->facts, BIND_ALIAS, name, walk__text(self, switched));
    return;
  }
  right = walk__constructor(self->facts->source, right);
  Text callee = call_function_text(self->facts->source, right);
  Text last = text_last_segment(callee);
  if (walk__looks_like_scheduler(callee) || text_contains_ci(last, "schedule")) {
    walk__bind(self->facts, BIND_SCHEDULER, name, callee);
  } else if (text_contains_ci(callee, "optim") || text_is(last, "SGD") || text_contains_ci(last, "adam") ||
             text_is(last, "RMSprop") || text_is(last, "Adagrad") || text_is(last, "Adadelta") ||
             text_is(last, "LBFGS") || text_is(last, "Lion") || text_is(last, "Adafactor") ||
             text_is(last, "LAMB") || text_is(last, "Lamb")) {
    walk__bind(self->facts, BIND_OPTIMIZER, name, callee);
    array_back(&self->facts->bindings)->node = right;
    TSNode parameters = call_positional(right, 0);
    if (node_is(parameters, K_CALL) && text_is(call_method_name(self->facts->source, parameters), "parameters")) {
      walk__bind(self->facts, BIND_OPTIMIZES, name, walk__text(self, call_receiver(parameters)));
    }
  } else {
    walk__bind(self->facts, BIND_INSTANCE, name, callee);
    array_back(&self->facts->bindings)->node = right;
  }
}

/* `p.grad = None`, `p.grad = torch.zeros_like(p)`: clears gradients. */
static bool walk__assigns_grad(const Source *source, TSNode left) {
  if (!node_is(left, K_ATTRIBUTE)) return false;
  Text attribute = node_text(source, node_field(left, F_ATTRIBUTE));
  return text_is(attribute, "grad") || text_is(attribute, "_grad");
}

/* `p.grad = None` and `p.grad = torch.zeros_like(p)` clear; any other
 * value writes gradients (A3C copies a worker's into the shared model). */
static bool walk__clearing_value(const Source *source, TSNode value) {
  if (node_is(value, K_NONE)) return true;
  if (!node_is(value, K_CALL)) return false;
  Text callee = text_last_segment(call_function_text(source, value));
  return text_is(callee, "zeros_like") || text_is(callee, "zeros");
}

/* Records `target = value`; `position` is the index of `target` in an
 * unpacking (`a, b = value`), UNPACKED_DEEP when nested deeper, and
 * ignored when `unpacked` is false. */
static void walk__assign(Walk *self, TSNode target, TSNode statement, TSNode value, bool unpacked, uint8_t position) {
  Frame *top = walk__top(self);
  Assign assign = {walk__text(self, target), statement, value, top->function, top->loop, false, unpacked, false, position};
  switch (node_kind(target)) {
    case K_IDENTIFIER:
    case K_ATTRIBUTE: break;
    case K_SUBSCRIPT:
      assign.name = walk__text(self, node_field(target, F_VALUE));
      assign.subscript = true;
      break;
    case K_PATTERN_LIST:
    case K_TUPLE_PATTERN:
    case K_LIST_PATTERN:
    case K_TUPLE:
    case K_LIST:
    case K_PARENTHESIZED_EXPRESSION:
      for (uint32_t i = 0; i < ts_node_named_child_count(target); i++) {
        uint8_t index = !unpacked && i < UNPACKED_DEEP ? (uint8_t)i : UNPACKED_DEEP;
        walk__assign(self, ts_node_named_child(target, i), statement, value, true, index);
      }
      return;
    default: return;
  }
  array_push(&self->facts->assigns, assign);
}

/* assignment -> targets '=' value; `a = b = value` binds both. */
/* `p.requires_grad = False` in `for p in module.parameters():`, on every
 * pass (`if name not in ("fc.weight", "fc.bias"):` freezes only a part:
 * the head still trains, and records a graph). */
static void walk__freeze_parameter(Walk *self, TSNode node, TSNode left, TSNode right) {
  if (!node_is(left, K_ATTRIBUTE) || !text_is(walk__text(self, node_field(left, F_ATTRIBUTE)), "requires_grad") ||
      !walk__is_false(self->facts->source, right)) {
    return;
  }
  int32_t loop = walk__top(self)->loop;
  if (loop < 0 || node_under_if(node, self->facts->loops.contents[loop].body)) return;
  TSNode iterable = node_field(self->facts->loops.contents[loop].node, F_RIGHT);
  if (!node_is(iterable, K_CALL)) return;
  Text method = call_method_name(self->facts->source, iterable);
  if (!text_is(method, "parameters") && !text_is(method, "named_parameters")) return;
  walk__event(self, EV_FREEZE, node)->target = walk__text(self, call_receiver(iterable));
}

static void walk__assignment(Walk *self, TSNode node) {
  TSNode left = node_field(node, F_LEFT), right = node_field(node, F_RIGHT);
  if (ts_node_is_null(right)) return;
  walk__freeze_parameter(self, node, left, right);
  TSNode value = right;
  while (node_is(value, K_ASSIGNMENT)) value = node_field(value, F_RIGHT);
  walk__assign(self, left, node, value, false, 0);
  if (walk__assigns_grad(self->facts->source, left)) {
    walk__event(self, walk__clearing_value(self->facts->source, node_unparenthesize(value)) ? EV_CLEAR : EV_GRAD_SET, node);
    return;
  }
  walk__assignment_binding(self, left, node_unparenthesize(right));
}

/* augmented_assignment -> target op= value */
static void walk__augmented(Walk *self, TSNode node) {
  uint32_t before = self->facts->assigns.size;
  walk__assign(self, node_field(node, F_LEFT), node, node_field(node, F_RIGHT), false, 0);
  if (self->facts->assigns.size > before) array_back(&self->facts->assigns)->augmented = true;
}

/* ---- Calls ---------------------------------------------------------------- */

/* optimizer.step(), optimizer.step(closure), scaler.step(optimizer),
 * xm.optimizer_step(optimizer) of torch_xla. Which receivers are optimizers is settled
 * after the walk, when every binding is known. */
static void walk__step(Walk *self, TSNode call, TSNode receiver, Text method) {
  const Source *source = self->facts->source;
  Text receiver_text = node_text(source, receiver);
  if (text_is(receiver_text, "self")) return;
  if (text_is(method, "optimizer_step") || text_contains_ci(text_last_segment(receiver_text), "scaler")) {
    TSNode optimizer = call_positional(call, 0);
    if (ts_node_is_null(optimizer)) return;
    walk__event(self, EV_STEP, call)->target = node_text(source, optimizer);
    return;
  }
  if (walk__looks_like_scheduler(receiver_text)) return;
  uint32_t positional = call_positional_count(call);
  if (positional > 1) return;
  if (positional == 1) {
    TSNode closure = call_positional(call, 0);
    if (!node_is(closure, K_IDENTIFIER) && !node_is(closure, K_LAMBDA)) return;
    if (node_is(closure, K_IDENTIFIER)) walk__event(self, EV_CALL, closure);
  }
  walk__event(self, EV_STEP, call)->target = receiver_text;
}

/* x.zero_grad(), p.grad.zero_(), p.grad.detach_() */
static void walk__clear(Walk *self, TSNode call, TSNode receiver, Text method) {
  Text receiver_text = node_text(self->facts->source, receiver);
  if (text_is(method, "zero_grad")) {
    if (!text_is(receiver_text, "self")) walk__event(self, EV_CLEAR, call)->target = receiver_text;
    return;
  }
  if (text_ends_with(receiver_text, ".grad") || text_ends_with(receiver_text, ".grad.data")) {
    walk__event(self, EV_CLEAR, call);
  }
}

/* module.eval(), module.train(), module.train(False); module.train(flag)
 * with any other argument restores a saved mode (`was_training =
 * net.training` ... `net.train(was_training)`): a `.train()`. */
static void walk__mode(Walk *self, TSNode call, TSNode receiver, Text method) {
  const Source *source = self->facts->source;
  TSNode argument = call_positional(call, 0);
  if (ts_node_is_null(argument)) argument = call_keyword(source, call, "mode");
  bool none = ts_node_is_null(argument);
  EventKind kind;
  if (text_is(method, "eval") && none) kind = EV_EVAL;
  else if (text_is(method, "train") && walk__is_false(source, argument)) kind = EV_EVAL;
  else if (text_is(method, "train")) kind = EV_TRAIN;
  else return;
  TSNode parent = ts_node_parent(call);
  bool assigned = node_is(parent, K_ASSIGNMENT) && ts_node_eq(node_field(parent, F_RIGHT), call);
  walk__event(self, kind, call)->target = node_text(source, assigned ? node_field(parent, F_LEFT) : receiver);
}

/* The module a chained call applies to: `teacher.eval().requires_grad_(False)`
 * freezes `teacher`. */
static Text walk__receiver_module(Walk *self, TSNode receiver) {
  while (node_is(receiver, K_CALL) && !ts_node_is_null(call_receiver(receiver))) receiver = call_receiver(receiver);
  return walk__text(self, receiver);
}

static bool walk__is_store_method(Text method) {
  return text_is(method, "append") || text_is(method, "extend") || text_is(method, "insert") ||
         text_is(method, "appendleft") || text_is(method, "add") || text_is(method, "update");
}

/* del items[:], del items, del self.items */
static void walk__delete(Walk *self, TSNode node) {
  for (uint32_t i = 0; i < ts_node_named_child_count(node); i++) {
    TSNode target = ts_node_named_child(node, i);
    if (node_is(target, K_EXPRESSION_LIST)) {
      walk__delete(self, target);
      continue;
    }
    if (node_is(target, K_SUBSCRIPT)) target = node_field(target, F_VALUE);
    walk__event(self, EV_RESET, node)->target = walk__text(self, target);
  }
}

/* Builtins and tensor methods: never a helper of the file nor a forward,
 * so they need no call event (most calls in a file are these). */
static bool walk__plain_call(const Source *source, TSNode function, Text method) {
  static const char *const BUILTINS[] = {
      "print", "len", "range", "enumerate", "zip", "int", "float", "str", "list", "dict", "tuple",
      "set", "isinstance", "getattr", "setattr", "hasattr", "min", "max", "sum", "abs", "round",
      "sorted", "open", "format", "super", "type", "iter", "next", "map", "filter", "any", "all", NULL};
  static const char *const METHODS[] = {
      "to", "cuda", "cpu", "view", "reshape", "size", "item", "mean", "sum", "float", "long", "half",
      "permute", "transpose", "squeeze", "unsqueeze", "contiguous", "numpy", "tolist", "format", "join",
      "split", "get", "keys", "values", "items", "add_scalar", "flatten", "expand",
      "repeat", "argmax", "max", "min", "exp", "pow", "sqrt", "clamp", "type", "startswith", "endswith",
      "replace", "strip", "lower", "upper", "pop", NULL};
  return method.length ? text_in(method, METHODS) : text_in(node_text(source, function), BUILTINS);
}

/* `model.parameters()`, `net.named_modules()`: what only a module has. */
static void walk__module_use(Walk *self, TSNode receiver, Text method) {
  static const char *const MODULE_METHODS[] = {"parameters", "named_parameters", "modules", "named_modules",
                                               "children", "named_children", "buffers", "load_state_dict", NULL};
  if (ts_node_is_null(receiver) || !text_in(method, MODULE_METHODS)) return;
  Text module = walk__text(self, receiver);
  if (text_is(method, "load_state_dict") && /* optimizers, schedulers and scalers load state too */
      (text_contains_ci(module, "optim") || text_contains_ci(module, "sched") || text_contains_ci(module, "scaler"))) {
    return;
  }
  if (!text_is(module, "self") && !text_is(module, "super()")) array_push(&self->facts->module_uses, module);
}

/* `dist_autograd.backward(context_id, [loss])`, `loss.backward(context_id)`
 * in a file of distributed autograd: gradients go to the context, not to
 * `.grad`, so nothing accumulates. */
static bool walk__distributed_backward(Walk *self, TSNode call) {
  char buffer[128];
  const char *qualified = facts_qualify(self->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  if (strncmp(qualified, "torch.distributed.autograd.", 27) == 0) return true;
  if (call_positional_count(call) == 0) return false;
  for (uint32_t i = 0; i < self->facts->imports.size; i++) {
    Text module = self->facts->imports.contents[i].value;
    if (module.length >= 26 && memcmp(module.ptr, "torch.distributed.autograd", 26) == 0) return true;
  }
  return false;
}

static void walk__call(Walk *self, TSNode call) {
  const Source *source = self->facts->source;
  TSNode function = node_field(call, F_FUNCTION); /* call_method_name and call_receiver, asked once */
  bool on_receiver = node_is(function, K_ATTRIBUTE);
  Text method = on_receiver ? node_text(source, node_field(function, F_ATTRIBUTE)) : (Text){"", 0};
  TSNode receiver = on_receiver ? node_field(function, F_OBJECT) : (TSNode){0};
  walk__module_use(self, receiver, method);
  if (text_is(method, "prepare")) self->facts->has_prepare = true;
  Text callee = node_text(source, function);
  if (callee.length > 6 && memcmp(callee.ptr, "torch.", 6) == 0) self->facts->uses_torch = true;
  char buffer[128];
  const char *qualified = facts_qualify(self->facts, function, buffer, sizeof buffer);
  Text qualified_text = {qualified, (uint32_t)strlen(qualified)};
  bool input_gradients = text_is(qualified_text, "torch.autograd.grad"); /* consumes the graph like a backward */
  if (((text_is(method, "backward") || text_is(method, "manual_backward")) && !walk__distributed_backward(self, call)) ||
      input_gradients) {
    walk__event(self, EV_BACKWARD, call)->flag = input_gradients;
    self->facts->uses_torch = true; /* a snippet without its imports still trains */
  } else if (text_is(method, "step") || (text_is(method, "optimizer_step") && strncmp(qualified, "torch_xla.", 10) == 0)) {
    walk__step(self, call, receiver, method); /* a project's own optimizer_step() is a call like any other */
  } else if (text_is(method, "zero_grad") || text_is(method, "zero_") || text_is(method, "detach_")) {
    walk__clear(self, call, receiver, method);
  } else if (text_is(method, "eval") || text_is(method, "train")) {
    walk__mode(self, call, receiver, method);
  } else if (walk__is_store_method(method) && !ts_node_is_null(receiver)) {
    walk__event(self, EV_STORE, call)->target = node_text(source, receiver);
    return;
  } else if (text_is(method, "requires_grad_") && !ts_node_is_null(receiver)) {
    TSNode flag = call_positional(call, 0);
    if (ts_node_is_null(flag)) flag = call_keyword(source, call, "requires_grad");
    if (walk__is_false(source, flag)) walk__event(self, EV_FREEZE, call)->target = walk__receiver_module(self, receiver);
    return;
  } else if (text_is(method, "clear") && !ts_node_is_null(receiver)) {
    walk__event(self, EV_RESET, call)->target = node_text(source, receiver);
    return;
  } else if (strcmp(qualified, "torch.cuda.empty_cache") == 0 ||
             strcmp(qualified, "torch.cuda.memory.empty_cache") == 0) {
    walk__event(self, EV_EMPTY_CACHE, call);
  } else if (text_ends_with((Text){qualified, (uint32_t)strlen(qualified)}, "set_grad_enabled") &&
             facts_grad_manager(self->facts, call) >= 0 && node_is(ts_node_parent(call), K_EXPRESSION_STATEMENT)) {
    Event *toggle = walk__event(self, EV_GRAD_TOGGLE, call);
    self->facts->has_toggles = true;
    toggle->lexical_grad = (GradMode)facts_grad_manager(self->facts, call);
    return;
  }
  if ((node_is(function, K_IDENTIFIER) || node_is(function, K_ATTRIBUTE) || node_is(function, K_SUBSCRIPT)) &&
      !walk__plain_call(source, function, method)) {
    walk__event(self, EV_CALL, call);
  }
}

/* return_statement -> RETURN [expression] */
static void walk__return(Walk *self, TSNode node) {
  int32_t function = walk__top(self)->function;
  if (function < 0 || ts_node_named_child_count(node) == 0) return;
  TSNode value = node_unparenthesize(ts_node_named_child(node, 0));
  array_push(&self->facts->returns, ((Return){function, value}));
  if (node_is(value, K_TUPLE) || node_is(value, K_EXPRESSION_LIST)) {
    uint32_t count = ts_node_named_child_count(value);
    Function *entry = array_get(&self->facts->functions, function);
    if (count > entry->max_tuple_return) entry->max_tuple_return = (uint8_t)(count > 255 ? 255 : count);
  }
}

/* A comprehension iterates too: its function counts as holding a loop. */
static void walk__comprehension(Walk *self) {
  int32_t function = walk__top(self)->function;
  if (function >= 0) self->facts->functions.contents[function].has_loop = true;
}

/* ---- The walk ---------------------------------------------------------- */

static Kind walk__visit(Walk *self, TSNode node, uint32_t depth) {
  walk__pop_to(self, depth);
  /* pre-order: the loop's children come next, one level down, until a node
   * at its level or above ends its subtree (a loop without a body then) */
  if (self->pending_loop >= 0 && depth <= self->pending_depth) self->pending_loop = -1;
  if (self->pending_loop >= 0 && depth == self->pending_depth + 1 &&
      ts_tree_cursor_current_field_id(&self->cursor) == syntax_field_id(F_BODY)) {
    walk__loop_body(self, depth);
  }
  Kind kind = node_kind(node);
  switch (kind) {
    case K_FUNCTION_DEFINITION: walk__function(self, node, depth); break;
    case K_CLASS_DEFINITION: walk__class(self, node, depth); break;
    case K_FOR_STATEMENT:
    case K_WHILE_STATEMENT: walk__loop(self, node, depth); break;
    case K_WITH_STATEMENT: walk__with(self, node, depth); break;
    case K_CALL: walk__call(self, node); break;
    case K_ASSIGNMENT: walk__assignment(self, node); break;
    case K_AUGMENTED_ASSIGNMENT: walk__augmented(self, node); break;
    case K_DELETE_STATEMENT: walk__delete(self, node); break;
    case K_RETURN_STATEMENT: walk__return(self, node); break;
    case K_LIST_COMPREHENSION:
    case K_GENERATOR_EXPRESSION: walk__comprehension(self); break;
    case K_IMPORT_STATEMENT: walk__import(self, node); break;
    case K_IMPORT_FROM_STATEMENT: walk__import_from(self, node); break;
    default: break;
  }
  return kind;
}

/* Expressions that hold no statement, so that without a `(` or `[` they
 * hold no call and no comprehension: nothing the walk records. The
 * bracketed ones open with their own bracket. */
static bool walk__statementless(Kind kind) {
  switch (kind) {
    case K_ARGUMENT_LIST:
    case K_PARENTHESIZED_EXPRESSION:
    case K_TUPLE:
    case K_LIST:
    case K_ATTRIBUTE:
    case K_SUBSCRIPT:
    case K_KEYWORD_ARGUMENT:
    case K_BINARY_OPERATOR:
    case K_COMPARISON_OPERATOR:
    case K_BOOLEAN_OPERATOR:
    case K_NOT_OPERATOR:
    case K_UNARY_OPERATOR:
    case K_PATTERN_LIST:
    case K_EXPRESSION_LIST:
    case K_DOTTED_NAME:
    case K_ALIASED_IMPORT: return true;
    default: return false;
  }
}

/* Whether the walk needs the children of `node` (of `kind`, at `depth`):
 * not of leaves, nor of string literals that cannot hold an interpolation
 * (no f or t prefix), nor of statementless expressions, whole (no error
 * in them), whose text has no `(` and no `[` past their own bracket (a
 * call's `(` follows its callee; a comprehension's bracket is its own). */
static bool walk__descends(const Walk *self, TSNode node, Kind kind, uint32_t depth) {
  if (ts_node_child_count(node) == 0) return false;
  if (walk__statementless(kind) && depth < FACTS_MAX_DEPTH && !ts_node_has_error(node)) {
    Text text = node_text(self->facts->source, node);
    bool bracketed = kind == K_ARGUMENT_LIST || kind == K_PARENTHESIZED_EXPRESSION || kind == K_TUPLE || kind == K_LIST;
    uint32_t skip = bracketed && text.length > 0 && (text.ptr[0] == '(' || text.ptr[0] == '[') ? 1 : 0;
    text = (Text){text.ptr + skip, text.length - skip};
    return memchr(text.ptr, '(', text.length) || memchr(text.ptr, '[', text.length);
  }
  if (kind != K_STRING) return true;
  const char *text = self->facts->source->bytes + ts_node_start_byte(node);
  const char *end = self->facts->source->bytes + self->facts->source->length;
  for (; text < end && *text != '"' && *text != '\''; text++) {
    if (*text == 'f' || *text == 'F' || *text == 't' || *text == 'T') return true;
  }
  return false;
}

/* Pre-order over every node with an explicit cursor: no recursion, so deep
 * nesting cannot exhaust the stack. */
static void walk__run(Walk *self, TSNode root) {
  self->cursor = ts_tree_cursor_new(root);
  uint32_t depth = 0;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&self->cursor);
    Kind kind = walk__visit(self, node, depth);
    bool descends = walk__descends(self, node, kind, depth);
    if (descends && depth >= FACTS_MAX_DEPTH) {
      self->facts->truncated = true;
      descends = false;
    }
    if (descends && ts_tree_cursor_goto_first_child(&self->cursor)) {
      depth++;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&self->cursor)) {
      if (!ts_tree_cursor_goto_parent(&self->cursor)) {
        ts_tree_cursor_delete(&self->cursor);
        return;
      }
      depth--;
    }
  }
}


/* ---- Entry points ------------------------------------------------------- */

void walk_tree(Facts *facts, TSNode root) {
  Walk walk = {.facts = facts, .frames = array_new(), .pending_loop = -1};
  array_push(&walk.frames, ((Frame){0, -1, -1, -1, GRAD_ON}));
  walk__run(&walk, root);
  array_delete(&walk.frames);
  if (facts->other_framework && !facts->imports_torch) facts->uses_torch = false;
}

Facts *facts_walk(const Source *source, TSNode root) {
  syntax_init();
  Facts *self = gl_calloc(1, sizeof(Facts));
  self->source = source;
  self->root = root;
  walk_tree(self, root);
  facts_index(self);
  return self;
}

