/* settle.c — a file's facts settled after the walk: helper calls, forwards
 * and imported calls told apart, optimizers and modules, grad mode, what
 * each function and loop reaches. Other files are asked only through the
 * Elsewhere the caller passes (elsewhere.h). */
#include "settle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roles.h"
#include "walk.h"

/* ---- What a backward shows --------------------------------------------------- */

typedef struct {
  Text names[32];
  uint32_t count;
  uint32_t budget; /* nodes left to look at */
} Chase;

static bool settle__chased(Chase *chase, Text name) {
  for (uint32_t i = 0; i < chase->count; i++) {
    if (text_eq(chase->names[i], name)) return true;
  }
  if (chase->count == 32) return true;
  chase->names[chase->count++] = name;
  return false;
}

/* `model(x)`, `self.encoder(x)`: a callee whose result reaches a backward
 * is a module (helpers of this file, imports, classes and losses aside). */
static void settle__note_trained_callee(Facts *self, TSNode call, int32_t function) {
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

static bool settle__any_assign(const Assign *assign, uint32_t at) {
  (void)assign, (void)at;
  return true;
}

/* Walks what `node` is computed from, within `function`: its calls, and
 * the names it reads back to their assignments before `at`. */
static void settle__chase(Facts *self, Chase *chase, TSNode node, int32_t function, uint32_t at) {
  if (ts_node_is_null(node) || chase->budget == 0) return;
  chase->budget--;
  Kind kind = node_kind(node);
  if (kind == K_LAMBDA || kind == K_STRING) return;
  if (kind == K_CALL) settle__note_trained_callee(self, node, function);
  if (kind == K_IDENTIFIER && !settle__chased(chase, node_text(self->source, node))) {
    const Assign *assign = facts_assign_last_before(self, node_text(self->source, node), function, at, settle__any_assign);
    /* a loop's target is data (`for i, batch in enumerate(loader)`): what it iterates is no module */
    if (assign && !node_is(assign->statement, K_FOR_STATEMENT)) {
      settle__chase(self, chase, assign->value, function, ts_node_start_byte(assign->statement));
    }
    return;
  }
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) settle__chase(self, chase, ts_node_named_child(node, i), function, at);
}


/* The modules shown by use, canonical, sorted and unique (with those an
 * optimizer is built over), for lookups in log time. */
static void settle__index_module_uses(Facts *self) {
  for (uint32_t i = 0; i < self->bindings.size; i++) {
    const Binding *binding = array_get(&self->bindings, i);
    if (binding->kind == BIND_OPTIMIZES) array_push(&self->module_uses, binding->value);
  }
  Text *uses = self->module_uses.contents;
  uint32_t count = self->module_uses.size;
  for (uint32_t i = 0; i < count; i++) uses[i] = facts_canonical(self, uses[i]);
  if (count < 2) return;
  qsort(uses, count, sizeof(Text), text_order);
  uint32_t kept = 1;
  for (uint32_t i = 1; i < count; i++) {
    if (!text_eq(uses[i], uses[kept - 1])) uses[kept++] = uses[i];
  }
  self->module_uses.size = kept;
}

/* Each backward shows that what it runs on was computed by modules. */
static void settle__trained_callees(Facts *self) {
  for (uint32_t i = 0; i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->kind != EV_BACKWARD) continue;
    TSNode receiver = call_receiver(event->node);
    Chase chase = {.budget = 400};
    TSNode start = ts_node_is_null(receiver) ? node_field(event->node, F_ARGUMENTS) : receiver;
    settle__chase(self, &chase, start, event->function, ts_node_start_byte(event->node));
  }
}

/* `engine.evaluate(...)`, `meter.update(...)` on an instance of an
 * imported class: the qualified name other files may define (elsewhere.h). */
static Text settle__external_target(Facts *self, TSNode call) {
  TSNode callee = node_field(call, F_FUNCTION);
  char buffer[256];
  const char *qualified = facts_qualify(self, callee, buffer, sizeof buffer);
  if (node_is(callee, K_ATTRIBUTE)) {
    const Binding *instance = facts_external_instance(self, node_text(self->source, node_field(callee, F_OBJECT)));
    if (instance) {
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
static bool settle__instance_of_external(Facts *self, TSNode call, Text *target) {
  TSNode callee = node_field(call, F_FUNCTION);
  if (!node_is(callee, K_ATTRIBUTE)) return false;
  if (!facts_external_instance(self, node_text(self->source, node_field(callee, F_OBJECT)))) return false;
  *target = settle__external_target(self, call);
  ElsewhereFunction linked;
  return elsewhere_function(self->elsewhere, *target, &linked);
}

/* `decoder.init_hidden_state(enc)` where `decoder` is a module by
 * evidence whose method this file cannot resolve (`decoder =
 * checkpoint["decoder"]`: its class is not in sight) and every method of that name in the project is
 * a custom forward of a module class (elsewhere.h): a forward of
 * `decoder`. Writes the receiver into `module`. */
static bool settle__custom_forward(Facts *self, const Event *event, Text *module) {
  if (!self->elsewhere) return false;
  TSNode callee = node_field(event->node, F_FUNCTION);
  if (!node_is(callee, K_ATTRIBUTE)) return false;
  TSNode receiver = node_field(callee, F_OBJECT);
  if (!node_is(receiver, K_IDENTIFIER) && !node_is(receiver, K_ATTRIBUTE)) return false;
  Text method = node_text(self->source, node_field(callee, F_ATTRIBUTE));
  Text owner = node_text(self->source, receiver);
  if (roles_module_method(method) || text_is(owner, "self") || text_owns((Text){"self", 4}, owner)) return false;
  if (roles_module(self, owner, event->function) != ROLE_EVIDENCE) return false;
  if (!elsewhere_custom_forward(self->elsewhere, method)) return false;
  *module = facts_canonical(self, owner);
  return true;
}

/* An unresolved call: a call of an imported name, a module's forward, or
 * something that matters to no rule. */
static void settle__call(Facts *self, Event *event, RoleMemo *memo) {
  Text target = {"", 0};
  if (settle__instance_of_external(self, event->node, &target) || facts_external_call(self, event->node)) {
    event->kind = EV_EXTERNAL;
    event->target = target.length ? target : settle__external_target(self, event->node);
    return;
  }
  Role role = roles_forward_memo(self, event->node, event->function, memo);
  char method[256];
  if (role == ROLE_NONE && !self->elsewhere && facts_instance_method(self, event->node, method, sizeof method)) {
    event->kind = EV_EXTERNAL; /* a summary records it: the project's other files may define the method */
    event->target = settle__external_target(self, event->node);
    return;
  }
  Text module;
  if (role == ROLE_NONE && settle__custom_forward(self, event, &module)) {
    event->kind = EV_FORWARD;
    event->target = module;
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

static bool settle__module_forward(const Facts *self, int32_t function) {
  const Function *entry = array_get(&self->functions, function);
  return entry->in_module_class && text_is(entry->name, "forward") && entry->class_index >= 0;
}

/* Calls of this file's functions first (not of a module class's
 * forward), so that roles asked next see every call of a helper (a
 * parameter every call passes a module to); then forwards and the rest.
 * What roles_module answers depends on nothing the second pass changes,
 * so its answers are kept for the whole pass. */
static void settle__resolve_calls(Facts *self) {
  Array(int32_t) callees = array_new();
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    bool skip = event->kind == EV_KIND_COUNT || event->kind == EV_GRAD_TOGGLE;
    int32_t callee = skip ? -1 : facts_resolve_call(self, event->node, event->function);
    array_push(&callees, callee);
    if (callee < 0 || settle__module_forward(self, callee)) continue;
    event->kind = EV_CALL;
    event->callee = callee;
    self->functions.contents[callee].call_count++;
    if (event->loop >= 0) self->functions.contents[callee].called_in_loop = true;
  }
  RoleMemo memo = {0};
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    int32_t callee = callees.contents[i];
    if (event->kind == EV_KIND_COUNT || event->kind == EV_GRAD_TOGGLE || (callee >= 0 && !settle__module_forward(self, callee))) {
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
      settle__call(self, event, &memo);
    }
  }
  roles_memo_delete(&memo);
  array_delete(&callees);
}

static bool settle__switched_mode(const Facts *self, Text name) {
  for (uint32_t i = 0; i < self->switched.size; i++) {
    if (text_eq(self->switched.contents[i], name)) return true;
  }
  return false;
}

/* `for name in nets: nets[name].eval()`: the entries of `nets` are
 * modules, noted as the use of "nets[]" (roles_used_as_module reads
 * `nets["generator"]` through it); `for net in [encoder, head]:
 * net.eval()`: `encoder` and `head` are. */
static void settle__note_switched_entries(Facts *self, const Event *event) {
  Text switched[8];
  bool entries;
  uint32_t count = facts_switched_entries(self, event->node, event->target, switched, 8, &entries);
  for (uint32_t k = 0; k < count && self->module_uses.size < 256; k++) {
    if (!entries) {
      array_push(&self->module_uses, switched[k]);
      continue;
    }
    Text owner = facts_canonical(self, switched[k]);
    char *name = gl_format("%.*s[]", (int)owner.length, owner.ptr);
    array_push(&self->owned_strings, name);
    array_push(&self->module_uses, ((Text){name, owner.length + 2}));
  }
}

/* Remembers the modules switched with .eval()/.train(), and the frozen
 * ones, once, before forwards are told from other calls. */
static void settle__collect_switched(Facts *self) {
  for (uint32_t i = 0; i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->kind == EV_FREEZE && self->frozen.size < 64) {
      array_push(&self->frozen, text_strip_self(facts_canonical(self, event->target)));
      array_push(&self->frozen_class, event->function >= 0 ? self->functions.contents[event->function].class_index : -1);
    }
    if (event->kind != EV_EVAL && event->kind != EV_TRAIN) continue;
    Text target = facts_canonical(self, event->target);
    if (!settle__switched_mode(self, target) && self->switched.size < 64) {
      array_push(&self->switched, target);
      array_push(&self->module_uses, target);
    }
    settle__note_switched_entries(self, event);
  }
}

static bool settle__is_optimizer(const Facts *self, Text name) {
  if (facts_binding(self, BIND_OPTIMIZER, name)) return true;
  if (facts_binding(self, BIND_SCHEDULER, name)) return false;
  return text_contains_ci(text_last_segment(name), "opt");
}

typedef Array(Text) Texts;

static bool settle__texts_have(const Texts *texts, Text name) {
  return texts->size > 0 && bsearch(&name, texts->contents, texts->size, sizeof(Text), text_order);
}

/* The receivers of backward calls (`engine` in `engine.backward(loss)`)
 * and the targets of clears as written, sorted: each step then looks them
 * up in log time instead of scanning every event. */
static void settle__collect_receivers(const Facts *self, Texts *backward, Texts *cleared) {
  for (uint32_t i = 0; i < self->events.size; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->kind == EV_BACKWARD) array_push(backward, node_text(self->source, call_receiver(event->node)));
    if (event->kind == EV_CLEAR) array_push(cleared, event->target);
  }
  if (backward->size > 1) qsort(backward->contents, backward->size, sizeof(Text), text_order);
  if (cleared->size > 1) qsort(cleared->contents, cleared->size, sizeof(Text), text_order);
}

/* Keeps the steps of optimizers; `engine.backward(loss); engine.step()`
 * (DeepSpeed) steps and clears at once. Clears of something that is not an
 * optimizer (a module) clear every optimizer. */
static void settle__targets(Facts *self) {
  Texts backward = array_new(), cleared = array_new();
  settle__collect_receivers(self, &backward, &cleared);
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    if (event->kind == EV_STEP) {
      Text target = facts_canonical(self, event->target);
      if (settle__texts_have(&backward, target)) {
        event->flag = true;
      } else if (!settle__is_optimizer(self, target) && !settle__texts_have(&cleared, event->target)) {
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
      bool optimizer = settle__is_optimizer(self, target);
      event->module = optimizer ? (Text){"", 0} : target;
      event->target = optimizer ? target : (Text){"", 0};
      if (!optimizer) array_push(&self->module_uses, target);
    }
  }
  array_delete(&backward);
  array_delete(&cleared);
}

static void settle__drop_unresolved(Facts *self) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < self->events.size; i++) {
    if (self->events.contents[i].kind != EV_KIND_COUNT) self->events.contents[kept++] = self->events.contents[i];
  }
  self->events.size = kept;
}

/* What the events of `function` within `scope` reach, through helpers. */
static uint32_t settle__reach_of(const Facts *self, int32_t function, TSNode scope) {
  uint32_t reaches = 0, first, end;
  facts_events_within(self, scope, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *event = array_get(&self->events, i);
    if (event->function != function) continue;
    reaches |= REACH(event->kind);
    if (event->kind == EV_CALL) reaches |= self->functions.contents[event->callee].reaches;
    if (event->kind == EV_EXTERNAL) reaches |= event->reaches;
  }
  return reaches;
}

static void settle__summarize(Facts *self) {
  for (uint32_t pass = 0, changed = 1; changed && pass < 16; pass++) {
    changed = 0;
    for (uint32_t i = 0; i < self->functions.size; i++) {
      Function *function = array_get(&self->functions, i);
      uint32_t reaches = settle__reach_of(self, (int32_t)i, function->node) | (function->has_loop ? REACH_LOOP : 0);
      if (reaches != function->reaches) {
        function->reaches = reaches;
        changed = 1;
      }
    }
  }
  for (uint32_t i = 0; i < self->loops.size; i++) {
    Loop *loop = array_get(&self->loops, i);
    loop->reaches = settle__reach_of(self, loop->function, loop->body);
  }
}

/* ---- Classes, modules and reach ------------------------------------------------ */

/* Whether a base of a class says it is a module (1), says it is not (0:
 * a class of this or another project file that is none, `object`, `ABC`),
 * or cannot tell (-1: a class from elsewhere). */
static int settle__base_module(Facts *self, TSNode base) {
  char buffer[192];
  Text qualified = {facts_qualify(self, base, buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  if (roles_library_module_class(qualified)) return 1;
  if (roles_plain_base(qualified)) return 0;
  if (node_is(base, K_IDENTIFIER)) {
    int32_t local = facts_class_named(self, qualified);
    if (local >= 0) return self->classes.contents[local].is_module;
  }
  Defines defines = elsewhere_defines(self->elsewhere, qualified);
  if (defines == DEFINES_CLASS || defines == DEFINES_MODULE_CLASS) return defines == DEFINES_MODULE_CLASS;
  return -1;
}

/* A class is a module when a base is one; defining forward() decides only
 * when a base comes from elsewhere and cannot be told (a PyG transform
 * defines forward() over a base that is no module). */
static void settle__modules(Facts *self) {
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
        int verdict = settle__base_module(self, base);
        module = verdict == 1;
        unknown |= verdict < 0;
      }
      class_->is_module = module || (forward[i] && unknown);
    }
  }
  free(forward);
}

/* Classes that define forward() are modules; their methods are module
 * methods. Functions learn whether they hold a loop. */
static void settle__classes(Facts *self) {
  settle__modules(self);
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
static void settle__backward_context(Facts *self) {
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

/* ---- The project's other files, and grad mode -------------------------------- */

/* What each call of another file's function reaches. */
static void settle__external(Facts *self) {
  if (!self->elsewhere || !self->uses_torch) return; /* no rule reports on code that never uses torch */
  for (uint32_t i = 0; i < self->events.size; i++) {
    Event *event = array_get(&self->events, i);
    if (event->kind == EV_EXTERNAL) event->reaches = elsewhere_reaches(self->elsewhere, event->target);
  }
}

/* Whether a backward or a step runs anywhere in the file, once. */
static void settle__trains(Facts *self) {
  for (uint32_t i = 0; i < self->events.size && !self->trains; i++) {
    self->trains = (REACH(self->events.contents[i].kind) & (REACH(EV_BACKWARD) | REACH(EV_STEP))) != 0;
  }
}

/* A decorator imported from another file of the project that runs its
 * target under no_grad. */
static bool settle__linked_grad_off(const Facts *self, TSNode expression) {
  if (!self->elsewhere) return false;
  TSNode callee = node_is(expression, K_CALL) ? node_field(expression, F_FUNCTION) : expression;
  char buffer[256];
  const char *qualified = facts_qualify(self, callee, buffer, sizeof buffer);
  ElsewhereFunction linked;
  return elsewhere_function(self->elsewhere, (Text){qualified, (uint32_t)strlen(qualified)}, &linked) &&
         linked.grad_off_wrapper;
}

/* The name other files call a function by: "evaluate", or
 * "Seq2seq.evaluate_ppl" for a method (on an instance); empty for nested
 * functions. */
static Text settle__linked_name(Facts *self, const Function *function) {
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
static void settle__callers_elsewhere(Facts *self) {
  if (!self->elsewhere || !self->uses_torch) return;
  for (uint32_t i = 0; i < self->functions.size; i++) {
    Function *function = array_get(&self->functions, i);
    Text name = settle__linked_name(self, function);
    bool init = text_is(function->name, "__init__");
    if (init && function->class_index >= 0 && function->parent < 0) { /* `Trainer(model, opt)` calls Trainer.__init__ */
      name = self->classes.contents[function->class_index].name;
    } else if (name.length == 0 || init) {
      continue;
    }
    Callers callers = elsewhere_callers(self->elsewhere, name);
    function->callers_elsewhere = callers.any;
    function->callers_elsewhere_grad_off = callers.all_grad_off;
    function->called_in_loop |= callers.any_in_loop;
    function->called_per_step_elsewhere = callers.any_per_step;
    function->called_per_process_elsewhere = callers.any_per_process;
    function->module_parameters = callers.module_parameters;
    function->eval_parameters = callers.eval_parameters;
    function->eval_self = callers.eval_receiver;
  }
}

/* A decorator defined in this file that runs its target under no_grad. */
static void settle__decorators(Facts *self) {
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
      if (wrapper < 0 && settle__linked_grad_off(self, ts_node_named_child(decorator, 0))) function->decorated = GRAD_OFF;
    }
  }
}

/* A function is grad-off when every call of it, in the file and in the
 * project's other files, is. */
static void settle__callers(Facts *self) {
  bool *called_with_grad = gl_malloc(self->functions.size + 1);
  for (uint32_t pass = 0, changed = 1; changed && pass < 16; pass++) {
    changed = 0;
    memset(called_with_grad, 0, self->functions.size + 1);
    for (uint32_t j = 0; j < self->events.size; j++) {
      const Event *event = array_get(&self->events, j);
      if (event->kind == EV_CALL && facts_grad_mode(self, event) == GRAD_ON) called_with_grad[event->callee] = true;
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

/* Binds each name the file calls and neither defines nor imports by name
 * to what a `from M import *` of a project module defines by it: with
 * `from utils import *`, `policy(obs, dqn)` calls `utils.policy` of
 * another file (what its summary says), not an unknown callable whose
 * name may read as a module. The last star import that defines the name
 * wins, as in Python. */
static void settle__star_imports(Facts *self) {
  if (!self->elsewhere || self->star_imports.size == 0) return;
  for (uint32_t i = 0; i < self->events.size; i++) {
    TSNode call = self->events.contents[i].node;
    TSNode callee = node_is(call, K_CALL) ? node_field(call, F_FUNCTION) : (TSNode){0};
    if (!node_is(callee, K_IDENTIFIER)) continue;
    Text name = node_text(self->source, callee);
    if (facts_import(self, name) || facts_resolve_call(self, call, self->events.contents[i].function) >= 0 ||
        facts_class_named(self, name) >= 0) {
      continue;
    }
    for (uint32_t m = self->star_imports.size; m-- > 0;) {
      Text module = self->star_imports.contents[m];
      char *qualified = gl_format("%.*s.%.*s", (int)module.length, module.ptr, (int)name.length, name.ptr);
      Text text = {qualified, (uint32_t)strlen(qualified)};
      if (elsewhere_defines(self->elsewhere, text) == DEFINES_NOTHING) {
        free(qualified);
        continue;
      }
      array_push(&self->owned_strings, qualified);
      array_push(&self->imports, ((Binding){.kind = BIND_IMPORT, .name = name, .value = text}));
      *text_map_at(&self->imports_by_name, name) = self->imports.size;
      break;
    }
  }
}

void facts_settle(Facts *self, const Elsewhere *elsewhere) {
  self->elsewhere = elsewhere;
  settle__star_imports(self);
  settle__classes(self);
  settle__collect_switched(self);
  settle__trained_callees(self);
  settle__index_module_uses(self);
  settle__callers_elsewhere(self); /* before forwards are told: callers show which parameters are modules */
  settle__resolve_calls(self);
  settle__targets(self);
  settle__drop_unresolved(self);
  settle__external(self);
  settle__trains(self);
  settle__decorators(self);
  settle__summarize(self);
  settle__callers(self);
  settle__backward_context(self);
}

Facts *facts_new(const Source *source, TSNode root, const Elsewhere *elsewhere) {
  Facts *self = facts_walk(source, root);
  facts_settle(self, elsewhere);
  return self;
}
