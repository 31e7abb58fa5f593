/* facts.c — the one walk over a file's tree, and the summaries after it. */
#include "facts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool facts__module_by_name(Text name);

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

static bool facts__is_false(const Source *source, TSNode node) {
  return node_is(node, K_FALSE) || text_is(node_text(source, node), "False");
}

static bool facts__is_true(const Source *source, TSNode node) {
  return node_is(node, K_TRUE) || text_is(node_text(source, node), "True");
}

/* `no_grad()`, `inference_mode()`, `set_grad_enabled(x)`, `enable_grad()`,
 * called or bare (decorators): the grad mode it sets, or -1. */
static int facts__grad_manager(const Facts *self, TSNode expression) {
  TSNode callee = node_is(expression, K_CALL) ? node_field(expression, F_FUNCTION) : expression;
  if (!node_is(callee, K_IDENTIFIER) && !node_is(callee, K_ATTRIBUTE)) return -1;
  char buffer[128];
  const char *qualified = facts_qualify(self, callee, buffer, sizeof buffer);
  Text name = text_last_segment((Text){qualified, (uint32_t)strlen(qualified)});
  TSNode argument = node_is(expression, K_CALL) ? call_positional(expression, 0) : (TSNode){0};
  if (node_is(expression, K_CALL) && ts_node_is_null(argument)) {
    argument = call_keyword(self->source, expression, "mode");
  }
  bool none = ts_node_is_null(argument);
  if (text_is(name, "no_grad")) return GRAD_OFF;
  if (text_is(name, "enable_grad")) return GRAD_ON;
  if (text_is(name, "inference_mode")) {
    if (none || facts__is_true(self->source, argument)) return GRAD_OFF;
    return facts__is_false(self->source, argument) ? GRAD_ON : GRAD_MAYBE;
  }
  if (text_is(name, "set_grad_enabled")) {
    if (none) return -1;
    if (facts__is_false(self->source, argument)) return GRAD_OFF;
    return facts__is_true(self->source, argument) ? GRAD_ON : GRAD_MAYBE;
  }
  return -1;
}

/* A decorator from elsewhere whose name says it turns grad off:
 * yolov5's @smart_inference_mode(), @torch_no_grad. */
static int facts__grad_off_by_name(const Facts *self, TSNode expression) {
  TSNode callee = node_is(expression, K_CALL) ? node_field(expression, F_FUNCTION) : expression;
  Text name = text_last_segment(node_text(self->source, callee));
  return text_contains_ci(name, "inference_mode") || text_contains_ci(name, "no_grad") ? GRAD_OFF : -1;
}

/* with_statement -> WITH with_item {, with_item} ':' block */
static int walk__with_grad(Walk *self, TSNode with) {
  int mode = -1;
  uint32_t count = ts_node_named_child_count(with);
  for (uint32_t i = 0; i < count; i++) {
    TSNode clause = ts_node_named_child(with, i);
    uint32_t items = ts_node_named_child_count(clause);
    for (uint32_t j = 0; j < items; j++) {
      TSNode item = ts_node_named_child(clause, j);
      if (!node_is(item, K_WITH_ITEM)) continue;
      TSNode value = node_field(item, F_VALUE);
      if (node_is(value, K_AS_PATTERN)) value = ts_node_named_child(value, 0);
      if (node_is(value, K_CONDITIONAL_EXPRESSION)) {
        for (uint32_t k = 0; k < ts_node_named_child_count(value); k++) {
          if (facts__grad_manager(self->facts, ts_node_named_child(value, k)) == GRAD_OFF) mode = GRAD_MAYBE;
        }
        continue;
      }
      int item_mode = facts__grad_manager(self->facts, value);
      if (item_mode >= 0) mode = item_mode;
    }
  }
  return mode;
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
    int found = facts__grad_manager(self->facts, expression);
    if (found < 0) found = facts__grad_off_by_name(self->facts, expression);
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
  Function function = {
      .node = node,
      .name = walk__text(self, node_field(node, F_NAME)),
      .class_index = top->class_index,
      .parent = top->function,
      .decorated = walk__decorated_grad(self, node),
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

static void walk__loop(Walk *self, TSNode node) {
  Frame *top = walk__top(self);
  Loop loop = {node, node_field(node, F_BODY), top->loop, top->function, 0};
  array_push(&self->facts->loops, loop);
  self->pending_loop = (int32_t)self->facts->loops.size - 1;
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
  int mode = walk__with_grad(self, node);
  if (mode < 0) return;
  if (mode != GRAD_ON) walk__mark_contains_grad_off(self);
  Frame frame = *walk__top(self);
  frame.grad = (GradMode)mode;
  frame.class_index = -1;
  walk__push(self, depth, frame);
}

/* ---- Bindings ------------------------------------------------------------ */

static const char *const TORCH_MODULES[] = {
    "torch", "lightning", "pytorch_lightning", "transformers", "accelerate", "timm", "torchvision",
    "torchaudio", "torchtext", "deepspeed", "fastai", "diffusers", "peft", "trl", "ignite", "monai",
    "detectron2", "mmengine", "torch_geometric", "dgl", "sentence_transformers", "ultralytics",
};

const char *const *facts_torch_modules(uint32_t *count) {
  *count = (uint32_t)(sizeof TORCH_MODULES / sizeof TORCH_MODULES[0]);
  return TORCH_MODULES;
}

/* Notes whether an imported module is torch or built on it. */
static void facts__note_import(Facts *self, Text module) {
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.') head++;
  for (size_t i = 0; i < sizeof TORCH_MODULES / sizeof TORCH_MODULES[0]; i++) {
    if (text_is((Text){module.ptr, head}, TORCH_MODULES[i])) self->uses_torch = true;
  }
}

static void facts__bind(Facts *self, BindingKind kind, Text name, Text value) {
  if (kind == BIND_IMPORT) array_push(&self->imports, ((Binding){kind, name, value}));
  else array_push(&self->bindings, ((Binding){kind, name, value}));
}

/* import_statement -> IMPORT dotted_name [AS identifier], ... */
static void walk__import(Walk *self, TSNode node) {
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode name = ts_node_named_child(node, i);
    facts__note_import(self->facts, walk__text(self, node_is(name, K_ALIASED_IMPORT) ? node_field(name, F_NAME) : name));
    if (!node_is(name, K_ALIASED_IMPORT)) continue;
    facts__bind(self->facts, BIND_IMPORT, walk__text(self, node_field(name, F_ALIAS)),
                walk__text(self, node_field(name, F_NAME)));
  }
}

/* import_from_statement -> FROM dotted_name IMPORT name [AS alias], ...
 * Binds each local name to "module.name"; the text lives in a string the
 * facts own, so it is kept in `qualified` storage. */
static void walk__import_from(Walk *self, TSNode node) {
  Text module = walk__text(self, node_field(node, F_MODULE_NAME));
  facts__note_import(self->facts, module);
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode name = ts_node_named_child(node, i);
    if (ts_node_eq(name, node_field(node, F_MODULE_NAME))) continue;
    TSNode imported = name, local = name;
    if (node_is(name, K_ALIASED_IMPORT)) {
      imported = node_field(name, F_NAME);
      local = node_field(name, F_ALIAS);
    } else if (!node_is(name, K_DOTTED_NAME)) {
      continue;
    }
    Text imported_text = walk__text(self, imported);
    char *qualified = gl_format("%.*s.%.*s", (int)module.length, module.ptr,
                                (int)imported_text.length, imported_text.ptr);
    array_push(&self->facts->owned_strings, qualified);
    facts__bind(self->facts, BIND_IMPORT, walk__text(self, local),
                (Text){qualified, (uint32_t)strlen(qualified)});
  }
}

static bool facts__is_name(TSNode node) {
  return node_is(node, K_IDENTIFIER) || node_is(node, K_ATTRIBUTE);
}

static bool facts__looks_like_scheduler(Text text) {
  return text_contains_ci(text, "sched") || text_contains_ci(text, "warmup") ||
         text_contains_ci(text, "lr_");
}

/* `x = Cls(...)`, `opt = torch.optim.SGD(...)`, `opt = optimizer`. */
static void walk__assignment_binding(Walk *self, TSNode left, TSNode right) {
  if (!facts__is_name(left)) return;
  Text name = walk__text(self, left);
  if (facts__is_name(right)) {
    facts__bind(self->facts, BIND_ALIAS, name, walk__text(self, right));
    return;
  }
  if (!node_is(right, K_CALL)) return;
  Text callee = call_function_text(self->facts->source, right);
  Text last = text_last_segment(callee);
  if (facts__looks_like_scheduler(callee) || text_contains_ci(last, "schedule")) {
    facts__bind(self->facts, BIND_SCHEDULER, name, callee);
  } else if (text_contains_ci(callee, "optim") || text_is(last, "SGD") || text_contains_ci(last, "adam") ||
             text_is(last, "RMSprop") || text_is(last, "Adagrad") || text_is(last, "Adadelta") ||
             text_is(last, "LBFGS") || text_is(last, "Lion") || text_is(last, "Adafactor") ||
             text_is(last, "LAMB") || text_is(last, "Lamb")) {
    facts__bind(self->facts, BIND_OPTIMIZER, name, callee);
    TSNode parameters = call_positional(right, 0);
    if (node_is(parameters, K_CALL) && text_is(call_method_name(self->facts->source, parameters), "parameters")) {
      facts__bind(self->facts, BIND_OPTIMIZES, name, walk__text(self, call_receiver(parameters)));
    }
  } else {
    facts__bind(self->facts, BIND_INSTANCE, name, callee);
  }
}

/* `p.grad = None`, `p.grad = torch.zeros_like(p)`: clears gradients. */
static bool facts__assigns_grad(const Source *source, TSNode left) {
  if (!node_is(left, K_ATTRIBUTE)) return false;
  Text attribute = node_text(source, node_field(left, F_ATTRIBUTE));
  return text_is(attribute, "grad") || text_is(attribute, "_grad");
}

/* `p.grad = None` and `p.grad = torch.zeros_like(p)` clear; any other
 * value writes gradients (A3C copies a worker's into the shared model). */
static bool facts__clearing_value(const Source *source, TSNode value) {
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
/* `p.requires_grad = False` in `for p in module.parameters():` */
static void walk__freeze_parameter(Walk *self, TSNode node, TSNode left, TSNode right) {
  if (!node_is(left, K_ATTRIBUTE) || !text_is(walk__text(self, node_field(left, F_ATTRIBUTE)), "requires_grad") ||
      !facts__is_false(self->facts->source, right)) {
    return;
  }
  int32_t loop = walk__top(self)->loop;
  if (loop < 0) return;
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
  if (facts__assigns_grad(self->facts->source, left)) {
    walk__event(self, facts__clearing_value(self->facts->source, node_unparenthesize(value)) ? EV_CLEAR : EV_GRAD_SET, node);
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
 * xm.optimizer_step(optimizer). Which receivers are optimizers is settled
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
  if (facts__looks_like_scheduler(receiver_text)) return;
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

/* module.eval(), module.train(), module.train(False) */
static void walk__mode(Walk *self, TSNode call, TSNode receiver, Text method) {
  const Source *source = self->facts->source;
  TSNode argument = call_positional(call, 0);
  if (ts_node_is_null(argument)) argument = call_keyword(source, call, "mode");
  bool none = ts_node_is_null(argument);
  EventKind kind;
  if (text_is(method, "eval") && none) kind = EV_EVAL;
  else if (text_is(method, "train") && (none || facts__is_true(source, argument))) kind = EV_TRAIN;
  else if (text_is(method, "train") && facts__is_false(source, argument)) kind = EV_EVAL;
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

static bool facts__is_store_method(Text method) {
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

static void walk__call(Walk *self, TSNode call) {
  const Source *source = self->facts->source;
  Text method = call_method_name(source, call);
  TSNode receiver = call_receiver(call);
  TSNode function = node_field(call, F_FUNCTION);
  char buffer[128];
  const char *qualified = facts_qualify(self->facts, function, buffer, sizeof buffer);
  if (text_is(method, "backward") || text_is(method, "manual_backward")) {
    walk__event(self, EV_BACKWARD, call);
  } else if (text_is(method, "step") || text_is(method, "optimizer_step")) {
    walk__step(self, call, receiver, method);
  } else if (text_is(method, "zero_grad") || text_is(method, "zero_") || text_is(method, "detach_")) {
    walk__clear(self, call, receiver, method);
  } else if (text_is(method, "eval") || text_is(method, "train")) {
    walk__mode(self, call, receiver, method);
  } else if (facts__is_store_method(method) && !ts_node_is_null(receiver)) {
    walk__event(self, EV_STORE, call)->target = node_text(source, receiver);
    return;
  } else if (text_is(method, "requires_grad_") && !ts_node_is_null(receiver)) {
    TSNode flag = call_positional(call, 0);
    if (ts_node_is_null(flag)) flag = call_keyword(source, call, "requires_grad");
    if (facts__is_false(source, flag)) walk__event(self, EV_FREEZE, call)->target = walk__receiver_module(self, receiver);
    return;
  } else if (text_is(method, "clear") && !ts_node_is_null(receiver)) {
    walk__event(self, EV_RESET, call)->target = node_text(source, receiver);
    return;
  } else if (strcmp(qualified, "torch.cuda.empty_cache") == 0 ||
             strcmp(qualified, "torch.cuda.memory.empty_cache") == 0) {
    walk__event(self, EV_EMPTY_CACHE, call);
  } else if (text_ends_with((Text){qualified, (uint32_t)strlen(qualified)}, "set_grad_enabled") &&
             facts__grad_manager(self->facts, call) >= 0 && node_is(ts_node_parent(call), K_EXPRESSION_STATEMENT)) {
    Event *toggle = walk__event(self, EV_GRAD_TOGGLE, call);
    self->facts->has_toggles = true;
    toggle->lexical_grad = (GradMode)facts__grad_manager(self->facts, call);
    return;
  }
  if (node_is(function, K_IDENTIFIER) || node_is(function, K_ATTRIBUTE) || node_is(function, K_SUBSCRIPT)) {
    walk__event(self, EV_CALL, call);
  }
}

/* A comprehension iterates too: its function counts as holding a loop. */
static void walk__comprehension(Walk *self) {
  int32_t function = walk__top(self)->function;
  if (function >= 0) self->facts->functions.contents[function].has_loop = true;
}

/* ---- The walk ---------------------------------------------------------- */

static void walk__visit(Walk *self, TSNode node, uint32_t depth) {
  walk__pop_to(self, depth);
  if (self->pending_loop >= 0 &&
      ts_tree_cursor_current_field_id(&self->cursor) == syntax_field_id(F_BODY) &&
      ts_node_eq(ts_node_parent(node), self->facts->loops.contents[self->pending_loop].node)) {
    walk__loop_body(self, depth);
  }
  switch (node_kind(node)) {
    case K_FUNCTION_DEFINITION: walk__function(self, node, depth); break;
    case K_CLASS_DEFINITION: walk__class(self, node, depth); break;
    case K_FOR_STATEMENT:
    case K_WHILE_STATEMENT: walk__loop(self, node); break;
    case K_WITH_STATEMENT: walk__with(self, node, depth); break;
    case K_CALL: walk__call(self, node); break;
    case K_ASSIGNMENT: walk__assignment(self, node); break;
    case K_AUGMENTED_ASSIGNMENT: walk__augmented(self, node); break;
    case K_DELETE_STATEMENT: walk__delete(self, node); break;
    case K_LIST_COMPREHENSION:
    case K_GENERATOR_EXPRESSION: walk__comprehension(self); break;
    case K_IMPORT_STATEMENT: walk__import(self, node); break;
    case K_IMPORT_FROM_STATEMENT: walk__import_from(self, node); break;
    default: break;
  }
}

/* Whether the walk needs the children of `node`: not of leaves, nor of
 * string literals that cannot hold an interpolation (no f or t prefix). */
static bool walk__descends(const Walk *self, TSNode node) {
  if (ts_node_child_count(node) == 0) return false;
  if (!node_is(node, K_STRING)) return true;
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
    walk__visit(self, node, depth);
    bool descends = walk__descends(self, node);
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

/* ---- After the walk: name lookup ------------------------------------------ */

static int facts__text_compare(Text a, Text b) {
  uint32_t shorter = a.length < b.length ? a.length : b.length;
  int order = memcmp(a.ptr, b.ptr, shorter);
  if (order != 0) return order;
  return a.length < b.length ? -1 : a.length > b.length;
}

/* Sorting needs the names beside the indices; qsort has no context, so the
 * index is sorted as (name, kind, index) triples and then stripped. */
typedef struct {
  Text name;
  uint32_t kind;
  uint32_t index;
} Named;

static int facts__named_compare(const void *a, const void *b) {
  const Named *left = a, *right = b;
  int order = facts__text_compare(left->name, right->name);
  if (order != 0) return order;
  if (left->kind != right->kind) return left->kind < right->kind ? -1 : 1;
  return left->index < right->index ? -1 : left->index > right->index;
}

#define NO_KIND SIZE_MAX

/* Fills `index` with 0..count-1 ordered by the Text found at `offset` in
 * each of the `count` entries of `stride` bytes, then by the enum at
 * `kind_offset` (NO_KIND: none), then by position. */
static void facts__build_index(void *index_array, const void *entries, size_t offset, size_t kind_offset,
                               size_t stride, uint32_t count) {
  Array(uint32_t) *index = index_array;
  if (count == 0) return;
  Named *named = gl_malloc(sizeof(Named) * count);
  for (uint32_t i = 0; i < count; i++) {
    const char *entry = (const char *)entries + i * stride;
    named[i].name = *(const Text *)(entry + offset);
    named[i].kind = kind_offset == NO_KIND ? 0 : (uint32_t) * (const int *)(entry + kind_offset);
    named[i].index = i;
  }
  qsort(named, count, sizeof(Named), facts__named_compare);
  array_reserve(index, count);
  for (uint32_t i = 0; i < count; i++) index->contents[i] = named[i].index;
  index->size = count;
  free(named);
}

/* The first position in functions_by_name whose name is not below `name`. */
static uint32_t facts__lower_bound(const Facts *self, Text name) {
  const uint32_t *index = self->functions_by_name.contents;
  uint32_t low = 0, high = self->functions_by_name.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    Text here = self->functions.contents[index[mid]].name;
    if (facts__text_compare(here, name) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/* The last binding of `kind` for `name`: bindings_by_name is ordered by
 * (name, kind, position), so it sits just before the first entry past the
 * pair, found in log time however often the name is bound. */
static const Binding *facts__binding(const Facts *self, BindingKind kind, Text name) {
  const uint32_t *index = self->bindings_by_name.contents;
  uint32_t low = 0, high = self->bindings_by_name.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    const Binding *here = array_get(&self->bindings, index[mid]);
    int order = facts__text_compare(here->name, name);
    if (order < 0 || (order == 0 && here->kind <= kind)) low = mid + 1;
    else high = mid;
  }
  if (low == 0) return NULL;
  const Binding *found = array_get(&self->bindings, index[low - 1]);
  return found->kind == kind && text_eq(found->name, name) ? found : NULL;
}

static const Binding *facts__import(const Facts *self, Text name) {
  for (uint32_t i = self->imports.size; i > 0; i--) {
    const Binding *binding = array_get(&self->imports, i - 1);
    if (text_eq(binding->name, name)) return binding;
  }
  return NULL;
}

/* ---- After the walk: resolution ------------------------------------------ */

/* The class of this file named by `name` (the last segment of a
 * constructor's text: `mod.Trainer` names Trainer), or -1. */
static int32_t facts__class_named(const Facts *self, Text name) {
  name = text_last_segment(name);
  for (uint32_t i = 0; i < self->classes.size; i++) {
    if (text_eq(self->classes.contents[i].name, name)) return (int32_t)i;
  }
  return -1;
}

/* The function named `name` directly in `class_index` (-1: not in a class)
 * whose parent function is `parent` (-2: any). */
static int32_t facts__function_named(const Facts *self, Text name, int32_t class_index, int32_t parent) {
  for (uint32_t i = facts__lower_bound(self, name); i < self->functions_by_name.size; i++) {
    uint32_t index = self->functions_by_name.contents[i];
    const Function *function = array_get(&self->functions, index);
    if (!text_eq(function->name, name)) break;
    if (function->class_index == class_index && (parent == -2 || function->parent == parent)) {
      return (int32_t)index;
    }
  }
  return -1;
}

static int32_t facts__method(const Facts *self, int32_t class_index, Text name) {
  return facts__function_named(self, name, class_index, -2);
}

/* A plain `name(...)`: a function nested in the caller's chain, else one at
 * module level. */
static int32_t facts__resolve_name(const Facts *self, Text name, int32_t function) {
  for (int32_t scope = function; scope >= 0; scope = self->functions.contents[scope].parent) {
    int32_t found = facts__function_named(self, name, -1, scope);
    if (found >= 0) return found;
  }
  return facts__function_named(self, name, -1, -1);
}

static int32_t facts__class_of_function(const Facts *self, int32_t function) {
  while (function >= 0) {
    const Function *entry = array_get(&self->functions, function);
    if (entry->class_index >= 0) return entry->class_index;
    function = entry->parent;
  }
  return -1;
}

/* The method `name` of the one nn.Module class of this file that has it
 * (`model.training_step(batch)` where model is a parameter); -1 when no
 * module class or several have it. */
static int32_t facts__module_method(const Facts *self, Text name) {
  int32_t found = -1;
  for (uint32_t i = facts__lower_bound(self, name); i < self->functions_by_name.size; i++) {
    uint32_t index = self->functions_by_name.contents[i];
    const Function *function = array_get(&self->functions, index);
    if (!text_eq(function->name, name)) break;
    if (function->class_index < 0 || !self->classes.contents[function->class_index].is_module) continue;
    if (found >= 0) return -1;
    found = (int32_t)index;
  }
  return found;
}

int32_t facts_resolve_call(const Facts *self, TSNode call, int32_t function) {
  TSNode callee = node_is(call, K_CALL) ? node_field(call, F_FUNCTION) : call;
  if (node_is(callee, K_IDENTIFIER)) {
    return facts__resolve_name(self, node_text(self->source, callee), function);
  }
  if (!node_is(callee, K_ATTRIBUTE)) return -1;
  Text receiver = node_text(self->source, node_field(callee, F_OBJECT));
  Text method = node_text(self->source, node_field(callee, F_ATTRIBUTE));
  int32_t class_index = -1;
  if (text_is(receiver, "self")) {
    class_index = facts__class_of_function(self, function);
  } else {
    const Binding *instance = facts__binding(self, BIND_INSTANCE, receiver);
    if (instance) class_index = facts__class_named(self, instance->value);
    if (class_index < 0 && self->uses_torch && facts__module_by_name(receiver)) return facts__module_method(self, method);
  }
  return class_index < 0 ? -1 : facts__method(self, class_index, method);
}

bool facts_is_forward(const Facts *self, TSNode call) {
  Text callee = call_function_text(self->source, call);
  if (text_is(callee, "self")) {
    int32_t function = facts_function_at(self, call);
    return self->uses_torch && function >= 0 && self->functions.contents[function].in_module_class;
  }
  if (text_is(call_method_name(self->source, call), "forward")) {
    callee = node_text(self->source, call_receiver(call));
  }
  Text last = text_last_segment(callee);
  bool constructor = last.length > 0 && last.ptr[0] >= 'A' && last.ptr[0] <= 'Z';
  static const char *const FACTORIES[] = {"make_", "build_", "create_", "get_", "load_", "init_", "new_", "setup_"};
  for (size_t i = 0; i < sizeof FACTORIES / sizeof FACTORIES[0] && !constructor; i++) {
    constructor = last.length > strlen(FACTORIES[i]) && strncmp(last.ptr, FACTORIES[i], strlen(FACTORIES[i])) == 0;
  }
  return !constructor && !facts_is_loss_function(callee) && facts_is_module(self, callee);
}

/* An unresolved call: a module's forward, or something outside the file. */
static void facts__settle_forward(Facts *self, Event *event) {
  if (facts_is_forward(self, event->node)) {
    Text callee = call_function_text(self->source, event->node);
    if (text_is(call_method_name(self->source, event->node), "forward")) {
      callee = node_text(self->source, call_receiver(event->node));
    }
    event->kind = EV_FORWARD;
    event->target = facts_canonical(self, callee);
  } else {
    event->kind = EV_KIND_COUNT;
  }
}

static void facts__resolve_calls(Facts *self) {
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    if (event->kind == EV_KIND_COUNT || event->kind == EV_GRAD_TOGGLE) continue;
    int32_t callee = facts_resolve_call(self, event->node, event->function);
    if (callee >= 0) {
      event->kind = EV_CALL;
      event->callee = callee;
      self->functions.contents[callee].call_count++;
    } else if (event->kind == EV_CALL) {
      facts__settle_forward(self, event);
    }
  }
}

bool facts_is_loss_function(Text callee) {
  Text last = text_last_segment(callee);
  return text_contains_ci(last, "loss") || text_contains_ci(last, "crit") || text_contains_ci(last, "objective") ||
         text_is(last, "cross_entropy") || text_is(last, "nll_loss") || text_is(last, "kl_div") ||
         text_is(last, "binary_cross_entropy") || text_is(last, "binary_cross_entropy_with_logits");
}

/* Words that name a module anywhere in a name (resnet, netD, my_model). */
static const char *const MODULE_STEMS[] = {"model", "net"};

/* Words that name a module as a whole word of the name (self.encoder,
 * policy, lstm_layer), but not data_generator or noise_generator. */
static const char *const MODULE_WORDS[] = {
    "encoder", "decoder", "backbone", "teacher", "student", "generator", "discriminator", "classifier",
    "policy", "actor", "critic", "rnn", "lstm", "gru", "transformer", "vae", "unet", "cell",
    "autoencoder", "detector", "segmenter", "embedder", "gen", "disc", "clf", "head",
};

/* Words that mark a name as data, not a module: data_generator. */
static const char *const DATA_WORDS[] = {"data", "batch", "loader", "sample", "noise", "dataset", "input", "output"};

/* Whether `name` has `word` as one of its `_`-separated parts. */
static bool facts__has_part(Text name, const char *word) {
  size_t length = strlen(word);
  for (uint32_t start = 0; start < name.length;) {
    uint32_t end = start;
    while (end < name.length && name.ptr[end] != '_') end++;
    if (end - start == length && strncasecmp(name.ptr + start, word, length) == 0) return true;
    start = end + 1;
  }
  return false;
}

static bool facts__module_by_name(Text name) {
  Text last = text_last_segment(name);
  for (size_t i = 0; i < sizeof DATA_WORDS / sizeof DATA_WORDS[0]; i++) {
    if (facts__has_part(last, DATA_WORDS[i])) return false;
  }
  for (size_t i = 0; i < sizeof MODULE_STEMS / sizeof MODULE_STEMS[0]; i++) {
    if (text_contains_ci(last, MODULE_STEMS[i])) return true;
  }
  for (size_t i = 0; i < sizeof MODULE_WORDS / sizeof MODULE_WORDS[0]; i++) {
    if (facts__has_part(last, MODULE_WORDS[i])) return true;
  }
  return false;
}

static bool facts__switched_mode(const Facts *self, Text name) {
  for (uint32_t i = 0; i < self->switched.size; i++) {
    if (text_eq(self->switched.contents[i], name)) return true;
  }
  return false;
}

/* Remembers the modules switched with .eval()/.train(), and the frozen
 * ones, once, before forwards are told from other calls. */
static void facts__collect_switched(Facts *self) {
  for (uint32_t i = 0; i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->kind == EV_FREEZE && self->frozen.size < 64) {
      array_push(&self->frozen, text_strip_self(facts_canonical(self, event->target)));
    }
    if (event->kind != EV_EVAL && event->kind != EV_TRAIN) continue;
    Text target = facts_canonical(self, event->target);
    if (!facts__switched_mode(self, target) && self->switched.size < 64) array_push(&self->switched, target);
  }
}

bool facts_is_module(const Facts *self, Text name) {
  if (!self->uses_torch || name.length == 0 || text_is(name, "self") || text_is(name, "super")) return false;
  name = facts_canonical(self, name);
  const Binding *instance = facts__binding(self, BIND_INSTANCE, name);
  if (instance) {
    int32_t class_index = facts__class_named(self, instance->value);
    if (class_index >= 0) return self->classes.contents[class_index].is_module;
    if (text_contains_ci(instance->value, "nn.") || text_contains_ci(instance->value, "from_pretrained") ||
        text_contains_ci(instance->value, "model") || text_contains_ci(instance->value, "DataParallel") ||
        text_is(text_last_segment(instance->value), "DDP")) {
      return true;
    }
  }
  return facts__switched_mode(self, name) || facts__module_by_name(name);
}

bool facts_is_frozen(const Facts *self, Text module) {
  module = text_strip_self(facts_canonical(self, module));
  for (uint32_t i = 0; i < self->frozen.size; i++) {
    Text frozen = self->frozen.contents[i];
    bool owner = module.length > frozen.length && memcmp(module.ptr, frozen.ptr, frozen.length) == 0 &&
                 module.ptr[frozen.length] == '.';
    if (text_eq(frozen, module) || owner) return true;
  }
  return false;
}

Text facts_constructor_of(const Facts *self, Text name) {
  const Binding *instance = facts__binding(self, BIND_INSTANCE, facts_canonical(self, name));
  return instance ? instance->value : (Text){"", 0};
}

Text facts_canonical(const Facts *self, Text name) {
  for (int hops = 0; hops < 4; hops++) {
    const Binding *alias = facts__binding(self, BIND_ALIAS, name);
    if (!alias || text_eq(alias->value, name)) break;
    name = alias->value;
  }
  return name;
}

static bool facts__is_optimizer(const Facts *self, Text name) {
  if (facts__binding(self, BIND_OPTIMIZER, name)) return true;
  if (facts__binding(self, BIND_SCHEDULER, name)) return false;
  return text_contains_ci(text_last_segment(name), "opt");
}

typedef Array(Text) Texts;

static int facts__text_order(const void *a, const void *b) {
  return facts__text_compare(*(const Text *)a, *(const Text *)b);
}

static bool facts__texts_have(const Texts *texts, Text name) {
  return texts->size > 0 && bsearch(&name, texts->contents, texts->size, sizeof(Text), facts__text_order);
}

/* The receivers of backward calls (`engine` in `engine.backward(loss)`)
 * and the targets of clears as written, sorted: each step then looks them
 * up in log time instead of scanning every event. */
static void facts__collect_receivers(const Facts *self, Texts *backward, Texts *cleared) {
  for (uint32_t i = 0; i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->kind == EV_BACKWARD) array_push(backward, node_text(self->source, call_receiver(event->node)));
    if (event->kind == EV_CLEAR) array_push(cleared, event->target);
  }
  if (backward->size > 1) qsort(backward->contents, backward->size, sizeof(Text), facts__text_order);
  if (cleared->size > 1) qsort(cleared->contents, cleared->size, sizeof(Text), facts__text_order);
}

/* Keeps the steps of optimizers; `engine.backward(loss); engine.step()`
 * (DeepSpeed) steps and clears at once. Clears of something that is not an
 * optimizer (a module) clear every optimizer. */
static void facts__settle_targets(Facts *self) {
  Texts backward = array_new(), cleared = array_new();
  facts__collect_receivers(self, &backward, &cleared);
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    if (event->kind == EV_STEP) {
      Text target = facts_canonical(self, event->target);
      if (facts__texts_have(&backward, target)) {
        event->flag = true;
      } else if (!facts__is_optimizer(self, target) && !facts__texts_have(&cleared, event->target)) {
        event->kind = EV_KIND_COUNT;
      }
      event->target = target;
      const Binding *optimizes = facts__binding(self, BIND_OPTIMIZES, target);
      if (optimizes) event->module = facts_canonical(self, optimizes->value);
    }
  }
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    if (event->kind == EV_CLEAR && event->target.length > 0) {
      Text target = facts_canonical(self, event->target);
      bool optimizer = facts__is_optimizer(self, target);
      event->module = optimizer ? (Text){"", 0} : target;
      event->target = optimizer ? target : (Text){"", 0};
    }
  }
  array_delete(&backward);
  array_delete(&cleared);
}

static void facts__drop_unresolved(Facts *self) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < self->events.size; i++) {
    if (self->events.contents[i].kind != EV_KIND_COUNT) self->events.contents[kept++] = self->events.contents[i];
  }
  self->events.size = kept;
}

/* ---- After the walk: summaries -------------------------------------------- */

static uint32_t facts__event_index_at(const Facts *self, uint32_t byte) {
  uint32_t low = 0, high = self->events.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    if (ts_node_start_byte(self->events.contents[mid].node) < byte) low = mid + 1;
    else high = mid;
  }
  return low;
}

/* What the events of `function` within `scope` reach, through helpers. */
static uint32_t facts__reach_of(const Facts *self, int32_t function, TSNode scope) {
  uint32_t reaches = 0, end = ts_node_end_byte(scope);
  for (uint32_t i = facts__event_index_at(self, ts_node_start_byte(scope)); i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (ts_node_start_byte(event->node) >= end) break;
    if (event->function != function) continue;
    reaches |= REACH(event->kind);
    if (event->kind == EV_CALL) reaches |= self->functions.contents[event->callee].reaches;
  }
  return reaches;
}

static void facts__summarize(Facts *self) {
  for (uint32_t pass = 0, changed = 1; changed && pass < 16; pass++) {
    changed = 0;
    for (uint32_t i = 0; i < self->functions.size; i++) {
      Function *function = array_get(&self->functions, i);
      uint32_t reaches = facts__reach_of(self, (int32_t)i, function->node);
      if (reaches != function->reaches) {
        function->reaches = reaches;
        changed = 1;
      }
    }
  }
  for (uint32_t i = 0; i < self->loops.size; i++) {
    Loop *loop = array_get(&self->loops, i);
    loop->reaches = facts__reach_of(self, loop->function, loop->body);
  }
}

/* Classes that define forward() are modules; their methods are module
 * methods. Functions learn whether they hold a loop. */
static void facts__settle_classes(Facts *self) {
  for (uint32_t i = 0; i < self->functions.size; i++) {
    const Function *function = array_get(&self->functions, i);
    if (function->class_index >= 0 && text_is(function->name, "forward")) {
      self->classes.contents[function->class_index].is_module = true;
    }
  }
  for (uint32_t i = 0; i < self->functions.size; i++) {
    Function *function = array_get(&self->functions, i);
    int32_t class_index = facts__class_of_function(self, (int32_t)i);
    function->in_module_class = class_index >= 0 && self->classes.contents[class_index].is_module;
  }
  for (uint32_t i = 0; i < self->loops.size; i++) {
    int32_t function = self->loops.contents[i].function;
    if (function >= 0) self->functions.contents[function].has_loop = true;
  }
}

/* A function runs in a backward context when it or any caller (through
 * the file's call graph) reaches a backward. */
static void facts__settle_backward_context(Facts *self) {
  for (uint32_t i = 0; i < self->functions.size; i++) {
    Function *function = array_get(&self->functions, i);
    function->backward_context = (function->reaches & REACH(EV_BACKWARD)) != 0;
  }
  for (uint32_t pass = 0, changed = 1; changed && pass < 16; pass++) {
    changed = 0;
    for (uint32_t i = 0; i < self->events.size; i++) {
      const Event *event = array_get(&self->events, i);
      if (event->kind != EV_CALL || event->function < 0) continue;
      Function *callee = array_get(&self->functions, event->callee);
      if (!callee->backward_context && self->functions.contents[event->function].backward_context) {
        callee->backward_context = true;
        changed = 1;
      }
    }
  }
}

/* A decorator defined in this file that runs its target under no_grad. */
static void facts__settle_decorators(Facts *self) {
  for (uint32_t i = 0; i < self->functions.size; i++) {
    Function *function = array_get(&self->functions, i);
    TSNode parent = ts_node_parent(function->node);
    if (function->decorated != GRAD_ON || !node_is(parent, K_DECORATED_DEFINITION)) continue;
    for (uint32_t j = 0; j < ts_node_named_child_count(parent); j++) {
      TSNode decorator = ts_node_named_child(parent, j);
      if (!node_is(decorator, K_DECORATOR)) continue;
      int32_t wrapper = facts_resolve_call(self, ts_node_named_child(decorator, 0), function->parent);
      if (wrapper >= 0 && wrapper != (int32_t)i && self->functions.contents[wrapper].wraps_grad_off) {
        function->decorated = GRAD_OFF;
      }
    }
  }
}

static GradMode facts__toggle_before(const Facts *self, const Event *event) {
  if (!self->has_toggles) return GRAD_ON;
  uint32_t index = (uint32_t)(event - self->events.contents);
  for (uint32_t i = index; i > 0; i--) {
    const Event *before = array_get(&self->events, i - 1);
    if (before->kind == EV_GRAD_TOGGLE && before->function == event->function) return before->lexical_grad;
  }
  return GRAD_ON;
}

static GradMode facts__mode(const Facts *self, const Event *event) {
  if (event->lexical_grad != GRAD_ON) return event->lexical_grad;
  GradMode toggled = facts__toggle_before(self, event);
  if (toggled != GRAD_ON) return toggled;
  if (event->function >= 0) {
    const Function *function = array_get(&self->functions, event->function);
    if (function->decorated != GRAD_ON) return function->decorated;
    if (function->all_callers_grad_off) return GRAD_OFF;
  }
  return GRAD_ON;
}

/* A function is grad-off when every call of it in the file is. */
static void facts__settle_callers(Facts *self) {
  bool *called_with_grad = gl_malloc(self->functions.size + 1);
  for (uint32_t pass = 0, changed = 1; changed && pass < 16; pass++) {
    changed = 0;
    memset(called_with_grad, 0, self->functions.size + 1);
    for (uint32_t j = 0; j < self->events.size; j++) {
      const Event *event = array_get(&self->events, j);
      if (event->kind == EV_CALL && facts__mode(self, event) == GRAD_ON) called_with_grad[event->callee] = true;
    }
    for (uint32_t i = 0; i < self->functions.size; i++) {
      Function *function = array_get(&self->functions, i);
      if (function->call_count == 0 || function->all_callers_grad_off || called_with_grad[i]) continue;
      function->all_callers_grad_off = true;
      changed = 1;
    }
  }
  free(called_with_grad);
}

GradMode facts_grad_mode(const Facts *self, const Event *event) { return facts__mode(self, event); }

/* The mode the innermost grad context manager around `node` sets, within
 * its function; -1 when none. */
static int facts__lexical_mode(const Facts *self, TSNode node) {
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    Kind kind = node_kind(at);
    if (kind == K_FUNCTION_DEFINITION || kind == K_LAMBDA) return -1;
    if (kind != K_WITH_STATEMENT) continue;
    Walk probe = {(Facts *)self, array_new(), {0}, -1};
    int mode = walk__with_grad(&probe, at);
    if (mode >= 0) return mode;
  }
  return -1;
}

GradMode facts_grad_mode_at(const Facts *self, TSNode node, int32_t function) {
  int lexical = facts__lexical_mode(self, node);
  if (lexical >= 0) return (GradMode)lexical;
  if (self->has_toggles) {
    uint32_t at = ts_node_start_byte(node);
    GradMode toggled = GRAD_ON;
    for (uint32_t i = 0; i < self->events.size; i++) {
      const Event *event = array_get(&self->events, i);
      if (ts_node_start_byte(event->node) >= at) break;
      if (event->kind == EV_GRAD_TOGGLE && event->function == function) toggled = event->lexical_grad;
    }
    if (toggled != GRAD_ON) return toggled;
  }
  if (function >= 0) {
    const Function *entry = array_get(&self->functions, function);
    if (entry->decorated != GRAD_ON) return entry->decorated;
    if (entry->all_callers_grad_off) return GRAD_OFF;
  }
  return GRAD_ON;
}

/* A name or call that reads as data: train_loader, val_batches(...),
 * self.train_dl, dataset, get_batches(...). */
static bool facts__names_data(const Source *source, TSNode node) {
  if (node_is(node, K_CALL)) node = node_field(node, F_FUNCTION);
  if (!node_is(node, K_IDENTIFIER) && !node_is(node, K_ATTRIBUTE)) return false;
  Text last = text_last_segment(node_text(source, node));
  return text_contains_ci(last, "loader") || text_contains_ci(last, "batches") || text_contains_ci(last, "data") ||
         text_ends_with(last, "_dl") || text_is(last, "dl") || text_ends_with(last, "_iter");
}

bool facts_loop_iterates_data(const Facts *self, int32_t loop) {
  TSNode node = self->loops.contents[loop].node;
  if (!node_is(node, K_FOR_STATEMENT)) return false;
  TSNode iterable = node_unparenthesize(node_field(node, F_RIGHT));
  /* enumerate(tqdm(loader)), zip(loader, ...), iter(loader) */
  for (int depth = 0; depth < 4 && node_is(iterable, K_CALL); depth++) {
    Text wrapper = text_last_segment(call_function_text(self->source, iterable));
    if (!text_is(wrapper, "enumerate") && !text_is(wrapper, "tqdm") && !text_is(wrapper, "zip") &&
        !text_is(wrapper, "iter") && !text_is(wrapper, "islice") && !text_is(wrapper, "track")) {
      break;
    }
    iterable = call_positional(iterable, 0);
  }
  return facts__names_data(self->source, iterable);
}

int32_t facts_function_at(const Facts *self, TSNode node) {
  int32_t found = -1;
  uint32_t at = ts_node_start_byte(node);
  for (uint32_t i = 0; i < self->functions.size; i++) {
    TSNode body = node_field(self->functions.contents[i].node, F_BODY);
    if (ts_node_start_byte(body) <= at && at < ts_node_end_byte(body)) found = (int32_t)i;
  }
  return found;
}

/* ---- Assignments ----------------------------------------------------------- */

/* The first position in assigns_by_name for `name`. */
static uint32_t facts__assign_lower_bound(const Facts *self, Text name) {
  uint32_t low = 0, high = self->assigns_by_name.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    if (facts__text_compare(self->assigns.contents[self->assigns_by_name.contents[mid]].name, name) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

AssignIter facts_assigns(const Facts *self, Text name, int32_t function) {
  return (AssignIter){self, name, function, facts__assign_lower_bound(self, name)};
}

const Assign *assign_iter_next(AssignIter *self) {
  const Facts *facts = self->facts;
  while (self->next < facts->assigns_by_name.size) {
    const Assign *assign = array_get(&facts->assigns, facts->assigns_by_name.contents[self->next++]);
    if (!text_eq(assign->name, self->name)) {
      self->next = facts->assigns_by_name.size;
      return NULL;
    }
    if (assign->function == self->function) return assign;
  }
  return NULL;
}

const Assign *facts_assign_before(const Facts *self, Text name, int32_t function, uint32_t at, bool any_position) {
  const Assign *before = NULL, *last = NULL;
  AssignIter it = facts_assigns(self, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (ts_node_start_byte(assign->statement) < at) before = assign;
    last = assign;
  }
  return before ? before : any_position ? last : NULL;
}

/* ---- Public -------------------------------------------------------------- */

Facts *facts_new(const Source *source, TSNode root) {
  syntax_init();
  Facts *self = gl_calloc(1, sizeof(Facts));
  self->source = source;
  self->root = root;
  Walk walk = {self, array_new(), {0}, -1};
  array_push(&walk.frames, ((Frame){0, -1, -1, -1, GRAD_ON}));
  walk__run(&walk, root);
  array_delete(&walk.frames);
  facts__build_index(&self->functions_by_name, self->functions.contents, offsetof(Function, name), NO_KIND,
                     sizeof(Function), self->functions.size);
  facts__build_index(&self->bindings_by_name, self->bindings.contents, offsetof(Binding, name),
                     offsetof(Binding, kind), sizeof(Binding), self->bindings.size);
  facts__build_index(&self->assigns_by_name, self->assigns.contents, offsetof(Assign, name), NO_KIND, sizeof(Assign),
                     self->assigns.size);
  facts__settle_classes(self);
  facts__collect_switched(self);
  facts__resolve_calls(self);
  facts__settle_targets(self);
  facts__drop_unresolved(self);
  facts__settle_decorators(self);
  facts__summarize(self);
  facts__settle_callers(self);
  facts__settle_backward_context(self);
  return self;
}

void facts_delete(Facts *self) {
  if (!self) return;
  array_delete(&self->functions);
  array_delete(&self->classes);
  array_delete(&self->loops);
  array_delete(&self->events);
  array_delete(&self->bindings);
  array_delete(&self->imports);
  array_delete(&self->assigns);
  array_delete(&self->assigns_by_name);
  array_delete(&self->switched);
  array_delete(&self->frozen);
  array_delete(&self->functions_by_name);
  array_delete(&self->bindings_by_name);
  for (uint32_t i = 0; i < self->owned_strings.size; i++) free(self->owned_strings.contents[i]);
  array_delete(&self->owned_strings);
  free(self);
}

static void facts__flatten(const Facts *self, int32_t function, TSNode scope, TSNode anchor,
                           FlatEvents *out, uint32_t depth) {
  uint32_t end = ts_node_end_byte(scope);
  for (uint32_t i = facts__event_index_at(self, ts_node_start_byte(scope)); i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (ts_node_start_byte(event->node) >= end) break;
    if (event->function != function) continue;
    TSNode here = depth == 0 ? event->node : anchor;
    if (event->kind != EV_CALL) {
      array_push(out, ((FlatEvent){event, here}));
    } else if (depth < 4 && event->callee != function) {
      const Function *callee = array_get(&self->functions, event->callee);
      facts__flatten(self, event->callee, callee->node, here, out, depth + 1);
    }
  }
}

void facts_flatten(const Facts *self, int32_t function, TSNode scope, FlatEvents *out) {
  facts__flatten(self, function, scope, scope, out, 0);
}

/* The child of `ancestor` on the way down to `node`. */
static TSNode facts__child_toward(TSNode ancestor, TSNode node) {
  return ts_node_child_with_descendant(ancestor, node);
}

bool facts_exclusive(TSNode a, TSNode b) {
  if (node_contains(a, b) || node_contains(b, a)) return false;
  TSNode common = ts_node_parent(a);
  for (int steps = 0; !ts_node_is_null(common) && !node_contains(common, b); steps++) {
    if (steps == MAX_ASCENT) return false;
    common = ts_node_parent(common);
  }
  if (ts_node_is_null(common)) return false;
  Kind kind = node_kind(common);
  if (kind != K_IF_STATEMENT && kind != K_TRY_STATEMENT) return false;
  TSNode branch_a = facts__child_toward(common, a), branch_b = facts__child_toward(common, b);
  TSNode condition = node_field(common, F_CONDITION);
  if (ts_node_eq(branch_a, condition) || ts_node_eq(branch_b, condition)) return false;
  if (kind == K_TRY_STATEMENT &&
      (node_is(branch_a, K_FINALLY_CLAUSE) || node_is(branch_b, K_FINALLY_CLAUSE))) {
    return false;
  }
  return !ts_node_eq(branch_a, branch_b);
}

const char *facts_qualify(const Facts *self, TSNode expression, char *buffer, size_t size) {
  Text text = node_text(self->source, expression);
  uint32_t head = 0;
  while (head < text.length && text.ptr[head] != '.') head++;
  const Binding *import = facts__import(self, (Text){text.ptr, head});
  if (import) {
    snprintf(buffer, size, "%.*s%.*s", (int)import->value.length, import->value.ptr,
             (int)(text.length - head), text.ptr + head);
  } else {
    snprintf(buffer, size, "%.*s", (int)text.length, text.ptr);
  }
  return buffer;
}

int32_t facts_loop_at(const Facts *self, TSNode node) {
  int32_t found = -1;
  for (uint32_t i = 0; i < self->loops.size; i++) {
    const Loop *loop = array_get(&self->loops, i);
    if (node_contains(loop->body, node)) found = (int32_t)i;
  }
  return found;
}
