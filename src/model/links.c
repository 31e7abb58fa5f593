/* links.c — resolving imported names to the project's definitions. */
#include "links.h"

#include <stdio.h>
#include <string.h>

#include "facts.h"
#include "roles.h"

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

/* Whether a call written as `callee` in `caller` runs the module-level
 * function (or "Class.method") `name` of file `target`. */
static bool links__calls_linted(Links *self, const Summary *caller, const char *callee, int32_t target, Text name) {
  char *folder = links__folder(caller);
  Text symbol;
  int32_t file = links__locate(self, folder, (Text){callee, (uint32_t)strlen(callee)}, &symbol);
  free(folder);
  return file >= 0 && file == target && text_eq(symbol, name);
}

static Callers links__callers(Links *self, int32_t target, Text name);

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
 * `from trainer import run` and `import trainer` alike. */
static void links__imported_files(Links *self, const Summary *importer, FileList *out) {
  char *folder = links__folder(importer);
  for (uint32_t i = 0; i < importer->imports.size; i++) {
    const char *qualified = importer->imports.contents[i].qualified;
    Text name = {qualified, (uint32_t)strlen(qualified)}, symbol;
    int32_t file = links__locate(self, folder, name, &symbol);
    if (file < 0) file = project_resolve_module(self->project, folder, name);
    if (file >= 0) array_push(out, file);
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
  for (uint32_t i = 0; i < seen.size; i++) { /* the linted file's own text does not count */
    if (seen.contents[i] == self->file) seen.contents[i--] = seen.contents[--seen.size];
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
