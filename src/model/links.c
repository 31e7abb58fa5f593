/* links.c — resolving imported names to the project's definitions. */
#include "links.h"

#include <stdio.h>
#include <string.h>

#include "facts.h"
#include "roles_names.h"

/* Re-exports and base classes are followed this many files deep. */
#define LINKS_MAX_HOPS 4

Links *links_new(Project *project, const char *path) {
  Links *self = gl_calloc(1, sizeof(Links));
  self->file = -1;
  self->caller_budget = LINKS_CALLER_FILES;
  if (!project) return self;
  self->folder = project_folder_of(path);
  if (!self->folder) return self;
  self->project = project;
  self->file = project_file(project, path);
  return self;
}

void links_delete(Links *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->memo.size; i++) free(self->memo.contents[i].qualified);
  array_delete(&self->memo);
  array_delete(&self->consulted);
  for (uint32_t i = 0; i < self->configs.size; i++) free(self->configs.contents[i].path);
  array_delete(&self->configs);
  free(self->folder);
  free(self);
}

void links_consult(Links *self, int32_t file) {
  for (uint32_t i = 0; i < self->consulted.size; i++) {
    if (self->consulted.contents[i] == file) return;
  }
  array_push(&self->consulted, file);
}

void links_consult_config(Links *self, const char *path, const char *bytes, size_t length) {
  for (uint32_t i = 0; i < self->configs.size; i++) {
    if (strcmp(self->configs.contents[i].path, path) == 0) return;
  }
  array_push(&self->configs, ((struct LinkedConfig){gl_strdup(path), summary_hash_bytes(bytes, length)}));
}

/* The folder of a summarised file (its path is absolute); the caller
 * frees it. */
static char *links__folder(const Summary *summary) {
  const char *slash = strrchr(summary->path, '/');
  return slash ? gl_strndup(summary->path, (size_t)(slash - summary->path)) : gl_strdup("/");
}

/* The file holding the longest module prefix of `qualified`, and the rest
 * (the symbol: "f", "Class.f"); -1 when no prefix names a file. */
static int32_t links__locate(Links *self, const char *folder, Text qualified, Text *symbol) {
  uint32_t dots = 0;
  while (dots < qualified.length && qualified.ptr[dots] == '.') dots++;
  for (uint32_t end = qualified.length; end > dots; end--) {
    if (end < qualified.length && qualified.ptr[end] != '.') continue;
    if (end == qualified.length) continue; /* a symbol is needed */
    int32_t file = project_resolve_module(self->project, folder, (Text){qualified.ptr, end});
    if (file >= 0) {
      *symbol = (Text){qualified.ptr + end + 1, qualified.length - end - 1};
      return file;
    }
  }
  if (dots > 0 && dots < qualified.length) { /* `from . import f`: the package's __init__.py */
    int32_t file = project_resolve_module(self->project, folder, (Text){qualified.ptr, dots});
    if (file >= 0) {
      *symbol = (Text){qualified.ptr + dots, qualified.length - dots};
      return file;
    }
  }
  return -1;
}

static bool links__find(Links *self, const char *folder, Text qualified, Linked *out, int hops, bool linted_too);

/* `symbol` in `summary`: its own definition, or one it imports. */
static bool links__in_file(Links *self, const Summary *summary, Text symbol, Linked *out, int hops, bool linted_too) {
  *out = (Linked){summary, summary_function(summary, symbol.ptr, symbol.length),
                  summary_class(summary, symbol.ptr, symbol.length)};
  if (out->function || out->class_) return true;
  uint32_t head = 0;
  while (head < symbol.length && symbol.ptr[head] != '.') head++;
  const char *imported = summary_import(summary, symbol.ptr, head);
  if (!imported || hops >= LINKS_MAX_HOPS) return false;
  char *next = gl_format("%s%.*s", imported, (int)(symbol.length - head), symbol.ptr + head);
  char *folder = links__folder(summary);
  bool found = links__find(self, folder, (Text){next, (uint32_t)strlen(next)}, out, hops + 1, linted_too);
  free(folder);
  free(next);
  return found;
}

/* `linted_too`: the linted file's own summary may answer (its facts
 * answer the questions of one file; a walk across files needs it). */
static bool links__find(Links *self, const char *folder, Text qualified, Linked *out, int hops, bool linted_too) {
  Text symbol;
  int32_t file = links__locate(self, folder, qualified, &symbol);
  if (file < 0 || (file == self->file && !linted_too)) return false;
  const Summary *summary = project_summary(self->project, file);
  if (!summary) return false;
  links_consult(self, file);
  return links__in_file(self, summary, symbol, out, hops, linted_too);
}

bool links_find(Links *self, const Summary *from, Text qualified, Linked *out) {
  if (!self || !self->project || qualified.length == 0) return false;
  if (from) { /* a name of that file (`Decoder` where it is defined, or imported there), else a module path */
    if (links__in_file(self, from, qualified, out, 1, false)) return true;
    char *folder = links__folder(from);
    bool found = links__find(self, folder, qualified, out, 1, false);
    free(folder);
    return found;
  }
  for (uint32_t i = 0; i < self->memo.size; i++) {
    const LinkMemo *memo = array_get(&self->memo, i);
    if (strlen(memo->qualified) == qualified.length && memcmp(memo->qualified, qualified.ptr, qualified.length) == 0) {
      *out = memo->linked;
      return memo->found;
    }
  }
  Linked linked = {0};
  bool found = links__find(self, self->folder, qualified, &linked, 0, false);
  array_push(&self->memo, ((LinkMemo){gl_strndup(qualified.ptr, qualified.length), found, linked}));
  *out = linked;
  return found;
}

bool links_find_anywhere(Links *self, const Summary *from, Text qualified, Linked *out) {
  if (!self || !self->project || !from || qualified.length == 0) return false;
  if (links__in_file(self, from, qualified, out, 1, true)) return true;
  char *folder = links__folder(from);
  bool found = links__find(self, folder, qualified, out, 1, true);
  free(folder);
  return found;
}

/* ---- Classes ------------------------------------------------------------------ */

/* A module when a base is one; defining forward() decides only when a
 * base comes from outside the project (facts.c reads same-file classes
 * the same way). */
static bool links__is_module(Links *self, const Summary *where, const SummaryClass *class_, int hops) {
  if (class_->module_base) return true;
  if (hops >= LINKS_MAX_HOPS) return class_->defines_forward;
  bool unknown = false;
  for (uint32_t i = 0; i < class_->bases.size; i++) {
    Text base = {class_->bases.contents[i], (uint32_t)strlen(class_->bases.contents[i])};
    if (roles_plain_base(base)) continue;
    const SummaryClass *local = summary_class(where, base.ptr, base.length);
    Linked linked;
    if (local && local != class_) {
      if (links__is_module(self, where, local, hops + 1)) return true;
    } else if (!local && links_find(self, where, base, &linked) && linked.class_) {
      if (links__is_module(self, linked.summary, linked.class_, hops + 1)) return true;
    } else {
      unknown = true;
    }
  }
  return class_->defines_forward && unknown;
}

bool links_class_is_module(Links *self, const Summary *where, const SummaryClass *class_) {
  return links__is_module(self, where, class_, 0);
}

/* ---- Functions ------------------------------------------------------------------ */

static uint32_t links__reaches(Links *self, const Summary *where, const SummaryFunction *function, int hops) {
  uint32_t reaches = function->reaches;
  if (hops >= LINKS_MAX_HOPS) return reaches;
  for (uint32_t i = 0; i < function->external_calls_count; i++) {
    const SummaryCall *call = array_get(&where->calls, function->external_calls_start + i);
    Linked linked;
    if (links_find(self, where, (Text){call->callee, (uint32_t)strlen(call->callee)}, &linked) && linked.function &&
        linked.function != function) {
      reaches |= links__reaches(self, linked.summary, linked.function, hops + 1);
    }
  }
  return reaches;
}

uint32_t links_reaches(Links *self, const Summary *where, const SummaryFunction *function) {
  return links__reaches(self, where, function, 0);
}

/* ---- Callers ----------------------------------------------------------------------- */

/* Whether `symbol` of file `file` is the function (or "Class.method")
 * `name` of file `target` that `file` imports: a package's __init__.py
 * that re-exports it (`from .basic import create_trainer`), one hop. */
static bool links__reexports(Links *self, int32_t file, Text symbol, int32_t target, Text name) {
  const Summary *summary = project_summary(self->project, file);
  if (!summary) return false;
  uint32_t head = 0;
  while (head < symbol.length && symbol.ptr[head] != '.') head++;
  const char *imported = summary_import(summary, symbol.ptr, head);
  if (!imported) return false;
  char *next = gl_format("%s%.*s", imported, (int)(symbol.length - head), symbol.ptr + head);
  char *folder = links__folder(summary);
  Text rest;
  bool found = links__locate(self, folder, (Text){next, (uint32_t)strlen(next)}, &rest) == target && text_eq(rest, name);
  free(folder);
  free(next);
  if (found) links_consult(self, file);
  return found;
}

/* Whether a call written as `callee` in `caller` runs the module-level
 * function (or "Class.method") `name` of file `target`. */
static bool links__calls_linted(Links *self, const Summary *caller, const char *callee, int32_t target, Text name) {
  char *folder = links__folder(caller);
  Text symbol;
  int32_t file = links__locate(self, folder, (Text){callee, (uint32_t)strlen(callee)}, &symbol);
  free(folder);
  if (file < 0) return false;
  if (file == target) return text_eq(symbol, name);
  return links__reexports(self, file, symbol, target, name);
}

static Callers links__callers(Links *self, int32_t target, Text name);

static bool links__listed(const FileList *files, int32_t file);

/* Appends to `files` those that name `word` and the package of file
 * `target` (`trainers` for trainers/basic.py), which may call it through
 * the package's re-export (`trainers.create_trainer(...)`), while the
 * caller budget holds them all; only when the package's __init__.py
 * imports `word`. */
static void links__package_callers(Links *self, int32_t target, Text word, FileList *files) {
  const char *path = project_path(self->project, target);
  const char *slash = path ? strrchr(path, '/') : NULL;
  if (!slash || strcmp(slash + 1, "__init__.py") == 0) return;
  const char *start = slash;
  while (start > path && start[-1] != '/') start--;
  Text package = {start, (uint32_t)(slash - start)};
  if (!text_is_identifier(package)) return;
  char *init = gl_format("%.*s/__init__.py", (int)(slash - path), path);
  int32_t init_file = project_file(self->project, init);
  free(init);
  const Summary *package_summary = init_file >= 0 ? project_summary(self->project, init_file) : NULL;
  Text head = word;
  if (!package_summary || !summary_import(package_summary, head.ptr, head.length)) return; /* no re-export */
  FileList more = array_new();
  project_files_mentioning(self->project, word, package, &more);
  for (uint32_t i = 0; i < more.size; i++) {
    if (files->size >= self->caller_budget) break;
    if (!links__listed(files, more.contents[i])) array_push(files, more.contents[i]);
  }
  array_delete(&more);
}


Callers links_callers(Links *self, Text name) {
  if (!self || !self->project || self->file < 0) return (Callers){0};
  return links__callers(self, self->file, name);
}

Callers links_callers_of(Links *self, const Summary *where, Text name) {
  if (!self || !self->project || !where) return (Callers){0};
  int32_t target = project_file(self->project, where->path);
  if (target < 0 || target == self->file) return (Callers){0};
  return links__callers(self, target, name);
}

/* The calls of `name` of file `target` in the project's other files. */
static Callers links__callers(Links *self, int32_t target, Text name) {
  Callers callers = {0};
  FileList files = array_new();
  /* a caller imports this file: its text names the module too */
  Text word = text_last_segment(name); /* "Seq2seq.evaluate_ppl": callers name the method */
  project_files_mentioning(self->project, word, project_module_name(self->project, target), &files);
  if (files.size > self->caller_budget) { /* a module every file imports: too many to read, so unknown */
    array_delete(&files);
    return (Callers){.any = true};
  }
  links__package_callers(self, target, word, &files);
  self->caller_budget -= files.size;
  bool all_off = true;
  uint32_t modules = UINT32_MAX, evaluated = UINT32_MAX;
  bool receiver_eval = true;
  for (uint32_t i = 0; i < files.size; i++) {
    if (files.contents[i] == target) continue;
    const Summary *caller = project_summary(self->project, files.contents[i]);
    if (!caller) continue;
    for (uint32_t j = 0; j < caller->calls.size; j++) {
      const SummaryCall *call = array_get(&caller->calls, j);
      if (!links__calls_linted(self, caller, call->callee, target, name)) continue;
      links_consult(self, files.contents[i]);
      callers.any = true;
      callers.any_in_loop |= call->in_loop;
      callers.any_per_step |= call->in_step_loop;
      callers.any_per_process |= call->per_process;
      if (call->grad == 0 /* GRAD_ON */) all_off = false;
      modules &= call->module_arguments;
      evaluated &= call->eval_arguments;
      receiver_eval &= call->receiver_eval;
    }
  }
  array_delete(&files);
  callers.all_grad_off = callers.any && all_off;
  callers.module_parameters = callers.any ? modules : 0;
  callers.eval_parameters = callers.any ? evaluated & modules : 0;
  callers.eval_receiver = callers.any && receiver_eval;
  return callers;
}

/* Appends to `out` the project files that `importer` imports from:
 * `from trainer import run`, `import trainer` and `from pkg import trainer`
 * (a module of a package) alike. */
static void links__imported_files(Links *self, const Summary *importer, FileList *out) {
  char *folder = links__folder(importer);
  for (uint32_t i = 0; i < importer->imports.size; i++) {
    const char *qualified = importer->imports.contents[i].qualified;
    Text name = {qualified, (uint32_t)strlen(qualified)}, symbol;
    /* `from pkg.core import trainer` runs pkg/core/__init__.py and
     * imports pkg/core/trainer.py: both */
    int32_t module = project_resolve_module(self->project, folder, name);
    int32_t file = links__locate(self, folder, name, &symbol);
    if (module >= 0) array_push(out, module);
    if (file >= 0 && file != module) array_push(out, file);
  }
  free(folder);
}

static bool links__listed(const FileList *files, int32_t file) {
  for (uint32_t i = 0; i < files->size; i++) {
    if (files->contents[i] == file) return true;
  }
  return false;
}

/* Records as consulted the files of the import chain that ends at
 * `seen[at]`: `parents` holds, for each file of `seen`, the index of the
 * file that imports it (-1 for a file that mentions the word). */
static void links__consult_chain(Links *self, const FileList *seen, const FileList *parents, int32_t at) {
  for (; at >= 0; at = parents->contents[at]) links_consult(self, seen->contents[at]);
}

bool links_imported_by_file_mentioning(Links *self, const char *word) {
  if (!self || !self->project || self->file < 0) return false;
  FileList seen = array_new();
  project_files_mentioning(self->project, (Text){word, (uint32_t)strlen(word)}, (Text){0}, &seen);
  Text name = {word, (uint32_t)strlen(word)};
  for (uint32_t i = 0; i < seen.size; i++) { /* the linted file's own text does not count, nor a docstring's */
    int32_t file = seen.contents[i];
    if (file == self->file || !project_file_mentions_in_code(self->project, file, name)) {
      seen.contents[i--] = seen.contents[--seen.size];
    }
  }
  FileList parents = array_new(); /* the index in `seen` of each file's importer */
  for (uint32_t i = 0; i < seen.size; i++) array_push(&parents, -1);
  /* breadth first along imports, from the files that mention the word */
  uint32_t level_end = seen.size;
  bool found = false;
  for (uint32_t i = 0, depth = 0; i < seen.size && !found && self->caller_budget > 0; i++) {
    if (i == level_end && ++depth == LINKS_IMPORT_DEPTH) break;
    if (i == level_end) level_end = seen.size;
    self->caller_budget--;
    const Summary *importer = project_summary(self->project, seen.contents[i]);
    if (!importer) continue;
    FileList imported = array_new();
    links__imported_files(self, importer, &imported);
    for (uint32_t j = 0; j < imported.size; j++) {
      if (links__listed(&seen, imported.contents[j])) continue;
      array_push(&seen, imported.contents[j]);
      array_push(&parents, (int32_t)i);
    }
    array_delete(&imported);
    if (links__listed(&seen, self->file)) {
      links__consult_chain(self, &seen, &parents, (int32_t)i);
      found = true;
    }
  }
  array_delete(&parents);
  array_delete(&seen);
  return found;
}

const char *links_where(const Links *self, const Linked *linked, char *buffer, size_t size) {
  const char *path = linked->summary->path;
  if (self && self->project) {
    size_t root = strlen(project_root(self->project));
    if (strncmp(path, project_root(self->project), root) == 0 && path[root] == '/') path += root + 1;
  }
  uint32_t line = linked->function ? linked->function->line : linked->class_ ? linked->class_->line : 0;
  snprintf(buffer, size, "%s:%u", path, line);
  return buffer;
}

/* ---- The questions of one file's model (elsewhere.h) --------------------------- */

static Defines links__defines(void *self, Text qualified) {
  Linked linked;
  if (!links_find(self, NULL, qualified, &linked)) return DEFINES_NOTHING;
  if (!linked.class_) return DEFINES_OTHER;
  return links_class_is_module(self, linked.summary, linked.class_) ? DEFINES_MODULE_CLASS : DEFINES_CLASS;
}

static bool links__function(void *self, Text qualified, ElsewhereFunction *out) {
  Linked linked;
  if (!links_find(self, NULL, qualified, &linked) || !linked.function) return false;
  const SummaryFunction *function = linked.function;
  *out = (ElsewhereFunction){function->wraps_grad_off || function->decorated == GRAD_OFF, function->returns,
                             function->returns_given_arguments, function->plain_returns};
  return true;
}

static uint32_t links__reaches_of(void *self, Text qualified) {
  Linked linked;
  if (!links_find(self, NULL, qualified, &linked) || !linked.function) return 0;
  return links_reaches(self, linked.summary, linked.function);
}

/* The class of the project that `qualified` builds: the class itself, or
 * the one a factory's every return builds (`model = load_model()`). */
static bool links__built_class(Links *self, Text qualified, Linked *out) {
  if (!links_find(self, NULL, qualified, out)) return false;
  if (!out->class_ && out->function && out->function->returns_class) {
    Text built = {out->function->returns_class, (uint32_t)strlen(out->function->returns_class)};
    const Summary *factory = out->summary;
    if (!links_find(self, factory, built, out)) return false;
  }
  return out->class_ != NULL;
}

/* What the submodule entry "attribute=Built" of `linked`'s class says. */
static Answer links__entry_attribute(Links *self, const Linked *linked, Text built) {
  if (built.length == 0) { /* handed to the module's __init__ and called by it: a submodule */
    return links_class_is_module(self, linked->summary, linked->class_) ? ANSWER_YES : ANSWER_UNKNOWN;
  }
  Answer library = (Answer)roles_library_constructor(built);
  if (library != ANSWER_UNKNOWN) return library;
  Linked part;
  if (links_find(self, linked->summary, built, &part) && part.class_) {
    return links_class_is_module(self, part.summary, part.class_) ? ANSWER_YES : ANSWER_NO;
  }
  return ANSWER_UNKNOWN;
}

/* The built text of `class_`'s submodule entry for `attribute`
 * ("fc=torch.nn.Linear" -> "torch.nn.Linear"); false when it has none. */
static bool links__submodule_entry(const SummaryClass *class_, uint32_t *index, Text attribute, Text *built) {
  for (; *index < class_->submodules.size; (*index)++) {
    const char *entry = class_->submodules.contents[*index];
    const char *equals = strchr(entry, '=');
    if (!equals || (size_t)(equals - entry) != attribute.length || memcmp(entry, attribute.ptr, attribute.length)) continue;
    *built = (Text){equals + 1, (uint32_t)strlen(equals + 1)};
    (*index)++;
    return true;
  }
  return false;
}

static Answer links__attribute(void *self, Text constructor, Text attribute) {
  Linked linked;
  if (!links__built_class(self, constructor, &linked)) return ANSWER_UNKNOWN;
  uint32_t index = 0;
  Text built;
  if (links__submodule_entry(linked.class_, &index, attribute, &built)) return links__entry_attribute(self, &linked, built);
  return ANSWER_NO; /* a method or plain attribute of a project class */
}

/* What the submodule entries of one module class ("fc=torch.nn.Linear",
 * "attention=SoftAttention", "decoder=") say `attribute` is. */
static Answer links__class_attribute(Links *self, const Summary *summary, const SummaryClass *class_, Text attribute) {
  Answer answer = ANSWER_UNKNOWN;
  uint32_t index = 0;
  Text built;
  while (answer != ANSWER_NO && links__submodule_entry(class_, &index, attribute, &built)) {
    Answer here = built.length == 0 ? ANSWER_YES : (Answer)roles_library_constructor(built);
    Linked part;
    if (here == ANSWER_UNKNOWN && links_find(self, summary, built, &part) && part.class_) {
      here = links_class_is_module(self, part.summary, part.class_) ? ANSWER_YES : ANSWER_NO;
    }
    if (here != ANSWER_UNKNOWN) answer = here;
  }
  return answer;
}

/* What one other file's summary says of `self.<attribute>`: a method of
 * that name (".attention" in "Class.attention") says no; its module
 * classes' submodule entries say the rest. */
static Answer links__file_attribute(Links *self, const Summary *summary, Text attribute, const char *method, Answer answer) {
  for (uint32_t k = 0; k < summary->functions.size && answer != ANSWER_NO; k++) {
    const char *name = summary->functions.contents[k].name, *dot = strrchr(name, '.');
    if (dot && strcmp(dot, method) == 0) answer = ANSWER_NO;
  }
  for (uint32_t k = 0; k < summary->classes.size && answer != ANSWER_NO; k++) {
    const SummaryClass *class_ = array_get(&summary->classes, k);
    if (!links_class_is_module(self, summary, class_)) continue;
    Answer here = links__class_attribute(self, summary, class_, attribute);
    if (here != ANSWER_UNKNOWN) answer = here;
  }
  return answer;
}

/* One other file's answer about `word` (`method` is ".word"), given the
 * answer so far. */
typedef Answer (*FileAnswer)(Links *self, const Summary *summary, Text word, const char *method, Answer answer);

/* Asks `ask` of each project file, other than the linted one, that holds
 * `word`, until one says no; a word that more than LINKS_CALLER_FILES
 * files hold is not looked up (the answer stays `answer`). */
static Answer links__ask_files(Links *self, Text word, FileAnswer ask, Answer answer) {
  if (!self->project) return answer;
  FileList files = array_new();
  project_files_mentioning(self->project, word, (Text){0}, &files);
  if (files.size > LINKS_CALLER_FILES) files.size = 0;
  char *method = gl_format(".%.*s", (int)word.length, word.ptr);
  for (uint32_t i = 0; i < files.size && answer != ANSWER_NO; i++) {
    if (files.contents[i] == self->file) continue;
    const Summary *summary = project_summary(self->project, files.contents[i]);
    if (!summary) continue;
    links_consult(self, files.contents[i]);
    answer = ask(self, summary, word, method, answer);
  }
  free(method);
  array_delete(&files);
  return answer;
}

/* What the project's other files say `self.<attribute>` is, when the
 * linted file does not say no. */
static Answer links__submodule(void *self_, Text attribute, Answer known) {
  if (known == ANSWER_NO) return known;
  return links__ask_files(self_, attribute, links__file_attribute, known);
}

static bool links__frozen(void *self, Text qualified, Text attribute) {
  Linked linked;
  if (!links_find(self, NULL, qualified, &linked) || !linked.class_) return false;
  for (uint32_t i = 0; i < linked.class_->frozen.size; i++) {
    Text frozen = {linked.class_->frozen.contents[i], (uint32_t)strlen(linked.class_->frozen.contents[i])};
    if (text_is(frozen, "self") || text_owns(frozen, attribute)) return true;
  }
  return false;
}

static Callers links__callers_of_linted(void *self, Text name) { return links_callers(self, name); }

/* What one other file's summary says of methods named `method` (".name"):
 * ANSWER_NO when one is no custom forward of a module class, ANSWER_YES
 * when all that it defines are, `answer` when it defines none. */
static Answer links__file_custom_forward(Links *self, const Summary *summary, Text word, const char *method, Answer answer) {
  (void)word;
  uint32_t training = REACH(EV_BACKWARD) | REACH(EV_STEP) | REACH(EV_CLEAR);
  for (uint32_t k = 0; k < summary->functions.size && answer != ANSWER_NO; k++) {
    const SummaryFunction *function = array_get(&summary->functions, k);
    const char *dot = strrchr(function->name, '.');
    if (!dot || strcmp(dot, method) != 0) continue;
    const SummaryClass *class_ = summary_class(summary, function->name, (uint32_t)(dot - function->name));
    bool forward = class_ && links_class_is_module(self, summary, class_) &&
                   (function->reaches & REACH_GRAD_ON_OWN_LAYERS) && !(function->reaches & training);
    answer = forward ? ANSWER_YES : ANSWER_NO;
  }
  return answer;
}

/* Whether every method named `method` in the project's other files is a
 * custom forward of a module class (and one is). */
static bool links__custom_forward(void *self_, Text method) {
  return links__ask_files(self_, method, links__file_custom_forward, ANSWER_UNKNOWN) == ANSWER_YES;
}

const Elsewhere *links_elsewhere(Links *self) {
  self->elsewhere = (Elsewhere){self,           links__defines, links__function, links__reaches_of, links__attribute,
                                links__submodule, links__frozen,  links__callers_of_linted,
                                links__custom_forward};
  return &self->elsewhere;
}
