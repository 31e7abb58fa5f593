/* facts.c — what the walk found (walk.c), resolved and summarised: helper
 * calls, optimizers and modules, grad mode, reachability. */
#include "facts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "walk.h"

static bool facts__module_by_name(Text name);

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

/* build_model(), save_model(), unwrap_model(), train_model(): a name that
 * starts with a verb does something to a model; it is not one. */
static bool facts__verb_named(Text name) {
  static const char *const VERBS[] = {
      "make_", "build_", "create_", "get_", "load_", "init_", "new_", "setup_", "save_", "unwrap_",
      "wrap_", "freeze_", "unfreeze_", "print_", "log_", "export_", "copy_", "count_", "reset_",
      "prepare_", "to_", "set_", "eval_", "train_", "test_", "evaluate_", "validate_", "run_", "fit_",
      "update_", "summarize_", "show_", "plot_", "check_", "convert_", "restore_", "push_", NULL};
  return text_starts_with_any(name, VERBS);
}

/* torchvision.models.resnet50(), models.vgg16(): a member of an imported
 * library namespace, not a module instance of the script. */
static bool facts__library_member(const Facts *self, TSNode call) {
  TSNode receiver = call_receiver(call);
  if (ts_node_is_null(receiver)) return false;
  Text text = node_text(self->source, receiver);
  uint32_t head = 0;
  while (head < text.length && text.ptr[head] != '.') head++;
  return facts__import(self, (Text){text.ptr, head}) != NULL || text_is((Text){text.ptr, head}, "torchvision") ||
         text_is((Text){text.ptr, head}, "torch");
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
  return !text_capitalized(last) && !facts__verb_named(last) && !facts_is_loss_function(callee) &&
         !facts__library_member(self, call) && facts_is_module(self, callee);
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
         text_contains_ci(last, "likelihood") || text_is(last, "elbo") ||
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
    "autoencoder", "detector", "segmenter", "embedder", "disc", "clf", "head",
};

/* Words that mark a name as data, not a module: data_generator. */
static const char *const DATA_WORDS[] = {"data", "batch", "loader", "sample", "noise", "dataset", "input",
                                         "output", "train", "test", "val", "valid", "dev", "id", "name",
                                         "str", "random", "rand", "seed"};

static bool facts__listed_ci(const char *part, size_t length, const char *const *words, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (strlen(words[i]) == length && strncasecmp(part, words[i], length) == 0) return true;
  }
  return false;
}

/* By the last segment's `_`-separated parts, in one pass: a data word
 * vetoes, a module word or stem decides. */
static bool facts__module_by_name(Text name) {
  Text last = text_last_segment(name);
  bool module = text_contains_ci(last, MODULE_STEMS[0]) || text_contains_ci(last, MODULE_STEMS[1]);
  for (uint32_t start = 0; start < last.length;) {
    uint32_t end = start;
    while (end < last.length && last.ptr[end] != '_') end++;
    const char *part = last.ptr + start;
    size_t length = end - start;
    if (facts__listed_ci(part, length, DATA_WORDS, sizeof DATA_WORDS / sizeof DATA_WORDS[0])) return false;
    if (!module) module = facts__listed_ci(part, length, MODULE_WORDS, sizeof MODULE_WORDS / sizeof MODULE_WORDS[0]);
    start = end + 1;
  }
  return module;
}

/* nn.Sigmoid(), nn.Softmax(dim=1), nn.Dropout(): layers without
 * parameters record no graph of their own. */
static bool facts__parameterless_layer(Text constructor) {
  static const char *const LAYERS[] = {
      "Sigmoid", "Tanh", "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "ELU", "Softplus", "Softmax",
      "LogSoftmax", "Dropout", "Dropout2d", "Flatten", "Unflatten", "Identity", "MaxPool1d", "MaxPool2d",
      "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveAvgPool1d", "Upsample", "Hardtanh", "Mish", NULL};
  return text_in(text_last_segment(constructor), LAYERS);
}

/* AutoTokenizer.from_pretrained(...), AutoConfig, AutoProcessor: loaded
 * like models, but not modules. */
static bool facts__preprocessor(Text constructor) {
  return text_contains_ci(constructor, "Tokenizer") || text_contains_ci(constructor, "Processor") ||
         text_contains_ci(constructor, "Config") || text_contains_ci(constructor, "FeatureExtractor") ||
         text_contains_ci(constructor, "ImageProcessor");
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
  if (instance && facts__parameterless_layer(instance->value)) return false;
  if (instance && (text_contains_ci(instance->value, "jit.") || text_ends_with(instance->value, "compile"))) {
    return true;
  }
  if (instance) {
    int32_t class_index = facts__class_named(self, instance->value);
    if (class_index >= 0) return self->classes.contents[class_index].is_module;
    if (facts__preprocessor(instance->value)) return false;
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
    if (text_owns(self->frozen.contents[i], module)) return true;
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
    int mode = walk_with_grad_mode(self, at);
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

/* ---- Public -------------------------------------------------------------- */

Facts *facts_new(const Source *source, TSNode root) {
  syntax_init();
  Facts *self = gl_calloc(1, sizeof(Facts));
  self->source = source;
  self->root = root;
  walk_tree(self, root);
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

