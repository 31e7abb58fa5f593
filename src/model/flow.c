/* flow.c — does this value carry an autograd graph? */
#include "flow.h"

#include <stdlib.h>
#include <string.h>

#include "elsewhere.h"
#include "roles.h"

#define MAX_DEPTH 200

/* The returned elements memoized per function: `a, b, c = helper()`. */
#define ELEMENT_MEMO 8

/* A memo slot: not yet asked, being computed (a cycle reads as no graph),
 * or DONE + the Carry found. */
enum { UNKNOWN, COMPUTING, DONE };

static Carry flow__max(Carry a, Carry b) { return a > b ? a : b; }

/* What one function (or the module, at index 0) holds for the questions
 * about backward: its backwards and trainer calls, its edges (assignments
 * then stores, in source order), and maps of the dotted names they mention
 * (text_map_mentions), so that a question about a name is a lookup. */
typedef struct {
  Array(const Event *) backwards; /* the EV_BACKWARD events, in order */
  Array(const Event *) trainers;  /* calls of helpers that backpropagate, in order */
  TextMap mentioned;              /* what backward calls and trainers' arguments mention: 1 */
  TextMap backward_on;            /* what the backwards run on mention: 1 + the last start */
  Array(uint32_t) edges;          /* its assignments and stores (flow__edge indices) */
  bool built;                     /* feeding built */
  TextMap feeding;                /* targets whose values reach a backward: 1 */
  uint32_t feeding_count;
  TextMap fed_names;              /* what the values of feeding targets mention: 1 */
} Scope;

struct Flow {
  const Facts *facts;
  uint8_t *assign_state;   /* State per facts->assigns entry */
  uint8_t *return_state;   /* State per facts->functions entry */
  uint8_t (*element_state)[ELEMENT_MEMO]; /* State per function and returned element */
  Scope *scopes;           /* per function at index function + 1, the module at 0 */
  Array(TSNode) backward_calls;   /* every EV_BACKWARD call, by start */
  Array(uint32_t) backward_reach; /* the largest end among backward_calls[0..i] */
  Array(const Event *) clears;    /* EV_RESET events and calls of clearing methods */
  uint32_t depth;
  bool parameters_carry; /* read every function's parameters as carrying */
  Flow *given;           /* the same flow with parameters_carry, made at first use */
};

static bool flow__clearing_method(const Facts *facts, const Event *call);

static int flow__node_order(const void *a, const void *b) {
  uint32_t left = ts_node_start_byte(*(const TSNode *)a), right = ts_node_start_byte(*(const TSNode *)b);
  return left < right ? -1 : left > right;
}

static void flow__collect(Flow *self) {
  const Facts *facts = self->facts;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = &facts->events.contents[i];
    Scope *scope = &self->scopes[event->function + 1];
    if (event->kind == EV_BACKWARD) {
      array_push(&scope->backwards, event);
      array_push(&self->backward_calls, event->node);
      text_map_mentions(&scope->mentioned, node_text(facts->source, event->node), 1);
      TSNode argument = call_positional(event->node, 0);
      TSNode on = ts_node_is_null(argument) ? call_receiver(event->node) : argument;
      text_map_mentions(&scope->backward_on, node_text(facts->source, on), ts_node_start_byte(event->node) + 1);
    }
    uint32_t reaches = event->kind == EV_CALL ? facts->functions.contents[event->callee].reaches
                       : event->kind == EV_EXTERNAL ? event->reaches : 0;
    if (reaches & REACH(EV_BACKWARD)) {
      array_push(&scope->trainers, event);
      text_map_mentions(&scope->mentioned, node_text(facts->source, node_field(event->node, F_ARGUMENTS)), 1);
    }
    if (event->kind == EV_RESET || (event->kind == EV_CALL && flow__clearing_method(facts, event))) {
      array_push(&self->clears, event);
    }
  }
  for (uint32_t i = 0; i < facts->assigns.size; i++) {
    array_push(&self->scopes[facts->assigns.contents[i].function + 1].edges, i);
  }
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = &facts->events.contents[i];
    if (event->kind == EV_STORE) array_push(&self->scopes[event->function + 1].edges, facts->assigns.size + i);
  }
  if (self->backward_calls.size > 1) {
    qsort(self->backward_calls.contents, self->backward_calls.size, sizeof(TSNode), flow__node_order);
  }
  uint32_t reach = 0;
  for (uint32_t i = 0; i < self->backward_calls.size; i++) {
    uint32_t end = ts_node_end_byte(self->backward_calls.contents[i]);
    if (end > reach) reach = end;
    array_push(&self->backward_reach, reach);
  }
}

Flow *flow_new(const Facts *facts) {
  Flow *self = gl_calloc(1, sizeof(Flow));
  self->facts = facts;
  self->assign_state = gl_calloc(facts->assigns.size + 1, 1);
  self->return_state = gl_calloc(facts->functions.size + 1, 1);
  self->element_state = gl_calloc(facts->functions.size + 1, ELEMENT_MEMO);
  self->scopes = gl_calloc(facts->functions.size + 1, sizeof(Scope));
  flow__collect(self);
  return self;
}

void flow_delete(Flow *self) {
  if (!self) return;
  free(self->assign_state);
  free(self->return_state);
  free(self->element_state);
  for (uint32_t i = 0; i <= self->facts->functions.size; i++) {
    Scope *scope = &self->scopes[i];
    array_delete(&scope->backwards);
    array_delete(&scope->trainers);
    text_map_delete(&scope->mentioned);
    text_map_delete(&scope->backward_on);
    array_delete(&scope->edges);
    text_map_delete(&scope->feeding);
    text_map_delete(&scope->fed_names);
  }
  free(self->scopes);
  array_delete(&self->backward_calls);
  array_delete(&self->backward_reach);
  array_delete(&self->clears);
  flow_delete(self->given);
  free(self);
}

static Carry flow__expression(Flow *self, TSNode node, int32_t function);

/* Methods whose result holds no graph. */
static const char *const STRIPPING_METHODS[] = {
    "item", "tolist", "numpy", "detach", "detach_", "argmax", "argmin", "size", "dim", "numel",
    "long", "int", "bool", "eq", "ne", "gt", "ge", "lt", "le", "isnan", "isinf", "isfinite",
    "nonzero", "count_nonzero", "all", "any", "backward", "data_ptr", "element_size", "nelement",
    "is_contiguous", "equal", "get_device", "stride", "storage", "zero_", "argsort", "name",
    "register_hook", "register_prehook", NULL};

/* Methods returning (values, indices): element 1 holds no graph. */
static const char *const VALUES_INDICES[] = {"max", "min", "topk", "sort", "kthvalue", "mode", "median", NULL};

/* Attributes whose value holds no graph. (`grad_fn` and `next_functions`
 * are the graph itself: they carry what their object carries; a node's
 * `name()` and a hook's handle do not.) */
static const char *const STRIPPING_ATTRIBUTES[] = {
    "data", "grad", "shape", "device", "dtype", "requires_grad", "is_cuda", "ndim", "is_leaf", NULL};

/* Builtins and library calls whose result holds no graph. */
static const char *const CLEAN_FUNCTIONS[] = {
    "float", "int", "len", "str", "bool", "round", "repr", "print", "isinstance", "type", "range",
    "enumerate", "zip", "id", "hash", "format", "open", "dict", "set", NULL};

/* torch functions without a gradient. */
static const char *const CLEAN_TORCH[] = {
    "argmax", "argmin", "no_grad", "eq", "ne", "equal", "isnan", "isinf", "randn", "rand", "randint",
    "zeros", "ones", "empty", "full", "tensor", "from_numpy", "arange", "linspace", "manual_seed", "save",
    "load", "numel", "is_tensor", "count_nonzero", "randperm", "zeros_like", "ones_like", "empty_like",
    "randn_like", "rand_like", "full_like", "as_tensor", "inference_mode", "device", "Size", "argsort",
    "bucketize", "searchsorted", "multinomial", "bincount", "histc", "unique", "one_hot", NULL};

/* ---- Names ---------------------------------------------------------------- */

static Carry flow__assign(Flow *self, const Assign *assign);

/* Whether a loop around `assign` also holds byte `at`: then `at` reads the
 * value the assignment made on the previous pass. */
static bool flow__same_loop(const Facts *facts, const Assign *assign, uint32_t at) {
  for (int32_t loop = assign->loop, steps = 0; loop >= 0 && steps < 64; loop = facts->loops.contents[loop].parent, steps++) {
    TSNode node = facts->loops.contents[loop].node;
    if (ts_node_start_byte(node) <= at && at < ts_node_end_byte(node)) return true;
  }
  return false;
}

/* The last plain (not subscript) assignment of `name` completed before
 * `at` in `function` (so `loss = loss.mean()` reads the earlier `loss`),
 * else the last one after it in a loop around `at` (a value from the
 * previous iteration); names are read in order, so a later loop's
 * `batch` is not an earlier one's. */
/* Whether `assign` plainly binds its name by `at`: a loop's target is
 * bound where its body starts. */
static uint32_t flow__bound(const Assign *assign) {
  TSNode statement = assign->statement;
  return node_is(statement, K_FOR_STATEMENT) ? ts_node_start_byte(node_field(statement, F_BODY))
                                             : ts_node_end_byte(statement);
}

static bool flow__bound_by(const Assign *assign, uint32_t at) { return !assign->subscript && flow__bound(assign) <= at; }

static const Assign *flow__definition(const Flow *self, Text name, int32_t function, uint32_t at) {
  /* an assignment bound by `at` starts before it: the last such one */
  const Assign *before = facts_assign_last_before(self->facts, name, function, at, flow__bound_by);
  if (before) return before;
  const Assign *last = NULL;
  AssignIter it = facts_assigns(self->facts, name, function);
  for (const Assign *assign; (assign = assign_iter_next(&it));) {
    if (assign->subscript) continue;
    if (flow__same_loop(self->facts, assign, at)) last = assign;
  }
  return last;
}

static bool flow__is_parameter(const Facts *facts, int32_t function, Text name) {
  if (function < 0) return false;
  for (uint32_t i = 0; i < 32; i++) {
    Text parameter = facts_parameter(facts, function, i);
    if (parameter.length == 0) return false;
    if (text_eq(parameter, name)) return true;
  }
  return false;
}

Carry flow_name_carries(Flow *self, Text name, int32_t function, uint32_t at) {
  const Assign *definition = flow__definition(self, name, function, at);
  if (!definition && function >= 0 && text_contains_ci(name, "self.")) {
    for (uint32_t i = 0; i < self->facts->functions.size && !definition; i++) {
      definition = flow__definition(self, name, (int32_t)i, UINT32_MAX);
    }
  }
  if (!definition && function >= 0) definition = flow__definition(self, name, -1, UINT32_MAX);
  if (definition) return flow__assign(self, definition);
  return self->parameters_carry && flow__is_parameter(self->facts, function, name) ? CARRY_EVIDENCE : CARRY_NONE;
}

static Carry flow__returns_element(Flow *self, int32_t function, uint8_t position);
static Carry flow__external_returns(Flow *self, TSNode call, uint8_t position, int32_t function);
static Carry flow__helper(Flow *self, TSNode call, int32_t helper, uint8_t position, int32_t function);
static bool flow__grad_on(const Flow *self, TSNode node, int32_t function);

/* The forward() method of this file's module class that `call` runs
 * (`model(x)` with `model = Net()`, `self(x)` in Net's methods), or -1. */
int32_t flow_forward_method(const Facts *facts, TSNode call, int32_t function) {
  if (roles_forward(facts, call, function) != ROLE_EVIDENCE) return -1;
  Text module = roles_forward_module(facts, call);
  int32_t class_index = -1;
  if (text_is(module, "self")) {
    class_index = facts_class_of_function(facts, function);
  } else {
    const Binding *instance = facts_binding(facts, BIND_INSTANCE, facts_canonical(facts, module));
    if (!instance || ts_node_is_null(instance->node)) return -1;
    TSNode callee = node_field(instance->node, F_FUNCTION);
    if (!node_is(callee, K_IDENTIFIER)) return -1;
    class_index = facts_class_named(facts, node_text(facts->source, callee));
  }
  for (uint32_t i = 0; class_index >= 0 && i < facts->functions.size; i++) {
    const Function *method = array_get(&facts->functions, i);
    if (method->class_index == class_index && text_is(method->name, "forward")) return (int32_t)i;
  }
  return -1;
}

/* `for seq, target in zip(outputs, labels)`, `for i, out in
 * enumerate(outputs)`: the iterable that the loop target `name` (inside
 * `pattern`) takes its items from: zip's argument at the target's
 * position, enumerate's iterable for its second item (a null node for its
 * count), the iterable itself otherwise. */
static TSNode flow__loop_source(const Source *source, TSNode pattern, TSNode iterable, Text name) {
  iterable = node_unparenthesize(iterable);
  bool zip = node_is(iterable, K_CALL) && text_is(call_function_text(source, iterable), "zip");
  bool enumerate = node_is(iterable, K_CALL) && text_is(call_function_text(source, iterable), "enumerate");
  if (node_is(pattern, K_IDENTIFIER) || (!zip && !enumerate)) return iterable;
  uint32_t count = ts_node_named_child_count(pattern);
  for (uint32_t i = 0; i < count; i++) {
    TSNode item = ts_node_named_child(pattern, i);
    if (!text_mentions(node_text(source, item), name)) continue;
    if (enumerate && i == 0) return (TSNode){0};
    TSNode inner = call_positional(iterable, enumerate ? 0 : i);
    return ts_node_is_null(inner) ? iterable : flow__loop_source(source, item, inner, name);
  }
  return iterable;
}

/* `a, b = value`: the element at the target's position when `value` is a
 * tuple or a same-file helper returning tuples (also through a name bound
 * to its call); else the whole value. */
static Carry flow__unpacked(Flow *self, const Assign *assign) {
  TSNode value = node_unparenthesize(assign->value);
  if (node_is(assign->statement, K_FOR_STATEMENT)) {
    TSNode source = flow__loop_source(self->facts->source, node_field(assign->statement, F_LEFT), value, assign->name);
    return ts_node_is_null(source) ? CARRY_NONE : flow__expression(self, source, assign->function);
  }
  if (assign->position == 1 && node_is(value, K_CALL) &&
      text_in(text_last_segment(call_function_text(self->facts->source, value)), VALUES_INDICES)) {
    return CARRY_NONE; /* _, predicted = torch.max(outputs, 1) */
  }
  if (assign->position != UNPACKED_DEEP) {
    if (node_is(value, K_TUPLE) || node_is(value, K_EXPRESSION_LIST)) {
      return flow__expression(self, ts_node_named_child(value, assign->position), assign->function);
    }
    if (node_is(value, K_IDENTIFIER)) { /* `result = helper(...)` then `a, n = result` */
      const Assign *bound = flow__definition(self, node_text(self->facts->source, value), assign->function,
                                             ts_node_start_byte(assign->statement));
      TSNode call = bound && !bound->unpacked && !bound->augmented ? node_unparenthesize(bound->value) : (TSNode){0};
      int32_t helper = node_is(call, K_CALL) ? facts_resolve_call(self->facts, call, assign->function) : -1;
      if (helper >= 0) return flow__helper(self, call, helper, assign->position, assign->function);
    }
    int32_t helper = node_is(value, K_CALL) ? facts_resolve_call(self->facts, value, assign->function) : -1;
    if (helper >= 0) return flow__helper(self, value, helper, assign->position, assign->function);
    int32_t forward = node_is(value, K_CALL) ? flow_forward_method(self->facts, value, assign->function) : -1;
    if (forward >= 0) { /* `out, aux, ratio = model(x)`: what forward() returns there */
      if (!flow__grad_on(self, value, assign->function)) return CARRY_NONE;
      return flow__returns_element(self, forward, assign->position);
    }
    Carry external =
        node_is(value, K_CALL) ? flow__external_returns(self, value, assign->position, assign->function) : CARRY_NAME;
    if (external != CARRY_NAME) return external;
  }
  return flow__expression(self, value, assign->function);
}

/* Whether a backward after the assignment runs on the name it binds
 * (`loss = some_module.get_loss(...)` then `loss.backward()`): whatever
 * the callee, that value carries a graph. */
static bool flow__backpropagated_later(const Flow *self, const Assign *assign) {
  const Facts *facts = self->facts;
  const Scope *scope = &self->scopes[assign->function + 1];
  uint32_t after = ts_node_end_byte(assign->statement);
  if (text_is_dotted_name(assign->name)) return text_map_get(&scope->backward_on, assign->name) > after;
  for (uint32_t i = 0; i < scope->backwards.size; i++) {
    const Event *event = scope->backwards.contents[i];
    if (ts_node_start_byte(event->node) < after) continue;
    /* `loss.backward()` runs on its receiver; `accelerator.backward(loss)`
     * and `engine.backward(loss)` on their argument */
    TSNode argument = call_positional(event->node, 0);
    TSNode on = ts_node_is_null(argument) ? call_receiver(event->node) : argument;
    if (text_mentions(node_text(facts->source, on), assign->name)) return true;
  }
  return false;
}

/* `loss, logits = model(x)` then `loss.backward()`: the call built a
 * graph, so its other results carry one too. For a function of this
 * file, whose returns say element by element what carries, only an
 * element they say carries by name (a loss of a model held in a
 * parameter: `coarse_loss` beside the `loss` that is backpropagated); an
 * abstract `compute_loss` that only raises says nothing: its overrides
 * return the stats detached or not. */
static bool flow__sibling_backpropagated(const Flow *self, const Assign *assign, Carry carries) {
  if (!assign->unpacked || !node_is(node_unparenthesize(assign->value), K_CALL)) return false;
  if (facts_resolve_call(self->facts, node_unparenthesize(assign->value), assign->function) >= 0 && carries != CARRY_NAME) {
    return false;
  }
  uint32_t first, end;
  facts_assigns_within(self->facts, assign->statement, &first, &end);
  if (first > 0 && ts_node_eq(self->facts->assigns.contents[first - 1].statement, assign->statement)) first--;
  for (uint32_t i = first; i < end && i < self->facts->assigns.size; i++) {
    const Assign *sibling = array_get(&self->facts->assigns, i);
    if (sibling == assign || !ts_node_eq(sibling->statement, assign->statement)) continue;
    if (flow__backpropagated_later(self, sibling)) return true;
  }
  return false;
}

static Carry flow__assign(Flow *self, const Assign *assign) {
  uint32_t index = (uint32_t)(assign - self->facts->assigns.contents);
  uint8_t state = self->assign_state[index];
  if (state >= DONE) return (Carry)(state - DONE);
  if (state == COMPUTING) return CARRY_NONE;
  self->assign_state[index] = COMPUTING;
  Carry carries = assign->unpacked ? flow__unpacked(self, assign)
                                   : flow__expression(self, assign->value, assign->function);
  if (carries < CARRY_EVIDENCE && !assign->augmented && !assign->subscript &&
      (flow__backpropagated_later(self, assign) || flow__sibling_backpropagated(self, assign, carries))) {
    carries = CARRY_EVIDENCE;
  }
  if (carries < CARRY_EVIDENCE && assign->augmented) {
    const Assign *previous = flow__definition(self, assign->name, assign->function, ts_node_start_byte(assign->statement));
    if (previous && previous != assign) carries = flow__max(carries, flow__assign(self, previous));
  }
  self->assign_state[index] = (uint8_t)(DONE + carries);
  return carries;
}

/* ---- What reaches a backward --------------------------------------------- */

/* A backward's call, or the arguments of a helper that backpropagates
 * (`d_loss = train_discriminator(D, real, fake)`), names `name`. */
static bool flow__mentioned_by_backward(const Flow *self, Text name, int32_t function) {
  const Scope *scope = &self->scopes[function + 1];
  if (text_is_dotted_name(name)) return text_map_get(&scope->mentioned, name) != 0;
  for (uint32_t i = 0; i < scope->backwards.size; i++) {
    if (text_mentions(node_text(self->facts->source, scope->backwards.contents[i]->node), name)) return true;
  }
  for (uint32_t i = 0; i < scope->trainers.size; i++) {
    const Event *event = scope->trainers.contents[i];
    if (text_mentions(node_text(self->facts->source, node_field(event->node, F_ARGUMENTS)), name)) return true;
  }
  return false;
}

static bool flow__feeding(const Scope *scope, Text name) { return text_map_get(&scope->feeding, name) != 0; }

/* An edge `target <- value`: an assignment or a store. */
static void flow__edge(const Flow *self, uint32_t index, Text *target, Text *value) {
  const Facts *facts = self->facts;
  if (index < facts->assigns.size) {
    const Assign *assign = array_get(&facts->assigns, index);
    *target = assign->name;
    *value = node_text(facts->source, assign->value);
    return;
  }
  const Event *event = array_get(&facts->events, index - facts->assigns.size);
  *target = event->target;
  *value = node_text(facts->source, node_field(event->node, F_ARGUMENTS));
}

/* Marks `target` as reaching a backward. */
static void flow__feed(Scope *scope, Text target) {
  *text_map_at(&scope->feeding, target) = 1;
  scope->feeding_count++;
}

/* Whether the value of a target that reaches a backward mentions `name`. */
static bool flow__fed(const Flow *self, const Scope *scope, Text name) {
  if (text_is_dotted_name(name)) return text_map_get(&scope->fed_names, name) != 0;
  Text target, value;
  for (uint32_t i = 0; i < scope->edges.size; i++) {
    flow__edge(self, scope->edges.contents[i], &target, &value);
    if (flow__feeding(scope, target) && text_mentions(value, name)) return true;
  }
  return false;
}

/* The names of `function` that reach a backward, to a fixed point: names a
 * backward mentions, then targets that a feeding target's value mentions;
 * built once per function over its own assignments and stores. */
static void flow__build_feeding(Flow *self, int32_t function) {
  Scope *scope = &self->scopes[function + 1];
  scope->built = true;
  Text target, value;
  /* a target's edges, by target, for entering the values of new feeding targets */
  TextMap first = {0}; /* target -> 1 + the index in `edges` of its first edge */
  Array(uint32_t) next = {0};
  for (uint32_t i = 0; i < scope->edges.size; i++) array_push(&next, UINT32_MAX);
  TextMap last = {0};
  for (uint32_t i = 0; i < scope->edges.size; i++) {
    flow__edge(self, scope->edges.contents[i], &target, &value);
    uint32_t *head = text_map_at(&first, target);
    if (*head == 0) *head = i + 1;
    uint32_t *tail = text_map_at(&last, target);
    if (*tail) next.contents[*tail - 1] = i;
    *tail = i + 1;
  }
  text_map_delete(&last);
#define FLOW_FEED(name)                                                                  \
  do {                                                                                   \
    flow__feed(scope, name);                                                             \
    for (uint32_t k = text_map_get(&first, name); k && k - 1 != UINT32_MAX;) {           \
      Text t_, v_;                                                                       \
      flow__edge(self, scope->edges.contents[k - 1], &t_, &v_);                          \
      text_map_mentions(&scope->fed_names, v_, 1);                                       \
      k = next.contents[k - 1] == UINT32_MAX ? 0 : next.contents[k - 1] + 1;             \
    }                                                                                    \
  } while (0)
  for (uint32_t i = 0; i < scope->edges.size; i++) {
    flow__edge(self, scope->edges.contents[i], &target, &value);
    if (!flow__feeding(scope, target) && flow__mentioned_by_backward(self, target, function)) FLOW_FEED(target);
  }
  for (uint32_t pass = 0, changed = 1; changed && pass < 8 && scope->feeding_count < 256; pass++) {
    changed = 0;
    for (uint32_t i = 0; i < scope->edges.size; i++) {
      flow__edge(self, scope->edges.contents[i], &target, &value);
      if (flow__feeding(scope, target)) continue;
      if (flow__fed(self, scope, target)) {
        FLOW_FEED(target);
        changed = 1;
      }
    }
  }
#undef FLOW_FEED
  text_map_delete(&first);
  array_delete(&next);
}

bool flow_feeds_backward(Flow *self, Text name, int32_t function) {
  if (flow__mentioned_by_backward(self, name, function)) return true;
  Scope *scope = &self->scopes[function + 1];
  if (!scope->built) flow__build_feeding(self, function);
  return flow__fed(self, scope, name);
}

bool flow_node_feeds_backward(Flow *self, TSNode node, int32_t function) {
  /* the backwards that start at or before `node`, back while one of them
   * could still reach past its end */
  uint32_t low = 0, high = self->backward_calls.size, start = ts_node_start_byte(node), stop = ts_node_end_byte(node);
  while (low < high) {
    uint32_t mid = (low + high) / 2;
    if (ts_node_start_byte(self->backward_calls.contents[mid]) <= start) low = mid + 1;
    else high = mid;
  }
  for (uint32_t i = low; i-- > 0 && self->backward_reach.contents[i] >= stop;) {
    if (node_contains(self->backward_calls.contents[i], node)) return true;
  }
  const Facts *facts = self->facts;
  TSNode at = node;
  for (int steps = 0; steps < MAX_ASCENT && !ts_node_is_null(at); steps++, at = ts_node_parent(at)) {
    Kind kind = node_kind(at);
    if (kind == K_ASSIGNMENT || kind == K_AUGMENTED_ASSIGNMENT) break;
    if (kind == K_BLOCK || kind == K_MODULE) return false;
  }
  if (ts_node_is_null(at) || !(node_is(at, K_ASSIGNMENT) || node_is(at, K_AUGMENTED_ASSIGNMENT))) {
    for (uint32_t i = 0; i < facts->events.size; i++) {
      const Event *event = array_get(&facts->events, i);
      if (event->kind == EV_STORE && node_contains(event->node, node)) return flow_feeds_backward(self, event->target, function);
    }
    return false;
  }
  uint32_t first, end;
  facts_assigns_within(facts, at, &first, &end);
  if (first > 0 && ts_node_eq(facts->assigns.contents[first - 1].statement, at)) first--;
  for (uint32_t i = first; i < end && i < facts->assigns.size; i++) {
    const Assign *assign = array_get(&facts->assigns, i);
    if (ts_node_eq(assign->statement, at) && flow_feeds_backward(self, assign->name, function)) return true;
  }
  return false;
}

/* ---- Helpers' return values ----------------------------------------------- */

/* Whether a return under `node` (outside nested functions) gives a value
 * that carries; with `position` < UNPACKED_DEEP, only that element of
 * returned tuples. */
static Carry flow__returns_in(Flow *self, TSNode node, int32_t function, uint8_t position) {
  if (self->depth >= MAX_DEPTH) return CARRY_NONE;
  Carry carries = CARRY_NONE;
  uint32_t count = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < count; i++) {
    TSNode child = ts_node_named_child(node, i);
    Kind kind = node_kind(child);
    if (kind == K_FUNCTION_DEFINITION || kind == K_CLASS_DEFINITION || kind == K_LAMBDA) continue;
    if (kind == K_RETURN_STATEMENT && ts_node_named_child_count(child) > 0) {
      TSNode value = node_unparenthesize(ts_node_named_child(child, 0));
      bool tuple = node_is(value, K_TUPLE) || node_is(value, K_EXPRESSION_LIST);
      if (tuple && position != UNPACKED_DEEP) value = ts_node_named_child(value, position);
      carries = flow__max(carries, flow__expression(self, value, function));
      if (carries == CARRY_EVIDENCE) return carries;
      continue;
    }
    self->depth++;
    carries = flow__max(carries, flow__returns_in(self, child, function, position));
    self->depth--;
    if (carries == CARRY_EVIDENCE) return carries;
  }
  return carries;
}

/* Whether a same-file function returns a value that carries a graph. */
static Carry flow__returns(Flow *self, int32_t function) {
  uint8_t state = self->return_state[function];
  if (state >= DONE) return (Carry)(state - DONE);
  if (state == COMPUTING) return CARRY_NONE;
  self->return_state[function] = COMPUTING;
  TSNode body = node_field(self->facts->functions.contents[function].node, F_BODY);
  Carry carries = flow__returns_in(self, body, function, UNPACKED_DEEP);
  self->return_state[function] = (uint8_t)(DONE + carries);
  return carries;
}

static Carry flow__returns_element(Flow *self, int32_t function, uint8_t position) {
  TSNode body = node_field(self->facts->functions.contents[function].node, F_BODY);
  if (position >= ELEMENT_MEMO) return flow__returns_in(self, body, function, position);
  uint8_t *state = &self->element_state[function][position];
  if (*state >= DONE) return (Carry)(*state - DONE);
  if (*state == COMPUTING) return CARRY_NONE;
  *state = COMPUTING;
  Carry carries = flow__returns_in(self, body, function, position);
  self->element_state[function][position] = (uint8_t)(DONE + carries);
  return carries;
}

/* What a helper returns when its parameters carry: `def compute_loss(out,
 * y): return F.cross_entropy(out, y)` returns a graph when `out` has one. */
static Flow *flow__given(Flow *self) {
  if (!self->given) {
    self->given = flow_new(self->facts);
    self->given->parameters_carry = true;
  }
  return self->given;
}

static Carry flow__returns_given(Flow *self, int32_t helper, uint8_t position) {
  Flow *given = flow__given(self);
  return position == UNPACKED_DEEP ? flow__returns(given, helper) : flow__returns_element(given, helper, position);
}

static Carry flow__any_argument(Flow *self, TSNode call, int32_t function);

/* A call of a helper of this file: what it returns, or, when that depends
 * on its arguments, what they carry. */
static Carry flow__helper(Flow *self, TSNode call, int32_t helper, uint8_t position, int32_t function) {
  Carry returns = position == UNPACKED_DEEP ? flow__returns(self, helper) : flow__returns_element(self, helper, position);
  if (returns == CARRY_EVIDENCE || self->parameters_carry) return returns;
  if (flow__returns_given(self, helper, position) != CARRY_EVIDENCE) return returns;
  return flow__max(returns, flow__any_argument(self, call, function));
}

/* ---- Calls ------------------------------------------------------------------ */

static Carry flow__any_argument(Flow *self, TSNode call, int32_t function) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  uint32_t count = ts_node_named_child_count(arguments);
  Carry carries = CARRY_NONE;
  for (uint32_t i = 0; i < count && carries < CARRY_EVIDENCE; i++) {
    carries = flow__max(carries, flow__expression(self, ts_node_named_child(arguments, i), function));
  }
  return carries;
}

static bool flow__grad_on(const Flow *self, TSNode node, int32_t function) {
  return facts_grad_mode_at(self->facts, node, function) == GRAD_ON;
}

/* A call of torch, torch.nn.functional, numpy or math, by qualified name;
 * returns -1 when the callee is none of them. */
static int flow__library_call(Flow *self, TSNode call, int32_t function) {
  /* `torch.stack(losses).sum()` is a method of what torch returned */
  if (!text_is_dotted_name(node_text(self->facts->source, node_field(call, F_FUNCTION)))) return -1;
  char buffer[160];
  const char *qualified = facts_qualify(self->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  if (strncmp(qualified, "numpy.", 6) == 0 || strncmp(qualified, "np.", 3) == 0 ||
      strncmp(qualified, "math.", 5) == 0 || strncmp(qualified, "statistics.", 11) == 0) {
    return 0;
  }
  if (strncmp(qualified, "torch.", 6) != 0) return -1;
  Text last = text_last_segment((Text){qualified, (uint32_t)strlen(qualified)});
  if (text_in(last, CLEAN_TORCH) || strncmp(qualified, "torch.cuda.", 11) == 0) return 0;
  if (strcmp(qualified, "torch.autograd.grad") == 0) { /* gradients, with a graph only under create_graph=True */
    TSNode create = call_keyword(self->facts->source, call, "create_graph");
    return !ts_node_is_null(create) && !text_is(node_text(self->facts->source, create), "False") ? CARRY_EVIDENCE
                                                                                                : CARRY_NONE;
  }
  if (roles_loss_function(last)) { /* F.cross_entropy(out, y): as its inputs; unknown inputs, only by name */
    if (!flow__grad_on(self, call, function)) return CARRY_NONE;
    Carry inputs = flow__any_argument(self, call, function);
    return inputs != CARRY_NONE ? inputs : CARRY_NAME;
  }
  return (int)flow__any_argument(self, call, function);
}

/* ContentLoss(target), nn.MSELoss(): building a loss module, not a loss. */
static bool flow__constructor(const Flow *self, TSNode call) {
  TSNode callee = node_field(call, F_FUNCTION);
  if (!node_is(callee, K_IDENTIFIER) && !node_is(callee, K_ATTRIBUTE)) return false;
  return text_capitalized(text_last_segment(node_text(self->facts->source, callee)));
}

/* A loss computed with grad on carries a graph: on evidence when it is
 * handed a tensor with one, else only by its name, except a helper whose
 * name says it reports a number (`get_epoch_loss(device, loader)`). */
static Carry flow__loss(Flow *self, TSNode call, int32_t function) {
  if (flow__constructor(self, call) || !flow__grad_on(self, call, function)) return CARRY_NONE;
  Carry carries = flow__any_argument(self, call, function);
  if (carries != CARRY_NONE) return carries;
  Text last = text_last_segment(call_function_text(self->facts->source, call));
  static const char *const REPORTERS[] = {"get_", "avg_", "mean_", "eval_", "evaluate_", "log_", "print_", NULL};
  return text_starts_with_any(last, REPORTERS) ? CARRY_NONE : CARRY_NAME;
}

/* Whether RETURNS_* bits `returns` say `bit` carries: the element itself,
 * or the whole value when it is not returned as a literal tuple. */
static bool flow__has_return(uint32_t returns, uint32_t bit) {
  if (returns & bit) return true;
  return bit != RETURNS_WHOLE && !(returns & ~RETURNS_WHOLE) && (returns & RETURNS_WHOLE);
}

/* A call of another file's function: what its summary says it returns
 * (`position`: an element of a returned tuple, UNPACKED_DEEP: the
 * whole; a value computed from its arguments, `psnr(out, y)`, as they
 * carry in `function`, where the call is); CARRY_NAME when it is no
 * function of the project. */
static Carry flow__external_returns(Flow *self, TSNode call, uint8_t position, int32_t function) {
  const Facts *facts = self->facts;
  if (!facts->elsewhere) return CARRY_NAME;
  char buffer[256];
  const char *qualified = facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
  ElsewhereFunction linked;
  if (!elsewhere_function(facts->elsewhere, (Text){qualified, (uint32_t)strlen(qualified)}, &linked)) {
    /* `trainer.train_step(x)` on an instance of another file's class:
     * that class's method */
    if (!facts_instance_method(facts, call, buffer, sizeof buffer) ||
        !elsewhere_function(facts->elsewhere, (Text){buffer, (uint32_t)strlen(buffer)}, &linked)) {
      return CARRY_NAME;
    }
  }
  uint32_t bit = position == UNPACKED_DEEP || position >= SUMMARY_MAX_PARAMETERS ? RETURNS_WHOLE : RETURNS_ELEMENT(position);
  if (bit != RETURNS_WHOLE && (linked.plain_returns & bit)) return CARRY_NONE; /* `return loss, 0.5` */
  if (flow__has_return(linked.returns, bit)) return CARRY_EVIDENCE;
  if (flow__has_return(linked.returns_given_arguments, bit)) return flow__any_argument(self, call, function);
  return CARRY_NONE;
}

/* A forward carries with grad on, unless its module is frozen. */
static Carry flow__forward(Flow *self, TSNode call, int32_t function, Role role) {
  const Facts *facts = self->facts;
  if (!flow__grad_on(self, call, function) || roles_frozen(facts, roles_forward_module(facts, call))) return CARRY_NONE;
  return role == ROLE_EVIDENCE ? CARRY_EVIDENCE : CARRY_NAME;
}

static Carry flow__call(Flow *self, TSNode call, int32_t function) {
  const Facts *facts = self->facts;
  Text callee = call_function_text(facts->source, call);
  Text method = call_method_name(facts->source, call);
  int library = flow__library_call(self, call, function);
  if (library >= 0) return (Carry)library;
  int32_t helper = facts_resolve_call(facts, call, function);
  if (helper >= 0) return flow__helper(self, call, helper, UNPACKED_DEEP, function);
  Carry external = flow__external_returns(self, call, UNPACKED_DEEP, function);
  if (external != CARRY_NAME) return external;
  if (roles_loss_function(callee) || roles_loss_function(roles_forward_module(facts, call))) {
    return flow__loss(self, call, function); /* `criterion(out, y)`, `criterion.forward(out, y)` */
  }
  Role role = roles_forward(facts, call, function);
  if (role != ROLE_NONE) return flow__forward(self, call, function, role);
  if (method.length == 0) {
    if (text_in(callee, CLEAN_FUNCTIONS)) return CARRY_NONE;
    bool reducing = text_is(callee, "sum") || text_is(callee, "max") || text_is(callee, "min") || text_is(callee, "abs") ||
                    text_is(callee, "tuple") || text_is(callee, "list") || text_is(callee, "sorted");
    if (reducing) return flow__any_argument(self, call, function);
    /* a function from elsewhere handed a graph may return one: only its name can say */
    return flow__any_argument(self, call, function) != CARRY_NONE ? CARRY_NAME : CARRY_NONE;
  }
  if (text_in(method, STRIPPING_METHODS)) return CARRY_NONE;
  Carry receiver = flow__expression(self, call_receiver(call), function);
  static const char *const COLLECTIVES[] = {"gather", "reduce", "gather_for_metrics", "pad_across_processes",
                                            "all_gather", "all_reduce", NULL};
  if (receiver == CARRY_NONE && text_in(method, COLLECTIVES)) { /* accelerator.gather(loss) is loss, gathered */
    return flow__expression(self, call_positional(call, 0), function);
  }
  return receiver;
}

/* `out.max(1)[1]`, `torch.topk(out, 5)[1]`: the indices of a
 * (values, indices) pair. */
static bool flow__indices(const Flow *self, TSNode value, TSNode index) {
  if (!node_is(value, K_CALL) || !text_is(node_text(self->facts->source, index), "1")) return false;
  Text callee = text_last_segment(call_function_text(self->facts->source, value));
  return text_in(callee, VALUES_INDICES);
}

/* ---- Expressions ------------------------------------------------------------- */

static Carry flow__any_child(Flow *self, TSNode node, int32_t function, uint32_t skip_index) {
  uint32_t count = ts_node_named_child_count(node);
  Carry carries = CARRY_NONE;
  for (uint32_t i = 0; i < count && carries < CARRY_EVIDENCE; i++) {
    if (i == skip_index) continue;
    carries = flow__max(carries, flow__expression(self, ts_node_named_child(node, i), function));
  }
  return carries;
}

static Carry flow__attribute(Flow *self, TSNode node, int32_t function) {
  const Source *source = self->facts->source;
  if (text_in(node_text(source, node_field(node, F_ATTRIBUTE)), STRIPPING_ATTRIBUTES)) return CARRY_NONE;
  Carry carries = flow_name_carries(self, node_text(source, node), function, ts_node_start_byte(node));
  if (carries == CARRY_EVIDENCE) return carries;
  TSNode object = node_field(node, F_OBJECT);
  if (text_is(node_text(source, object), "self")) return carries;
  return flow__max(carries, flow__expression(self, object, function));
}

static Carry flow__dispatch(Flow *self, TSNode node, int32_t function) {
  switch (node_kind(node)) {
    case K_IDENTIFIER:
      return flow_name_carries(self, node_text(self->facts->source, node), function, ts_node_start_byte(node));
    case K_ATTRIBUTE: return flow__attribute(self, node, function);
    case K_CALL: return flow__call(self, node, function);
    case K_BINARY_OPERATOR:
    case K_BOOLEAN_OPERATOR:
      return flow__max(flow__expression(self, node_field(node, F_LEFT), function),
                       flow__expression(self, node_field(node, F_RIGHT), function));
    case K_UNARY_OPERATOR:
    case K_PARENTHESIZED_EXPRESSION:
    case K_TUPLE:
    case K_LIST:
    case K_EXPRESSION_LIST:
    case K_DICTIONARY:
      return flow__any_child(self, node, function, UINT32_MAX);
    case K_PAIR:
    case K_KEYWORD_ARGUMENT:
    case K_NAMED_EXPRESSION: return flow__expression(self, node_field(node, F_VALUE), function);
    case K_SUBSCRIPT:
      if (flow__indices(self, node_field(node, F_VALUE), ts_node_named_child(node, 1))) return CARRY_NONE;
      return flow__expression(self, node_field(node, F_VALUE), function);
    case K_CONDITIONAL_EXPRESSION: return flow__any_child(self, node, function, 1);
    case K_LIST_COMPREHENSION:
    case K_GENERATOR_EXPRESSION: return flow__expression(self, node_field(node, F_BODY), function);
    default: return CARRY_NONE;
  }
}

static Carry flow__expression(Flow *self, TSNode node, int32_t function) {
  if (ts_node_is_null(node) || self->depth >= MAX_DEPTH) return CARRY_NONE;
  self->depth++;
  Carry carries = flow__dispatch(self, node, function);
  self->depth--;
  return carries;
}

Carry flow_carries(Flow *self, TSNode expression, int32_t function) {
  return self->facts->uses_torch ? flow__expression(self, expression, function) : CARRY_NONE;
}

Carry flow_returns(Flow *self, int32_t function, uint8_t position) {
  if (position == UNPACKED_DEEP) return flow__returns(self, function);
  return flow__returns_element(self, function, position);
}

Carry flow_returns_given_arguments(Flow *self, int32_t function, uint8_t position) {
  return flow__returns_given(self, function, position);
}

/* ---- Parameters kept ---------------------------------------------------------- */

/* Whether `value` (text in `function`) mentions the parameter `name`, or
 * a loop target that takes its items from it (`v` in `for i, v in
 * enumerate(values)`). */
static bool flow__mentions_parameter(const Flow *self, int32_t function, Text name, Text value) {
  if (text_mentions(value, name)) return true;
  const Facts *facts = self->facts;
  uint32_t first, end;
  facts_assigns_within(facts, facts->functions.contents[function].node, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Assign *loop = array_get(&facts->assigns, i);
    if (loop->function != function || !node_is(loop->statement, K_FOR_STATEMENT) || !text_mentions(value, loop->name)) {
      continue;
    }
    TSNode source = flow__loop_source(facts->source, node_field(loop->statement, F_LEFT), loop->value, loop->name);
    if (!ts_node_is_null(source) && text_mentions(node_text(facts->source, source), name)) return true;
  }
  return false;
}

/* `self.sum += val * n`, `self.values.append(val)`, `for v in values:
 * self.sums[i] += v`: whether `function` keeps its parameter `name` past
 * the call without stripping it. */
bool flow_keeps_parameter(Flow *self, int32_t function, Text name) {
  const Facts *facts = self->facts;
  uint32_t first, end;
  TSNode node = facts->functions.contents[function].node;
  facts_assigns_within(facts, node, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Assign *assign = array_get(&facts->assigns, i);
    if (assign->function != function || !assign->augmented || !text_contains_ci(assign->name, "self.")) continue;
    Text value = node_text(facts->source, assign->value);
    if (text_contains_ci(value, "item()") || text_contains_ci(value, "float(") || text_contains_ci(value, "detach")) continue;
    if (!flow__mentions_parameter(self, function, name, value)) continue;
    /* `pred = pred.argmax(1)` before `self.hist += bincount(pred)`: rebound stripped */
    const Assign *rebound = flow__definition(self, name, function, ts_node_start_byte(assign->statement));
    if (rebound && rebound != assign && flow__assign(flow__given(self), rebound) == CARRY_NONE) continue;
    return true;
  }
  facts_events_within(facts, node, &first, &end);
  for (uint32_t i = first; i < end; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->kind != EV_STORE || event->function != function) continue;
    TSNode stored = call_positional(event->node, 0);
    if (text_eq(node_text(facts->source, stored), name) && !flow_container_emptied(self, event->target, (TSNode){0})) return true;
  }
  return false;
}

/* `memory.clear()`, `buffer.reset()` where the class of this file defines
 * that method. */
static bool flow__clearing_method(const Facts *facts, const Event *call) {
  Text name = facts->functions.contents[call->callee].name;
  return text_is(name, "clear") || text_is(name, "reset") || text_is(name, "clear_memory");
}

/* `items.clear()`, `del items[:]` anywhere in the file (or the clearing
 * of an object that owns it: `memory.clear()` for `memory.rewards`), or an
 * attribute container emptied by a method other than __init__. Resets
 * under an if within `periodic` (a null node: none) do not count. */
bool flow_container_emptied(Flow *self, Text name, TSNode periodic) {
  const Facts *facts = self->facts;
  Text bare = text_strip_self(name);
  for (uint32_t i = 0; i < self->clears.size; i++) {
    const Event *event = self->clears.contents[i];
    if (!ts_node_is_null(periodic) && node_contains(periodic, event->node) && node_under_if(event->node, periodic)) {
      continue; /* `if step % 50 == 0: running.clear()` keeps up to 50 steps */
    }
    if (event->kind == EV_RESET && text_owns(text_strip_self(event->target), bare)) return true;
    if (event->kind == EV_CALL && flow__clearing_method(facts, event) &&
        text_owns(text_strip_self(node_text(facts->source, call_receiver(event->node))), bare)) {
      return true;
    }
  }
  if (!text_contains_ci(name, "self.")) return false;
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    if (text_is(facts->functions.contents[i].name, "__init__")) continue;
    AssignIter it = facts_assigns(facts, name, (int32_t)i);
    for (const Assign *assign; (assign = assign_iter_next(&it));) {
      Text value = node_text(facts->source, assign->value);
      if (text_is(value, "[]") || text_is(value, "{}") || text_is(value, "list()") || text_is(value, "dict()")) return true;
    }
  }
  return false;
}
