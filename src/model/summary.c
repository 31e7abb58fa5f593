/* summary.c — a file's summary, from its own facts and flow. */
#include "summary.h"

#include <ctype.h>
#include <string.h>

#include "binio.h"
#include "facts.h"
#include "flow.h"
#include "partial_facts.h"
#include "roles.h"
#include "settle.h"

static char *summary__copy(Text text) { return gl_strndup(text.ptr, text.length); }

static void summary__free_strings(void *array) {
  Array(char *) *strings = array;
  for (uint32_t i = 0; i < strings->size; i++) free(strings->contents[i]);
  array_delete(strings);
}

/* ---- Functions ------------------------------------------------------------------- */

static char *summary__function_name(const Facts *facts, const Function *function) {
  if (function->class_index < 0) return summary__copy(function->name);
  Text class_name = facts->classes.contents[function->class_index].name;
  return gl_format("%.*s.%.*s", (int)class_name.length, class_name.ptr, (int)function->name.length,
                   function->name.ptr);
}

/* `return loss.item()`, `return 0.5`, `return float(x)`: a Python number. */
static bool summary__plain_number(const Facts *facts, TSNode value) {
  value = node_unparenthesize(value);
  if (node_is(value, K_INTEGER) || node_is(value, K_FLOAT)) return true;
  if (!node_is(value, K_CALL)) return false;
  Text callee = call_function_text(facts->source, value);
  Text method = call_method_name(facts->source, value);
  return text_is(callee, "float") || text_is(callee, "int") || text_is(callee, "round") || text_is(method, "item");
}

/* The tuple elements of the function's returns that are plain numbers. */
static uint32_t summary__plain_returns(const Facts *facts, int32_t index) {
  uint32_t plain = 0;
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *entry = array_get(&facts->returns, i);
    if (entry->function != index) continue;
    TSNode value = node_unparenthesize(entry->value);
    if (summary__plain_number(facts, value)) plain |= RETURNS_WHOLE;
    if (!node_is(value, K_TUPLE) && !node_is(value, K_EXPRESSION_LIST)) continue;
    uint32_t count = ts_node_named_child_count(value);
    for (uint32_t k = 0; k < count && k < SUMMARY_MAX_PARAMETERS; k++) {
      if (summary__plain_number(facts, ts_node_named_child(value, k))) plain |= RETURNS_ELEMENT(k);
    }
  }
  return plain;
}

/* RETURNS_* bits of what returns a graph on evidence (`given`: when the
 * arguments carry one). */
static uint32_t summary__returns(const Facts *facts, Flow *flow, int32_t index, bool given) {
  Carry (*returns_of)(Flow *, int32_t, uint8_t) = given ? flow_returns_given_arguments : flow_returns;
  uint32_t returns = returns_of(flow, index, UNPACKED_DEEP) == CARRY_EVIDENCE ? RETURNS_WHOLE : 0;
  if (!returns) return 0;
  for (uint32_t k = 0; k < SUMMARY_MAX_PARAMETERS && k < facts->functions.contents[index].max_tuple_return; k++) {
    if (returns_of(flow, index, (uint8_t)k) == CARRY_EVIDENCE) returns |= RETURNS_ELEMENT(k);
  }
  return returns;
}

static bool summary__any_assign(const Assign *assign, uint32_t at) {
  (void)assign, (void)at;
  return true;
}

/* `Seq2seq(enc, dec)`, `Seq2seq(...).to(device)`, or a name last bound to
 * one before `at`: the constructor call, else a null node. */
static TSNode summary__constructed(const Facts *facts, TSNode value, int32_t function, uint32_t at) {
  value = node_unparenthesize(value);
  while (node_is(value, K_CALL) && roles_returns_receiver(call_method_name(facts->source, value))) {
    value = call_receiver(value);
  }
  if (node_is(value, K_IDENTIFIER)) {
    const Assign *assign = facts_assign_last_before(facts, node_text(facts->source, value), function, at, summary__any_assign);
    return assign && !assign->unpacked && !assign->subscript
               ? summary__constructed(facts, assign->value, function, ts_node_start_byte(assign->statement))
               : (TSNode){0};
  }
  if (!node_is(value, K_CALL)) return (TSNode){0};
  TSNode callee = node_field(value, F_FUNCTION);
  bool named = node_is(callee, K_IDENTIFIER) || node_is(callee, K_ATTRIBUTE);
  return named && text_capitalized(text_last_segment(node_text(facts->source, callee))) ? value : (TSNode){0};
}

/* The class every return of the function builds an instance of, qualified
 * through the file's imports (a model factory: `return Seq2seq(enc,
 * dec).to(device)`); NULL when the returns disagree or build none. */
static char *summary__returns_class(const Facts *facts, int32_t index) {
  char *found = NULL;
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *entry = array_get(&facts->returns, i);
    if (entry->function != index) continue;
    TSNode call = summary__constructed(facts, entry->value, index, ts_node_start_byte(entry->value));
    char buffer[192];
    const char *qualified = ts_node_is_null(call) ? NULL : facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
    if (!qualified || (found && strcmp(found, qualified) != 0)) {
      free(found);
      return NULL;
    }
    if (!found) found = gl_strdup(qualified);
  }
  return found;
}

/* The classes the function's returns build instances of, each once. */
static void summary__builds(const Facts *facts, int32_t index, SummaryFunction *entry) {
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *each = array_get(&facts->returns, i);
    if (each->function != index) continue;
    TSNode call = summary__constructed(facts, each->value, index, ts_node_start_byte(each->value));
    if (ts_node_is_null(call)) continue;
    char buffer[192];
    const char *qualified = facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
    bool known = false;
    for (uint32_t k = 0; k < entry->builds.size && !known; k++) known = strcmp(entry->builds.contents[k], qualified) == 0;
    if (!known) array_push(&entry->builds, gl_strdup(qualified));
  }
}

/* Whether `module` (`model`, `model.head`) starts with a parameter of
 * function `index`: its callers say whether it is a module. */
static bool summary__on_parameter(const Facts *facts, int32_t index, Text module) {
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.') head++;
  for (uint32_t k = 0; k < SUMMARY_MAX_PARAMETERS; k++) {
    Text parameter = facts_parameter(facts, index, k);
    if (parameter.length == 0) return false;
    if (text_eq(parameter, (Text){module.ptr, head})) return true;
  }
  return false;
}

/* REACH_GRAD_ON_FORWARD when the function's own body runs a forward with
 * grad on: of a module shown by evidence, or of a parameter (the callers'
 * arguments show whether it is one). */
static uint32_t summary__grad_on_forward(const Facts *facts, int32_t index) {
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind != EV_FORWARD || event->function != index || facts_grad_mode(facts, event) != GRAD_ON) continue;
    if (!event->weak || summary__on_parameter(facts, index, event->target)) return REACH_GRAD_ON_FORWARD;
  }
  return 0;
}

static bool summary__submodule_handed_in(const Facts *facts, int32_t init, int32_t class_index, const Assign *assign,
                                         TSNode value);

/* Whether the __init__ of class `class_index` builds `self.<attribute>`
 * from a call (`self.head = Head(...)`) or binds it from one of its
 * parameters (a submodule handed in). */
static bool summary__built_in_init(const Facts *facts, int32_t class_index, Text attribute) {
  for (uint32_t j = 0; j < facts->assigns.size; j++) {
    const Assign *assign = array_get(&facts->assigns, j);
    if (assign->function < 0 || assign->subscript || assign->unpacked) continue;
    const Function *init = array_get(&facts->functions, assign->function);
    if (init->class_index != class_index || !text_is(init->name, "__init__")) continue;
    if (assign->name.length <= 5 || memcmp(assign->name.ptr, "self.", 5) != 0) continue;
    if (!text_eq(text_strip_self(assign->name), attribute)) continue;
    TSNode value = node_unparenthesize(assign->value);
    if (node_is(value, K_CALL)) return true;
    if (summary__submodule_handed_in(facts, assign->function, class_index, assign, value)) return true;
  }
  return false;
}

/* REACH_GRAD_ON_OWN_LAYERS for method `index`: with grad on and outside
 * any loop of its own, it runs `self(...)` or a layer its class's
 * __init__ builds (`self.head(x)`, `self.head.proj(x)`), or calls a method
 * of the same class that does. `depth` bounds the calls followed. */
static uint32_t summary__own_layers(const Facts *facts, int32_t index, int depth);

bool summary_runs_own_layers(const Facts *facts, int32_t function) {
  return function >= 0 && summary__own_layers(facts, function, 0) != 0;
}

/* Whether method `function` (no loop of its own, nothing about grad mode
 * in it) calls `self.<attribute>(` on a layer that its class's __init__
 * builds with a library module constructor (`self.init_h =
 * nn.Linear(...)`): a layer whose name alone reads as a verb is still
 * one. */
static bool summary__calls_library_layer(const Facts *facts, int32_t index) {
  const Function *function = array_get(&facts->functions, index);
  if (function->has_loop || function->decorated != GRAD_ON) return false;
  Text body = node_text(facts->source, function->node);
  for (uint32_t at = 0; at + 4 <= body.length; at++) {
    if (memcmp(body.ptr + at, "grad", 4) == 0) return false; /* no_grad, set_grad_enabled, requires_grad */
  }
  for (uint32_t j = 0; j < facts->assigns.size; j++) {
    const Assign *assign = array_get(&facts->assigns, j);
    if (assign->function < 0 || assign->subscript || assign->unpacked) continue;
    const Function *init = array_get(&facts->functions, assign->function);
    if (init->class_index != function->class_index || !text_is(init->name, "__init__")) continue;
    TSNode value = node_unparenthesize(assign->value);
    if (assign->name.length <= 5 || memcmp(assign->name.ptr, "self.", 5) != 0 || !node_is(value, K_CALL)) continue;
    char qualified[160];
    facts_qualify(facts, node_field(value, F_FUNCTION), qualified, sizeof qualified);
    if (roles_library_constructor((Text){qualified, (uint32_t)strlen(qualified)}) != 1) continue;
    char *call = gl_format("%.*s(", (int)assign->name.length, assign->name.ptr);
    size_t length = strlen(call);
    bool found = false;
    for (uint32_t at = 0; !found && at + length <= body.length; at++) {
      found = memcmp(body.ptr + at, call, length) == 0 &&
              (at == 0 || !(isalnum((unsigned char)body.ptr[at - 1]) || body.ptr[at - 1] == '_' || body.ptr[at - 1] == '.'));
    }
    free(call);
    if (found) return true;
  }
  return false;
}

static uint32_t summary__own_layers(const Facts *facts, int32_t index, int depth) {
  const Function *function = array_get(&facts->functions, index);
  int32_t class_index = function->class_index;
  if (class_index < 0 || depth > 4) return 0;
  if (!text_is(function->name, "__init__") && summary__calls_library_layer(facts, index)) return REACH_GRAD_ON_OWN_LAYERS;
  uint32_t first, end;
  facts_events_within(facts, function->node, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->function != index || event->loop >= 0 || facts_grad_mode(facts, event) != GRAD_ON) continue;
    if (event->kind == EV_FORWARD) {
      Text target = event->target;
      if (text_is(target, "self")) return REACH_GRAD_ON_OWN_LAYERS;
      if (target.length <= 5 || memcmp(target.ptr, "self.", 5) != 0) continue;
      Text attribute = text_strip_self(target);
      uint32_t head = 0;
      while (head < attribute.length && attribute.ptr[head] != '.' && attribute.ptr[head] != '[') head++;
      if (summary__built_in_init(facts, class_index, (Text){attribute.ptr, head})) return REACH_GRAD_ON_OWN_LAYERS;
    } else if (event->kind == EV_CALL && event->callee >= 0 && event->callee != index &&
               facts->functions.contents[event->callee].class_index == class_index &&
               summary__own_layers(facts, event->callee, depth + 1)) {
      return REACH_GRAD_ON_OWN_LAYERS;
    }
  }
  return 0;
}

/* Whether `value`, in function `index` before byte `before`, is a load
 * (`torch.load(path)`, `torch.jit.load(path)`), an entry of one
 * (`checkpoint["model"]`), such a value moved (`.to(device)`, `.eval()`),
 * or a name last bound to one. */
static bool summary__loaded_value(const Facts *facts, TSNode value, int32_t index, uint32_t before, int depth) {
  value = node_unparenthesize(value);
  if (depth > 3) return false;
  if (node_is(value, K_IDENTIFIER)) {
    const Assign *last = facts_assign_last_before(facts, node_text(facts->source, value), index, before, facts_plain_assign);
    return last && summary__loaded_value(facts, last->value, index, ts_node_start_byte(last->statement), depth + 1);
  }
  if (node_is(value, K_SUBSCRIPT)) return summary__loaded_value(facts, node_field(value, F_VALUE), index, before, depth + 1);
  if (!node_is(value, K_CALL)) return false;
  TSNode receiver = call_receiver(value);
  if (!ts_node_is_null(receiver) && roles_returns_receiver(call_method_name(facts->source, value))) {
    return summary__loaded_value(facts, receiver, index, before, depth + 1);
  }
  char buffer[96];
  const char *callee = facts_qualify(facts, node_field(value, F_FUNCTION), buffer, sizeof buffer);
  return strcmp(callee, "torch.load") == 0 || strcmp(callee, "torch.jit.load") == 0;
}

/* Whether function `index` calls `<name>.load_state_dict(` before byte
 * `before`. */
static bool summary__state_loaded_into(const Facts *facts, int32_t index, Text name, uint32_t before) {
  TSNode node = facts->functions.contents[index].node;
  Text body = node_text(facts->source, node);
  uint32_t start = ts_node_start_byte(node);
  char *call = gl_format("%.*s.load_state_dict(", (int)name.length, name.ptr);
  size_t length = strlen(call);
  bool found = false;
  for (uint32_t at = 0; !found && at + length <= body.length && start + at < before; at++) {
    found = memcmp(body.ptr + at, call, length) == 0 &&
            (at == 0 || !(isalnum((unsigned char)body.ptr[at - 1]) || body.ptr[at - 1] == '_' || body.ptr[at - 1] == '.'));
  }
  free(call);
  return found;
}

bool summary_returns_loaded(const Facts *facts, int32_t function) {
  if (function < 0) return false;
  bool any = false;
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *entry = array_get(&facts->returns, i);
    if (entry->function != function) continue;
    TSNode value = node_unparenthesize(entry->value);
    while (node_is(value, K_CALL) && !ts_node_is_null(call_receiver(value)) &&
           roles_returns_receiver(call_method_name(facts->source, value))) {
      value = node_unparenthesize(call_receiver(value));
    }
    uint32_t before = ts_node_start_byte(entry->value);
    bool loaded = summary__loaded_value(facts, value, function, before, 0) ||
                  (node_is(value, K_IDENTIFIER) &&
                   summary__state_loaded_into(facts, function, node_text(facts->source, value), before));
    if (!loaded) return false; /* every return gives one */
    any = true;
  }
  return any;
}

static void summary__add_function(Summary *self, const Facts *facts, Flow *flow, int32_t index) {
  const Function *function = array_get(&facts->functions, index);
  SummaryFunction entry = {
      .name = summary__function_name(facts, function),
      .line = ts_node_start_point(function->node).row + 1,
      .reaches = function->reaches | summary__grad_on_forward(facts, index) | summary__own_layers(facts, index, 0) |
                 (summary_returns_loaded(facts, index) ? REACH_RETURNS_LOADED : 0),
      .decorated = (uint8_t)function->decorated,
      .wraps_grad_off = function->wraps_grad_off,
      .returns = summary__returns(facts, flow, index, false),
      .returns_given_arguments = summary__returns(facts, flow, index, true),
      .plain_returns = summary__plain_returns(facts, index),
      .returns_class = summary__returns_class(facts, index),
  };
  for (uint32_t i = 0; i < SUMMARY_MAX_PARAMETERS; i++) {
    Text parameter = facts_parameter(facts, index, i);
    if (parameter.length == 0) break;
    if (flow_keeps_parameter(flow, index, parameter)) entry.keeps |= 1u << i;
  }
  summary__builds(facts, index, &entry);
  array_push(&self->functions, entry);
}

/* ---- Classes ------------------------------------------------------------------- */

/* Whether the class's code calls `self.<attribute>(...)`. */
static bool summary__calls_attribute(const Facts *facts, int32_t class_index, Text attribute) {
  Text body = node_text(facts->source, facts->classes.contents[class_index].node);
  char *call = gl_format("self.%.*s(", (int)attribute.length, attribute.ptr);
  size_t length = strlen(call);
  bool found = false;
  for (uint32_t at = 0; !found && at + length <= body.length; at++) found = memcmp(body.ptr + at, call, length) == 0;
  free(call);
  return found;
}

/* `self.decoder = decoder`, from a parameter of __init__, that the class
 * calls as `self.decoder(...)`: a submodule handed in, of a class the
 * summary cannot name. */
static bool summary__submodule_handed_in(const Facts *facts, int32_t init, int32_t class_index, const Assign *assign,
                                         TSNode value) {
  if (!node_is(value, K_IDENTIFIER)) return false;
  Text name = node_text(facts->source, value);
  bool parameter = false;
  for (uint32_t k = 0; k < SUMMARY_MAX_PARAMETERS && !parameter; k++) {
    Text each = facts_parameter(facts, init, k);
    if (each.length == 0) break;
    parameter = text_eq(each, name);
  }
  return parameter && summary__calls_attribute(facts, class_index, text_strip_self(assign->name));
}

static void summary__class_members(SummaryClass *entry, const Facts *facts, int32_t class_index) {
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *function = array_get(&facts->functions, i);
    if (function->class_index != class_index) continue;
    if (text_is(function->name, "forward")) entry->defines_forward = true;
    if (!text_is(function->name, "__init__")) continue;
    for (uint32_t j = 0; j < facts->assigns.size; j++) {
      const Assign *assign = array_get(&facts->assigns, j);
      TSNode value = node_unparenthesize(assign->value);
      if (assign->function != (int32_t)i || assign->subscript || assign->unpacked) continue;
      if (assign->name.length <= 5 || memcmp(assign->name.ptr, "self.", 5) != 0) continue;
      if (summary__submodule_handed_in(facts, (int32_t)i, class_index, assign, value)) {
        Text attribute = text_strip_self(assign->name);
        array_push(&entry->submodules, gl_format("%.*s=", (int)attribute.length, attribute.ptr));
        continue;
      }
      if (!node_is(value, K_CALL)) continue;
      char qualified[160];
      facts_qualify(facts, node_field(value, F_FUNCTION), qualified, sizeof qualified);
      Text attribute = text_strip_self(assign->name);
      array_push(&entry->submodules, gl_format("%.*s=%s", (int)attribute.length, attribute.ptr, qualified));
    }
  }
  for (uint32_t i = 0; i < facts->frozen.size; i++) {
    Text frozen = facts->frozen.contents[i];
    if (facts->frozen_class.contents[i] == class_index) array_push(&entry->frozen, summary__copy(frozen));
  }
}

static void summary__add_class(Summary *self, const Facts *facts, int32_t index) {
  const Class *class_ = array_get(&facts->classes, index);
  SummaryClass entry = {.name = summary__copy(class_->name), .line = ts_node_start_point(class_->node).row + 1};
  TSNode bases = node_field(class_->node, F_SUPERCLASSES);
  uint32_t count = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
  for (uint32_t i = 0; i < count; i++) {
    TSNode base = ts_node_named_child(bases, i);
    if (!node_is(base, K_IDENTIFIER) && !node_is(base, K_ATTRIBUTE)) continue;
    char qualified[160];
    facts_qualify(facts, base, qualified, sizeof qualified);
    array_push(&entry.bases, gl_strdup(qualified));
    if (roles_library_module_class((Text){qualified, (uint32_t)strlen(qualified)})) entry.module_base = true;
  }
  summary__class_members(&entry, facts, index);
  partial_parts(facts, index, (PartialStrings *)&entry.parts);
  partial_steps(facts, index, (PartialStrings *)&entry.steps);
  array_push(&self->classes, entry);
}

/* ---- Calls of imported names ------------------------------------------------------ */

static uint32_t summary__module_arguments(const Facts *facts, const Event *event) {
  uint32_t bits = 0;
  for (uint32_t i = 0; i < call_positional_count(event->node) && i < SUMMARY_MAX_PARAMETERS; i++) {
    TSNode argument = node_unparenthesize(call_positional(event->node, i));
    if (!node_is(argument, K_IDENTIFIER) && !node_is(argument, K_ATTRIBUTE)) continue;
    if (roles_module(facts, node_text(facts->source, argument), event->function) == ROLE_EVIDENCE) bits |= 1u << i;
  }
  return bits;
}

/* The positional arguments that an `.eval()` earlier in the caller's
 * function (with no `.train()` since) left in eval mode. */
static uint32_t summary__eval_arguments(const Facts *facts, const Event *event) {
  uint32_t bits = 0;
  for (uint32_t i = 0; i < call_positional_count(event->node) && i < SUMMARY_MAX_PARAMETERS; i++) {
    TSNode argument = node_unparenthesize(call_positional(event->node, i));
    if (!node_is(argument, K_IDENTIFIER) && !node_is(argument, K_ATTRIBUTE)) continue;
    if (facts_in_eval_mode_before(facts, event, node_text(facts->source, argument))) bits |= 1u << i;
  }
  return bits;
}

/* A method call on an instance (`model.evaluate_ppl(dev)`) after an
 * `.eval()` on it. */
static bool summary__receiver_eval(const Facts *facts, const Event *event) {
  TSNode callee = node_field(event->node, F_FUNCTION);
  if (!node_is(callee, K_ATTRIBUTE)) return false;
  return facts_in_eval_mode_before(facts, event, node_text(facts->source, node_field(callee, F_OBJECT)));
}

static int summary__call_order(const void *a, const void *b) {
  const SummaryCall *x = a, *y = b;
  if (x->function != y->function) return x->function < y->function ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The calls of imported names (and of methods on instances of imported
 * classes, which a file alone may take for forwards), grouped by the
 * function they sit in. */
static void summary__add_calls(Summary *self, const Facts *facts) {
  bool *per_step = gl_calloc(facts->loops.size + 1, sizeof(bool));
  facts_loops_per_step(facts, per_step);
  bool *launched = gl_calloc(facts->functions.size + 1, sizeof(bool));
  facts_launched_functions(facts, launched);
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    char method[256];
    bool on_instance = event->kind == EV_FORWARD && facts_instance_method(facts, event->node, method, sizeof method);
    if (event->kind != EV_EXTERNAL && !on_instance) continue;
    SummaryCall call = {
        .callee = on_instance ? gl_strdup(method) : summary__copy(event->target),
        .function = event->function,
        .line = ts_node_start_point(event->node).row + 1,
        .grad = (uint8_t)facts_grad_mode(facts, event),
        .in_loop = event->loop >= 0,
        .in_step_loop = event->loop >= 0 && per_step[event->loop],
        .module_arguments = summary__module_arguments(facts, event),
        .eval_arguments = summary__eval_arguments(facts, event),
        .receiver_eval = summary__receiver_eval(facts, event),
        .per_process = event->function >= 0 && launched[event->function],
    };
    array_push(&self->calls, call);
  }
  free(per_step);
  free(launched);
  if (self->calls.size > 1) qsort(self->calls.contents, self->calls.size, sizeof(SummaryCall), summary__call_order);
  for (uint32_t i = 0; i < self->calls.size; i++) {
    int32_t function = self->calls.contents[i].function;
    if (function < 0) continue;
    SummaryFunction *entry = array_get(&self->functions, function);
    if (entry->external_calls_count++ == 0) entry->external_calls_start = i;
  }
}

/* ---- Public ------------------------------------------------------------------------ */

Summary *summary_new(const char *path, uint64_t hash, const Facts *facts, Flow *flow) {
  Summary *self = gl_calloc(1, sizeof(Summary));
  self->path = gl_strdup(path);
  self->hash = hash;
  self->uses_torch = facts->uses_torch;
  for (uint32_t i = 0; i < facts->functions.size; i++) summary__add_function(self, facts, flow, (int32_t)i);
  for (uint32_t i = 0; i < facts->classes.size; i++) summary__add_class(self, facts, (int32_t)i);
  for (uint32_t i = 0; i < facts->imports.size; i++) {
    const Binding *binding = array_get(&facts->imports, i);
    array_push(&self->imports, ((SummaryImport){summary__copy(binding->name), summary__copy(binding->value)}));
  }
  summary__add_calls(self, facts);
  partial_plans(facts, (PartialStrings *)&self->plans);
  return self;
}

Summary *summary_of_walk(const char *path, uint64_t hash, Facts *walked) {
  facts_settle(walked, NULL);
  Flow *flow = flow_new(walked);
  Summary *self = summary_new(path, hash, walked, flow);
  flow_delete(flow);
  return self;
}

void summary_delete(Summary *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->functions.size; i++) {
    free(self->functions.contents[i].name);
    free(self->functions.contents[i].returns_class);
    summary__free_strings(&self->functions.contents[i].builds);
  }
  for (uint32_t i = 0; i < self->classes.size; i++) {
    SummaryClass *entry = array_get(&self->classes, i);
    free(entry->name);
    summary__free_strings(&entry->bases);
    summary__free_strings(&entry->submodules);
    summary__free_strings(&entry->frozen);
    summary__free_strings(&entry->parts);
    summary__free_strings(&entry->steps);
  }
  summary__free_strings(&self->plans);
  for (uint32_t i = 0; i < self->imports.size; i++) {
    free(self->imports.contents[i].local);
    free(self->imports.contents[i].qualified);
  }
  for (uint32_t i = 0; i < self->calls.size; i++) free(self->calls.contents[i].callee);
  array_delete(&self->functions);
  array_delete(&self->classes);
  array_delete(&self->imports);
  array_delete(&self->calls);
  free(self->path);
  free(self);
}

static bool summary__named(const char *name, const char *wanted, uint32_t length) {
  return strlen(name) == length && memcmp(name, wanted, length) == 0;
}

const SummaryFunction *summary_function(const Summary *self, const char *name, uint32_t length) {
  for (uint32_t i = 0; i < self->functions.size; i++) {
    if (summary__named(self->functions.contents[i].name, name, length)) return &self->functions.contents[i];
  }
  return NULL;
}

const SummaryClass *summary_class(const Summary *self, const char *name, uint32_t length) {
  for (uint32_t i = 0; i < self->classes.size; i++) {
    if (summary__named(self->classes.contents[i].name, name, length)) return &self->classes.contents[i];
  }
  return NULL;
}

const char *summary_import(const Summary *self, const char *local, uint32_t length) {
  for (uint32_t i = self->imports.size; i > 0; i--) {
    if (summary__named(self->imports.contents[i - 1].local, local, length)) return self->imports.contents[i - 1].qualified;
  }
  return NULL;
}

/* ---- Kept between runs ---------------------------------------------------------- */

static void summary__put_strings(BinWriter *out, const void *array) {
  const Array(char *) *strings = array;
  bin_put_u32(out, strings->size);
  for (uint32_t i = 0; i < strings->size; i++) bin_put_text(out, strings->contents[i]);
}

static void summary__put_function(BinWriter *out, const SummaryFunction *function) {
  bin_put_text(out, function->name);
  uint32_t numbers[] = {function->line, function->reaches, function->decorated, function->wraps_grad_off,
                        function->keeps, function->returns, function->returns_given_arguments,
                        function->plain_returns, function->external_calls_start, function->external_calls_count};
  bin_put(out, numbers, sizeof numbers);
  bin_put_text(out, function->returns_class);
  summary__put_strings(out, &function->builds);
}

static void summary__put_class(BinWriter *out, const SummaryClass *entry) {
  bin_put_text(out, entry->name);
  uint32_t numbers[] = {entry->line, entry->defines_forward, entry->module_base};
  bin_put(out, numbers, sizeof numbers);
  summary__put_strings(out, &entry->bases);
  summary__put_strings(out, &entry->submodules);
  summary__put_strings(out, &entry->frozen);
  summary__put_strings(out, &entry->parts);
  summary__put_strings(out, &entry->steps);
}

static void summary__put_call(BinWriter *out, const SummaryCall *call) {
  bin_put_text(out, call->callee);
  uint32_t numbers[] = {(uint32_t)call->function, call->line,          call->grad,
                        call->in_loop,           call->module_arguments, call->eval_arguments,
                        call->receiver_eval,     call->in_step_loop,       call->per_process};
  bin_put(out, numbers, sizeof numbers);
}

void summary_write(const Summary *self, BinWriter *out) {
  bin_put_u64(out, self->hash);
  bin_put_u32(out, self->uses_torch);
  bin_put_u32(out, self->functions.size);
  for (uint32_t i = 0; i < self->functions.size; i++) summary__put_function(out, array_get(&self->functions, i));
  bin_put_u32(out, self->classes.size);
  for (uint32_t i = 0; i < self->classes.size; i++) summary__put_class(out, array_get(&self->classes, i));
  bin_put_u32(out, self->imports.size);
  for (uint32_t i = 0; i < self->imports.size; i++) {
    bin_put_text(out, self->imports.contents[i].local);
    bin_put_text(out, self->imports.contents[i].qualified);
  }
  bin_put_u32(out, self->calls.size);
  for (uint32_t i = 0; i < self->calls.size; i++) summary__put_call(out, array_get(&self->calls, i));
  summary__put_strings(out, &self->plans);
}

/* Every string read, or false at the first damaged one (those read are
 * kept, for summary_delete to free). */
static bool summary__get_strings(BinReader *in, void *array) {
  Array(char *) *strings = array;
  uint32_t count = bin_get_u32(in);
  if (!bin_can_hold(in, count, sizeof(uint32_t))) return false;
  for (uint32_t i = 0; i < count; i++) {
    char *text = bin_get_text(in);
    if (!text) return false;
    array_push(strings, text);
  }
  return true;
}

static bool summary__get_function(BinReader *in, Summary *self) {
  char *name = bin_get_text(in);
  const uint32_t *numbers = bin_get_span(in, 10 * sizeof(uint32_t));
  if (!name || !numbers) {
    free(name);
    return false;
  }
  uint32_t n[10];
  memcpy(n, numbers, sizeof n);
  char *returns_class = bin_get_text(in);
  if (!returns_class) {
    free(name);
    return false;
  }
  if (!returns_class[0]) {
    free(returns_class);
    returns_class = NULL;
  }
  array_push(&self->functions, ((SummaryFunction){name, n[0], n[1], (uint8_t)n[2], n[3] != 0, n[4], n[5], n[6], n[7],
                                                  n[8], n[9], returns_class, {0}}));
  return summary__get_strings(in, &array_back(&self->functions)->builds);
}

static bool summary__get_class(BinReader *in, Summary *self) {
  char *name = bin_get_text(in);
  const uint32_t *numbers = bin_get_span(in, 3 * sizeof(uint32_t));
  if (!name || !numbers) {
    free(name);
    return false;
  }
  uint32_t n[3];
  memcpy(n, numbers, sizeof n);
  array_push(&self->classes, ((SummaryClass){.name = name, .line = n[0], .defines_forward = n[1] != 0,
                                             .module_base = n[2] != 0}));
  SummaryClass *entry = array_back(&self->classes);
  return summary__get_strings(in, &entry->bases) && summary__get_strings(in, &entry->submodules) &&
         summary__get_strings(in, &entry->frozen) && summary__get_strings(in, &entry->parts) &&
         summary__get_strings(in, &entry->steps);
}

static bool summary__get_import(BinReader *in, Summary *self) {
  char *local = bin_get_text(in), *qualified = bin_get_text(in);
  if (!local || !qualified) {
    free(local);
    free(qualified);
    return false;
  }
  array_push(&self->imports, ((SummaryImport){local, qualified}));
  return true;
}

static bool summary__get_call(BinReader *in, Summary *self) {
  char *callee = bin_get_text(in);
  const uint32_t *numbers = bin_get_span(in, 9 * sizeof(uint32_t));
  if (!callee || !numbers) {
    free(callee);
    return false;
  }
  uint32_t n[9];
  memcpy(n, numbers, sizeof n);
  array_push(&self->calls, ((SummaryCall){.callee = callee,
                                          .function = (int32_t)n[0],
                                          .line = n[1],
                                          .grad = (uint8_t)n[2],
                                          .in_loop = n[3] != 0,
                                          .module_arguments = n[4],
                                          .eval_arguments = n[5],
                                          .receiver_eval = n[6] != 0,
                                          .in_step_loop = n[7] != 0,
                                          .per_process = n[8] != 0}));
  return true;
}

/* Reads `count` records with `get`, each of at least `size` bytes. */
static bool summary__get_all(BinReader *in, Summary *self, bool (*get)(BinReader *, Summary *), size_t size) {
  uint32_t count = bin_get_u32(in);
  if (!bin_can_hold(in, count, size)) return false;
  for (uint32_t i = 0; i < count; i++) {
    if (!get(in, self)) return false;
  }
  return true;
}

/* Whether the indices a summary holds point inside it. */
static bool summary__consistent(const Summary *self) {
  for (uint32_t i = 0; i < self->functions.size; i++) {
    const SummaryFunction *function = array_get(&self->functions, i);
    if ((uint64_t)function->external_calls_start + function->external_calls_count > self->calls.size) return false;
  }
  for (uint32_t i = 0; i < self->calls.size; i++) {
    int32_t function = self->calls.contents[i].function;
    if (function < -1 || function >= (int32_t)self->functions.size) return false;
  }
  return true;
}

Summary *summary_read(const char *path, const void *bytes, size_t length) {
  BinReader in = bin_reader(bytes, length);
  Summary *self = gl_calloc(1, sizeof(Summary));
  self->path = gl_strdup(path);
  self->hash = bin_get_u64(&in);
  self->uses_torch = bin_get_u32(&in) != 0;
  bool ok = in.ok && summary__get_all(&in, self, summary__get_function, 13 * sizeof(uint32_t)) &&
            summary__get_all(&in, self, summary__get_class, 9 * sizeof(uint32_t)) &&
            summary__get_all(&in, self, summary__get_import, 2 * sizeof(uint32_t)) &&
            summary__get_all(&in, self, summary__get_call, 10 * sizeof(uint32_t)) &&
            summary__get_strings(&in, &self->plans) && in.at == in.end && summary__consistent(self);
  if (ok) return self;
  summary_delete(self);
  return NULL;
}
