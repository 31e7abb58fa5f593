/* partial_facts.c — one file's facts for partial.h's question: the plans,
 * parts and steps its summary keeps (partial_facts.h). */
#include "partial_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "roles_names.h"

/* How deep a tree walk in one function goes. */
#define PARTIAL_MAX_NESTING 200

const char *const PARTIAL_ENABLERS[] = {"enable_gradient_checkpointing", "gradient_checkpointing_enable", NULL};

/* ---- Small readers ------------------------------------------------------------------ */

/* Calls `visit` on `node` and every node under it in source order,
 * skipping nested function definitions (code defined, not run, there). */
static void partial__each(TSNode node, void (*visit)(TSNode, void *), void *data, int depth) {
  if (ts_node_is_null(node) || depth > PARTIAL_MAX_NESTING) return;
  visit(node, data);
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(node, i);
    if (node_is(child, K_FUNCTION_DEFINITION) || node_is(child, K_CLASS_DEFINITION)) continue;
    partial__each(child, visit, data, depth + 1);
  }
}

/* The text of a plain string literal without its quotes; empty for an
 * f-string, a byte string, escapes, or a value that holds '|'. */
static Text partial__string(const Source *source, TSNode node) {
  if (!node_is(node, K_STRING)) return (Text){0};
  Text text = node_text(source, node);
  uint32_t start = 0;
  while (start < text.length && text.ptr[start] != '"' && text.ptr[start] != '\'') {
    if (text.ptr[start] != 'r' && text.ptr[start] != 'R') return (Text){0};
    start++;
  }
  uint32_t quotes = start + 2 < text.length && text.ptr[start + 1] == text.ptr[start] &&
                            text.ptr[start + 2] == text.ptr[start]
                        ? 3
                        : 1;
  if (text.length < start + 2 * quotes) return (Text){0};
  Text inner = {text.ptr + start + quotes, text.length - start - 2 * quotes};
  for (uint32_t i = 0; i < inner.length; i++) {
    if (inner.ptr[i] == '\\' || inner.ptr[i] == '|' || inner.ptr[i] == '\n') return (Text){0};
  }
  return inner;
}

/* The strings of a tuple or list literal of plain strings, appended to
 * `out`; false when it holds anything else. */
static bool partial__string_list(const Source *source, TSNode value, PartialStrings *out) {
  value = node_unparenthesize(value);
  if (strcmp(ts_node_type(value), "concatenated_string") == 0) { /* `("a" "b")`: Python joins them */
    char joined[256] = "";
    for (uint32_t i = 0; i < ts_node_named_child_count(value); i++) {
      Text part = partial__string(source, ts_node_named_child(value, i));
      size_t used = strlen(joined);
      if (part.length == 0 || used + part.length >= sizeof joined) return false;
      snprintf(joined + used, sizeof joined - used, "%.*s", (int)part.length, part.ptr);
    }
    if (strchr(joined, ',') || strchr(joined, ':')) return false;
    array_push(out, gl_strdup(joined));
    return true;
  }
  if (node_is(value, K_STRING)) { /* `("attn_temp")`: one name */
    Text one = partial__string(source, value);
    if (one.length == 0 || memchr(one.ptr, ',', one.length) || memchr(one.ptr, ':', one.length)) return false;
    array_push(out, gl_strndup(one.ptr, one.length));
    return true;
  }
  if (!node_is(value, K_TUPLE) && !node_is(value, K_LIST)) return false;
  uint32_t count = ts_node_named_child_count(value);
  for (uint32_t i = 0; i < count; i++) {
    TSNode element = ts_node_named_child(value, i);
    if (node_is(element, K_COMMENT)) continue;
    Text each = partial__string(source, element);
    if (each.length == 0 || out->size >= PARTIAL_MAX_PATTERNS) return false;
    if (memchr(each.ptr, ',', each.length) || memchr(each.ptr, ':', each.length)) return false;
    array_push(out, gl_strndup(each.ptr, each.length));
  }
  return true; /* `()`: nothing unfrozen unless a configuration says so */
}

void partial_strings_delete(PartialStrings *strings) {
  for (uint32_t i = 0; i < strings->size; i++) free(strings->contents[i]);
  array_delete(strings);
}

/* The module path names a plan tests: a parameter of the function with a
 * literal default that the function never rebinds, a name bound once to a
 * literal, or the literal itself. */
static bool partial__names(const Facts *facts, int32_t function, TSNode value, PartialStrings *out, Text *variable) {
  value = node_unparenthesize(value);
  if (node_is(value, K_CALL) && (text_is(call_function_text(facts->source, value), "tuple") ||
                                 text_is(call_function_text(facts->source, value), "list"))) {
    value = node_unparenthesize(call_positional(value, 0));
  }
  if (!node_is(value, K_IDENTIFIER)) return partial__string_list(facts->source, value, out);
  Text name = node_text(facts->source, value);
  AssignIter it = facts_assigns(facts, name, function);
  const Assign *bound = assign_iter_next(&it);
  if (bound) { /* bound once, to a literal */
    if (assign_iter_next(&it) || bound->augmented || bound->unpacked || bound->subscript) return false;
    return partial__string_list(facts->source, bound->value, out);
  }
  TSNode fallback;
  *variable = name; /* a configuration may pass other names */
  return facts_parameter_named(facts, function, name, &fallback) && !ts_node_is_null(fallback) &&
         partial__string_list(facts->source, fallback, out);
}

/* ---- Plans ---------------------------------------------------------------------------- */

typedef struct {
  const Facts *facts;
  Text model;             /* `unet` */
  Array(TSNode) loops;    /* the unfreezing loops read */
  uint32_t unfreezes;     /* `requires_grad = True` and `requires_grad_(True)` seen */
  uint32_t unfreezes_in_loops;
  TSNode enabler;         /* `unet.enable_gradient_checkpointing()` */
} PlanScan;

/* `x.requires_grad = True`, `x.requires_grad_(True)`, `x.requires_grad_()`. */
static bool partial__unfreezes(const Source *source, TSNode node) {
  if (node_is(node, K_ASSIGNMENT)) {
    return text_ends_with(node_text(source, node_field(node, F_LEFT)), ".requires_grad") &&
           node_is(node_unparenthesize(node_field(node, F_RIGHT)), K_TRUE);
  }
  if (!node_is(node, K_CALL) || !text_is(call_method_name(source, node), "requires_grad_")) return false;
  TSNode flag = call_positional(node, 0);
  return ts_node_is_null(flag) || node_is(node_unparenthesize(flag), K_TRUE);
}

static void partial__scan_plan(TSNode node, void *data) {
  PlanScan *scan = data;
  const Source *source = scan->facts->source;
  if (partial__unfreezes(source, node)) {
    scan->unfreezes++;
    for (uint32_t i = 0; i < scan->loops.size; i++) {
      if (node_contains(scan->loops.contents[i], node)) {
        scan->unfreezes_in_loops++;
        break;
      }
    }
    return;
  }
  if (!node_is(node, K_CALL)) return;
  if (text_in(call_method_name(source, node), PARTIAL_ENABLERS) &&
      text_eq(node_text(source, call_receiver(node)), scan->model)) {
    scan->enabler = node;
  }
}

/* Whether the unfreezing loop's test is one this reads: `name.endswith(
 * tuple(names))` ('s'), `any(k in name for k in names)` ('i'); fills
 * the names. */
static bool partial__name_test(const Facts *facts, int32_t function, TSNode condition, char *test,
                               PartialStrings *names, Text *variable) {
  condition = node_unparenthesize(condition);
  if (!node_is(condition, K_CALL)) return false;
  const Source *source = facts->source;
  if (text_is(call_method_name(source, condition), "endswith")) {
    *test = 's';
    return partial__names(facts, function, call_positional(condition, 0), names, variable);
  }
  if (!text_is(call_function_text(source, condition), "any")) return false;
  TSNode generator = call_positional(condition, 0);
  if (ts_node_is_null(generator)) generator = ts_node_named_child(node_field(condition, F_ARGUMENTS), 0);
  if (!node_is(generator, K_GENERATOR_EXPRESSION) && !node_is(generator, K_LIST_COMPREHENSION)) return false;
  TSNode body = ts_node_named_child(generator, 0), clause = ts_node_named_child(generator, 1);
  if (!node_is(body, K_COMPARISON_OPERATOR) || strcmp(ts_node_type(clause), "for_in_clause") != 0) return false;
  if (!text_mentions(node_text(source, body), text_of(" in "))) return false;
  *test = 'i';
  return partial__names(facts, function, node_field(clause, F_RIGHT), names, variable);
}

/* The loops `for name, module in unet.named_modules():` (or
 * named_parameters) of `function` whose `if` unfreezes by name, into
 * `scan`, each with its selector "TEST:VARIABLE:NAME,NAME" in
 * `selectors`. */
static void partial__unfreezing_loops(const Facts *facts, int32_t function, PlanScan *scan,
                                      PartialStrings *selectors) {
  static const char *const NAMED[] = {"named_modules", "named_parameters", NULL};
  for (uint32_t i = 0; i < facts->loops.size; i++) {
    const Loop *loop = array_get(&facts->loops, i);
    if (loop->function != function || !node_is(loop->node, K_FOR_STATEMENT)) continue;
    TSNode iterable = node_unparenthesize(node_field(loop->node, F_RIGHT));
    if (!node_is(iterable, K_CALL) || !text_in(call_method_name(facts->source, iterable), NAMED)) continue;
    if (!text_eq(node_text(facts->source, call_receiver(iterable)), scan->model)) continue;
    uint32_t count = ts_node_named_child_count(loop->body);
    for (uint32_t k = 0; k < count; k++) {
      TSNode statement = ts_node_named_child(loop->body, k);
      if (!node_is(statement, K_IF_STATEMENT) || !ts_node_is_null(node_field(statement, F_ALTERNATIVE))) continue;
      PartialStrings names = array_new();
      Text variable = {0};
      char test = 0;
      if (partial__name_test(facts, function, node_field(statement, F_CONDITION), &test, &names, &variable)) {
        if (test == 's' && text_is(call_method_name(facts->source, iterable), "named_parameters")) test = 'p';
        size_t length = 0;
        for (uint32_t n = 0; n < names.size; n++) length += strlen(names.contents[n]) + 1;
        char *selector = gl_format("%c:%.*s:", test, (int)variable.length, variable.ptr);
        selector = gl_realloc(selector, strlen(selector) + length + 1);
        for (uint32_t n = 0; n < names.size; n++) strcat(strcat(selector, n ? "," : ""), names.contents[n]);
        array_push(selectors, selector);
        array_push(&scan->loops, loop->node);
        k = count;
      }
      partial_strings_delete(&names);
    }
  }
}

/* Whether the call that turns checkpointing on is read: no `if` around
 * it, or one `if flag:` on a parameter with a literal default, whose
 * name and default ('T', 'F') are filled; '-' with no `if`. */
static bool partial__checkpoint_flag(const Facts *facts, int32_t function, TSNode call, Text *flag, char *fallback) {
  TSNode scope = facts->functions.contents[function].node;
  *flag = (Text){0};
  *fallback = '-';
  for (TSNode node = ts_node_parent(call); !ts_node_is_null(node) && !ts_node_eq(node, scope);
       node = ts_node_parent(node)) {
    if (node_is(node, K_ELSE_CLAUSE) || node_is(node, K_ELIF_CLAUSE)) return false;
    if (!node_is(node, K_IF_STATEMENT)) continue;
    TSNode condition = node_unparenthesize(node_field(node, F_CONDITION)), value;
    if (flag->length || !node_is(condition, K_IDENTIFIER)) return false;
    *flag = node_text(facts->source, condition);
    if (!facts_parameter_named(facts, function, *flag, &value)) return false;
    value = node_unparenthesize(value);
    if (!node_is(value, K_TRUE) && !node_is(value, K_FALSE)) return false;
    *fallback = node_is(value, K_TRUE) ? 'T' : 'F';
  }
  return true;
}

/* The class the model was built from, qualified: `unet =
 * UNet3DConditionModel.from_pretrained_2d(...)` (seen through `.to()`),
 * written into `buffer`; NULL when the binding shows none. */
static const char *partial__model_class(const Facts *facts, int32_t function, Text model, uint32_t at, char *buffer,
                                        size_t size) {
  const Assign *bound = facts_assign_last_before(facts, model, function, at, facts_plain_assign);
  TSNode value = bound ? node_unparenthesize(bound->value) : (TSNode){0};
  while (node_is(value, K_CALL) && roles_returns_receiver(call_method_name(facts->source, value))) {
    value = call_receiver(value);
  }
  if (!node_is(value, K_CALL)) return NULL;
  TSNode callee = node_field(value, F_FUNCTION);
  Text method = call_method_name(facts->source, value);
  if (method.length > 5 && memcmp(method.ptr, "from_", 5) == 0) callee = node_field(callee, F_OBJECT);
  if (!node_is(callee, K_IDENTIFIER) && !node_is(callee, K_ATTRIBUTE)) return NULL;
  if (!text_capitalized(text_last_segment(node_text(facts->source, callee)))) return NULL;
  return facts_qualify(facts, callee, buffer, size);
}

/* The plan of one freeze `model.requires_grad_(False)`, or nothing. */
static void partial__plan(const Facts *facts, const Event *freeze, PartialStrings *out) {
  TSNode receiver = call_receiver(freeze->node);
  if (freeze->function < 0 || !node_is(receiver, K_IDENTIFIER)) return;
  if (!node_is(node_unparenthesize(call_positional(freeze->node, 0)), K_FALSE)) return;
  PlanScan scan = {.facts = facts, .model = node_text(facts->source, receiver)};
  PartialStrings selectors = array_new();
  partial__unfreezing_loops(facts, freeze->function, &scan, &selectors);
  char buffer[192], fallback = '-';
  Text flag = {0};
  const char *class_name = partial__model_class(facts, freeze->function, scan.model,
                                                ts_node_start_byte(freeze->node), buffer, sizeof buffer);
  if (selectors.size > 0 && class_name && !strchr(class_name, '|')) {
    partial__each(node_field(facts->functions.contents[freeze->function].node, F_BODY), partial__scan_plan, &scan,
                  0);
  }
  /* every unfreeze is a loop's, and the flag that turns checkpointing on is read */
  if (!ts_node_is_null(scan.enabler) && scan.unfreezes > 0 && scan.unfreezes == scan.unfreezes_in_loops &&
      partial__checkpoint_flag(facts, freeze->function, scan.enabler, &flag, &fallback)) {
    size_t length = 0;
    for (uint32_t i = 0; i < selectors.size; i++) length += strlen(selectors.contents[i]) + 1;
    char *plan = gl_format("%u|%s|%.*s|%c", ts_node_start_point(freeze->node).row + 1, class_name, (int)flag.length,
                           flag.ptr, fallback);
    plan = gl_realloc(plan, strlen(plan) + length + 1);
    for (uint32_t i = 0; i < selectors.size; i++) strcat(strcat(plan, "|"), selectors.contents[i]);
    array_push(out, plan);
  }
  partial_strings_delete(&selectors);
  array_delete(&scan.loops);
}

void partial_plans(const Facts *facts, PartialStrings *out) {
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind == EV_FREEZE && node_is(event->node, K_CALL)) partial__plan(facts, event, out);
  }
}

/* ---- Parts ---------------------------------------------------------------------------- */

typedef struct {
  const Facts *facts;
  int32_t function;    /* __init__ */
  Text list;           /* the list or attribute whose `.append(x)` calls are wanted */
  Text attribute;      /* for the entries */
  PartialStrings *out;
} PartsScan;

static void partial__part(PartsScan *scan, TSNode value, uint32_t at, int depth);

static void partial__scan_appends(TSNode node, void *data) {
  PartsScan *scan = data;
  if (!node_is(node, K_CALL) || !text_is(call_method_name(scan->facts->source, node), "append")) return;
  if (!text_eq(node_text(scan->facts->source, call_receiver(node)), scan->list)) return;
  partial__part(scan, call_positional(node, 0), ts_node_start_byte(node), 1);
}

static void partial__push(PartsScan *scan, const char *qualified) {
  array_push(scan->out, gl_format("%.*s=%s", (int)scan->attribute.length, scan->attribute.ptr, qualified));
}

/* The classes `value` builds into the attribute: a constructor or factory
 * call, the elements of a ModuleList or Sequential (a literal, a
 * comprehension, a list filled by `.append`), a name bound to one of
 * those; "ATTRIBUTE=" for anything else. */
static void partial__part(PartsScan *scan, TSNode value, uint32_t at, int depth) {
  const Facts *facts = scan->facts;
  value = node_unparenthesize(value);
  while (node_is(value, K_CALL) && roles_returns_receiver(call_method_name(facts->source, value))) {
    value = call_receiver(value);
  }
  if (depth > 4 || ts_node_is_null(value) || node_is(value, K_NONE)) return;
  if (node_is(value, K_LIST) || node_is(value, K_TUPLE)) {
    for (uint32_t i = 0; i < ts_node_named_child_count(value); i++) {
      partial__part(scan, ts_node_named_child(value, i), at, depth + 1);
    }
    return;
  }
  if (node_is(value, K_LIST_COMPREHENSION) || node_is(value, K_GENERATOR_EXPRESSION)) {
    partial__part(scan, ts_node_named_child(value, 0), at, depth + 1);
    return;
  }
  if (node_is(value, K_IDENTIFIER)) { /* a list filled by appends, or a name bound to a constructor */
    Text name = node_text(facts->source, value);
    const Assign *bound = facts_assign_last_before(facts, name, scan->function, at, facts_plain_assign);
    if (bound) partial__part(scan, bound->value, ts_node_start_byte(bound->statement), depth + 1);
    PartsScan appends = *scan;
    appends.list = name;
    partial__each(node_field(facts->functions.contents[scan->function].node, F_BODY), partial__scan_appends,
                  &appends, 0);
    if (!bound) partial__push(scan, "");
    return;
  }
  TSNode callee = node_field(value, F_FUNCTION);
  if (!node_is(value, K_CALL) || (!node_is(callee, K_IDENTIFIER) && !node_is(callee, K_ATTRIBUTE))) {
    partial__push(scan, "");
    return;
  }
  char buffer[192];
  const char *qualified = facts_qualify(facts, callee, buffer, sizeof buffer);
  Text last = text_last_segment(text_of(qualified));
  if (text_is(last, "ModuleList") || text_is(last, "Sequential")) {
    for (uint32_t i = 0; i < call_positional_count(value); i++) {
      partial__part(scan, call_positional(value, i), at, depth + 1);
    }
    return;
  }
  if (text_is(last, "ModuleDict")) {
    partial__push(scan, "");
    return;
  }
  partial__push(scan, qualified);
}

void partial_parts(const Facts *facts, int32_t class_index, PartialStrings *out) {
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *function = array_get(&facts->functions, i);
    if (function->class_index != class_index || !text_is(function->name, "__init__")) continue;
    for (uint32_t j = 0; j < facts->assigns.size; j++) {
      const Assign *assign = array_get(&facts->assigns, j);
      if (assign->function != (int32_t)i || assign->subscript || assign->unpacked || assign->augmented) continue;
      Text attribute = text_strip_self(assign->name);
      if (attribute.length == assign->name.length || memchr(attribute.ptr, '.', attribute.length)) continue;
      PartsScan scan = {facts, (int32_t)i, assign->name, attribute, out};
      partial__part(&scan, assign->value, ts_node_start_byte(assign->statement), 0);
      partial__each(node_field(function->node, F_BODY), partial__scan_appends, &scan, 0); /* self.blocks.append */
    }
  }
}

/* ---- Steps ----------------------------------------------------------------------------- */

typedef struct {
  const Facts *facts;
  int32_t function; /* forward */
  int32_t class_index;
  PartialStrings *out;
} StepScan;

/* The attribute whose layers `name` runs: `self.blocks` for `block` of
 * `for block in self.blocks:`, of `for r, a in zip(self.resnets,
 * self.attentions):` at its place, of `for i, b in enumerate(self.b):`;
 * or of `block = self.blocks[i]`. Empty when none. */
static Text partial__layer_of(const Facts *facts, int32_t function, TSNode name_node) {
  Text name = node_text(facts->source, name_node);
  for (TSNode node = ts_node_parent(name_node); !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (node_is(node, K_FUNCTION_DEFINITION)) break;
    if (!node_is(node, K_FOR_STATEMENT)) continue;
    TSNode left = node_field(node, F_LEFT), right = node_unparenthesize(node_field(node, F_RIGHT));
    bool zipped = node_is(right, K_CALL) && text_is(call_function_text(facts->source, right), "zip");
    bool counted = node_is(right, K_CALL) && text_is(call_function_text(facts->source, right), "enumerate");
    uint32_t count = node_is(left, K_IDENTIFIER) ? 1 : ts_node_named_child_count(left);
    for (uint32_t i = 0; i < count; i++) {
      TSNode target = node_is(left, K_IDENTIFIER) ? left : ts_node_named_child(left, i);
      if (!node_is(target, K_IDENTIFIER) || !text_eq(node_text(facts->source, target), name)) continue;
      TSNode source = zipped ? call_positional(right, i) : counted && i == 1 ? call_positional(right, 0) : right;
      if (counted && i == 0) return (Text){0};
      if (!zipped && !counted && count != 1) return (Text){0};
      Text text = node_text(facts->source, node_unparenthesize(source));
      Text attribute = text_strip_self(text);
      return attribute.length < text.length && text_is_identifier(attribute) ? attribute : (Text){0};
    }
  }
  const Assign *bound = facts_assign_last_before(facts, name, function, ts_node_start_byte(name_node),
                                                 facts_plain_assign);
  TSNode value = bound ? node_unparenthesize(bound->value) : (TSNode){0};
  if (!node_is(value, K_SUBSCRIPT)) return (Text){0};
  Text text = node_text(facts->source, node_field(value, F_VALUE));
  Text attribute = text_strip_self(text);
  return attribute.length < text.length && text_is_identifier(attribute) ? attribute : (Text){0};
}

/* The attribute a callee or checkpointed function runs: `self.conv_in`,
 * `self.blocks[i]`, a layer of a loop over `self.blocks`, `x.forward`,
 * the module a wrapper is built around (`create_custom_forward(attn)`).
 * Empty when none. */
static Text partial__attribute_run(const Facts *facts, int32_t function, TSNode fn, int depth) {
  fn = node_unparenthesize(fn);
  if (depth > 3 || ts_node_is_null(fn)) return (Text){0};
  if (node_is(fn, K_CALL)) return partial__attribute_run(facts, function, call_positional(fn, 0), depth + 1);
  if (node_is(fn, K_SUBSCRIPT)) fn = node_field(fn, F_VALUE);
  if (node_is(fn, K_ATTRIBUTE) && text_is(node_text(facts->source, node_field(fn, F_ATTRIBUTE)), "forward")) {
    fn = node_field(fn, F_OBJECT);
  }
  if (node_is(fn, K_IDENTIFIER)) return partial__layer_of(facts, function, fn);
  if (!node_is(fn, K_ATTRIBUTE)) return (Text){0};
  Text text = node_text(facts->source, fn);
  Text attribute = text_strip_self(text);
  return attribute.length < text.length && text_is_identifier(attribute) ? attribute : (Text){0};
}

/* Whether `name` is a method of the forward's class. */
static bool partial__own_method(const Facts *facts, int32_t class_index, Text name) {
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *method = array_get(&facts->functions, i);
    if (method->class_index == class_index && text_eq(method->name, name)) return true;
  }
  return false;
}

static bool partial__checkpoint_call(const Facts *facts, TSNode call) {
  char buffer[96];
  const char *qualified = facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  return strcmp(qualified, "torch.utils.checkpoint.checkpoint") == 0 ||
         strcmp(qualified, "deepspeed.checkpointing.checkpoint") == 0;
}

bool partial_reentrant(const Facts *facts, TSNode call) {
  char buffer[96];
  if (strcmp(facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer),
             "deepspeed.checkpointing.checkpoint") == 0) {
    return true;
  }
  TSNode flag = call_keyword(facts->source, call, "use_reentrant");
  if (!ts_node_is_null(flag)) return node_is(node_unparenthesize(flag), K_TRUE);
  TSNode arguments = node_field(call, F_ARGUMENTS);
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments); i++) {
    if (strcmp(ts_node_type(ts_node_named_child(arguments, i)), "dictionary_splat") == 0) return false;
  }
  return true;
}

static bool partial__passes_on(const StepScan *scan, TSNode call, int depth);

/* Whether a checkpoint input only passes on what the forward was given: a
 * constant, a parameter of the forward not rebound before, or the output
 * of an earlier reentrant checkpoint that passes on (`checkpoint(...)[0]`). */
static bool partial__passed_on(const StepScan *scan, TSNode value, uint32_t at, int depth) {
  const Facts *facts = scan->facts;
  value = node_unparenthesize(value);
  if (node_is_literal(value)) return true;
  if (depth > 6) return false;
  if (node_is(value, K_SUBSCRIPT)) value = node_unparenthesize(node_field(value, F_VALUE));
  if (node_is(value, K_CALL)) {
    return partial__checkpoint_call(facts, value) && partial_reentrant(facts, value) &&
           partial__passes_on(scan, value, depth + 1);
  }
  if (!node_is(value, K_IDENTIFIER)) return false;
  Text name = node_text(facts->source, value);
  AssignIter it = facts_assigns(facts, name, scan->function);
  const Assign *last = NULL;
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (ts_node_end_byte(assign->statement) <= at) last = assign; /* not the statement the value feeds */
  }
  TSNode fallback;
  if (!last) return facts_parameter_named(facts, scan->function, name, &fallback);
  if (last->augmented || last->unpacked || last->subscript) return false;
  return partial__passed_on(scan, last->value, ts_node_start_byte(last->statement), depth + 1);
}

/* Whether every input of a reentrant checkpoint (after the function)
 * passes on what the forward was given. */
static bool partial__passes_on(const StepScan *scan, TSNode call, int depth) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  uint32_t position = 0;
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments); i++) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (node_is(argument, K_KEYWORD_ARGUMENT) || node_is(argument, K_COMMENT)) continue;
    if (strcmp(ts_node_type(argument), "list_splat") == 0) return false;
    if (position++ == 0) continue;
    if (!partial__passed_on(scan, argument, ts_node_start_byte(call), depth)) return false;
  }
  return true;
}

static void partial__push_step(StepScan *scan, char kind, char branch, TSNode at, Text attribute) {
  array_push(scan->out, gl_format("%c%c:%u:%.*s", kind, branch, ts_node_start_point(at).row + 1,
                                  (int)attribute.length, attribute.ptr));
}

static void partial__steps_in(StepScan *scan, TSNode node, char branch, int depth);

static void partial__step_call(StepScan *scan, TSNode call, char branch, int depth) {
  const Facts *facts = scan->facts;
  if (partial__checkpoint_call(facts, call)) {
    Text attribute = partial__attribute_run(facts, scan->function, call_positional(call, 0), 0);
    char kind = !partial_reentrant(facts, call) ? 'p' : partial__passes_on(scan, call, 0) ? 'c' : 'x';
    partial__push_step(scan, attribute.length ? kind : 'm', branch, call, attribute);
    return;
  }
  partial__steps_in(scan, node_field(call, F_ARGUMENTS), branch, depth + 1);
  TSNode callee = node_field(call, F_FUNCTION);
  Text text = node_text(facts->source, callee);
  Text stripped = text_strip_self(text);
  if (stripped.length < text.length && partial__own_method(facts, scan->class_index, stripped)) {
    partial__push_step(scan, 'm', branch, call, stripped);
    return;
  }
  if (node_is(callee, K_ATTRIBUTE)) partial__steps_in(scan, node_field(callee, F_OBJECT), branch, depth + 1);
  Text attribute = partial__attribute_run(facts, scan->function, callee, 2);
  if (attribute.length) partial__push_step(scan, 'p', branch, call, attribute);
}

/* Walks the forward in source order; `branch` says which side of an `if
 * ... gradient_checkpointing:` the code is on. */
static void partial__steps_in(StepScan *scan, TSNode node, char branch, int depth) {
  if (ts_node_is_null(node) || depth > PARTIAL_MAX_NESTING) return;
  if (node_is(node, K_FUNCTION_DEFINITION) || node_is(node, K_CLASS_DEFINITION)) return;
  if (node_is(node, K_CALL)) {
    partial__step_call(scan, node, branch, depth);
    return;
  }
  if (node_is(node, K_IF_STATEMENT) &&
      text_contains_ci(node_text(scan->facts->source, node_field(node, F_CONDITION)), "gradient_checkpointing")) {
    partial__steps_in(scan, node_field(node, F_CONSEQUENCE), 'C', depth + 1);
    for (uint32_t i = 0; i < ts_node_named_child_count(node); i++) {
      TSNode clause = ts_node_named_child(node, i);
      if (node_is(clause, K_ELSE_CLAUSE) || node_is(clause, K_ELIF_CLAUSE)) {
        partial__steps_in(scan, clause, 'E', depth + 1);
      }
    }
    return;
  }
  for (uint32_t i = 0; i < ts_node_named_child_count(node); i++) {
    partial__steps_in(scan, ts_node_named_child(node, i), branch, depth + 1);
  }
}

/* `isinstance(module, (DownBlock, UpBlock))` in `_set_gradient_checkpointing`:
 * the classes checkpointing is turned on for. */
static void partial__checkpointed_classes(TSNode node, void *data) {
  StepScan *scan = data;
  const Facts *facts = scan->facts;
  if (!node_is(node, K_CALL) || !text_is(call_function_text(facts->source, node), "isinstance")) return;
  TSNode classes = node_unparenthesize(call_positional(node, 1));
  uint32_t count = node_is(classes, K_TUPLE) ? ts_node_named_child_count(classes) : 1;
  for (uint32_t i = 0; i < count; i++) {
    TSNode each = node_is(classes, K_TUPLE) ? ts_node_named_child(classes, i) : classes;
    if (!node_is(each, K_IDENTIFIER) && !node_is(each, K_ATTRIBUTE)) continue;
    char buffer[192];
    array_push(scan->out, gl_format("g-:0:%s", facts_qualify(facts, each, buffer, sizeof buffer)));
  }
}

void partial_steps(const Facts *facts, int32_t class_index, PartialStrings *out) {
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *function = array_get(&facts->functions, i);
    if (function->class_index != class_index) continue;
    StepScan scan = {facts, (int32_t)i, class_index, out};
    if (text_is(function->name, "forward")) partial__steps_in(&scan, node_field(function->node, F_BODY), '-', 0);
    if (text_is(function->name, "_set_gradient_checkpointing")) {
      partial__each(node_field(function->node, F_BODY), partial__checkpointed_classes, &scan, 0);
    }
  }
}
