/* facts.c — what the walk found (walk.c), resolved and summarised: helper
 * calls, optimizers and modules, grad mode, reachability. */
#include "facts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "links.h"
#include "roles.h"
#include "walk.h"

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
    int order = facts__text_compare(here->name, name);
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

/* The last import of `name` so far: the walk enters each one as it is
 * bound (walk.c), so a lookup during the walk sees only those above. */
const Binding *facts_import(const Facts *self, Text name) {
  uint32_t found = text_map_get(&self->imports_by_name, name);
  return found ? array_get(&self->imports, found - 1) : NULL;
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

/* ---- After the walk: what a backward shows ---------------------------------- */

typedef struct {
  Text names[32];
  uint32_t count;
  uint32_t budget; /* nodes left to look at */
} Chase;

static bool facts__chased(Chase *chase, Text name) {
  for (uint32_t i = 0; i < chase->count; i++) {
    if (text_eq(chase->names[i], name)) return true;
  }
  if (chase->count == 32) return true;
  chase->names[chase->count++] = name;
  return false;
}

/* `model(x)`, `self.encoder(x)`: a callee whose result reaches a backward
 * is a module (helpers of this file, imports, classes and losses aside). */
static void facts__note_trained_callee(Facts *self, TSNode call, int32_t function) {
  TSNode callee = node_field(call, F_FUNCTION);
  bool on_self = node_is(callee, K_ATTRIBUTE) && text_is(node_text(self->source, node_field(callee, F_OBJECT)), "self");
  if (!node_is(callee, K_IDENTIFIER) && !on_self) return;
  Text text = node_text(self->source, callee);
  Text head = on_self ? text_last_segment(text) : text;
  if (facts_class_like(self, on_self ? head : text, function) || roles_loss_function(text) ||
      facts_import(self, text) || facts_resolve_call(self, call, function) >= 0 || self->module_uses.size >= 256) {
    return;
  }
  static const char *const BUILTINS[] = {"sum", "max", "min", "abs", "len", "float", "int", "list", "tuple",
                                         "sorted", "zip", "map", "getattr", "print", "round", NULL};
  if (!text_in(text, BUILTINS)) array_push(&self->module_uses, text);
}

static bool facts__any_assign(const Assign *assign, uint32_t at) {
  (void)assign, (void)at;
  return true;
}

/* Walks what `node` is computed from, within `function`: its calls, and
 * the names it reads back to their assignments before `at`. */
static void facts__chase(Facts *self, Chase *chase, TSNode node, int32_t function, uint32_t at) {
  if (ts_node_is_null(node) || chase->budget == 0) return;
  chase->budget--;
  Kind kind = node_kind(node);
  if (kind == K_LAMBDA || kind == K_STRING) return;
  if (kind == K_CALL) facts__note_trained_callee(self, node, function);
  if (kind == K_IDENTIFIER && !facts__chased(chase, node_text(self->source, node))) {
    const Assign *assign = facts_assign_last_before(self, node_text(self->source, node), function, at, facts__any_assign);
    /* a loop's target is data (`for i, batch in enumerate(loader)`): what it iterates is no module */
    if (assign && !node_is(assign->statement, K_FOR_STATEMENT)) {
      facts__chase(self, chase, assign->value, function, ts_node_start_byte(assign->statement));
    }
    return;
  }
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) facts__chase(self, chase, ts_node_named_child(node, i), function, at);
}

static int facts__text_order(const void *a, const void *b);

/* The modules shown by use, canonical, sorted and unique (with those an
 * optimizer is built over), for lookups in log time. */
static void facts__index_module_uses(Facts *self) {
  for (uint32_t i = 0; i < self->bindings.size; i++) {
    const Binding *binding = array_get(&self->bindings, i);
    if (binding->kind == BIND_OPTIMIZES) array_push(&self->module_uses, binding->value);
  }
  Text *uses = self->module_uses.contents;
  uint32_t count = self->module_uses.size;
  for (uint32_t i = 0; i < count; i++) uses[i] = facts_canonical(self, uses[i]);
  if (count < 2) return;
  qsort(uses, count, sizeof(Text), facts__text_order);
  uint32_t kept = 1;
  for (uint32_t i = 1; i < count; i++) {
    if (!text_eq(uses[i], uses[kept - 1])) uses[kept++] = uses[i];
  }
  self->module_uses.size = kept;
}

bool facts_used_as_module(const Facts *self, Text name) {
  return self->module_uses.size > 0 &&
         bsearch(&name, self->module_uses.contents, self->module_uses.size, sizeof(Text), facts__text_order);
}

/* Each backward shows that what it runs on was computed by modules. */
static void facts__settle_trained_callees(Facts *self) {
  for (uint32_t i = 0; i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->kind != EV_BACKWARD) continue;
    TSNode receiver = call_receiver(event->node);
    Chase chase = {.budget = 400};
    TSNode start = ts_node_is_null(receiver) ? node_field(event->node, F_ARGUMENTS) : receiver;
    facts__chase(self, &chase, start, event->function, ts_node_start_byte(event->node));
  }
}

/* An import from outside torch and the frameworks built on it: the
 * project's own modules, or another library. */
static bool facts__external(const Facts *self, TSNode call) {
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

/* `engine.evaluate(...)`, `meter.update(...)` on an instance of an
 * imported class: the qualified name links.h resolves. */
static Text facts__external_target(Facts *self, TSNode call) {
  TSNode callee = node_field(call, F_FUNCTION);
  char buffer[256];
  const char *qualified = facts_qualify(self, callee, buffer, sizeof buffer);
  if (node_is(callee, K_ATTRIBUTE)) {
    const Binding *instance = facts_binding(self, BIND_INSTANCE, node_text(self->source, node_field(callee, F_OBJECT)));
    if (instance && !ts_node_is_null(instance->node) && facts__external(self, instance->node)) {
      char class_buffer[192];
      const char *class_name = facts_qualify(self, node_field(instance->node, F_FUNCTION), class_buffer, sizeof class_buffer);
      Text method = node_text(self->source, node_field(callee, F_ATTRIBUTE));
      snprintf(buffer, sizeof buffer, "%s.%.*s", class_name, (int)method.length, method.ptr);
      qualified = buffer;
    }
  }
  char *owned = gl_strdup(qualified);
  array_push(&self->owned_strings, owned);
  return (Text){owned, (uint32_t)strlen(owned)};
}

/* `trainer.fit(...)` on an instance of a class imported from the
 * project, when that class defines the method (`decoder.attention(h)`
 * where attention is a submodule is a forward instead). */
static bool facts__instance_of_external(Facts *self, TSNode call, Text *target) {
  TSNode callee = node_field(call, F_FUNCTION);
  if (!node_is(callee, K_ATTRIBUTE)) return false;
  const Binding *instance = facts_binding(self, BIND_INSTANCE, node_text(self->source, node_field(callee, F_OBJECT)));
  if (!instance || ts_node_is_null(instance->node) || !facts__external(self, instance->node)) return false;
  *target = facts__external_target(self, call);
  Linked linked;
  return links_find(self->links, NULL, *target, &linked) && linked.function;
}

bool facts_instance_method(const Facts *self, TSNode call, char *buffer, size_t size) {
  TSNode callee = node_field(call, F_FUNCTION);
  if (!node_is(callee, K_ATTRIBUTE)) return false;
  Text method = node_text(self->source, node_field(callee, F_ATTRIBUTE));
  const Binding *instance = facts_binding(self, BIND_INSTANCE, node_text(self->source, node_field(callee, F_OBJECT)));
  if (roles_module_method(method) || !instance || ts_node_is_null(instance->node) || !facts__external(self, instance->node)) {
    return false;
  }
  char class_buffer[192];
  const char *class_name = facts_qualify(self, node_field(instance->node, F_FUNCTION), class_buffer, sizeof class_buffer);
  return (size_t)snprintf(buffer, size, "%s.%.*s", class_name, (int)method.length, method.ptr) < size;
}

/* An unresolved call: a call of an imported name, a module's forward, or
 * something that matters to no rule. */
static void facts__settle_call(Facts *self, Event *event, RoleMemo *memo) {
  Text target = {"", 0};
  if (facts__instance_of_external(self, event->node, &target) || facts__external(self, event->node)) {
    event->kind = EV_EXTERNAL;
    event->target = target.length ? target : facts__external_target(self, event->node);
    return;
  }
  Role role = roles_forward_memo(self, event->node, event->function, memo);
  char method[256];
  if (role == ROLE_NONE && !self->links && facts_instance_method(self, event->node, method, sizeof method)) {
    event->kind = EV_EXTERNAL; /* a summary records it: the project's other files may define the method */
    event->target = facts__external_target(self, event->node);
    return;
  }
  if (role == ROLE_NONE) {
    event->kind = EV_KIND_COUNT;
    return;
  }
  event->kind = EV_FORWARD;
  event->weak = role == ROLE_NAME;
  event->target = facts_canonical(self, roles_forward_module(self, event->node));
}

static bool facts__module_forward(const Facts *self, int32_t function) {
  const Function *entry = array_get(&self->functions, function);
  return entry->in_module_class && text_is(entry->name, "forward") && entry->class_index >= 0;
}

/* Calls of this file's functions first (not of a module class's
 * forward), so that roles asked next see every call of a helper (a
 * parameter every call passes a module to); then forwards and the rest.
 * What roles_module answers depends on nothing the second pass changes,
 * so its answers are kept for the whole pass. */
static void facts__resolve_calls(Facts *self) {
  Array(int32_t) callees = array_new();
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    bool skip = event->kind == EV_KIND_COUNT || event->kind == EV_GRAD_TOGGLE;
    int32_t callee = skip ? -1 : facts_resolve_call(self, event->node, event->function);
    array_push(&callees, callee);
    if (callee < 0 || facts__module_forward(self, callee)) continue;
    event->kind = EV_CALL;
    event->callee = callee;
    self->functions.contents[callee].call_count++;
    if (event->loop >= 0) self->functions.contents[callee].called_in_loop = true;
  }
  RoleMemo memo = {0};
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    int32_t callee = callees.contents[i];
    if (event->kind == EV_KIND_COUNT || event->kind == EV_GRAD_TOGGLE || (callee >= 0 && !facts__module_forward(self, callee))) {
      continue;
    }
    if (callee >= 0 && roles_forward(self, event->node, event->function) != ROLE_NONE) {
      event->kind = EV_FORWARD; /* `self.forward(x)`, `model.forward(x)` of a module class here */
      event->target = facts_canonical(self, roles_forward_module(self, event->node));
    } else if (callee >= 0) {
      event->kind = EV_CALL;
      event->callee = callee;
      self->functions.contents[callee].call_count++;
      if (event->loop >= 0) self->functions.contents[callee].called_in_loop = true;
    } else if (event->kind == EV_CALL) {
      facts__settle_call(self, event, &memo);
    }
  }
  roles_memo_delete(&memo);
  array_delete(&callees);
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
      array_push(&self->frozen_class, event->function >= 0 ? self->functions.contents[event->function].class_index : -1);
    }
    if (event->kind != EV_EVAL && event->kind != EV_TRAIN) continue;
    Text target = facts_canonical(self, event->target);
    if (!facts__switched_mode(self, target) && self->switched.size < 64) {
      array_push(&self->switched, target);
      array_push(&self->module_uses, target);
    }
  }
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

static bool facts__is_optimizer(const Facts *self, Text name) {
  if (facts_binding(self, BIND_OPTIMIZER, name)) return true;
  if (facts_binding(self, BIND_SCHEDULER, name)) return false;
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
      const Binding *optimizes = facts_binding(self, BIND_OPTIMIZES, target);
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
      if (!optimizer) array_push(&self->module_uses, target);
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

/* What the events of `function` within `scope` reach, through helpers. */
static uint32_t facts__reach_of(const Facts *self, int32_t function, TSNode scope) {
  uint32_t reaches = 0, end = ts_node_end_byte(scope);
  for (uint32_t i = facts__event_index_at(self, ts_node_start_byte(scope)); i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (ts_node_start_byte(event->node) >= end) break;
    if (event->function != function) continue;
    reaches |= REACH(event->kind);
    if (event->kind == EV_CALL) reaches |= self->functions.contents[event->callee].reaches;
    if (event->kind == EV_EXTERNAL) reaches |= event->reaches;
  }
  return reaches;
}

static void facts__summarize(Facts *self) {
  for (uint32_t pass = 0, changed = 1; changed && pass < 16; pass++) {
    changed = 0;
    for (uint32_t i = 0; i < self->functions.size; i++) {
      Function *function = array_get(&self->functions, i);
      uint32_t reaches = facts__reach_of(self, (int32_t)i, function->node) | (function->has_loop ? REACH_LOOP : 0);
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
/* Whether a base of a class says it is a module (1), says it is not (0:
 * a class of this or another project file that is none, `object`, `ABC`),
 * or cannot tell (-1: a class from elsewhere). */
static int facts__base_module(Facts *self, TSNode base) {
  char buffer[192];
  Text qualified = {facts_qualify(self, base, buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  if (roles_library_module_class(qualified)) return 1;
  if (roles_plain_base(qualified)) return 0;
  if (node_is(base, K_IDENTIFIER)) {
    int32_t local = facts_class_named(self, qualified);
    if (local >= 0) return self->classes.contents[local].is_module;
  }
  Linked linked;
  if (links_find(self->links, NULL, qualified, &linked) && linked.class_) {
    return links_class_is_module(self->links, linked.summary, linked.class_);
  }
  return -1;
}

/* A class is a module when a base is one; defining forward() decides only
 * when a base comes from elsewhere and cannot be told (a PyG transform
 * defines forward() over a base that is no module). */
static void facts__settle_modules(Facts *self) {
  bool *forward = gl_calloc(self->classes.size + 1, sizeof(bool));
  for (uint32_t i = 0; i < self->functions.size; i++) {
    const Function *function = array_get(&self->functions, i);
    if (function->class_index >= 0 && text_is(function->name, "forward")) forward[function->class_index] = true;
  }
  for (uint32_t pass = 0; pass < 4; pass++) {
    for (uint32_t i = 0; i < self->classes.size; i++) {
      Class *class_ = array_get(&self->classes, i);
      TSNode bases = node_field(class_->node, F_SUPERCLASSES);
      uint32_t count = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
      bool unknown = false, module = false;
      for (uint32_t j = 0; j < count && !module; j++) {
        TSNode base = ts_node_named_child(bases, j);
        if (!node_is(base, K_IDENTIFIER) && !node_is(base, K_ATTRIBUTE)) continue;
        int verdict = facts__base_module(self, base);
        module = verdict == 1;
        unknown |= verdict < 0;
      }
      class_->is_module = module || (forward[i] && unknown);
    }
  }
  free(forward);
}

static void facts__settle_classes(Facts *self) {
  facts__settle_modules(self);
  for (uint32_t i = 0; i < self->functions.size; i++) {
    Function *function = array_get(&self->functions, i);
    int32_t class_index = facts_class_of_function(self, (int32_t)i);
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

/* ---- After the walk: the project's other files ---------------------------- */

/* What each call of another file's function reaches. */
static void facts__settle_external(Facts *self) {
  if (!self->links || !self->uses_torch) return; /* no rule reports on code that never uses torch */
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    Linked linked;
    if (event->kind != EV_EXTERNAL || !links_find(self->links, NULL, event->target, &linked) || !linked.function) continue;
    event->reaches = links_reaches(self->links, linked.summary, linked.function);
  }
}

/* Whether a backward or a step runs anywhere in the file, once. */
static void facts__settle_trains(Facts *self) {
  for (uint32_t i = 0; i < self->events.size && !self->trains; i++) {
    self->trains = (REACH(self->events.contents[i].kind) & (REACH(EV_BACKWARD) | REACH(EV_STEP))) != 0;
  }
}

/* A decorator imported from another file of the project that runs its
 * target under no_grad. */
static bool facts__linked_grad_off(const Facts *self, TSNode expression) {
  if (!self->links) return false;
  TSNode callee = node_is(expression, K_CALL) ? node_field(expression, F_FUNCTION) : expression;
  char buffer[256];
  const char *qualified = facts_qualify(self, callee, buffer, sizeof buffer);
  Linked linked;
  return links_find(self->links, NULL, (Text){qualified, (uint32_t)strlen(qualified)}, &linked) && linked.function &&
         (linked.function->wraps_grad_off || linked.function->decorated == GRAD_OFF);
}

/* The name other files call a function by: "evaluate", or
 * "Seq2seq.evaluate_ppl" for a method (on an instance); empty for nested
 * functions. */
static Text facts__linked_name(Facts *self, const Function *function) {
  if (function->parent >= 0) return (Text){"", 0};
  if (function->class_index < 0) return function->name;
  Text class_name = self->classes.contents[function->class_index].name;
  char *name = gl_format("%.*s.%.*s", (int)class_name.length, class_name.ptr, (int)function->name.length,
                         function->name.ptr);
  array_push(&self->owned_strings, name);
  return (Text){name, (uint32_t)strlen(name)};
}

/* Who calls this file's functions and methods from the project's other
 * files: with grad off everywhere, with modules as which arguments, and
 * which of them (or the instance) in eval mode. */
static void facts__settle_callers_elsewhere(Facts *self) {
  if (!self->links || !self->uses_torch) return;
  for (uint32_t i = 0; i < self->functions.size; i++) {
    Function *function = array_get(&self->functions, i);
    Text name = facts__linked_name(self, function);
    bool init = text_is(function->name, "__init__");
    if (init && function->class_index >= 0 && function->parent < 0) { /* `Trainer(model, opt)` calls Trainer.__init__ */
      name = self->classes.contents[function->class_index].name;
    } else if (name.length == 0 || init) {
      continue;
    }
    Callers callers = links_callers(self->links, name);
    function->callers_elsewhere = callers.any;
    function->callers_elsewhere_grad_off = callers.all_grad_off;
    function->called_in_loop |= callers.any_in_loop;
    function->module_parameters = callers.module_parameters;
    function->eval_parameters = callers.eval_parameters;
    function->eval_self = callers.eval_receiver;
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
      if (wrapper < 0 && facts__linked_grad_off(self, ts_node_named_child(decorator, 0))) function->decorated = GRAD_OFF;
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

/* A function is grad-off when every call of it, in the file and in the
 * project's other files, is. */
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
      if (function->all_callers_grad_off || called_with_grad[i]) continue;
      if (function->call_count == 0 && !function->callers_elsewhere) continue;
      if (function->callers_elsewhere && !function->callers_elsewhere_grad_off) continue;
      function->all_callers_grad_off = true;
      changed = 1;
    }
  }
  free(called_with_grad);
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
      int mode = walk_with_grad_mode(self, at);
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

int32_t facts_function_at(const Facts *self, TSNode node) {
  int32_t found = -1;
  uint32_t at = ts_node_start_byte(node);
  for (uint32_t i = 0; i < self->functions.size; i++) {
    TSNode body = node_field(self->functions.contents[i].node, F_BODY);
    if (ts_node_start_byte(body) <= at && at < ts_node_end_byte(body)) found = (int32_t)i;
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
    if (facts__text_compare(self->assigns.contents[self->assigns_by_name.contents[mid]].name, name) < 0) low = mid + 1;
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

Facts *facts_walk(const Source *source, TSNode root) {
  syntax_init();
  Facts *self = gl_calloc(1, sizeof(Facts));
  self->source = source;
  self->root = root;
  walk_tree(self, root);
  for (uint32_t i = 0, count = ts_node_child_count(root); i < count; i++) array_push(&self->top_level, ts_node_child(root, i));
  facts__build_index(&self->functions_by_name, self->functions.contents, offsetof(Function, name), NO_KIND,
                     sizeof(Function), self->functions.size);
  facts__build_index(&self->bindings_by_name, self->bindings.contents, offsetof(Binding, name),
                     offsetof(Binding, kind), sizeof(Binding), self->bindings.size);
  facts__build_index(&self->assigns_by_name, self->assigns.contents, offsetof(Assign, name), NO_KIND, sizeof(Assign),
                     self->assigns.size);
  return self;
}

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

void facts_settle(Facts *self, struct Links *links) {
  self->links = links;
  facts__settle_classes(self);
  facts__collect_switched(self);
  facts__settle_trained_callees(self);
  facts__index_module_uses(self);
  facts__settle_callers_elsewhere(self); /* before forwards are told: callers show which parameters are modules */
  facts__resolve_calls(self);
  facts__settle_targets(self);
  facts__drop_unresolved(self);
  facts__settle_external(self);
  facts__settle_trains(self);
  facts__settle_decorators(self);
  facts__summarize(self);
  facts__settle_callers(self);
  facts__settle_backward_context(self);
}

Facts *facts_new(const Source *source, TSNode root, struct Links *links) {
  Facts *self = facts_walk(source, root);
  facts_settle(self, links);
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

