/* roles.c — modules, forwards, losses and frozen parts, from evidence. */
#include "roles.h"

#include <string.h>
#include <strings.h>

#include "elsewhere.h"
#include "facts.h"

/* Bindings are followed this many steps (`model = Net()`, `model =
 * model.to(device)`, `ddp = DDP(model)`). */
#define ROLES_MAX_DEPTH 8

/* Where one question asks several (each call of a helper, each of its
 * returns), it asks at most this many, and each counts as several steps
 * of ROLES_MAX_DEPTH: the questions stay few on any input. */
#define ROLES_MAX_BRANCHES 8


/* -1: the code does not say; else a Role. */
typedef int RoleOrUnknown;
#define ROLE_UNKNOWN (-1)

static Role roles__module(const Facts *facts, Text name, int32_t function, int depth);

static bool roles__starts(Text text, const char *prefix) {
  size_t length = strlen(prefix);
  return text.length >= length && memcmp(text.ptr, prefix, length) == 0;
}

/* An answer of another file (elsewhere.h) or of a library's name
 * (roles_names.h) as a role shown by evidence, none, or unknown. */
static RoleOrUnknown roles__of_answer(int answer) {
  return answer == ANSWER_YES ? ROLE_EVIDENCE : answer == ANSWER_NO ? ROLE_NONE : ROLE_UNKNOWN;
}

/* roles_library_constructor as a role. */
static RoleOrUnknown roles__library_constructor(Text qualified) {
  return roles__of_answer(roles_library_constructor(qualified));
}

/* ---- Constructors ------------------------------------------------------------------ */

static RoleOrUnknown roles__value(const Facts *facts, TSNode value, int32_t function, int depth);

/* What a same-file factory (`def get_model(): return Net()`) returns. */
static RoleOrUnknown roles__factory(const Facts *facts, int32_t factory, int depth) {
  RoleOrUnknown role = ROLE_UNKNOWN;
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *entry = array_get(&facts->returns, i);
    if (entry->function != factory) continue;
    RoleOrUnknown here = roles__value(facts, entry->value, factory, depth + 1);
    if (here == ROLE_EVIDENCE) return ROLE_EVIDENCE;
    if (here == ROLE_NONE) role = ROLE_NONE;
  }
  return role;
}

/* A class of this file, or of the project through its imports. */
static RoleOrUnknown roles__constructor(const Facts *facts, TSNode call, int32_t function, int depth);

/* A module class of this file whose bases are torch's and whose __init__
 * builds no layer with parameters and no nn.Parameter (a bin decoder over
 * a buffer): its forwards record no graph of their own. */
static bool roles__parameterless_class(const Facts *facts, int32_t class_index, int depth) {
  TSNode bases = node_field(facts->classes.contents[class_index].node, F_SUPERCLASSES);
  for (uint32_t i = 0; !ts_node_is_null(bases) && i < ts_node_named_child_count(bases); i++) {
    char buffer[160];
    const char *base = facts_qualify(facts, ts_node_named_child(bases, i), buffer, sizeof buffer);
    if (strcmp(base, "torch.nn.Module") != 0 && strcmp(base, "nn.Module") != 0) return false;
  }
  bool has_init = false;
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *method = array_get(&facts->functions, i);
    if (method->class_index != class_index || !text_is(method->name, "__init__")) continue;
    has_init = true;
    uint32_t first, end;
    facts_assigns_within(facts, method->node, &first, &end);
    for (uint32_t j = first; j < end; j++) {
      const Assign *assign = array_get(&facts->assigns, j);
      TSNode value = node_unparenthesize(assign->value);
      if (assign->function != (int32_t)i || !node_is(value, K_CALL)) continue;
      if (text_contains_ci(call_function_text(facts->source, value), "Parameter")) return false;
      /* its layers, shallowly; deeper when reached from a deep question (a class whose __init__ builds itself) */
      RoleOrUnknown role = roles__constructor(facts, value, (int32_t)i, depth + 1 > ROLES_MAX_DEPTH - 2 ? depth + 1 : ROLES_MAX_DEPTH - 2);
      static const char *const BUILTINS[] = {"float", "int", "bool", "str", "len", "range", "list", "tuple",
                                             "dict", "set", "round", "min", "max", "abs", NULL};
      if (role == ROLE_EVIDENCE || (role == ROLE_UNKNOWN && !text_in(call_function_text(facts->source, value), BUILTINS))) {
        return false; /* a layer, or something the code cannot tell */
      }
    }
  }
  return has_init;
}

static RoleOrUnknown roles__class(const Facts *facts, Text qualified, Text last, int depth) {
  int32_t class_index = facts_class_named(facts, last);
  if (class_index >= 0 && text_eq(last, qualified)) {
    if (!facts->classes.contents[class_index].is_module || roles__parameterless_class(facts, class_index, depth)) return ROLE_NONE;
    return ROLE_EVIDENCE;
  }
  switch (elsewhere_defines(facts->elsewhere, qualified)) {
  case DEFINES_NOTHING:
    return class_index >= 0 && facts->classes.contents[class_index].is_module ? ROLE_EVIDENCE : ROLE_UNKNOWN;
  case DEFINES_MODULE_CLASS: return ROLE_EVIDENCE;
  case DEFINES_CLASS: return ROLE_NONE;
  default: return ROLE_UNKNOWN; /* a factory in another file */
  }
}



/* `Net()`, `Net().to(device)`, `DDP(model)`, `get_model()`. */
static RoleOrUnknown roles__constructor(const Facts *facts, TSNode call, int32_t function, int depth) {
  if (depth > ROLES_MAX_DEPTH) return ROLE_UNKNOWN;
  Text method = call_method_name(facts->source, call);
  if (roles_returns_receiver(method)) return roles__value(facts, call_receiver(call), function, depth + 1);
  char buffer[192];
  Text qualified = {facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  Text last = text_last_segment(qualified);
  if (text_is(method, "prepare") && call_positional_count(call) == 1) {
    return roles__value(facts, call_positional(call, 0), function, depth + 1);
  }
  RoleOrUnknown role = roles__library_constructor(qualified);
  if (role != ROLE_UNKNOWN) return role;
  role = roles__class(facts, qualified, last, depth);
  if (role != ROLE_UNKNOWN) return role;
  int32_t factory = facts_resolve_call(facts, call, function);
  if (factory >= 0) return roles__factory(facts, factory, depth);
  return ROLE_UNKNOWN;
}

static RoleOrUnknown roles__value(const Facts *facts, TSNode value, int32_t function, int depth) {
  if (depth > ROLES_MAX_DEPTH || ts_node_is_null(value)) return ROLE_UNKNOWN;
  value = node_unparenthesize(value);
  if (node_is(value, K_CALL)) return roles__constructor(facts, value, function, depth);
  if (node_is(value, K_IDENTIFIER) || node_is(value, K_ATTRIBUTE)) {
    Role role = roles__module(facts, node_text(facts->source, value), function, depth + 1);
    return role == ROLE_EVIDENCE ? ROLE_EVIDENCE : ROLE_UNKNOWN;
  }
  /* `checkpoint["decoder"]`: an entry of a container holds anything; its use tells */
  return node_is(value, K_SUBSCRIPT) ? ROLE_UNKNOWN : ROLE_NONE;
}

/* `model, opt, loader = accelerator.prepare(model, opt, loader)`: each
 * target is what the argument at its position is. */
static RoleOrUnknown roles__prepared(const Facts *facts, Text name, int32_t function, int depth) {
  if (!facts->has_prepare) return ROLE_UNKNOWN;
  for (int32_t scope = function;; scope = -1) {
    AssignIter it = facts_assigns(facts, name, scope);
    for (const Assign *assign; (assign = assign_iter_next(&it));) {
      TSNode value = node_unparenthesize(assign->value);
      if (!assign->unpacked || assign->position == UNPACKED_DEEP || !node_is(value, K_CALL)) continue;
      if (!text_is(call_method_name(facts->source, value), "prepare")) continue;
      return roles__value(facts, call_positional(value, assign->position), function, depth + 1);
    }
    if (scope < 0) return ROLE_UNKNOWN;
  }
}

/* The argument of `call` that the target at `position` of an assignment
 * from it (`unpacked`: one of `a, b = call`) is a wrapper of; a null node
 * when the call wraps no module there. */
static TSNode roles__wrapped_argument(const Facts *facts, TSNode call, bool unpacked, uint32_t position) {
  static const char *const WRAPPERS[] = {"DataParallel", "DistributedDataParallel", "DDP",
                                         "FullyShardedDataParallel", "FSDP", NULL};
  char buffer[192];
  Text qualified = {facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  Text last = text_last_segment(qualified);
  if (text_is(call_method_name(facts->source, call), "prepare")) {
    return unpacked || call_positional_count(call) == 1 ? call_positional(call, position) : (TSNode){0};
  }
  if (text_is(qualified, "deepspeed.initialize")) {
    return unpacked && position == 0 ? call_keyword(facts->source, call, "model") : (TSNode){0};
  }
  if (unpacked) return (TSNode){0};
  if (text_in(last, WRAPPERS) || text_is(qualified, "torch.compile")) {
    TSNode wrapped = call_positional(call, 0);
    return ts_node_is_null(wrapped) ? call_keyword(facts->source, call, "module") : wrapped;
  }
  return (TSNode){0};
}

Text roles_wrapped(const Facts *facts, Text name, int32_t function) {
  for (int32_t scope = function;; scope = -1) {
    AssignIter it = facts_assigns(facts, name, scope);
    for (const Assign *assign; (assign = assign_iter_next(&it));) {
      TSNode value = node_unparenthesize(assign->value);
      if (assign->augmented || assign->subscript || assign->position == UNPACKED_DEEP || !node_is(value, K_CALL)) {
        continue;
      }
      TSNode wrapped = node_unparenthesize(roles__wrapped_argument(facts, value, assign->unpacked, assign->position));
      if (node_is(wrapped, K_IDENTIFIER) || node_is(wrapped, K_ATTRIBUTE)) {
        Text inner = node_text(facts->source, wrapped);
        if (!text_eq(inner, name)) return inner;
      }
    }
    if (scope < 0) return (Text){0};
  }
}

/* `self.encoder` inside a method: what __init__ assigned to it. */
static RoleOrUnknown roles__self_attribute(const Facts *facts, Text name, int32_t function, int depth) {
  int32_t class_index = facts_class_of_function(facts, function);
  if (class_index < 0) return ROLE_UNKNOWN;
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *init = array_get(&facts->functions, i);
    if (init->class_index != class_index || !text_is(init->name, "__init__")) continue;
    AssignIter it = facts_assigns(facts, name, (int32_t)i);
    for (const Assign *assign; (assign = assign_iter_next(&it));) {
      if (assign->subscript || assign->unpacked) continue;
      RoleOrUnknown role = roles__value(facts, assign->value, (int32_t)i, depth + 1);
      if (role != ROLE_UNKNOWN) return role;
    }
  }
  return ROLE_UNKNOWN;
}

/* ---- Use ------------------------------------------------------------------------- */

/* `def evaluate(model: nn.Module, ...)`: the annotation of parameter
 * `name` of `function`. */
static bool roles__annotated_module(const Facts *facts, Text name, int32_t function) {
  if (function < 0 || !facts->functions.contents[function].maybe_annotated) return false;
  TSNode parameters = node_field(facts->functions.contents[function].node, F_PARAMETERS);
  for (uint32_t i = 0; i < ts_node_named_child_count(parameters); i++) {
    TSNode parameter = ts_node_named_child(parameters, i);
    if (strcmp(ts_node_type(parameter), "typed_parameter") != 0 &&
        strcmp(ts_node_type(parameter), "typed_default_parameter") != 0) {
      continue;
    }
    TSNode first = ts_node_named_child(parameter, 0);
    if (!text_eq(node_text(facts->source, first), name)) continue;
    /* `model: nn.Module`, `net: PreTrainedModel`, `encoder: Encoder`; not
     * `Type[nn.Module]` (a class), `Callable[..., ModelInput]` nor unions */
    TSNode type = ts_node_named_child(ts_node_child_by_field_name(parameter, "type", 4), 0);
    if (!node_is(type, K_IDENTIFIER) && !node_is(type, K_ATTRIBUTE)) return false;
    char buffer[192];
    Text qualified = {facts_qualify(facts, type, buffer, sizeof buffer), 0};
    qualified.length = (uint32_t)strlen(qualified.ptr);
    Text last = text_last_segment(qualified);
    if (roles_library_module_class(qualified) || text_ends_with(last, "Model")) return true;
    int32_t class_index = facts_class_named(facts, last);
    return class_index >= 0 && facts->classes.contents[class_index].is_module;
  }
  return false;
}

/* A parameter every caller in the project passes a module to. */
static bool roles__passed_module(const Facts *facts, Text name, int32_t function) {
  if (function < 0) return false;
  const Function *entry = array_get(&facts->functions, function);
  if (!entry->module_parameters) return false;
  for (uint32_t i = 0; i < 30; i++) {
    if (!(entry->module_parameters & (1u << i))) continue;
    if (text_eq(facts_parameter(facts, function, i), name)) return true;
  }
  return false;
}

/* `nets["generator"]` where a loop switched every entry of `nets`
 * (settle.c notes that as the use of "nets[]"). */
static bool roles__switched_entry(const Facts *facts, Text name) {
  const char *bracket = memchr(name.ptr, '[', name.length);
  if (!bracket || bracket == name.ptr || name.ptr[name.length - 1] != ']') return false;
  char buffer[192];
  uint32_t head = (uint32_t)(bracket - name.ptr);
  if (head + 3 > sizeof buffer) return false;
  memcpy(buffer, name.ptr, head);
  memcpy(buffer + head, "[]", 2);
  return facts_used_as_module(facts, (Text){buffer, head + 2});
}

bool roles_used_as_module(const Facts *facts, Text name, int32_t function) {
  name = facts_canonical(facts, name);
  if (facts_used_as_module(facts, name) || roles__switched_entry(facts, name)) return true;
  return roles__annotated_module(facts, name, function) || roles__passed_module(facts, name, function);
}

/* ---- Modules ------------------------------------------------------------------------ */

static Role roles__settle(RoleOrUnknown role) { return role == ROLE_UNKNOWN ? ROLE_NONE : (Role)role; }


/* `owner.attribute` where owner's class is known: what its __init__
 * assigns to the attribute (a method of the class is no submodule). */
static RoleOrUnknown roles__known_attribute(const Facts *facts, TSNode constructor, Text attribute, int depth) {
  char buffer[192];
  Text qualified = {facts_qualify(facts, node_field(constructor, F_FUNCTION), buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  int32_t class_index = facts_class_named(facts, text_last_segment(qualified));
  if (class_index >= 0) {
    for (uint32_t i = 0; i < facts->functions.size; i++) {
      const Function *method = array_get(&facts->functions, i);
      if (method->class_index == class_index && text_eq(method->name, attribute)) return ROLE_NONE;
    }
    char *self_name = gl_format("self.%.*s", (int)attribute.length, attribute.ptr);
    int32_t init = -1;
    for (uint32_t i = 0; i < facts->functions.size && init < 0; i++) {
      const Function *method = array_get(&facts->functions, i);
      if (method->class_index == class_index && text_is(method->name, "__init__")) init = (int32_t)i;
    }
    RoleOrUnknown role = init >= 0 ? roles__self_attribute(facts, (Text){self_name, (uint32_t)strlen(self_name)}, init, depth)
                                   : ROLE_UNKNOWN;
    free(self_name);
    return role;
  }
  return roles__of_answer(elsewhere_attribute(facts->elsewhere, qualified, attribute));
}

/* ---- Submodules the project's classes name ----------------------------------- */

/* What `self.<attribute>` is in the linted file's own module classes:
 * ROLE_EVIDENCE where an __init__ builds a module into it, ROLE_NONE
 * where a class defines a method of that name or an __init__ a plain
 * value; ROLE_UNKNOWN when no class says. */
static RoleOrUnknown roles__own_classes_attribute(const Facts *facts, Text attribute, int depth) {
  RoleOrUnknown role = ROLE_UNKNOWN;
  char *self_name = gl_format("self.%.*s", (int)attribute.length, attribute.ptr);
  Text name = {self_name, (uint32_t)strlen(self_name)};
  for (uint32_t i = 0; i < facts->functions.size && role != ROLE_NONE; i++) {
    const Function *method = array_get(&facts->functions, i);
    if (method->class_index < 0) continue;
    if (text_eq(method->name, attribute)) role = ROLE_NONE;
    if (!text_is(method->name, "__init__") || !facts->classes.contents[method->class_index].is_module) continue;
    RoleOrUnknown here = roles__self_attribute(facts, name, (int32_t)i, depth + 1);
    if (here != ROLE_UNKNOWN) role = here == ROLE_NAME ? ROLE_UNKNOWN : here;
  }
  free(self_name);
  return role;
}

/* `decoder.attention(feats, h)` where `decoder` is a module by evidence
 * whose class the file cannot see (`decoder = checkpoint["decoder"]`):
 * a submodule when module classes build a module into `self.attention`
 * and none defines a method or a plain value of that name, this file's
 * first, then the project's (elsewhere.h). */
static RoleOrUnknown roles__project_submodule(const Facts *facts, Text attribute, int depth) {
  RoleOrUnknown role = roles__own_classes_attribute(facts, attribute, depth);
  if (role == ROLE_NONE) return role;
  Answer known = role == ROLE_EVIDENCE ? ANSWER_YES : ANSWER_UNKNOWN;
  return roles__of_answer(elsewhere_submodule(facts->elsewhere, attribute, known));
}

/* An instance built by a library call (a torchvision model): the
 * project's classes say nothing of its attributes. */
static bool roles__library_instance(const Facts *facts, const Binding *instance) {
  if (!instance || ts_node_is_null(instance->node) || !node_is(instance->node, K_CALL)) return false;
  char buffer[192];
  Text qualified = {facts_qualify(facts, node_field(instance->node, F_FUNCTION), buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  return roles__library_constructor(qualified) != ROLE_UNKNOWN;
}

/* `a.b`: a submodule of a module shown by evidence; of a library module
 * (a torchvision or transformers model), only a name can say. */
static RoleOrUnknown roles__attribute(const Facts *facts, Text name, int32_t function, int depth) {
  Text owner = name;
  while (owner.length && owner.ptr[owner.length - 1] != '.') owner.length--;
  if (owner.length <= 1) return ROLE_UNKNOWN;
  owner.length--;
  if (text_is(owner, "self")) return roles__self_attribute(facts, name, function, depth);
  Text attribute = text_last_segment(name);
  if (roles_verb_named(attribute) || roles_module_method(attribute)) return ROLE_NONE;
  if (roles__module(facts, owner, function, depth + 1) != ROLE_EVIDENCE) return ROLE_UNKNOWN;
  const Binding *instance = facts_binding(facts, BIND_INSTANCE, facts_canonical(facts, owner));
  RoleOrUnknown role = instance && !ts_node_is_null(instance->node)
                           ? roles__known_attribute(facts, instance->node, attribute, depth + 1)
                           : ROLE_UNKNOWN;
  if (role != ROLE_UNKNOWN) return role;
  if (!roles__library_instance(facts, instance) && roles__project_submodule(facts, attribute, depth + 1) == ROLE_EVIDENCE) {
    return ROLE_EVIDENCE;
  }
  return roles_named_module(attribute) ? ROLE_NAME : ROLE_NONE;
}

typedef bool (*RolesIs)(const Facts *facts, TSNode value, int32_t function, int depth);
static bool roles__passed(const Facts *facts, Text name, int32_t function, int depth, RolesIs is);

/* A name or attribute that is a module by evidence (`decoder` after
 * `decoder.eval()`), as an argument of a call. */
static bool roles__module_value(const Facts *facts, TSNode value, int32_t function, int depth) {
  value = node_unparenthesize(value);
  if (!node_is(value, K_IDENTIFIER) && !node_is(value, K_ATTRIBUTE)) return false;
  return roles__module(facts, node_text(facts->source, value), function, depth) == ROLE_EVIDENCE;
}

/* How many of a name's constructors, from the last, a role is read from. */
#define ROLES_CONSTRUCTORS_TRIED 4

static Role roles__module(const Facts *facts, Text name, int32_t function, int depth) {
  if (!facts->uses_torch || name.length == 0 || text_is(name, "self") || text_is(name, "super")) return ROLE_NONE;
  if (depth > ROLES_MAX_DEPTH) return ROLE_NONE;
  name = facts_canonical(facts, name);
  /* the last constructor that tells, of the last few: `model = Net()` before `model = load(path)` */
  RoleOrUnknown role = ROLE_UNKNOWN;
  const Binding *instances[ROLES_CONSTRUCTORS_TRIED];
  uint32_t count = facts_bindings_last(facts, BIND_INSTANCE, name, instances, ROLES_CONSTRUCTORS_TRIED);
  for (uint32_t n = 0; role == ROLE_UNKNOWN && n < count; n++) {
    if (!ts_node_is_null(instances[n]->node)) role = roles__constructor(facts, instances[n]->node, function, depth + 1);
  }
  if (role == ROLE_UNKNOWN) role = roles__prepared(facts, name, function, depth);
  if (role != ROLE_UNKNOWN && !(role == ROLE_NONE && roles_used_as_module(facts, name, function))) return (Role)role;
  if (roles_used_as_module(facts, name, function)) return ROLE_EVIDENCE;
  if (function >= 0 && roles__passed(facts, name, function, depth, roles__module_value)) return ROLE_EVIDENCE;
  if (memchr(name.ptr, '.', name.length)) {
    role = roles__attribute(facts, name, function, depth);
    if (role != ROLE_UNKNOWN) return roles__settle(role);
  }
  return roles_named_module(name) ? ROLE_NAME : ROLE_NONE;
}

Role roles_module(const Facts *facts, Text name, int32_t function) {
  return roles__module(facts, name, function, 0);
}

/* ---- Forwards ---------------------------------------------------------------------- */

/* torchvision.models.resnet50(), models.vgg16(): a member of an imported
 * library namespace, not a module instance of the script. */
static bool roles__library_member(const Facts *facts, TSNode call) {
  TSNode receiver = call_receiver(call);
  if (ts_node_is_null(receiver)) return false;
  Text text = node_text(facts->source, receiver);
  uint32_t head = 0;
  while (head < text.length && text.ptr[head] != '.') head++;
  Text first = {text.ptr, head};
  return facts_import(facts, first) != NULL || text_is(first, "torchvision") || text_is(first, "torch");
}

Text roles_forward_module(const Facts *facts, TSNode call) {
  if (text_is(call_method_name(facts->source, call), "forward")) return node_text(facts->source, call_receiver(call));
  return call_function_text(facts->source, call);
}

/* roles__module at depth 0, through `memo` when there is one. */
static Role roles__module_memo(const Facts *facts, Text name, int32_t function, RoleMemo *memo) {
  if (!memo) return roles__module(facts, name, function, 0);
  uint32_t *first = text_map_at(&memo->first, name);
  for (uint32_t at = *first; at; at = memo->entries.contents[at - 1].next) {
    if (memo->entries.contents[at - 1].function == function) return memo->entries.contents[at - 1].role;
  }
  uint32_t head = *first; /* roles__module adds no entry: `first` stays valid */
  Role role = roles__module(facts, name, function, 0);
  array_push(&memo->entries, ((struct RoleMemoEntry){function, role, head}));
  *text_map_at(&memo->first, name) = memo->entries.size;
  return role;
}

void roles_memo_delete(RoleMemo *memo) {
  text_map_delete(&memo->first);
  array_delete(&memo->entries);
}

Role roles_forward(const Facts *facts, TSNode call, int32_t function) {
  return roles_forward_memo(facts, call, function, NULL);
}

Role roles_forward_memo(const Facts *facts, TSNode call, int32_t function, RoleMemo *memo) {
  Text callee = roles_forward_module(facts, call);
  if (text_is(callee, "self")) {
    return facts->uses_torch && function >= 0 && facts->functions.contents[function].in_module_class ? ROLE_EVIDENCE
                                                                                                     : ROLE_NONE;
  }
  Text last = text_last_segment(callee);
  if (facts_class_like(facts, callee, function) || roles_verb_named(last) || roles_loss_function(callee) ||
      roles__library_member(facts, call)) {
    return ROLE_NONE;
  }
  return roles__module_memo(facts, callee, function, memo);
}

/* ---- Frozen parts ---------------------------------------------------------------- */

/* A project class whose __init__ freezes `attribute` (or itself). */
static bool roles__frozen_by_class(const Facts *facts, Text module) {
  uint32_t head = 0;
  while (head < module.length && module.ptr[head] != '.') head++;
  const Binding *instance = facts_binding(facts, BIND_INSTANCE, facts_canonical(facts, (Text){module.ptr, head}));
  if (!instance || ts_node_is_null(instance->node)) return false;
  char buffer[192];
  const char *qualified = facts_qualify(facts, node_field(instance->node, F_FUNCTION), buffer, sizeof buffer);
  Text attribute = head < module.length ? (Text){module.ptr + head + 1, module.length - head - 1} : (Text){"self", 4};
  return elsewhere_frozen(facts->elsewhere, (Text){qualified, (uint32_t)strlen(qualified)}, attribute);
}

bool roles_frozen(const Facts *facts, Text module) {
  Text bare = text_strip_self(facts_canonical(facts, module));
  for (uint32_t i = 0; i < facts->frozen.size; i++) {
    if (text_owns(facts->frozen.contents[i], bare)) return true;
  }
  return roles__frozen_by_class(facts, facts_canonical(facts, module));
}

/* ---- Tensors ----------------------------------------------------------------------- */

static bool roles__tensor(const Facts *facts, TSNode value, int32_t function, int depth);

/* torch functions that build or compute a tensor (`torch.zeros`,
 * `torch.from_numpy`, `torch.cat`); not `torch.load` (a state dict, a
 * model), `torch.compile`, `torch.device`. */
static bool roles__tensor_function(Text qualified) {
  static const char *const FUNCTIONS[] = {
      "tensor", "as_tensor", "from_numpy", "zeros", "ones", "empty", "full", "rand", "randn", "randint",
      "randperm", "arange", "linspace", "logspace", "eye", "zeros_like", "ones_like", "empty_like", "full_like",
      "rand_like", "randn_like", "randint_like", "cat", "concat", "concatenate", "stack", "hstack", "vstack",
      "where", "matmul", "mm", "bmm", "einsum", "exp", "log", "sigmoid", "tanh", "softmax", "log_softmax",
      "clamp", "sqrt", "abs", "tril", "triu", "gather", "index_select", "masked_select", "flatten", "reshape",
      "transpose", "permute", "squeeze", "unsqueeze", "cumsum", "bernoulli", "multinomial", "normal",
      "from_file", "frombuffer", "Parameter", NULL};
  Text last = text_last_segment(qualified);
  if (!roles__starts(qualified, "torch.")) return false;
  if (roles__starts(qualified, "torch.nn.functional.")) return !text_capitalized(last);
  if (text_ends_with(last, "Tensor")) return true; /* torch.Tensor(n), torch.cuda.FloatTensor(n) */
  if (text_is(last, "Variable")) return roles__starts(qualified, "torch.autograd."); /* Variable(x) of old code */
  return text_in(last, FUNCTIONS) && (qualified.length == 6 + last.length || text_is(last, "Parameter"));
}

/* Tensor methods whose result is a tensor again. */
static bool roles__tensor_method(Text method) {
  static const char *const METHODS[] = {
      "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "long", "int", "bool", "byte", "short",
      "type", "view", "view_as", "reshape", "reshape_as", "permute", "transpose", "unsqueeze", "squeeze",
      "contiguous", "clone", "detach", "flatten", "expand", "expand_as", "repeat", "pin_memory", "t",
      "narrow", "masked_fill", "clamp", "abs", "exp", "log", "sqrt", "softmax", "sum", "mean", "matmul",
      "add", "sub", "mul", "div", "pow", "sigmoid", "tanh", "relu", "requires_grad_", "repeat_interleave",
      "log_softmax", "neg", "round", "floor", "ceil", "square", "cumsum", "prod", "std", "var", "norm",
      "unflatten", "tril", "triu", "roll", "flip", "argmax", "argmin", "index_select", "gather", "bmm", "mm",
      "exp_", "masked_select", "new_zeros", "new_ones", "new_full", "new_empty", "new_tensor", NULL};
  return text_in(method, METHODS);
}

/* The loop of `facts` whose statement is `node`, or -1. */
static int32_t roles__loop_of(const Facts *facts, TSNode node) {
  for (uint32_t i = 0; i < facts->loops.size; i++) {
    if (ts_node_eq(facts->loops.contents[i].node, node)) return (int32_t)i;
  }
  return -1;
}

/* Whether `pattern` (a loop's or an assignment's target) binds `name`. */
static bool roles__pattern_binds(const Source *source, TSNode pattern, Text name, int depth) {
  if (node_is(pattern, K_IDENTIFIER) || node_is(pattern, K_ATTRIBUTE)) return text_eq(node_text(source, pattern), name);
  for (uint32_t i = 0; depth < 8 && i < ts_node_named_child_count(pattern); i++) {
    if (roles__pattern_binds(source, ts_node_named_child(pattern, i), name, depth + 1)) return true;
  }
  return false;
}

/* Where `name` sits in the target of `for TARGET in ITERABLE` over data:
 * 1 when it is a whole batch (`for batch in loader`, `for i, batch in
 * enumerate(loader)`), 2 when an element of one (`for x, y in loader`,
 * `for i, (x, y) in enumerate(loader)`), 0 otherwise. */
static int roles__batch_part(const Source *source, TSNode target, TSNode iterable, Text name, int depth) {
  iterable = node_unparenthesize(iterable);
  if (depth < 4 && node_is(iterable, K_CALL)) {
    Text wrapper = text_last_segment(call_function_text(source, iterable));
    static const char *const PASSING[] = {"tqdm", "iter", "islice", "track", NULL};
    if (text_in(wrapper, PASSING)) return roles__batch_part(source, target, call_positional(iterable, 0), name, depth + 1);
    bool enumerate = text_is(wrapper, "enumerate"), zip = text_is(wrapper, "zip");
    if (enumerate || zip) {
      if (ts_node_named_child_count(target) < 2 || node_is(target, K_IDENTIFIER)) return 0;
      for (uint32_t i = enumerate; i < ts_node_named_child_count(target); i++) {
        TSNode inner = call_positional(iterable, enumerate ? 0 : i);
        if (ts_node_is_null(inner)) return 0;
        int part = roles__batch_part(source, ts_node_named_child(target, i), inner, name, depth + 1);
        if (part) return part;
        if (enumerate) return 0;
      }
      return 0;
    }
  }
  if (node_is(target, K_IDENTIFIER)) return text_eq(node_text(source, target), name) ? 1 : 0;
  return roles__pattern_binds(source, target, name, 0) ? 2 : 0;
}

static const Assign *roles__definition(const Facts *facts, Text name, int32_t function, uint32_t at);

/* Whether a for loop iterates data (facts_loop_iterates_data), one
 * loader of a dict of them (`for x, y in dataloaders[phase]`), or a name
 * bound to a DataLoader (`train = DataLoader(...)`). */
static bool roles__iterates_data(const Facts *facts, TSNode loop_node) {
  int32_t loop = roles__loop_of(facts, loop_node);
  if (loop < 0) return false;
  if (facts_loop_iterates_data(facts, loop)) return true;
  TSNode iterable = node_unparenthesize(node_field(loop_node, F_RIGHT));
  static const char *const WRAPPERS[] = {"enumerate", "tqdm", "iter", "zip", "islice", "track", NULL};
  for (int depth = 0; depth < 4 && node_is(iterable, K_CALL); depth++) {
    if (!text_in(text_last_segment(call_function_text(facts->source, iterable)), WRAPPERS)) return false;
    iterable = call_positional(iterable, 0);
  }
  if (node_is(iterable, K_IDENTIFIER)) { /* `train = DataLoader(...)`: a loader by how it was built */
    const Assign *assign = roles__definition(facts, node_text(facts->source, iterable), facts->loops.contents[loop].function,
                                             ts_node_start_byte(loop_node));
    TSNode value = assign && !assign->unpacked ? node_unparenthesize(assign->value) : (TSNode){0};
    return !ts_node_is_null(value) && node_is(value, K_CALL) &&
           text_ends_with(call_function_text(facts->source, value), "DataLoader");
  }
  if (!node_is(iterable, K_SUBSCRIPT)) return false;
  Text base = text_last_segment(node_text(facts->source, node_field(iterable, F_VALUE)));
  return text_contains_ci(base, "loader") || text_contains_ci(base, "data");
}

/* The part of a loader's batch that `name`, bound by the for loop of
 * `assign`, is (roles__batch_part), 0 when the loop iterates no data. */
static int roles__loop_batch_part(const Facts *facts, const Assign *assign, Text name) {
  if (!roles__iterates_data(facts, assign->statement)) return 0;
  return roles__batch_part(facts->source, node_field(assign->statement, F_LEFT), assign->value, name, 0);
}

static bool roles__bound_by(const Assign *assign, uint32_t at) {
  if (assign->subscript || assign->augmented) return false;
  TSNode statement = assign->statement;
  return (node_is(statement, K_FOR_STATEMENT) ? ts_node_start_byte(node_field(statement, F_BODY))
                                              : ts_node_end_byte(statement)) <= at;
}

/* The assignment of `name` that holds at byte `at` of `function`: the last
 * one bound before it; else, for a name that `function` never binds, the
 * module's last (a global). NULL when there is none. */
static const Assign *roles__definition(const Facts *facts, Text name, int32_t function, uint32_t at) {
  const Assign *assign = facts_assign_last_before(facts, name, function, at, roles__bound_by);
  if (assign || function < 0) return assign;
  AssignIter it = facts_assigns(facts, name, function);
  if (assign_iter_next(&it)) return NULL; /* bound later in the function: a previous pass, or unknown */
  return facts_assign_last_before(facts, name, -1, UINT32_MAX, roles__bound_by);
}

/* What the argument of a call is: a tensor (roles__tensor), a batch, a
 * module (RolesIs, above). */

/* Whether every call of `function` in this file (at least one; none from
 * other files) passes as its parameter `name` a value that `is` takes. */
static bool roles__passed(const Facts *facts, Text name, int32_t function, int depth, RolesIs is) {
  const Function *entry = array_get(&facts->functions, function);
  if (entry->callers_elsewhere || entry->call_count == 0 || depth > ROLES_MAX_DEPTH) return false;
  uint32_t index = 0;
  for (Text parameter; (parameter = facts_parameter(facts, function, index)).length; index++) {
    if (text_eq(parameter, name)) break;
  }
  if (facts_parameter(facts, function, index).length == 0) return false;
  char keyword[64];
  if (name.length >= sizeof keyword) return false;
  memcpy(keyword, name.ptr, name.length);
  keyword[name.length] = '\0';
  uint32_t calls = 0;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *call = array_get(&facts->events, i);
    if (call->kind != EV_CALL || call->callee != function) continue;
    TSNode argument = call_positional(call->node, index);
    if (ts_node_is_null(argument)) argument = call_keyword(facts->source, call->node, keyword);
    if (++calls > ROLES_MAX_BRANCHES || !is(facts, argument, call->function, depth + 3)) return false;
  }
  return calls > 0;
}

/* Whether the value `value` is a whole batch of a loader: a name bound as
 * one (`for batch in loader`), `next(iter(loader))`, the `batch`
 * parameter of a Lightning step, or a parameter that every call of its
 * function passes a batch to. */
static bool roles__batch(const Facts *facts, TSNode value, int32_t function, uint32_t at, int depth);
static bool roles__batch_value(const Facts *facts, TSNode value, int32_t function, int depth);

static bool roles__batch_name(const Facts *facts, Text name, int32_t function, uint32_t at, int depth) {
  const Assign *assign = roles__definition(facts, name, function, at);
  if (!assign) {
    if (function < 0) return false;
    if (facts_framework_step(facts, function) && text_eq(facts_parameter(facts, function, 0), name)) {
      return true;
    }
    return roles__passed(facts, name, function, depth, roles__batch_value);
  }
  if (node_is(assign->statement, K_FOR_STATEMENT)) return roles__loop_batch_part(facts, assign, name) == 1;
  return !assign->unpacked && roles__batch(facts, assign->value, assign->function, ts_node_start_byte(assign->statement), depth + 1);
}

/* roles__batch of a value read where it stands. */
static bool roles__batch_value(const Facts *facts, TSNode value, int32_t function, int depth) {
  return !ts_node_is_null(value) && roles__batch(facts, value, function, ts_node_start_byte(value), depth);
}

static bool roles__batch(const Facts *facts, TSNode value, int32_t function, uint32_t at, int depth) {
  value = node_unparenthesize(value);
  if (depth > ROLES_MAX_DEPTH || ts_node_is_null(value)) return false;
  if (node_is(value, K_IDENTIFIER)) return roles__batch_name(facts, node_text(facts->source, value), function, at, depth);
  if (!node_is(value, K_CALL) || !text_is(call_function_text(facts->source, value), "next")) return false;
  Text source = node_text(facts->source, call_positional(value, 0));
  return text_contains_ci(source, "loader") || text_contains_ci(source, "_iter") || text_contains_ci(source, "data");
}

/* `def f(x: torch.Tensor)`: whether parameter `name` of `function` is
 * annotated as a tensor (`Tensor` imported from torch, `torch.FloatTensor`). */
static bool roles__annotated_tensor(const Facts *facts, Text name, int32_t function) {
  if (!facts->functions.contents[function].maybe_annotated) return false;
  TSNode parameters = node_field(facts->functions.contents[function].node, F_PARAMETERS);
  for (uint32_t i = 0; i < ts_node_named_child_count(parameters); i++) {
    TSNode parameter = ts_node_named_child(parameters, i);
    if (strcmp(ts_node_type(parameter), "typed_parameter") != 0 &&
        strcmp(ts_node_type(parameter), "typed_default_parameter") != 0) {
      continue;
    }
    if (!text_eq(node_text(facts->source, ts_node_named_child(parameter, 0)), name)) continue;
    TSNode type = ts_node_named_child(ts_node_child_by_field_name(parameter, "type", 4), 0);
    if (!node_is(type, K_IDENTIFIER) && !node_is(type, K_ATTRIBUTE)) return false;
    char buffer[160];
    Text qualified = {facts_qualify(facts, type, buffer, sizeof buffer), 0};
    qualified.length = (uint32_t)strlen(qualified.ptr);
    return roles__starts(qualified, "torch.") && text_ends_with(qualified, "Tensor");
  }
  return false;
}

/* Whether `body` holds `register_buffer("name", ...)` (either quote). */
static bool roles__registers_buffer(Text body, Text name) {
  static const char CALL[] = "register_buffer(";
  const uint32_t length = sizeof CALL - 1;
  for (uint32_t at = 0; at + length + name.length + 2 <= body.length; at++) {
    if (body.ptr[at] != 'r' || memcmp(body.ptr + at, CALL, length) != 0) continue;
    uint32_t quote = at + length;
    while (quote < body.length && (body.ptr[quote] == ' ' || body.ptr[quote] == '\n')) quote++;
    if (quote + name.length + 2 > body.length || (body.ptr[quote] != '"' && body.ptr[quote] != '\'')) continue;
    if (memcmp(body.ptr + quote + 1, name.ptr, name.length) == 0 && body.ptr[quote + 1 + name.length] == body.ptr[quote]) {
      return true;
    }
  }
  return false;
}

/* `self.name` in a method: a tensor when __init__ builds it from one, or
 * registers it as a buffer (`self.register_buffer("name", ...)`). */
static bool roles__tensor_self_attribute(const Facts *facts, Text name, int32_t function, int depth) {
  int32_t class_index = facts_class_of_function(facts, function);
  if (class_index < 0) return false;
  Text attribute = text_last_segment(name);
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    const Function *init = array_get(&facts->functions, i);
    if (init->class_index != class_index || !text_is(init->name, "__init__")) continue;
    const Assign *assign = roles__definition(facts, name, (int32_t)i, UINT32_MAX);
    if (assign && !assign->unpacked) return roles__tensor(facts, assign->value, (int32_t)i, depth + 1);
    return roles__registers_buffer(node_text(facts->source, init->node), attribute);
  }
  return false;
}

static bool roles__tensor_evidence(const Facts *facts, Text name, int32_t function, uint32_t at, int depth);

/* `for key, value in batch.items():` or `for value in batch.values():`
 * over a whole batch: whether `name`, bound by that loop (`assign`), is
 * the value. */
static bool roles__batch_value_bound(const Facts *facts, const Assign *assign, Text name, int depth) {
  TSNode iterable = node_unparenthesize(assign->value), target = node_field(assign->statement, F_LEFT);
  if (!node_is(iterable, K_CALL) || call_positional_count(iterable) != 0) return false;
  Text method = call_method_name(facts->source, iterable);
  if (text_is(method, "items")) {
    if (ts_node_named_child_count(target) != 2 || node_is(target, K_IDENTIFIER)) return false;
    target = ts_node_named_child(target, 1);
  } else if (!text_is(method, "values")) {
    return false;
  }
  if (!node_is(target, K_IDENTIFIER) || !text_eq(node_text(facts->source, target), name)) return false;
  return roles__batch_value(facts, call_receiver(iterable), assign->function, depth + 1);
}

/* The name `name` read at byte `at` of `function`: what its definition
 * binds, or what the parameter or attribute is. A module is never one. */
static bool roles__tensor_name(const Facts *facts, Text name, int32_t function, uint32_t at, int depth) {
  if (depth > ROLES_MAX_DEPTH || text_is(name, "self")) return false;
  if (!roles__tensor_evidence(facts, name, function, at, depth)) return false;
  return roles__module(facts, name, function, depth + 1) != ROLE_EVIDENCE; /* asked last: it costs more */
}

/* What shows that `name` is a tensor (roles__tensor_name), the module
 * question aside. */
static bool roles__tensor_evidence(const Facts *facts, Text name, int32_t function, uint32_t at, int depth) {
  const Assign *assign = roles__definition(facts, name, function, at);
  if (assign && node_is(assign->statement, K_FOR_STATEMENT)) {
    return roles__loop_batch_part(facts, assign, name) == 2 || roles__batch_value_bound(facts, assign, name, depth);
  }
  if (assign && assign->unpacked) { /* `x, y = batch`, `values, indices = torch.max(t, 1)` */
    uint32_t from = ts_node_start_byte(assign->statement);
    return roles__batch(facts, assign->value, assign->function, from, depth + 1) ||
           roles__tensor(facts, assign->value, assign->function, depth + 1);
  }
  if (assign) return roles__tensor(facts, assign->value, assign->function, depth + 1);
  if (function < 0) return false;
  if (roles__starts(name, "self.")) {
    return roles__tensor_self_attribute(facts, name, function, depth);
  }
  return roles__annotated_tensor(facts, name, function) || roles__passed(facts, name, function, depth, roles__tensor);
}

/* Whether every return of `helper` (a function of this file) gives a tensor. */
static bool roles__returns_tensor(const Facts *facts, int32_t helper, int depth) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < facts->returns.size; i++) {
    const Return *entry = array_get(&facts->returns, i);
    if (entry->function != helper) continue;
    if (++count > ROLES_MAX_BRANCHES || !roles__tensor(facts, entry->value, helper, depth + 2)) return false;
  }
  return count > 0;
}

/* Tensor methods that no batch object has (a BatchEncoding, a graph, a
 * dict): `data.float()` shows that the batch `data` is a tensor. */
static bool roles__tensor_only_method(Text method) {
  static const char *const SHARED[] = {"to", "cuda", "cpu", "pin_memory", "contiguous", "clone", "detach",
                                       "type", "requires_grad_", NULL};
  return roles__tensor_method(method) && !text_in(method, SHARED);
}

/* `criterion(out, y)` with `criterion = nn.CrossEntropyLoss()`: a loss
 * of torch's gives a tensor. */
static bool roles__torch_loss_call(const Facts *facts, TSNode call) {
  TSNode callee = node_field(call, F_FUNCTION);
  if (!node_is(callee, K_IDENTIFIER) && !node_is(callee, K_ATTRIBUTE)) return false;
  const Binding *instance = facts_binding(facts, BIND_INSTANCE, facts_canonical(facts, node_text(facts->source, callee)));
  if (!instance || ts_node_is_null(instance->node)) return false;
  char buffer[160];
  Text qualified = {facts_qualify(facts, node_field(instance->node, F_FUNCTION), buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  return roles__starts(qualified, "torch.nn.") && text_ends_with(qualified, "Loss");
}

static bool roles__tensor_call(const Facts *facts, TSNode call, int32_t function, int depth) {
  Text method = call_method_name(facts->source, call);
  TSNode receiver = call_receiver(call);
  if (method.length && roles__tensor_method(method) && !ts_node_is_null(receiver)) {
    if (roles__tensor(facts, receiver, function, depth + 1)) return true;
    if (roles__tensor_only_method(method) && roles__batch_value(facts, receiver, function, depth + 1)) return true;
  }
  char buffer[160];
  Text qualified = {facts_qualify(facts, node_field(call, F_FUNCTION), buffer, sizeof buffer), 0};
  qualified.length = (uint32_t)strlen(qualified.ptr);
  if (roles__tensor_function(qualified)) return true;
  if (roles_forward(facts, call, function) == ROLE_EVIDENCE) return true;
  if (roles__torch_loss_call(facts, call)) return true;
  if (text_is(method, "generate") && !ts_node_is_null(receiver) && /* token ids of a generative model */
      roles__module(facts, node_text(facts->source, receiver), function, depth + 1) == ROLE_EVIDENCE) {
    return true;
  }
  int32_t helper = facts_resolve_call(facts, call, function);
  return helper >= 0 && helper != function && roles__returns_tensor(facts, helper, depth);
}

static bool roles__tensor(const Facts *facts, TSNode value, int32_t function, int depth) {
  value = node_unparenthesize(value);
  if (depth > ROLES_MAX_DEPTH || ts_node_is_null(value)) return false;
  uint32_t at = ts_node_start_byte(value);
  switch (node_kind(value)) {
    case K_CALL: return roles__tensor_call(facts, value, function, depth);
    case K_IDENTIFIER: return roles__tensor_name(facts, node_text(facts->source, value), function, at, depth);
    case K_ATTRIBUTE: {
      Text attribute = node_text(facts->source, node_field(value, F_ATTRIBUTE));
      if (text_is(attribute, "data") || text_is(attribute, "T") || text_is(attribute, "grad")) {
        return roles__tensor(facts, node_field(value, F_OBJECT), function, depth + 1);
      }
      return roles__tensor_name(facts, node_text(facts->source, value), function, at, depth);
    }
    case K_SUBSCRIPT: {
      TSNode base = node_field(value, F_VALUE);
      return roles__batch(facts, base, function, at, depth + 1) || roles__tensor(facts, base, function, depth + 1);
    }
    case K_BINARY_OPERATOR:
      return roles__tensor(facts, node_field(value, F_LEFT), function, depth + 1) ||
             roles__tensor(facts, node_field(value, F_RIGHT), function, depth + 1);
    case K_UNARY_OPERATOR: return roles__tensor(facts, node_field(value, F_ARGUMENT), function, depth + 1);
    case K_CONDITIONAL_EXPRESSION:
      return roles__tensor(facts, ts_node_named_child(value, 0), function, depth + 1) &&
             roles__tensor(facts, ts_node_named_child(value, 2), function, depth + 1);
    default: return false;
  }
}

/* Attributes that only a tensor has, of what a value may be here (no
 * module, batch object, graph or dict has them; `.size()`, `.is_cuda`,
 * `.detach()` and `.contiguous()` are left out: a PyG `Data` has them). */
static const char *const TENSOR_ONLY[] = {"view", "view_as", "unsqueeze", "permute", "numel", "dim", "shape",
                                          "backward", "numpy", "masked_fill", "new_zeros", "new_ones", NULL};

/* The word after the dot at `at`, when it is one of TENSOR_ONLY. */
static bool roles__tensor_only_after(const Source *source, uint32_t at) {
  uint32_t end = at + 1;
  while (end < source->length && (source->bytes[end] == '_' || ((source->bytes[end] | 0x20) >= 'a' && (source->bytes[end] | 0x20) <= 'z'))) {
    end++;
  }
  return end > at + 1 && text_in((Text){source->bytes + at + 1, end - at - 1}, TENSOR_ONLY);
}

/* The dotted name that ends just before byte `at` (`x`, `self.buf`), or
 * empty text when an expression does (`f(x).shape`, `a[0].shape`). */
static Text roles__name_before(const Source *source, uint32_t at) {
  uint32_t start = at;
  while (start > 0) {
    char c = source->bytes[start - 1];
    if (!(c == '_' || c == '.' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))) break;
    start--;
  }
  if (start == at || source->bytes[start] == '.' || (source->bytes[start] >= '0' && source->bytes[start] <= '9')) {
    return (Text){"", 0};
  }
  return (Text){source->bytes + start, at - start};
}

/* Fills `uses` from one pass over the file's text: every `NAME.ATTRIBUTE`
 * with ATTRIBUTE one of TENSOR_ONLY, by name, with its offset. */
static void roles__find_tensor_uses(const Facts *facts, TensorUses *uses) {
  const Source *source = facts->source;
  uses->built = true;
  for (const char *dot = memchr(source->bytes, '.', source->length); dot;
       dot = memchr(dot + 1, '.', source->length - (uint32_t)(dot + 1 - source->bytes))) {
    uint32_t at = (uint32_t)(dot - source->bytes);
    if (!roles__tensor_only_after(source, at)) continue;
    Text name = roles__name_before(source, at);
    if (name.length == 0) continue;
    uint32_t *first = text_map_at(&uses->first, name);
    array_push(&uses->uses, ((struct TensorUse){at, *first}));
    *text_map_at(&uses->first, name) = uses->uses.size;
  }
}

void roles_tensor_uses_delete(TensorUses *uses) {
  text_map_delete(&uses->first);
  array_delete(&uses->uses);
}

/* A name that its function (the module, at the top level) uses as a
 * tensor: `x.view(...)`, `x.shape`, `x.unsqueeze(0)`, `x.numpy()`. A
 * module shown by evidence is not one. */
static bool roles__used_as_tensor(const Facts *facts, TSNode expression, int32_t function, TensorUses *uses) {
  if (!node_is(expression, K_IDENTIFIER) && !node_is(expression, K_ATTRIBUTE)) return false;
  Text name = node_text(facts->source, expression);
  if (text_is(name, "self") || name.length == 0) return false;
  if (!uses->built) roles__find_tensor_uses(facts, uses);
  TSNode scope = function >= 0 ? facts->functions.contents[function].node : facts->root;
  uint32_t start = ts_node_start_byte(scope), end = ts_node_end_byte(scope);
  bool used = false;
  for (uint32_t at = text_map_get(&uses->first, name); at && !used; at = uses->uses.contents[at - 1].next) {
    used = uses->uses.contents[at - 1].at >= start && uses->uses.contents[at - 1].at < end;
  }
  return used && roles__module(facts, name, function, 0) != ROLE_EVIDENCE;
}

Role roles_tensor(const Facts *facts, TSNode expression, int32_t function, TensorUses *uses) {
  if (!facts->uses_torch) return ROLE_NONE;
  expression = node_unparenthesize(expression);
  if (roles__tensor(facts, expression, function, 0) || (uses && roles__used_as_tensor(facts, expression, function, uses))) {
    return ROLE_EVIDENCE;
  }
  return ROLE_NONE;
}
