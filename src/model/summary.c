/* summary.c — a file's summary, from its own facts and flow. */
#include "summary.h"

#include <string.h>

#include "facts.h"
#include "flow.h"
#include "roles.h"

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

static void summary__add_function(Summary *self, const Facts *facts, Flow *flow, int32_t index) {
  const Function *function = array_get(&facts->functions, index);
  SummaryFunction entry = {
      .name = summary__function_name(facts, function),
      .line = ts_node_start_point(function->node).row + 1,
      .reaches = function->reaches,
      .decorated = (uint8_t)function->decorated,
      .wraps_grad_off = function->wraps_grad_off,
      .returns = summary__returns(facts, flow, index, false),
      .returns_given_arguments = summary__returns(facts, flow, index, true),
      .plain_returns = summary__plain_returns(facts, index),
  };
  for (uint32_t i = 0; i < SUMMARY_MAX_PARAMETERS; i++) {
    Text parameter = facts_parameter(facts, index, i);
    if (parameter.length == 0) break;
    if (flow_keeps_parameter(flow, index, parameter)) entry.keeps |= 1u << i;
  }
  array_push(&self->functions, entry);
}

/* ---- Classes ------------------------------------------------------------------- */

static void summary__class_members(SummaryClass *entry, const Facts *facts, int32_t class_index) {
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *function = array_get(&facts->functions, i);
    if (function->class_index != class_index) continue;
    if (text_is(function->name, "forward")) entry->defines_forward = true;
    if (!text_is(function->name, "__init__")) continue;
    for (uint32_t j = 0; j < facts->assigns.size; j++) {
      const Assign *assign = array_get(&facts->assigns, j);
      TSNode value = node_unparenthesize(assign->value);
      if (assign->function != (int32_t)i || assign->subscript || assign->unpacked || !node_is(value, K_CALL)) continue;
      if (assign->name.length <= 5 || memcmp(assign->name.ptr, "self.", 5) != 0) continue;
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

static int summary__call_order(const void *a, const void *b) {
  const SummaryCall *x = a, *y = b;
  if (x->function != y->function) return x->function < y->function ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The calls of imported names, grouped by the function they sit in. */
static void summary__add_calls(Summary *self, const Facts *facts) {
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind != EV_EXTERNAL) continue;
    SummaryCall call = {
        .callee = summary__copy(event->target),
        .function = event->function,
        .line = ts_node_start_point(event->node).row + 1,
        .grad = (uint8_t)facts_grad_mode(facts, event),
        .in_loop = event->loop >= 0,
        .module_arguments = summary__module_arguments(facts, event),
    };
    array_push(&self->calls, call);
  }
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
  return self;
}

void summary_delete(Summary *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->functions.size; i++) {
    free(self->functions.contents[i].name);
  }
  for (uint32_t i = 0; i < self->classes.size; i++) {
    SummaryClass *entry = array_get(&self->classes, i);
    free(entry->name);
    summary__free_strings(&entry->bases);
    summary__free_strings(&entry->submodules);
    summary__free_strings(&entry->frozen);
  }
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
