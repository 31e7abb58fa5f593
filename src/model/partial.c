/* partial.c — a model frozen as a whole and unfrozen by name, across the
 * project's files (partial.h). */
#include "partial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "links.h"
#include "project.h"
#include "summary.h"

/* Bounds: how deep the model's tree and its forwards are followed, how
 * many steps one question walks, how many scripts it reads, and the
 * largest configuration file read. */
#define PARTIAL_MAX_DEPTH 12
#define PARTIAL_MAX_STEPS 20000
#define PARTIAL_MAX_SCRIPTS 16
#define PARTIAL_MAX_CONFIG_BYTES (256u * 1024u)

/* ---- The walk ------------------------------------------------------------------------- */

typedef enum { TRAINED_NO, TRAINED_YES, TRAINED_MAYBE } Trained;

/* A class of the project, or a class outside it (library: NULL class). */
typedef struct {
  const Summary *summary;
  const SummaryClass *class_;
  bool unknown; /* a name the project should define but that does not resolve */
} PartClass;

typedef Array(PartClass) PartClasses;
typedef Array(uint32_t) Lines;

typedef struct {
  Links *links;
  const Summary *target; /* the linted file */
  Lines hits;            /* lines of its checkpoints found starved in this walk */
  const struct Selector *selectors;
  uint32_t selector_count;
  bool all_checkpointed;   /* the model's `_set_gradient_checkpointing` names no class */
  PartClasses checkpointed; /* the classes it names */
  uint32_t steps_left;
} Walk;

/* One unfreezing loop of a plan: its test on names ('s': module names
 * end with one, 'p': parameter names do, 'i': names contain one), the
 * parameter that holds the names (a configuration may set it), the
 * default names and those a configuration set. */
typedef struct Selector {
  char test;
  char variable[96];
  PartialStrings defaults;
  PartialStrings configured;
  bool configured_set;
} Selector;

static const PartialStrings *partial__names_of(const Selector *selector) {
  return selector->configured_set ? &selector->configured : &selector->defaults;
}

/* Whether a name matches the selector's test with `name` as pattern. */
static bool partial__matches(char test, const char *path, const char *name) {
  size_t length = strlen(path), size = strlen(name);
  if (test == 'i') {
    char dotted[520];
    snprintf(dotted, sizeof dotted, "%s.", path);
    return strstr(dotted, name) != NULL;
  }
  if (test == 's') return length >= size && strcmp(path + length - size, name) == 0;
  char weight[520], bias[520]; /* parameter names: the module's own weight and bias */
  snprintf(weight, sizeof weight, "%s.weight", path);
  snprintf(bias, sizeof bias, "%s.bias", path);
  size_t w = strlen(weight), b = strlen(bias);
  return (w >= size && strcmp(weight + w - size, name) == 0) || (b >= size && strcmp(bias + b - size, name) == 0);
}

/* Whether a module path (no list indices) is one the plan unfreezes. */
static bool partial__unfrozen(const Walk *walk, const char *path) {
  for (uint32_t i = 0; i < walk->selector_count; i++) {
    const PartialStrings *names = partial__names_of(&walk->selectors[i]);
    for (uint32_t k = 0; k < names->size; k++) {
      if (partial__matches(walk->selectors[i].test, path, names->contents[k])) return true;
    }
  }
  return false;
}

static void partial__join(char *out, size_t size, const char *path, Text attribute) {
  snprintf(out, size, "%s%s%.*s", path, path[0] ? "." : "", (int)attribute.length, attribute.ptr);
}

/* What `qualified`, as written in `where`, names: a project class, the
 * classes a project factory builds (appended), or a class outside the
 * project. */
static void partial__resolve(Walk *walk, const Summary *where, const char *qualified, PartClasses *out,
                             int depth) {
  Text name = text_of(qualified);
  if (name.length == 0) {
    array_push(out, ((PartClass){NULL, NULL, true}));
    return;
  }
  Linked linked = {0};
  const SummaryClass *local = summary_class(where, name.ptr, name.length);
  if (local) {
    array_push(out, ((PartClass){where, local, false}));
  } else if (links_find_anywhere(walk->links, where, name, &linked) && linked.class_) {
    array_push(out, ((PartClass){linked.summary, linked.class_, false}));
  } else if (linked.function || summary_function(where, name.ptr, name.length)) {
    const Summary *home = linked.function ? linked.summary : where;
    const SummaryFunction *factory = linked.function ? linked.function : summary_function(where, name.ptr, name.length);
    if (factory->builds.size == 0 || depth > 2) array_push(out, ((PartClass){NULL, NULL, true}));
    for (uint32_t i = 0; i < factory->builds.size && depth <= 2; i++) {
      partial__resolve(walk, home, factory->builds.contents[i], out, depth + 1);
    }
  } else {
    /* outside the project: torch.nn or another library; a bare or relative
     * name that does not resolve (a star import) is unknown */
    bool library = memchr(name.ptr, '.', name.length) && name.ptr[0] != '.';
    array_push(out, ((PartClass){NULL, NULL, !library}));
  }
}

/* The classes of attribute `attribute` of `class_` (and of its project
 * bases). */
static void partial__parts_of(Walk *walk, PartClass owner, Text attribute, PartClasses *out, int depth) {
  if (!owner.class_ || depth > 3) return;
  for (uint32_t i = 0; i < owner.class_->parts.size; i++) {
    const char *entry = owner.class_->parts.contents[i];
    const char *equals = strchr(entry, '=');
    if (!equals || (size_t)(equals - entry) != attribute.length || memcmp(entry, attribute.ptr, attribute.length)) {
      continue;
    }
    partial__resolve(walk, owner.summary, equals + 1, out, 0);
  }
  for (uint32_t i = 0; out->size == 0 && i < owner.class_->bases.size; i++) {
    PartClasses bases = array_new();
    partial__resolve(walk, owner.summary, owner.class_->bases.contents[i], &bases, 0);
    for (uint32_t k = 0; k < bases.size; k++) {
      if (bases.contents[k].class_) partial__parts_of(walk, bases.contents[k], attribute, out, depth + 1);
    }
    array_delete(&bases);
  }
}

/* Whether the layer of class `part` at module path `path` holds a module
 * the plan unfreezes. A class outside the project counts by its own path
 * only; an unknown one may. */
static Trained partial__trained(Walk *walk, PartClass part, const char *path, int depth) {
  if (partial__unfrozen(walk, path)) return TRAINED_YES;
  if (part.unknown) return TRAINED_MAYBE;
  if (!part.class_) return TRAINED_NO;
  if (depth > PARTIAL_MAX_DEPTH || walk->steps_left == 0) return TRAINED_MAYBE;
  walk->steps_left--; /* a class whose layers are of its own class would otherwise branch without end */
  Trained result = TRAINED_NO;
  for (uint32_t i = 0; i < part.class_->parts.size && result != TRAINED_YES; i++) {
    const char *entry = part.class_->parts.contents[i];
    const char *equals = strchr(entry, '=');
    if (!equals) continue;
    char child[520];
    partial__join(child, sizeof child, path, (Text){entry, (uint32_t)(equals - entry)});
    PartClasses classes = array_new();
    partial__resolve(walk, part.summary, equals + 1, &classes, 0);
    for (uint32_t k = 0; k < classes.size && result != TRAINED_YES; k++) {
      Trained each = partial__trained(walk, classes.contents[k], child, depth + 1);
      if (each != TRAINED_NO) result = each;
    }
    array_delete(&classes);
  }
  return result;
}

/* Whether the checkpointing branch runs in `part` (the plan turned
 * checkpointing on): the model's `_set_gradient_checkpointing` names its
 * class, or names none. */
static bool partial__checkpointing_on(const Walk *walk, PartClass part) {
  for (uint32_t i = 0; i < walk->checkpointed.size; i++) {
    if (walk->checkpointed.contents[i].class_ == part.class_) return true;
  }
  return walk->all_checkpointed;
}

/* The classes the model's `_set_gradient_checkpointing` turns
 * checkpointing on for, resolved once per plan. */
static void partial__read_checkpointed(Walk *walk, PartClass root) {
  array_clear(&walk->checkpointed);
  walk->all_checkpointed = true;
  for (uint32_t i = 0; i < root.class_->steps.size; i++) {
    const char *step = root.class_->steps.contents[i];
    if (step[0] != 'g') continue;
    walk->all_checkpointed = false;
    partial__resolve(walk, root.summary, step + 5, &walk->checkpointed, 0); /* "g-:0:" */
  }
}

static bool partial__run(Walk *walk, PartClass part, const char *path, bool grad, int depth);

/* Whether a class's forward runs layers the walk can follow; a forward
 * that runs none (`nn.Conv2d`'s, a subclass's own arithmetic) counts
 * by what it holds. */
static bool partial__runs_steps(const SummaryClass *class_) {
  if (!class_->defines_forward) return false;
  for (uint32_t i = 0; i < class_->steps.size; i++) {
    if (class_->steps.contents[i][0] != 'g') return true;
  }
  return false;
}

/* One step of a forward: runs the attribute's layers, or checkpoints
 * them. Returns whether a tensor that requires grad flows after it. */
static bool partial__step(Walk *walk, PartClass owner, char kind, uint32_t line, Text attribute, const char *path,
                          bool grad, int depth) {
  PartClasses classes = array_new();
  partial__parts_of(walk, owner, attribute, &classes, 0);
  char child[520];
  partial__join(child, sizeof child, path, attribute);
  bool after = grad || classes.size == 0;
  uint32_t hits_before = walk->hits.size;
  for (uint32_t i = 0; i < classes.size; i++) {
    PartClass part = classes.contents[i];
    if (kind == 'c') {
      if (!grad && owner.summary == walk->target && partial__trained(walk, part, child, 0) == TRAINED_YES) {
        array_push(&walk->hits, line);
      }
      continue;
    }
    if (part.class_ && partial__runs_steps(part.class_)) { /* the layer itself may be unfrozen by its name */
      after |= partial__run(walk, part, child, grad, depth + 1) || partial__unfrozen(walk, child);
    } else {
      after |= partial__trained(walk, part, child, 0) != TRAINED_NO;
    }
  }
  /* layers of several classes run in an order the tree does not show: a
   * block found starved counts only when none of them passes grad on */
  if (classes.size > 1 && after) walk->hits.size = hits_before;
  array_delete(&classes);
  return after;
}

/* Runs the forward of `part` at `path`, given whether a tensor that
 * requires grad flows in; returns whether one flows out. */
static bool partial__run(Walk *walk, PartClass part, const char *path, bool grad, int depth) {
  if (depth > PARTIAL_MAX_DEPTH) return true;
  bool checkpointing = partial__checkpointing_on(walk, part);
  for (uint32_t i = 0; i < part.class_->steps.size; i++) {
    if (walk->steps_left == 0) return true;
    walk->steps_left--;
    const char *step = part.class_->steps.contents[i];
    char kind = step[0], branch = step[1];
    if (kind == 'g' || (branch == 'C' && !checkpointing) || (branch == 'E' && checkpointing)) continue;
    char *end = NULL;
    uint32_t line = (uint32_t)strtoul(step + 3, &end, 10);
    if (!end || *end != ':') continue;
    Text attribute = text_of(end + 1);
    if (kind == 'm' || kind == 'x') {
      grad = true;
      continue;
    }
    grad = partial__step(walk, part, kind, line, attribute, path, grad, depth);
  }
  return grad;
}

/* A plan, read back from its string. */
typedef struct {
  uint32_t line;
  char class_name[192];
  char flag[96];       /* the parameter that turns checkpointing on, or "" */
  char fallback;       /* the flag's default: 'T', 'F', or '-' (no flag) */
  Array(Selector) selectors;
} Plan;

/* The next `separator`-ended field of `*at` into `out`; false when it is
 * too long. An absent separator ends the text. */
static bool partial__field(const char **at, char separator, char *out, size_t size) {
  const char *end = strchr(*at, separator);
  size_t length = end ? (size_t)(end - *at) : strlen(*at);
  if (length >= size) return false;
  memcpy(out, *at, length);
  out[length] = '\0';
  *at += length + (end ? 1 : 0);
  return true;
}

/* "TEST:VARIABLE:NAME,NAME" */
static bool partial__read_selector(const char *text, Selector *out) {
  char test[4];
  const char *at = text;
  if (!partial__field(&at, ':', test, sizeof test) || !partial__field(&at, ':', out->variable, sizeof out->variable)) {
    return false;
  }
  out->test = test[0];
  while (*at) {
    char name[160];
    if (!partial__field(&at, ',', name, sizeof name)) return false;
    array_push(&out->defaults, gl_strdup(name));
  }
  return true;
}

static void partial__plan_delete(Plan *plan) {
  for (uint32_t i = 0; i < plan->selectors.size; i++) {
    partial_strings_delete(&plan->selectors.contents[i].defaults);
    partial_strings_delete(&plan->selectors.contents[i].configured);
  }
  array_delete(&plan->selectors);
}

static bool partial__read_plan(const char *text, Plan *plan) {
  char line[16], fallback[4], selector[1024];
  const char *at = text;
  if (!partial__field(&at, '|', line, sizeof line) ||
      !partial__field(&at, '|', plan->class_name, sizeof plan->class_name) ||
      !partial__field(&at, '|', plan->flag, sizeof plan->flag) ||
      !partial__field(&at, '|', fallback, sizeof fallback)) {
    return false;
  }
  plan->line = (uint32_t)strtoul(line, NULL, 10);
  plan->fallback = fallback[0];
  while (*at) {
    if (!partial__field(&at, '|', selector, sizeof selector)) return false;
    array_push(&plan->selectors, ((Selector){0}));
    if (!partial__read_selector(selector, array_back(&plan->selectors))) return false;
  }
  return plan->selectors.size > 0;
}

/* A YAML scalar read as a boolean: 1, 0, or -1 for anything else. */
static int partial__yaml_bool(const yaml_node_t *node) {
  static const char *const YES[] = {"true", "True", "TRUE", "yes", "on", NULL};
  static const char *const NO[] = {"false", "False", "FALSE", "no", "off", NULL};
  if (node->type != YAML_SCALAR_NODE) return -1;
  Text text = {(const char *)node->data.scalar.value, (uint32_t)node->data.scalar.length};
  return text_in(text, YES) ? 1 : text_in(text, NO) ? 0 : -1;
}

/* The names a YAML value lists: a sequence of strings, or one string. */
static void partial__yaml_names(yaml_document_t *document, yaml_node_t *node, PartialStrings *out) {
  if (node->type == YAML_SCALAR_NODE && node->data.scalar.length > 0) {
    array_push(out, gl_strndup((const char *)node->data.scalar.value, node->data.scalar.length));
    return;
  }
  if (node->type != YAML_SEQUENCE_NODE) return;
  for (yaml_node_item_t *item = node->data.sequence.items.start; item < node->data.sequence.items.top; item++) {
    yaml_node_t *each = yaml_document_get_node(document, *item);
    if (each && each->type == YAML_SCALAR_NODE && out->size < PARTIAL_MAX_PATTERNS) {
      array_push(out, gl_strndup((const char *)each->data.scalar.value, each->data.scalar.length));
    }
  }
}

/* Reads the plan's keys from the top level of a YAML document (the
 * configurations that scripts pass as `main(**config)`) into its
 * selectors and `*checkpointing` (-1: not set); false when it sets none
 * or does not parse. */
static bool partial__yaml(const char *bytes, size_t length, Plan *plan, int *checkpointing) {
  yaml_parser_t parser;
  yaml_document_t document;
  if (!yaml_parser_initialize(&parser)) return false;
  yaml_parser_set_input_string(&parser, (const unsigned char *)bytes, length);
  bool loaded = yaml_parser_load(&parser, &document), set = false;
  yaml_node_t *root = loaded ? yaml_document_get_root_node(&document) : NULL;
  for (yaml_node_pair_t *pair = root && root->type == YAML_MAPPING_NODE ? root->data.mapping.pairs.start : NULL;
       pair && pair < root->data.mapping.pairs.top; pair++) {
    yaml_node_t *key = yaml_document_get_node(&document, pair->key);
    yaml_node_t *value = yaml_document_get_node(&document, pair->value);
    if (!key || !value || key->type != YAML_SCALAR_NODE) continue;
    Text name = {(const char *)key->data.scalar.value, (uint32_t)key->data.scalar.length};
    for (uint32_t i = 0; i < plan->selectors.size; i++) {
      Selector *selector = array_get(&plan->selectors, i);
      if (!selector->variable[0] || !text_is(name, selector->variable) || selector->configured_set) continue;
      selector->configured_set = set = true;
      partial__yaml_names(&document, value, &selector->configured);
    }
    if (plan->flag[0] && text_is(name, plan->flag)) {
      *checkpointing = partial__yaml_bool(value);
      set = true;
    }
  }
  if (loaded) yaml_document_delete(&document);
  yaml_parser_delete(&parser);
  return set;
}

/* Whether a configuration's text mentions one of the plan's keys. */
static bool partial__mentions_keys(const char *bytes, const Plan *plan) {
  if (plan->flag[0] && strstr(bytes, plan->flag)) return true;
  for (uint32_t i = 0; i < plan->selectors.size; i++) {
    if (plan->selectors.contents[i].variable[0] && strstr(bytes, plan->selectors.contents[i].variable)) return true;
  }
  return false;
}

/* The bytes of a configuration file that mentions one of the plan's
 * keys, or NULL; the caller frees them. */
static char *partial__config_bytes(const char *path, const Plan *plan, size_t *length) {
  FILE *stream = fopen(path, "rb");
  if (!stream) return NULL;
  char *bytes = gl_malloc(PARTIAL_MAX_CONFIG_BYTES + 1);
  *length = fread(bytes, 1, PARTIAL_MAX_CONFIG_BYTES + 1, stream);
  fclose(stream);
  bytes[*length <= PARTIAL_MAX_CONFIG_BYTES ? *length : PARTIAL_MAX_CONFIG_BYTES] = '\0';
  if (*length <= PARTIAL_MAX_CONFIG_BYTES && partial__mentions_keys(bytes, plan)) return bytes;
  free(bytes);
  return NULL;
}

/* The walk with the plan's selectors, as they stand: the linted file's
 * checkpoints it finds starved, in `walk->hits`. */
static void partial__starved_with(Walk *walk, PartClass root, const Plan *plan) {
  walk->selectors = plan->selectors.contents;
  walk->selector_count = plan->selectors.size;
  walk->steps_left = PARTIAL_MAX_STEPS;
  array_clear(&walk->hits);
  partial__run(walk, root, "", false, 0);
}

static bool partial__holds(const Lines *lines, uint32_t line) {
  for (uint32_t i = 0; i < lines->size; i++) {
    if (lines->contents[i] == line) return true;
  }
  return false;
}

/* Keeps in `kept` only the lines `walk->hits` holds too. */
static void partial__intersect(Lines *kept, const Lines *hits) {
  uint32_t size = 0;
  for (uint32_t i = 0; i < kept->size; i++) {
    if (partial__holds(hits, kept->contents[i])) kept->contents[size++] = kept->contents[i];
  }
  kept->size = size;
}

static void partial__forget_configured(Plan *plan) {
  for (uint32_t i = 0; i < plan->selectors.size; i++) {
    partial_strings_delete(&plan->selectors.contents[i].configured);
    plan->selectors.contents[i].configured_set = false;
  }
}

/* Runs the plan under every configuration of the project that sets one
 * of its keys, or under its defaults when none does: the checkpoints
 * starved under each of them, into `starved`. */
static void partial__starved_by_configs(Walk *walk, PartClass root, Plan *plan, Lines *starved) {
  uint32_t considered = 0;
  for (uint32_t i = 0; considered == 0 || starved->size > 0; i++) {
    const char *path = project_config(walk->links->project, i);
    if (!path) break;
    size_t length = 0;
    char *bytes = partial__config_bytes(path, plan, &length);
    int checkpointing = -1;
    if (bytes && partial__yaml(bytes, length, plan, &checkpointing)) {
      links_consult_config(walk->links, path, bytes, length);
      bool on = checkpointing >= 0 ? checkpointing == 1 : plan->fallback != 'F';
      array_clear(&walk->hits);
      if (on) partial__starved_with(walk, root, plan);
      if (considered++ == 0) {
        for (uint32_t k = 0; k < walk->hits.size; k++) array_push(starved, walk->hits.contents[k]);
      } else {
        partial__intersect(starved, &walk->hits);
      }
    }
    partial__forget_configured(plan);
    free(bytes);
  }
  if (considered > 0 || plan->fallback == 'F') return;
  partial__starved_with(walk, root, plan);
  for (uint32_t k = 0; k < walk->hits.size; k++) array_push(starved, walk->hits.contents[k]);
}

/* One plan of a script: walks the model's forward from its class and
 * adds the checkpoints it starves to `out`. */
static void partial__try_plan(Walk *walk, const Summary *script, const char *text, PartialStarvedList *out) {
  Plan plan = {0};
  PartClasses roots = array_new();
  Lines starved = array_new();
  if (partial__read_plan(text, &plan)) partial__resolve(walk, script, plan.class_name, &roots, 0);
  if (roots.size == 1 && roots.contents[0].class_ && roots.contents[0].class_->defines_forward) {
    partial__read_checkpointed(walk, roots.contents[0]);
    partial__starved_by_configs(walk, roots.contents[0], &plan, &starved);
  }
  const char *root = project_root(walk->links->project);
  const char *path = script->path;
  size_t skip = strlen(root);
  if (strncmp(path, root, skip) == 0 && path[skip] == '/') path += skip + 1;
  for (uint32_t i = 0; i < starved.size; i++) {
    PartialStarved entry = {.line = starved.contents[i]};
    snprintf(entry.script, sizeof entry.script, "%s:%u", path, plan.line);
    array_push(out, entry);
  }
  array_delete(&starved);
  array_delete(&roots);
  partial__plan_delete(&plan);
}

void partial_starved_checkpoints(Links *links, PartialStarvedList *out) {
  if (!links || !links->project || links->file < 0) return;
  const Summary *target = project_summary(links->project, links->file);
  if (!target) return;
  FileList scripts = array_new();
  for (uint32_t i = 0; PARTIAL_ENABLERS[i]; i++) {
    project_files_mentioning(links->project, text_of(PARTIAL_ENABLERS[i]), (Text){0}, &scripts);
  }
  Walk walk = {.links = links, .target = target};
  for (uint32_t i = 0; i < scripts.size && i < PARTIAL_MAX_SCRIPTS; i++) {
    const Summary *script = project_summary(links->project, scripts.contents[i]);
    if (!script || script->plans.size == 0) continue;
    links_consult(links, scripts.contents[i]);
    for (uint32_t k = 0; k < script->plans.size; k++) partial__try_plan(&walk, script, script->plans.contents[k], out);
  }
  array_delete(&walk.hits);
  array_delete(&walk.checkpointed);
  array_delete(&scripts);
}
