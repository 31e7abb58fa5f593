/* facts.c — one file's facts and the questions asked of them: names and
 * bindings, calls resolved to the file's functions, grad mode at a point,
 * loops, parameters, assignments. The walk (walk.c) fills them and
 * settle.c settles them; this file calls neither. */
#include "facts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "roles_names.h"

/* ---- After the walk: name lookup ------------------------------------------ */

/* Sorting needs the names beside the indices; qsort has no context, so the
 * index is sorted as (name, kind, index) triples and then stripped. */
typedef struct {
  Text name;
  uint32_t kind;
  uint32_t index;
} Named;

static int facts__named_compare(const void *a, const void *b) {
  const Named *left = a, *right = b;
  int order = text_compare(left->name, right->name);
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

void facts_index(Facts *self) {
  for (uint32_t i = 0, count = ts_node_child_count(self->root); i < count; i++) {
    array_push(&self->top_level, ts_node_child(self->root, i));
  }
  facts__build_index(&self->functions_by_name, self->functions.contents, offsetof(Function, name), NO_KIND,
                     sizeof(Function), self->functions.size);
  facts__build_index(&self->bindings_by_name, self->bindings.contents, offsetof(Binding, name),
                     offsetof(Binding, kind), sizeof(Binding), self->bindings.size);
  facts__build_index(&self->assigns_by_name, self->assigns.contents, offsetof(Assign, name), NO_KIND, sizeof(Assign),
                     self->assigns.size);
}

/* The first position in functions_by_name whose name is not below `name`. */
static uint32_t facts__lower_bound(const Facts *self, Text name) {
  const uint32_t *index = self->functions_by_name.contents;
  uint32_t low = 0, high = self->functions_by_name.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    Text here = self->functions.contents[index[mid]].name;
    if (text_compare(here, name) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/* The position in bindings_by_name just past the last binding of `kind`
 * and `name`: bindings are ordered by (name, kind, position), so the
 * name's bindings of that kind end there, found in log time however often
 * the name is bound. */
static uint32_t facts__bindings_end(const Facts *self, BindingKind kind, Text name) {
  const uint32_t *index = self->bindings_by_name.contents;
  uint32_t low = 0, high = self->bindings_by_name.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    const Binding *here = array_get(&self->bindings, index[mid]);
    int order = text_compare(here->name, name);
    if (order < 0 || (order == 0 && here->kind <= kind)) low = mid + 1;
    else high = mid;
  }
  return low;
}

const Binding *facts_binding(const Facts *self, BindingKind kind, Text name) {
  uint32_t end = facts__bindings_end(self, kind, name);
  if (end == 0) return NULL;
  const Binding *found = array_get(&self->bindings, self->bindings_by_name.contents[end - 1]);
  return found->kind == kind && text_eq(found->name, name) ? found : NULL;
}

uint32_t facts_bindings_last(const Facts *self, BindingKind kind, Text name, const Binding **out, uint32_t max) {
  uint32_t end = facts__bindings_end(self, kind, name), count = 0;
  for (uint32_t at = end; at > 0 && count < max; at--) {
    const Binding *found = array_get(&self->bindings, self->bindings_by_name.contents[at - 1]);
    if (found->kind != kind || !text_eq(found->name, name)) break;
    out[count++] = found;
  }
  return count;
}

#define FACTS_INSTANCES_TRIED 4

const Binding *facts_external_instance(const Facts *self, Text receiver) {
  const Binding *instances[FACTS_INSTANCES_TRIED];
  uint32_t count = facts_bindings_last(self, BIND_INSTANCE, receiver, instances, FACTS_INSTANCES_TRIED);
  for (uint32_t i = 0; i < count; i++) {
    if (!ts_node_is_null(instances[i]->node) && facts_external_call(self, instances[i]->node)) return instances[i];
  }
  return NULL;
}

/* The last import of `name` so far: the walk enters each one as it is
 * bound (walk.c), so a lookup during the walk sees only those above. */
const Binding *facts_import(const Facts *self, Text name) {
  uint32_t found = text_map_get(&self->imports_by_name, name);
  return found ? array_get(&self->imports, found - 1) : NULL;
}

/* ---- Libraries ---------------------------------------------------------------- */

static const char *const TORCH_MODULES[] = {
    "torch", "lightning", "pytorch_lightning", "transformers", "accelerate", "timm", "torchvision",
    "torchaudio", "torchtext", "deepspeed", "fastai", "diffusers", "peft", "trl", "ignite", "monai",
    "detectron2", "mmengine", "torch_geometric", "dgl", "sentence_transformers", "ultralytics",
};

const char *const *facts_torch_modules(uint32_t *count) {
  *count = (uint32_t)(sizeof TORCH_MODULES / sizeof TORCH_MODULES[0]);
  return TORCH_MODULES;
}

/* ---- Grad managers ------------------------------------------------------------ */

static bool facts__is_false(const Source *source, TSNode node) {
  return node_is(node, K_FALSE) || text_is(node_text(source, node), "False");
}

static bool facts__is_true(const Source *source, TSNode node) {
  return node_is(node, K_TRUE) || text_is(node_text(source, node), "True");
}

static int facts__grad_manager_at(const Facts *self, TSNode expression, int depth);

/* A helper of this file, written above the call, that returns a grad
 * manager: `def no_grad_ctx(): return torch.no_grad()` (the other returns
 * may be no-op managers, `contextlib.suppress()`, `nullcontext()`, for old
 * versions of torch). GRAD_OFF when each return turns grad off or does
 * nothing and one turns it off; else -1. */
static int facts__helper_manager(const Facts *self, TSNode call, int depth) {
  if (depth > 2 || !node_is(call, K_CALL) || !node_is(node_field(call, F_FUNCTION), K_IDENTIFIER)) return -1;
  Text name = node_text(self->source, node_field(call, F_FUNCTION));
  int32_t helper = -1;
  for (uint32_t i = 0; i < self->functions.size && helper < 0; i++) {
    const Function *function = array_get(&self->functions, i);
    if (function->class_index < 0 && function->parent < 0 && text_eq(function->name, name)) helper = (int32_t)i;
  }
  bool off = false;
  for (uint32_t i = 0; helper >= 0 && i < self->returns.size; i++) {
    const Return *entry = array_get(&self->returns, i);
    if (entry->function != helper) continue;
    TSNode value = node_unparenthesize(entry->value);
    int mode = facts__grad_manager_at(self, value, depth + 1);
    Text callee = node_is(value, K_CALL) ? text_last_segment(call_function_text(self->source, value)) : (Text){"", 0};
    if (mode == GRAD_OFF) off = true;
    else if (!text_is(callee, "suppress") && !text_is(callee, "nullcontext")) return -1;
  }
  return off ? GRAD_OFF : -1;
}

/* `no_grad()`, `inference_mode()`, `set_grad_enabled(x)`, `enable_grad()`,
 * called or bare (decorators), or a helper above returning one: the grad
 * mode it sets, or -1. */
static int facts__grad_manager_at(const Facts *self, TSNode expression, int depth) {
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
  return facts__helper_manager(self, expression, depth);
}

int facts_grad_manager(const Facts *self, TSNode expression) { return facts__grad_manager_at(self, expression, 0); }

/* `with ExitStack() as stack: stack.enter_context(torch.no_grad())`: the
 * mode a statement of the block enters through the stack, or -1. */
static int facts__stack_grad(const Facts *self, TSNode with, TSNode item_value) {
  if (!node_is(item_value, K_AS_PATTERN)) return -1;
  TSNode manager = ts_node_named_child(item_value, 0);
  TSNode alias = ts_node_named_child(item_value, 1);
  if (!node_is(manager, K_CALL) || ts_node_is_null(alias)) return -1;
  if (!text_is(text_last_segment(call_function_text(self->source, manager)), "ExitStack")) return -1;
  Text stack = node_text(self->source, alias);
  TSNode body = node_field(with, F_BODY);
  for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
    TSNode statement = ts_node_named_child(body, i);
    TSNode call = node_is(statement, K_EXPRESSION_STATEMENT) ? ts_node_named_child(statement, 0) : (TSNode){0};
    if (!node_is(call, K_CALL) || !text_is(call_method_name(self->source, call), "enter_context")) continue;
    if (!text_eq(node_text(self->source, call_receiver(call)), stack)) continue;
    int mode = facts_grad_manager(self, call_positional(call, 0));
    if (mode >= 0) return mode;
  }
  return -1;
}

/* with_statement -> WITH with_item {, with_item} ':' block */
int facts_with_grad_mode(const Facts *self, TSNode with) {
  int mode = -1;
  uint32_t count = ts_node_named_child_count(with);
  for (uint32_t i = 0; i < count; i++) {
    TSNode clause = ts_node_named_child(with, i);
    uint32_t items = ts_node_named_child_count(clause);
    for (uint32_t j = 0; j < items; j++) {
      TSNode item = ts_node_named_child(clause, j);
      if (!node_is(item, K_WITH_ITEM)) continue;
      TSNode value = node_field(item, F_VALUE);
      int entered = facts__stack_grad(self, with, value);
      if (entered >= 0) mode = entered;
      if (node_is(value, K_AS_PATTERN)) value = ts_node_named_child(value, 0);
      if (node_is(value, K_CONDITIONAL_EXPRESSION)) {
        for (uint32_t k = 0; k < ts_node_named_child_count(value); k++) {
          if (facts_grad_manager(self, ts_node_named_child(value, k)) == GRAD_OFF) mode = GRAD_MAYBE;
        }
        continue;
      }
      int item_mode = facts_grad_manager(self, value);
      if (item_mode >= 0) mode = item_mode;
    }
  }
  return mode;
}

/* ---- After the walk: resolution ------------------------------------------ */

/* The class of this file named by `name` (the last segment of a
 * constructor's text: `mod.Trainer` names Trainer), or -1. */
int32_t facts_class_named(const Facts *self, Text name) {
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

int32_t facts_class_of_function(const Facts *self, int32_t function) {
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
    class_index = facts_class_of_function(self, function);
  } else {
    const Binding *instance = facts_binding(self, BIND_INSTANCE, receiver);
    if (instance) class_index = facts_class_named(self, instance->value);
    if (class_index < 0 && self->uses_torch && roles_named_module(receiver)) {
      return facts__module_method(self, method);
    }
  }
  return class_index < 0 ? -1 : facts__method(self, class_index, method);
}

bool facts_used_as_module(const Facts *self, Text name) {
  return self->module_uses.size > 0 &&
         bsearch(&name, self->module_uses.contents, self->module_uses.size, sizeof(Text), text_order);
}

/* An import from outside torch and the frameworks built on it: the
 * project's own modules, or another library. */
bool facts_external_call(const Facts *self, TSNode call) {
  TSNode callee = node_field(call, F_FUNCTION);
  while (node_is(callee, K_ATTRIBUTE)) callee = node_field(callee, F_OBJECT);
  if (!node_is(callee, K_IDENTIFIER)) return false;
  const Binding *import = facts_import(self, node_text(self->source, callee));
  if (!import) return false;
  uint32_t count = 0;
  const char *const *torch = facts_torch_modules(&count);
  Text module = import->value;
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.') head++;
  for (uint32_t i = 0; i < count; i++) {
    if (text_is((Text){module.ptr, head}, torch[i])) return false;
  }
  return !text_is((Text){module.ptr, head}, "numpy") && !text_is((Text){module.ptr, head}, "math");
}

bool facts_instance_method(const Facts *self, TSNode call, char *buffer, size_t size) {
  TSNode callee = node_field(call, F_FUNCTION);
  if (!node_is(callee, K_ATTRIBUTE)) return false;
  Text method = node_text(self->source, node_field(callee, F_ATTRIBUTE));
  const Binding *instance = facts_external_instance(self, node_text(self->source, node_field(callee, F_OBJECT)));
  if (roles_module_method(method) || !instance) return false;
  char class_buffer[192];
  const char *class_name = facts_qualify(self, node_field(instance->node, F_FUNCTION), class_buffer, sizeof class_buffer);
  return (size_t)snprintf(buffer, size, "%s.%.*s", class_name, (int)method.length, method.ptr) < size;
}

Text facts_constructor_of(const Facts *self, Text name) {
  const Binding *instance = facts_binding(self, BIND_INSTANCE, facts_canonical(self, name));
  return instance ? instance->value : (Text){"", 0};
}

const char *facts_built_by(const Facts *self, Text name, char *buffer, size_t size, TSNode *call) {
  const Binding *instance = facts_binding(self, BIND_INSTANCE, facts_canonical(self, name));
  if (call) *call = instance ? instance->node : (TSNode){0};
  if (!instance || ts_node_is_null(instance->node) || size == 0) {
    if (size) buffer[0] = '\0';
    return buffer;
  }
  return facts_qualify(self, node_field(instance->node, F_FUNCTION), buffer, size);
}

Text facts_canonical(const Facts *self, Text name) {
  for (int hops = 0; hops < 4; hops++) {
    const Binding *alias = facts_binding(self, BIND_ALIAS, name);
    if (!alias || text_eq(alias->value, name)) break;
    name = alias->value;
  }
  return name;
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

static uint32_t facts__assign_index_at(const Facts *self, uint32_t byte) {
  uint32_t low = 0, high = self->assigns.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    if (ts_node_start_byte(self->assigns.contents[mid].statement) < byte) low = mid + 1;
    else high = mid;
  }
  return low;
}

void facts_events_within(const Facts *self, TSNode node, uint32_t *first, uint32_t *end) {
  *first = facts__event_index_at(self, ts_node_start_byte(node));
  *end = facts__event_index_at(self, ts_node_end_byte(node));
}

void facts_assigns_within(const Facts *self, TSNode node, uint32_t *first, uint32_t *end) {
  *first = facts__assign_index_at(self, ts_node_start_byte(node));
  *end = facts__assign_index_at(self, ts_node_end_byte(node));
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

GradMode facts_grad_mode(const Facts *self, const Event *event) { return facts__mode(self, event); }

bool facts_in_eval_mode_before(const Facts *self, const Event *event, Text module) {
  Text wanted = facts_canonical(self, module);
  for (uint32_t i = (uint32_t)(event - self->events.contents); i > 0; i--) {
    const Event *before = array_get(&self->events, i - 1);
    if (before->function != event->function || (before->kind != EV_EVAL && before->kind != EV_TRAIN)) continue;
    if (text_eq(facts_canonical(self, before->target), wanted)) return before->kind == EV_EVAL;
  }
  return false;
}

/* The mode the innermost grad context manager around `node` sets, within
 * its function; -1 when none. */
/* Whether `node` is a child of the root: its parent, the module, is then
 * known without asking tree-sitter (which scans the root's children). */
static bool facts__top_level(const Facts *self, TSNode node) {
  uint32_t start = ts_node_start_byte(node), low = 0, high = self->top_level.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    if (ts_node_start_byte(self->top_level.contents[mid]) < start) low = mid + 1;
    else high = mid;
  }
  for (; low < self->top_level.size && ts_node_start_byte(self->top_level.contents[low]) == start; low++) {
    if (ts_node_eq(self->top_level.contents[low], node)) return true;
  }
  return false;
}

static int facts__lexical_mode(const Facts *self, TSNode node) {
  if (facts__top_level(self, node)) return -1; /* the module: neither a with nor a function */
  TSNode ancestors[FACTS_ANCESTORS];
  uint32_t count = facts_ancestors(node, ancestors);
  for (uint32_t steps = 0; steps < count && steps < MAX_ASCENT; steps++) {
    TSNode at = ancestors[steps];
    Kind kind = node_kind(at);
    if (kind == K_FUNCTION_DEFINITION || kind == K_LAMBDA) return -1;
    if (kind == K_WITH_STATEMENT) {
      int mode = facts_with_grad_mode(self, at);
      if (mode >= 0) return mode;
    }
    if (facts__top_level(self, at)) return -1; /* above it only the module */
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

static bool facts__iteration_wrapper(const Source *source, TSNode call) {
  static const char *const WRAPPERS[] = {"enumerate", "tqdm", "zip", "iter", "islice", "track", NULL};
  return node_is(call, K_CALL) && text_in(text_last_segment(call_function_text(source, call)), WRAPPERS);
}

bool facts_plain_assign(const Assign *assign, uint32_t at) {
  (void)at;
  return !assign->augmented && !assign->unpacked && !assign->subscript;
}

/* The iterable of a for loop seen through wrappers: enumerate(tqdm(loader)),
 * zip(loader, ...), iter(loader), and a progress bar bound first
 * (`pbar = tqdm(loader)`, then `for batch in pbar:`). */
static TSNode facts__iterated(const Facts *self, int32_t loop) {
  const Loop *entry = array_get(&self->loops, loop);
  TSNode iterable = node_unparenthesize(node_field(entry->node, F_RIGHT));
  for (int depth = 0; depth < 4; depth++) {
    if (node_is(iterable, K_IDENTIFIER)) {
      const Assign *bound = facts_assign_last_before(self, node_text(self->source, iterable), entry->function,
                                                     ts_node_start_byte(entry->node), facts_plain_assign);
      if (!bound || !facts__iteration_wrapper(self->source, node_unparenthesize(bound->value))) break;
      iterable = node_unparenthesize(bound->value);
    }
    if (!facts__iteration_wrapper(self->source, iterable)) break;
    iterable = call_positional(iterable, 0);
  }
  return iterable;
}

int32_t facts_innermost_loop(const Facts *self, int32_t function, TSNode node, uint32_t reaching) {
  int32_t innermost = -1;
  for (uint32_t i = 0; i < self->loops.size; i++) {
    const Loop *loop = array_get(&self->loops, i);
    if (loop->function != function || !node_contains(loop->body, node) || (loop->reaches & reaching) != reaching) continue;
    if (innermost < 0 || node_contains(self->loops.contents[innermost].body, loop->node)) innermost = (int32_t)i;
  }
  return innermost;
}

bool facts_loop_iterates_data(const Facts *self, int32_t loop) {
  if (!node_is(self->loops.contents[loop].node, K_FOR_STATEMENT)) return false;
  return facts__names_data(self->source, facts__iterated(self, loop));
}

#define FACTS_STEP_WORK (REACH(EV_FORWARD) | REACH(EV_BACKWARD) | REACH(EV_STEP))
#define FACTS_UPDATE (REACH(EV_BACKWARD) | REACH(EV_STEP))

/* Marks loop `at` and the loops of its function around it. */
static void facts__mark_outward(const Facts *self, int32_t at, bool *marks) {
  for (; at >= 0; at = self->loops.contents[at].parent) marks[at] = true;
}

/* Which loops hold a loop that steps on its own (`holds`: one of their
 * function nested in them that iterates data or runs a forward, backward
 * or step, or a call of a helper of this file with such a loop: the
 * epoch loop's `train(epoch)`), and which update the model themselves
 * (`updates`: a backward or step, or a loopless helper that runs one,
 * in their own body outside nested loops). */
static void facts__loop_shapes(const Facts *self, bool *holds, bool *updates) {
  for (uint32_t i = 0; i < self->loops.size; i++) {
    const Loop *loop = array_get(&self->loops, i);
    if ((loop->reaches & FACTS_STEP_WORK) || facts_loop_iterates_data(self, (int32_t)i)) {
      facts__mark_outward(self, loop->parent, holds);
    }
  }
  for (uint32_t i = 0; i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->loop < 0) continue;
    if (event->kind == EV_BACKWARD || event->kind == EV_STEP) updates[event->loop] = true;
    if (event->kind != EV_CALL || event->callee < 0) continue;
    const Function *callee = array_get(&self->functions, (uint32_t)event->callee);
    if (callee->has_loop && (callee->reaches & FACTS_STEP_WORK)) facts__mark_outward(self, event->loop, holds);
    if (!callee->has_loop && (callee->reaches & FACTS_UPDATE)) updates[event->loop] = true;
  }
}

void facts_loops_per_step(const Facts *self, bool *per_step) {
  uint32_t count = self->loops.size;
  bool *holds = gl_calloc(count + 1, sizeof(bool)), *updates = gl_calloc(count + 1, sizeof(bool));
  facts__loop_shapes(self, holds, updates);
  for (uint32_t i = 0; i < count; i++) {
    const Loop *loop = array_get(&self->loops, i);
    bool works = (loop->reaches & FACTS_STEP_WORK) || facts_loop_iterates_data(self, (int32_t)i);
    per_step[i] = works && (!holds[i] || updates[i]);
  }
  free(holds);
  free(updates);
}

bool facts_framework_step(const Facts *self, int32_t function) {
  static const char *const STEPS[] = {"training_step", "validation_step", "test_step", "predict_step", NULL};
  return function >= 0 && text_in(self->functions.contents[function].name, STEPS);
}

bool facts_loop_per_step(const Facts *self, int32_t loop) {
  if (loop < 0 || (uint32_t)loop >= self->loops.size) return false;
  bool *per_step = gl_calloc(self->loops.size, sizeof(bool));
  facts_loops_per_step(self, per_step);
  bool answer = per_step[loop];
  free(per_step);
  return answer;
}

/* Whether `name` is bound, around `call`, by `with <launcher>(...) as
 * name:` whose launcher is ignite's Parallel with a backend (without
 * one, or with `None`, it runs the function in this one process). */
static bool facts__parallel_context(const Facts *self, TSNode call, Text name) {
  for (TSNode at = ts_node_parent(call); !ts_node_is_null(at); at = ts_node_parent(at)) {
    if (!node_is(at, K_WITH_STATEMENT)) continue;
    for (uint32_t i = 0; i < ts_node_named_child_count(at); i++) {
      TSNode clause = ts_node_named_child(at, i);
      for (uint32_t j = 0; j < ts_node_named_child_count(clause); j++) {
        TSNode item = ts_node_named_child(clause, j);
        TSNode value = node_is(item, K_WITH_ITEM) ? node_field(item, F_VALUE) : (TSNode){0};
        if (ts_node_is_null(value) || !node_is(value, K_AS_PATTERN)) continue;
        TSNode alias = node_field(value, F_ALIAS), entered = ts_node_named_child(value, 0);
        if (ts_node_is_null(alias) || !text_eq(node_text(self->source, alias), name)) continue;
        if (!node_is(entered, K_CALL)) continue;
        TSNode backend = call_keyword(self->source, entered, "backend");
        if (ts_node_is_null(backend)) backend = call_positional(entered, 0);
        if (ts_node_is_null(backend) || node_is(backend, K_NONE)) continue; /* no backend: one process */
        char buffer[128];
        const char *qualified = facts_qualify(self, node_field(entered, F_FUNCTION), buffer, sizeof buffer);
        if (strncmp(qualified, "ignite.", 7) == 0 && text_ends_with(text_of(qualified), ".Parallel")) return true;
      }
    }
  }
  return false;
}

/* The function argument of a launcher call `call` (`x.NAME(...)`, NAME
 * "run" or "spawn"), or a null node when the call launches nothing. */
static TSNode facts__launched_argument(const Facts *self, TSNode call, bool spawn) {
  char buffer[128];
  const char *qualified = facts_qualify(self, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  if (spawn && (strcmp(qualified, "torch.multiprocessing.spawn") == 0 ||
                strcmp(qualified, "torch.multiprocessing.start_processes") == 0)) {
    return call_positional(call, 0);
  }
  if (spawn && strcmp(qualified, "ignite.distributed.spawn") == 0) return call_positional(call, 1);
  if (spawn) return (TSNode){0};
  TSNode receiver = call_receiver(call);
  if (!node_is(receiver, K_IDENTIFIER) || !facts__parallel_context(self, call, node_text(self->source, receiver))) {
    return (TSNode){0};
  }
  return call_positional(call, 0);
}

uint32_t facts_launched_functions(const Facts *self, bool *launched) {
  static const char *const LAUNCH[] = {"run", "spawn", "start_processes", NULL};
  Text text = {self->source->bytes, self->source->length};
  if (!text_mentions_identifier(text, text_of("Parallel")) && !text_mentions_identifier(text, text_of("spawn")) &&
      !text_mentions_identifier(text, text_of("start_processes"))) {
    return 0;
  }
  uint32_t count = 0, name;
  for (uint32_t at = source_next_method_name(self->source, 0, LAUNCH, &name); at != UINT32_MAX;
       at = source_next_method_name(self->source, at + 1, LAUNCH, &name)) {
    TSNode call = call_of_method_name_at(self->root, at + 1, (uint32_t)strlen(LAUNCH[name]));
    if (ts_node_is_null(call)) continue;
    TSNode argument = facts__launched_argument(self, call, name != 0);
    if (ts_node_is_null(argument) || !node_is(argument, K_IDENTIFIER)) continue;
    int32_t function = facts__resolve_name(self, node_text(self->source, argument), facts_function_at(self, call));
    if (function < 0 || launched[function]) continue;
    launched[function] = true;
    count++;
  }
  return count;
}

/* The innermost for statement around `node` in its function, or a null node. */
static TSNode facts__enclosing_for(TSNode node) {
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    if (node_is(at, K_FUNCTION_DEFINITION) || node_is(at, K_LAMBDA)) break;
    if (node_is(at, K_FOR_STATEMENT)) return at;
  }
  return (TSNode){0};
}

uint32_t facts_switched_entries(const Facts *self, TSNode switch_call, Text target, Text *out, uint32_t max,
                                bool *entries) {
  const Source *source = self->source;
  TSNode loop = facts__enclosing_for(switch_call);
  if (ts_node_is_null(loop)) return 0;
  TSNode left = node_field(loop, F_LEFT), right = node_unparenthesize(node_field(loop, F_RIGHT));
  bool several = node_is(left, K_PATTERN_LIST) || node_is(left, K_TUPLE);
  Text variable = node_text(source, several ? ts_node_named_child(left, ts_node_named_child_count(left) - 1) : left);
  *entries = false;
  if (node_is(right, K_LIST) || node_is(right, K_TUPLE)) { /* for net in [encoder, head]: net.eval() */
    uint32_t count = 0;
    for (uint32_t i = 0; text_eq(target, variable) && !several && i < ts_node_named_child_count(right) && count < max; i++) {
      TSNode element = ts_node_named_child(right, i);
      if (node_is(element, K_IDENTIFIER) || node_is(element, K_ATTRIBUTE)) out[count++] = node_text(source, element);
    }
    return count;
  }
  Text method = node_is(right, K_CALL) ? call_method_name(source, right) : (Text){"", 0};
  bool view = text_is(method, "keys") || text_is(method, "values") || text_is(method, "items");
  if (node_is(right, K_CALL) && !view) return 0;
  TSNode container = view ? call_receiver(right) : right;
  if (!node_is(container, K_IDENTIFIER) && !node_is(container, K_ATTRIBUTE)) return 0;
  Text owner = node_text(source, container);
  Text key = node_text(source, several ? ts_node_named_child(left, 0) : left); /* `name` of `for name, net in` */
  /* nets[name].eval() over the keys; net.eval() over the values, the items' values, or a list's elements */
  bool entry = !text_is(method, "values") && target.length == owner.length + key.length + 2 &&
               text_is((Text){target.ptr + owner.length, 1}, "[") && text_owns(owner, (Text){target.ptr, owner.length}) &&
               memcmp(target.ptr + owner.length + 1, key.ptr, key.length) == 0;
  bool element = text_eq(target, variable) &&
                 (several ? text_is(method, "items") : !text_is(method, "keys") && !text_is(method, "items"));
  if (!(entry || element) || max == 0) return 0;
  *entries = true;
  out[0] = owner;
  return 1;
}

bool facts_loop_over_modules(const Facts *self, int32_t loop) {
  TSNode node = self->loops.contents[loop].node;
  if (!node_is(node, K_FOR_STATEMENT)) return false;
  TSNode iterable = node_unparenthesize(node_field(node, F_RIGHT));
  if (node_is(iterable, K_CALL) && text_is(call_function_text(self->source, iterable), "enumerate")) {
    iterable = call_positional(iterable, 0);
  }
  static const char *const STRUCTURE[] = {"children", "named_children", "modules", "named_modules",
                                          "parameters", "named_parameters", NULL};
  if (node_is(iterable, K_CALL)) return text_in(call_method_name(self->source, iterable), STRUCTURE);
  /* `for layer in self.layers:` of a module: its layers, one after another */
  Text text = node_text(self->source, iterable);
  return text_contains_ci(text, "self.") && self->loops.contents[loop].function >= 0 &&
         self->functions.contents[self->loops.contents[loop].function].in_module_class;
}

static bool facts__body_holds(const Function *function, uint32_t at) {
  TSNode body = node_field(function->node, F_BODY);
  return !ts_node_is_null(body) && ts_node_start_byte(body) <= at && at < ts_node_end_byte(body);
}

/* The functions are in the walk's order, so by where they start; the
 * innermost body that holds `node` is that of the last function starting at
 * or before it, or of one of its enclosing functions. */
int32_t facts_function_at(const Facts *self, TSNode node) {
  uint32_t at = ts_node_start_byte(node), low = 0, high = self->functions.size;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (ts_node_start_byte(self->functions.contents[middle].node) <= at) low = middle + 1;
    else high = middle;
  }
  int32_t found = (int32_t)low - 1;
  while (found >= 0 && !facts__body_holds(&self->functions.contents[found], at)) {
    found = self->functions.contents[found].parent;
  }
  return found;
}

/* ---- Parameters and optimizers --------------------------------------------- */

Text facts_parameter(const Facts *self, int32_t function, uint32_t index) {
  const Function *entry = array_get(&self->functions, function);
  TSNode parameters = node_field(entry->node, F_PARAMETERS);
  uint32_t count = ts_node_named_child_count(parameters), position = 0;
  bool skip_first = entry->class_index >= 0;
  for (uint32_t i = 0; i < count; i++) {
    TSNode parameter = ts_node_named_child(parameters, i);
    if (!node_is(parameter, K_IDENTIFIER)) {
      const char *type = ts_node_type(parameter);
      if (strstr(type, "splat") || strcmp(type, "keyword_separator") == 0 ||
          strcmp(type, "positional_separator") == 0) {
        break;
      }
      parameter = ts_node_named_child(parameter, 0);
      if (!node_is(parameter, K_IDENTIFIER)) break;
    }
    if (skip_first) {
      skip_first = false;
      continue;
    }
    if (position++ == index) return node_text(self->source, parameter);
  }
  return (Text){"", 0};
}

bool facts_parameter_named(const Facts *self, int32_t function, Text name, TSNode *value) {
  TSNode parameters = node_field(self->functions.contents[function].node, F_PARAMETERS);
  uint32_t count = ts_node_named_child_count(parameters);
  for (uint32_t i = 0; i < count; i++) {
    TSNode parameter = ts_node_named_child(parameters, i);
    TSNode identifier = node_is(parameter, K_IDENTIFIER) ? parameter : node_field(parameter, F_NAME);
    if (ts_node_is_null(identifier)) identifier = ts_node_named_child(parameter, 0); /* typed_parameter */
    if (!node_is(identifier, K_IDENTIFIER) || !text_eq(node_text(self->source, identifier), name)) continue;
    *value = node_is(parameter, K_IDENTIFIER) ? (TSNode){0} : node_field(parameter, F_VALUE);
    return true;
  }
  return false;
}

/* ---- Branches a call's arguments rule out ------------------------------------------ */

typedef enum { TRUTH_UNKNOWN, TRUTH_FALSE, TRUTH_TRUE } Truth;

static Truth facts__negate(Truth truth) {
  return truth == TRUTH_UNKNOWN ? truth : truth == TRUTH_TRUE ? TRUTH_FALSE : TRUTH_TRUE;
}

static bool facts__splat(TSNode call) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments); i++) {
    if (strstr(ts_node_type(ts_node_named_child(arguments, i)), "splat")) return true;
  }
  return false;
}

/* A literal a branch test can read: None, True, False or a number. */
static bool facts__truth_literal(TSNode node) {
  return node_is_literal(node_unparenthesize(node)) && !node_is(node_unparenthesize(node), K_STRING);
}

/* The literal the call binds parameter `name` of `callee` to (its
 * argument, else its default), when the callee never rebinds it; else a
 * null node. */
static TSNode facts__bound_literal(const Facts *self, const Event *call, Text name) {
  TSNode value = {0};
  if (!facts_parameter_named(self, call->callee, name, &value)) return (TSNode){0};
  AssignIter it = facts_assigns(self, name, call->callee);
  if (assign_iter_next(&it)) return (TSNode){0};
  char keyword[64];
  if (name.length >= sizeof keyword) return (TSNode){0};
  memcpy(keyword, name.ptr, name.length);
  keyword[name.length] = '\0';
  TSNode given = call_keyword(self->source, call->node, keyword);
  Text positional = {"", 0};
  for (uint32_t i = 0; ts_node_is_null(given) && (positional = facts_parameter(self, call->callee, i)).length; i++) {
    if (text_eq(positional, name)) given = call_positional(call->node, i);
  }
  if (!ts_node_is_null(given)) value = node_unparenthesize(given);
  return facts__truth_literal(value) ? value : (TSNode){0};
}

/* What `condition` of the callee is when `call` runs it: a parameter
 * bound to a literal, `P is None`, `P is not None`, and `not`, `and`,
 * `or` of those. */
static Truth facts__truth(const Facts *self, const Event *call, TSNode condition, uint32_t depth) {
  condition = node_unparenthesize(condition);
  if (depth > 8) return TRUTH_UNKNOWN;
  switch (node_kind(condition)) {
  case K_IDENTIFIER: {
    TSNode value = facts__bound_literal(self, call, node_text(self->source, condition));
    if (ts_node_is_null(value)) return TRUTH_UNKNOWN;
    if (node_is(value, K_NONE) || node_is(value, K_FALSE)) return TRUTH_FALSE;
    if (node_is(value, K_TRUE)) return TRUTH_TRUE;
    Text number = node_text(self->source, value);
    return text_is(number, "0") || text_is(number, "0.0") ? TRUTH_FALSE : TRUTH_TRUE;
  }
  case K_NOT_OPERATOR: return facts__negate(facts__truth(self, call, node_field(condition, F_ARGUMENT), depth + 1));
  case K_BOOLEAN_OPERATOR: {
    Truth left = facts__truth(self, call, node_field(condition, F_LEFT), depth + 1);
    Truth right = facts__truth(self, call, node_field(condition, F_RIGHT), depth + 1);
    bool is_and = text_is(node_text(self->source, node_field(condition, F_OPERATOR)), "and");
    Truth decisive = is_and ? TRUTH_FALSE : TRUTH_TRUE;
    if (left == decisive || right == decisive) return decisive;
    return left == TRUTH_UNKNOWN || right == TRUTH_UNKNOWN ? TRUTH_UNKNOWN : left;
  }
  case K_COMPARISON_OPERATOR: { /* P is None, P is not None */
    if (ts_node_named_child_count(condition) != 2) return TRUTH_UNKNOWN;
    TSNode left = ts_node_named_child(condition, 0), right = ts_node_named_child(condition, 1);
    if (!node_is(left, K_IDENTIFIER) || !node_is(right, K_NONE)) return TRUTH_UNKNOWN;
    Text between = {self->source->bytes + ts_node_end_byte(left), ts_node_start_byte(right) - ts_node_end_byte(left)};
    bool negated = text_contains_ci(between, "not");
    if (!text_contains_ci(between, "is")) return TRUTH_UNKNOWN;
    TSNode value = facts__bound_literal(self, call, node_text(self->source, left));
    if (ts_node_is_null(value)) return TRUTH_UNKNOWN;
    Truth is_none = node_is(value, K_NONE) ? TRUTH_TRUE : TRUTH_FALSE;
    return negated ? facts__negate(is_none) : is_none;
  }
  default: return TRUTH_UNKNOWN;
  }
}

/* Whether the if statement, or the elif clause, `branching` rules out its
 * part `child` under `call`: a consequence whose condition is false, or
 * an elif or else clause after a condition that is true. */
static bool facts__branch_ruled_out(const Facts *self, const Event *call, TSNode branching, TSNode child) {
  if (ts_node_eq(child, node_field(branching, F_CONSEQUENCE))) {
    return facts__truth(self, call, node_field(branching, F_CONDITION), 0) == TRUTH_FALSE;
  }
  if (!node_is(branching, K_IF_STATEMENT) || !(node_is(child, K_ELSE_CLAUSE) || node_is(child, K_ELIF_CLAUSE))) {
    return false;
  }
  if (facts__truth(self, call, node_field(branching, F_CONDITION), 0) == TRUTH_TRUE) return true;
  for (uint32_t i = 0; i < ts_node_named_child_count(branching); i++) {
    TSNode earlier = ts_node_named_child(branching, i);
    if (ts_node_eq(earlier, child)) break;
    if (node_is(earlier, K_ELIF_CLAUSE) &&
        facts__truth(self, call, node_field(earlier, F_CONDITION), 0) == TRUTH_TRUE) {
      return true;
    }
  }
  return false;
}

/* Whether `call` can rule anything out: it runs a function of this file,
 * without splats, and binds some parameter to a literal (an argument, or
 * a default it leaves). Checked once per call expanded, before any
 * branch is read. */
static bool facts__binds_literal(const Facts *self, const Event *call) {
  if (call->kind != EV_CALL || call->callee < 0 || !node_is(call->node, K_CALL) || facts__splat(call->node)) {
    return false;
  }
  TSNode arguments = node_field(call->node, F_ARGUMENTS);
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments); i++) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (facts__truth_literal(node_is(argument, K_KEYWORD_ARGUMENT) ? node_field(argument, F_VALUE) : argument)) {
      return true;
    }
  }
  TSNode parameters = node_field(self->functions.contents[call->callee].node, F_PARAMETERS);
  for (uint32_t i = 0; i < ts_node_named_child_count(parameters); i++) {
    TSNode value = node_field(ts_node_named_child(parameters, i), F_VALUE);
    if (!ts_node_is_null(value) && facts__truth_literal(value)) return true;
  }
  return false;
}

/* facts_call_rules_out for a call that binds a literal. */
static bool facts__rules_out(const Facts *self, const Event *call, TSNode node) {
  TSNode body = self->functions.contents[call->callee].node, ancestors[FACTS_ANCESTORS];
  uint32_t count = facts_ancestors(node, ancestors); /* nearest first, in one descent */
  TSNode child = node;
  for (uint32_t i = 0; i < count && !ts_node_eq(ancestors[i], body); child = ancestors[i++]) {
    TSNode at = ancestors[i];
    if ((node_is(at, K_IF_STATEMENT) || node_is(at, K_ELIF_CLAUSE)) && facts__branch_ruled_out(self, call, at, child)) {
      return true;
    }
  }
  return false;
}

bool facts_call_rules_out(const Facts *self, const Event *call, TSNode node) {
  return facts__binds_literal(self, call) && facts__rules_out(self, call, node);
}

/* ---- Assignments ----------------------------------------------------------- */

/* The first position in assigns_by_name for `name`. */
static uint32_t facts__assign_lower_bound(const Facts *self, Text name) {
  uint32_t low = 0, high = self->assigns_by_name.size;
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    if (text_compare(self->assigns.contents[self->assigns_by_name.contents[mid]].name, name) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

const Assign *facts_assign_last_before(const Facts *self, Text name, int32_t function, uint32_t at,
                                       bool (*accept)(const Assign *assign, uint32_t at)) {
  uint32_t first = facts__assign_lower_bound(self, name), low = first, high = self->assigns_by_name.size;
  while (low < high) { /* the first entry of another name, or starting at or after `at` */
    uint32_t mid = (low + high) / 2;
    const Assign *assign = array_get(&self->assigns, self->assigns_by_name.contents[mid]);
    if (text_eq(assign->name, name) && ts_node_start_byte(assign->statement) < at) low = mid + 1;
    else high = mid;
  }
  for (uint32_t i = low; i > first; i--) {
    const Assign *assign = array_get(&self->assigns, self->assigns_by_name.contents[i - 1]);
    if (assign->function == function && accept(assign, at)) return assign;
  }
  return NULL;
}

bool facts_class_like(const Facts *self, Text callee, int32_t function) {
  if (!text_capitalized(text_last_segment(callee))) return false;
  if (!text_is_identifier(callee) || facts_class_named(self, callee) >= 0 || facts_import(self, callee)) return true;
  for (int32_t scope = function;; scope = -1) { /* the function's own names, then the file's */
    AssignIter it = facts_assigns(self, callee, scope);
    if (assign_iter_next(&it)) return false;
    if (scope < 0) return true;
  }
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

/* ---- Public -------------------------------------------------------------- */

/* A copy of `array`'s elements in a buffer of its own. */
#define facts__copy_array(to, from)                                              \
  do {                                                                           \
    (to)->contents = NULL;                                                       \
    (to)->size = (to)->capacity = 0;                                             \
    array_reserve((to), (from)->size);                                           \
    if ((from)->size) memcpy((to)->contents, (from)->contents, (from)->size * sizeof(*(from)->contents)); \
    (to)->size = (from)->size;                                                   \
  } while (0)

Facts *facts_copy(const Facts *self) {
  Facts *copy = gl_malloc(sizeof(Facts));
  *copy = *self;
  facts__copy_array(&copy->functions, &self->functions);
  facts__copy_array(&copy->classes, &self->classes);
  facts__copy_array(&copy->loops, &self->loops);
  facts__copy_array(&copy->events, &self->events);
  facts__copy_array(&copy->assigns, &self->assigns);
  facts__copy_array(&copy->assigns_by_name, &self->assigns_by_name);
  facts__copy_array(&copy->top_level, &self->top_level);
  facts__copy_array(&copy->imports, &self->imports);
  facts__copy_array(&copy->star_imports, &self->star_imports);
  facts__copy_array(&copy->bindings, &self->bindings);
  facts__copy_array(&copy->functions_by_name, &self->functions_by_name);
  facts__copy_array(&copy->bindings_by_name, &self->bindings_by_name);
  facts__copy_array(&copy->switched, &self->switched);
  facts__copy_array(&copy->frozen, &self->frozen);
  facts__copy_array(&copy->frozen_class, &self->frozen_class);
  facts__copy_array(&copy->module_uses, &self->module_uses);
  facts__copy_array(&copy->returns, &self->returns);
  copy->owned_strings.contents = NULL; /* the original's strings stay the original's */
  copy->owned_strings.size = copy->owned_strings.capacity = 0;
  uint32_t capacity = self->imports_by_name.capacity;
  copy->imports_by_name.keys = capacity ? gl_malloc(capacity * sizeof(Text)) : NULL;
  copy->imports_by_name.values = capacity ? gl_malloc(capacity * sizeof(uint32_t)) : NULL;
  if (capacity) {
    memcpy(copy->imports_by_name.keys, self->imports_by_name.keys, capacity * sizeof(Text));
    memcpy(copy->imports_by_name.values, self->imports_by_name.values, capacity * sizeof(uint32_t));
  }
  return copy;
}

void facts_delete(Facts *self) {
  if (!self) return;
  array_delete(&self->functions);
  array_delete(&self->classes);
  array_delete(&self->loops);
  array_delete(&self->events);
  array_delete(&self->bindings);
  array_delete(&self->imports);
  array_delete(&self->star_imports);
  text_map_delete(&self->imports_by_name);
  array_delete(&self->assigns);
  array_delete(&self->assigns_by_name);
  array_delete(&self->top_level);
  array_delete(&self->switched);
  array_delete(&self->frozen);
  array_delete(&self->frozen_class);
  array_delete(&self->module_uses);
  array_delete(&self->returns);
  array_delete(&self->functions_by_name);
  array_delete(&self->bindings_by_name);
  for (uint32_t i = 0; i < self->owned_strings.size; i++) free(self->owned_strings.contents[i]);
  array_delete(&self->owned_strings);
  free(self);
}

/* `entry`: the call that runs `function` when it binds a literal (NULL at
 * the top and otherwise), whose arguments may rule out some branches. */
static void facts__flatten(const Facts *self, int32_t function, TSNode scope, TSNode anchor, const Event *entry,
                           bool grad_off, bool closure, FlatEvents *out, uint32_t depth) {
  uint32_t end = ts_node_end_byte(scope);
  for (uint32_t i = facts__event_index_at(self, ts_node_start_byte(scope)); i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (ts_node_start_byte(event->node) >= end) break;
    if (event->function != function) continue;
    if (entry && facts__rules_out(self, entry, event->node)) continue; /* the call's arguments skip it */
    TSNode here = depth == 0 ? event->node : anchor;
    if (event->kind != EV_CALL) {
      array_push(out, ((FlatEvent){event, here, grad_off, closure}));
    } else if (depth < 4 && event->callee != function) {
      const Function *callee = array_get(&self->functions, event->callee);
      bool off = grad_off || (depth > 0 && facts__mode(self, event) != GRAD_ON) || callee->decorated != GRAD_ON;
      bool handed = node_is(event->node, K_IDENTIFIER) && node_is(ts_node_parent(event->node), K_ARGUMENT_LIST);
      const Event *rules = facts__binds_literal(self, event) ? event : NULL;
      facts__flatten(self, event->callee, callee->node, here, rules, off, closure || handed, out, depth + 1);
    }
  }
}

void facts_flatten(const Facts *self, int32_t function, TSNode scope, FlatEvents *out) {
  facts__flatten(self, function, scope, scope, NULL, false, false, out, 0);
}

/* The child of `ancestor` on the way down to `node`. */
static TSNode facts__child_toward(TSNode ancestor, TSNode node) {
  return ts_node_child_with_descendant(ancestor, node);
}

bool facts_exclusive(TSNode a, TSNode b) {
  if (node_contains(a, b) || node_contains(b, a)) return false;
  TSNode ancestors[FACTS_ANCESTORS];
  uint32_t count = facts_ancestors(a, ancestors), steps = 0;
  while (steps < count && !node_contains(ancestors[steps], b)) {
    if (steps == MAX_ASCENT) return false;
    steps++;
  }
  if (steps == count) return false;
  TSNode common = ancestors[steps];
  Kind kind = node_kind(common);
  if (kind != K_IF_STATEMENT && kind != K_TRY_STATEMENT) return false;
  /* the ancestor below `common` is the child toward `a` (the descent's next step) */
  TSNode branch_a = steps > 0 ? ancestors[steps - 1] : a, branch_b = facts__child_toward(common, b);
  TSNode condition = node_field(common, F_CONDITION);
  if (ts_node_eq(branch_a, condition) || ts_node_eq(branch_b, condition)) return false;
  if (kind == K_TRY_STATEMENT &&
      (node_is(branch_a, K_FINALLY_CLAUSE) || node_is(branch_b, K_FINALLY_CLAUSE))) {
    return false;
  }
  return !ts_node_eq(branch_a, branch_b);
}

/* Appends `text` (up to a NUL in it) at `*at` in `buffer` of `size`
 * bytes, as much as fits with room left for the NUL: what snprintf's
 * "%.*s" would keep. */
static void facts__append(char *buffer, size_t size, size_t *at, Text text) {
  const char *nul = memchr(text.ptr, '\0', text.length);
  if (nul) text.length = (uint32_t)(nul - text.ptr);
  size_t room = size - 1 - *at, length = text.length < room ? text.length : room;
  memcpy(buffer + *at, text.ptr, length);
  *at += length;
}

const char *facts_qualify(const Facts *self, TSNode expression, char *buffer, size_t size) {
  Text text = node_text(self->source, expression);
  uint32_t head = 0;
  while (head < text.length && text.ptr[head] != '.') head++;
  const Binding *import = facts_import(self, (Text){text.ptr, head});
  if (size == 0) return buffer;
  size_t at = 0;
  if (import) {
    facts__append(buffer, size, &at, import->value);
    facts__append(buffer, size, &at, (Text){text.ptr + head, text.length - head});
  } else {
    facts__append(buffer, size, &at, text);
  }
  buffer[at] = '\0';
  return buffer;
}

uint32_t facts_ancestors(TSNode node, TSNode out[FACTS_ANCESTORS]) {
  if (ts_node_is_null(node)) return 0;
  TSNode ring[FACTS_ANCESTORS], at = ts_tree_root_node(node.tree);
  if (at.id == node.id) return 0;
  uint32_t depth = 0;
  for (;;) { /* as ts_node_parent descends: every node it passes is an ancestor */
    ring[depth++ % FACTS_ANCESTORS] = at;
    TSNode next = ts_node_child_with_descendant(at, node);
    if (next.id == node.id || ts_node_is_null(next)) break;
    at = next;
  }
  uint32_t count = depth < FACTS_ANCESTORS ? depth : FACTS_ANCESTORS;
  for (uint32_t i = 0; i < count; i++) out[i] = ring[(depth - 1 - i) % FACTS_ANCESTORS];
  return count;
}

