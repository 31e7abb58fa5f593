/* lint.c — the engine: load → parse → facts → rules → suppress → sort. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "apply.h"
#include "gpulint.h"
#include "findings.h"
#include "noqa.h"
#include "suppress.h"
#include "syntax_error.h"
#include "notebook.h"
#include "parts.h"
#include "prefilter.h"
#include "project.h"
#include "rule.h"
#include "settle.h"
#include "walk.h"
#include "source.h"
#include "test_code.h"

/* Larger inputs are refused with an error rather than parsed. */
#define MAX_SOURCE_BYTES (256u * 1024u * 1024u)

struct GlLinter {
  TSParser *parser;
  bool prefilter; /* skip the facts of files no enabled rule can report on */
  Workspace *workspace; /* the projects' indexes and summaries */
  bool owns_workspace;
  bool some_unfixable;  /* whether `fixable` leaves a rule off */
  GlRuleSet fixable;    /* the rules whose fixes gl_linter_fix_buffer applies */
};


/* ---- Registry ------------------------------------------------------------ */

uint32_t gl_rule_count(void) { return RULE_COUNT; }

const GlRuleInfo *gl_rule_info(uint32_t index) {
  return index < RULE_COUNT ? &RULES[index]->info : NULL;
}

int gl_rule_index(const char *code) {
  for (uint32_t i = 0; i < RULE_COUNT; i++) {
    if (strcasecmp(RULES[i]->info.code, code) == 0) return (int)i;
  }
  return -1;
}

const char *gl_rule_docs(uint32_t index) {
  return index < RULE_COUNT ? rule_docs_for(RULES[index]->info.code) : NULL;
}

const char *gl_effect_name(GlEffect effect) {
  static const char *const NAMES[] = {
      [GL_EFFECT_NONE] = "none",
      [GL_EFFECT_GPU_GROWTH] = "gpu-growth",
      [GL_EFFECT_HOST_GROWTH] = "host-growth",
      [GL_EFFECT_PEAK] = "peak",
      [GL_EFFECT_CRASH] = "crash",
      [GL_EFFECT_WRONG_GRADIENTS] = "wrong-gradients",
      [GL_EFFECT_SLOWDOWN] = "slowdown",
  };
  return (unsigned)effect < sizeof NAMES / sizeof NAMES[0] ? NAMES[effect] : "none";
}

const char *gl_severity_name(GlSeverity severity) {
  return severity == GL_SEVERITY_ERROR ? "error" : "warning";
}

GlRuleSet gl_rule_set_default(void) {
  GlRuleSet set = {.enabled = {false}};
  for (uint32_t i = 0; i < RULE_COUNT; i++) set.enabled[i] = RULES[i]->info.default_enabled;
  return set;
}

GlRuleSet gl_rule_set_for_tests(GlRuleSet rules) {
  for (uint32_t i = 0; i < RULE_COUNT; i++) {
    GlEffect effect = RULES[i]->info.effect;
    bool correctness = effect == GL_EFFECT_NONE || effect == GL_EFFECT_CRASH || effect == GL_EFFECT_WRONG_GRADIENTS;
    if (!correctness) rules.enabled[i] = false;
  }
  rules.tests_by_code = false;
  return rules;
}

const char *gl_version(void) { return GPULINT_VERSION; }

/* ---- Reporting --------------------------------------------------------- */


static GlFinding *lint__report(RuleContext *ctx, TSNode node, GlEffect effect, Basis basis, const char *format,
                               va_list args) {
  if ((basis.name_only || basis.pedantic) && !ctx->pedantic) return NULL;
  char *message = gl_vformat(format, args);
  GlFinding *finding = findings_add(ctx->findings, ctx->source, ctx->rule_index, effect, ts_node_start_byte(node),
                                 ts_node_end_byte(node), message);
  if (basis.warning) finding->severity = GL_SEVERITY_WARNING;
  if (basis.detail) finding->detail = gl_strdup(basis.detail);
  if (!basis.linked) return finding;
  const Linked *linked = basis.linked;
  finding->related_path = gl_strdup(linked->summary->path);
  finding->related_line = linked->function ? linked->function->line : linked->class_ ? linked->class_->line : 1;
  return finding;
}

GlFinding *rule_report(RuleContext *ctx, TSNode node, GlEffect effect, const char *format, ...) {
  va_list args;
  va_start(args, format);
  GlFinding *finding = lint__report(ctx, node, effect, (Basis){.name_only = false}, format, args);
  va_end(args);
  return finding;
}

GlFinding *rule_report_on(RuleContext *ctx, TSNode node, GlEffect effect, Basis basis, const char *format, ...) {
  va_list args;
  va_start(args, format);
  GlFinding *finding = lint__report(ctx, node, effect, basis, format, args);
  va_end(args);
  return finding;
}

const char *rule_where(const RuleContext *ctx, TSNode node, Where *buffer) {
  uint32_t cell = 0;
  GlPosition position = source_position(ctx->source, ts_node_start_byte(node), &cell);
  if (cell) snprintf(buffer->text, sizeof buffer->text, "cell %u, line %u", cell, position.line);
  else snprintf(buffer->text, sizeof buffer->text, "line %u", position.line);
  return buffer->text;
}

/* ---- Results ------------------------------------------------------------- */


static int lint__compare(const void *a, const void *b) {
  const GlFinding *left = a, *right = b;
  if (left->start_byte != right->start_byte) return left->start_byte < right->start_byte ? -1 : 1;
  if (left->rule != right->rule) return left->rule < right->rule ? -1 : 1;
  return 0;
}

/* Sorts by position and drops repeats of one rule at one place (a helper
 * reached from two loops is reported once). */
static void lint__sort_unique(Findings *findings) {
  if (findings->size == 0) return;
  qsort(findings->contents, findings->size, sizeof(GlFinding), lint__compare);
  uint32_t kept = 1;
  for (uint32_t i = 1; i < findings->size; i++) {
    GlFinding *finding = array_get(findings, i), *previous = array_get(findings, kept - 1);
    if (lint__compare(finding, previous) == 0) {
      if (!previous->fix) { /* reported from two scopes: keep the fix one of them could make */
        previous->fix = finding->fix;
        finding->fix = NULL;
      }
      finding_free(finding);
      continue;
    }
    findings->contents[kept++] = *finding;
  }
  findings->size = kept;
}


static GlFileResult *lint__result(const char *path) {
  GlFileResult *result = gl_calloc(1, sizeof(GlFileResult));
  result->path = gl_strdup(path);
  return result;
}

void gl_file_result_delete(GlFileResult *self) {
  if (!self) return;
  for (uint32_t i = 0; i < self->finding_count; i++) finding_free(&self->findings[i]);
  free(self->findings);
  for (uint32_t i = 0; i < self->dependency_count; i++) free(self->dependencies[i].path);
  free(self->dependencies);
  free(self->path);
  free(self->error);
  free(self->note);
  free(self);
}

/* ---- Linting --------------------------------------------------------------- */

GlWorkspace *gl_workspace_new(void) { return workspace_new(); }

void gl_workspace_delete(GlWorkspace *self) { workspace_delete(self); }

char *gl_workspace_notices(GlWorkspace *self) { return workspace_notices(self); }

void gl_workspace_set_indexing(GlWorkspace *self, bool enabled) { workspace_set_indexing(self, enabled); }

void gl_workspace_add_linted_folder(GlWorkspace *self, const char *folder) { workspace_add_linted_folder(self, folder); }

void gl_workspace_expect(GlWorkspace *self, const char *path) { workspace_expect(self, path); }

void gl_workspace_skip(GlWorkspace *self, const char *path) { workspace_take_parse(self, path, NULL, 0); }

void gl_workspace_set_cache_dir(GlWorkspace *self, const char *directory) { workspace_set_cache_dir(self, directory); }

uint64_t gl_content_hash(const char *bytes, size_t length) { return summary_hash_bytes(bytes, length); }

GlLinter *gl_linter_new_in(GlWorkspace *workspace) {
  syntax_init();
  GlLinter *self = gl_calloc(1, sizeof(GlLinter));
  self->parser = ts_parser_new();
  ts_parser_set_language(self->parser, tree_sitter_python());
  self->prefilter = true;
  self->workspace = workspace;
  return self;
}

GlLinter *gl_linter_new(void) {
  GlLinter *self = gl_linter_new_in(workspace_new());
  self->owns_workspace = true;
  return self;
}

void gl_linter_set_prefilter(GlLinter *self, bool enabled) { self->prefilter = enabled; }

void gl_linter_delete(GlLinter *self) {
  if (!self) return;
  ts_parser_delete(self->parser);
  if (self->owns_workspace) workspace_delete(self->workspace);
  free(self);
}

/* The project files the result read, with their hashes. */
static void lint__dependencies(GlFileResult *result, const Links *links) {
  uint32_t count = links->consulted.size + links->configs.size;
  if (!links->project || count == 0) return;
  result->dependencies = gl_calloc(count, sizeof(GlDependency));
  for (uint32_t i = 0; i < links->consulted.size; i++) {
    int32_t file = links->consulted.contents[i];
    result->dependencies[i] = (GlDependency){gl_strdup(project_path(links->project, file)),
                                             project_file_hash(links->project, file)};
  }
  for (uint32_t i = 0; i < links->configs.size; i++) {
    const struct LinkedConfig *config = array_get(&links->configs, i);
    result->dependencies[links->consulted.size + i] = (GlDependency){gl_strdup(config->path), config->hash};
  }
  result->dependency_count = count;
}

/* Hands the project the linted file's summary, made from this lint's
 * walk (`walked`, not yet settled), when the project has none yet: a
 * question about the file then finds it without parsing the file again. */
static void lint__give_summary(const Links *links, const Facts *walked) {
  if (!links->project || links->file < 0) return;
  uint64_t hash = summary_hash_bytes(walked->source->bytes, walked->source->length);
  if (!project_wants_summary(links->project, links->file, hash)) return;
  Facts *alone = facts_copy(walked);
  Summary *summary = summary_of_walk(project_path(links->project, links->file), hash, alone);
  facts_delete(alone);
  project_adopt_summary(links->project, links->file, summary);
}

/* Settles `facts` (walked, taken) with `links` and runs the enabled rules
 * over them; false when the tree was too deep to walk whole. */
static bool lint__check(Findings *findings, const Source *source, TSNode root, const GlRuleSet *rules, Facts *facts,
                        Links *links) {
  facts_settle(facts, links_elsewhere(links));
  bool whole = !facts->truncated;
  Flow *flow = flow_new(facts);
  for (uint32_t i = 0; i < RULE_COUNT && !(facts->other_framework && !facts->imports_torch); i++) {
    if (!rules->enabled[i] || !RULES[i]->check) continue;
    RuleContext ctx = {source, facts, flow, links, rules->pedantic, root, RULES[i], i, findings};
    RULES[i]->check(&ctx);
  }
  flow_delete(flow);
  facts_delete(facts);
  return whole;
}

/* Runs the enabled rules over `walked` (facts_walk of `root`, owned; NULL:
 * walk here); false when the tree was too deep to walk whole. */
static bool lint__run_rules(GlLinter *self, GlFileResult *result, Findings *findings, const Source *source,
                            TSNode root, const GlRuleSet *rules, Facts *walked) {
  Project *project = workspace_project(self->workspace, source->path);
  Links *links = links_new(project, source->path);
  Facts *facts = walked ? walked : facts_walk(source, root);
  lint__give_summary(links, facts);
  bool whole = lint__check(findings, source, root, rules, facts, links);
  lint__dependencies(result, links);
  links_delete(links);
  return whole;
}

/* A file no rule reports on still gives the index its summary, from this
 * parse, once questions about other files have begun in the run (a run
 * of files that never use torch asks none, and walks none of them). Takes
 * `walked` (NULL: walk here when needed). */
static void lint__summary_only(GlLinter *self, const Source *source, TSNode root, Facts *walked) {
  if (!workspace_questions_asked(self->workspace)) {
    facts_delete(walked);
    return;
  }
  Links *links = links_new(workspace_project(self->workspace, source->path), source->path);
  if (links->project && links->file >= 0 &&
      project_wants_summary(links->project, links->file, summary_hash_bytes(source->bytes, source->length))) {
    if (!walked) walked = facts_walk(source, root);
    lint__give_summary(links, walked);
  }
  facts_delete(walked);
  links_delete(links);
}

/* Moves the findings of `from` that start within [start, end) to `to`
 * and frees the others. */
static void lint__keep_within(Findings *to, Findings *from, uint32_t start, uint32_t end) {
  for (uint32_t i = 0; i < from->size; i++) {
    GlFinding *finding = array_get(from, i);
    if (finding->start_byte >= start && finding->start_byte < end) array_push(to, *finding);
    else finding_free(finding);
  }
  from->size = 0;
}

/* Whether `findings` from `first` on hold a syntax error (GPU900). */
static bool lint__has_syntax_error(const Findings *findings, uint32_t first) {
  int syntax = gl_rule_index("GPU900");
  for (uint32_t i = first; i < findings->size; i++) {
    if ((int)findings->contents[i].rule == syntax) return true;
  }
  return false;
}

/* Lints one part of a large file (parts.h): parses it with its context,
 * runs what `verdict` asks for, and moves the findings within the part to
 * `findings`; the file's first syntax error only (`*syntax_error` says
 * whether an earlier part had one). The part's tree and facts are freed
 * before it returns; false when the parser gave up. */
static bool lint__part(GlLinter *self, GlFileResult *result, Findings *findings, const Source *source,
                       const GlRuleSet *rules, const Parts *parts, uint32_t index, PrefilterVerdict verdict,
                       Links *links, bool *syntax_error) {
  PartRanges ranges = array_new();
  parts_ranges(parts, index, &ranges);
  ts_parser_set_included_ranges(self->parser, ranges.contents, ranges.size);
  array_delete(&ranges);
  TSTree *tree = ts_parser_parse_string(self->parser, NULL, source->bytes, source->length);
  if (!tree) return false;
  TSNode root = ts_tree_root_node(tree);
  Findings found = array_new();
  if (verdict == PREFILTER_RUN && !lint__check(&found, source, root, rules, facts_walk(source, root), links)) {
    free(result->note);
    result->note = gl_format("nesting deeper than %u levels: the code below that depth was not checked",
                             FACTS_MAX_DEPTH);
  }
  if (!*syntax_error) syntax_error_report(&found, source, root, self->parser, rules);
  suppress_findings(&found, source, root, rules);
  const TSRange *part = array_get(&parts->parts, index);
  uint32_t first = findings->size;
  lint__keep_within(findings, &found, part->start_byte, part->end_byte);
  *syntax_error |= lint__has_syntax_error(findings, first);
  array_delete(&found);
  ts_tree_delete(tree);
  return true;
}

/* Lints a large file part by part (parts.h); the file gives the project
 * no summary of its own (a question about it parses it whole). */
static void lint__parts(GlLinter *self, GlFileResult *result, const Source *source, const GlRuleSet *rules,
                        PrefilterVerdict verdict, Findings *findings) {
  Parts parts;
  parts_split(source->bytes, source->length, &parts);
  Links *links = links_new(workspace_project(self->workspace, source->path), source->path);
  bool syntax_error = false;
  for (uint32_t i = 0; i < parts.parts.size && !result->error; i++) {
    if (!lint__part(self, result, findings, source, rules, &parts, i, verdict, links, &syntax_error)) {
      result->error = gl_strdup("the parser gave up on this file");
    }
  }
  ts_parser_set_included_ranges(self->parser, NULL, 0);
  lint__dependencies(result, links);
  links_delete(links);
  parts_delete(&parts);
}

/* Whether `source` is linted in parts: a large Python file (not a
 * notebook, nor a document whose tree an editor keeps for its next parse,
 * nor one a question has parsed whole already). */
static bool lint__in_parts(const Source *source, TSTree **kept, const ProjectParse *parsed) {
  return source->length >= PARTS_MIN_BYTES && source->cells.size == 0 && !kept && !parsed;
}

/* `rules`, less the ones a test file does not run when the file is a test
 * file by its code (GlRuleSet.tests_by_code, test_code.h). */
static GlRuleSet lint__rules_for_code(const GlRuleSet *rules, const Source *source, TSNode root) {
  if (rules->tests_by_code && test_code_shows_tests(source, root)) return gl_rule_set_for_tests(*rules);
  GlRuleSet own = *rules;
  own.tests_by_code = false;
  return own;
}

/* Lints `source`. With `kept` (a document's tree, edited since its last
 * parse, or NULL), the parse starts from that tree and the new tree
 * replaces it there; a skipped file leaves no tree. With `parsed` (a
 * question's parse of these bytes; its tree and facts are taken, its
 * source is `source`), nothing is parsed or walked again. A large file
 * with neither is linted in parts (parts.h). */
static void lint__source(GlLinter *self, GlFileResult *result, const Source *source, const GlRuleSet *rules,
                         TSTree **kept, ProjectParse *parsed) {
  TSTree *old = kept ? *kept : parsed ? parsed->tree : NULL;
  Facts *walked = parsed ? parsed->facts : NULL;
  if (kept) *kept = NULL;
  PrefilterVerdict verdict = PREFILTER_SKIP;
  if (!noqa_skips_file(source->bytes, source->length, NULL)) {
    verdict = self->prefilter ? prefilter_scan(source->bytes, source->length, rules) : PREFILTER_RUN;
  }
  if (verdict == PREFILTER_SKIP) facts_delete(walked);
  if (verdict == PREFILTER_SKIP) {
    ts_tree_delete(old);
    return;
  }
  if (lint__in_parts(source, kept, parsed)) {
    Findings findings = array_new();
    GlRuleSet named = rules->tests_by_code ? gl_rule_set_for_tests(*rules) : *rules; /* no whole tree to look at */
    lint__parts(self, result, source, &named, verdict, &findings);
    lint__sort_unique(&findings);
    result->findings = findings.contents;
    result->finding_count = findings.size;
    return;
  }
  TSTree *tree = parsed ? old : ts_parser_parse_string(self->parser, old, source->bytes, source->length);
  if (!parsed) ts_tree_delete(old);
  if (!tree) {
    result->error = gl_strdup("the parser gave up on this file");
    return;
  }
  TSNode root = ts_tree_root_node(tree);
  GlRuleSet own = lint__rules_for_code(rules, source, root);
  rules = &own;
  Findings findings = array_new();
  if (verdict == PREFILTER_PARSE_ONLY) lint__summary_only(self, source, root, walked);
  if (verdict == PREFILTER_RUN && !lint__run_rules(self, result, &findings, source, root, rules, walked)) {
    result->note = gl_format("nesting deeper than %u levels: the code below that depth was not checked",
                             FACTS_MAX_DEPTH);
  }
  syntax_error_report(&findings, source, root, self->parser, rules);
  suppress_findings(&findings, source, root, rules);
  lint__sort_unique(&findings);
  result->findings = findings.contents;
  result->finding_count = findings.size;
  if (kept) *kept = tree;
  else ts_tree_delete(tree);
}

/* The Source to lint: the bytes themselves, or a notebook's code cells.
 * NULL with the result's `error` (a broken notebook) or `note` (another
 * kernel language) set. */
static Source *lint__load(GlFileResult *result, const char *path, const char *bytes, size_t length) {
  if (!notebook_path_matches(path)) return source_new(path, bytes, length);
  NotebookStatus status = NOTEBOOK_OK;
  char *message = NULL;
  Source *source = notebook_load(path, bytes, length, &status, &message);
  if (status == NOTEBOOK_NOT_PYTHON) result->note = message;
  else if (status == NOTEBOOK_INVALID) result->error = message;
  return source;
}

GlFileResult *gl_linter_lint_buffer(GlLinter *self, const char *path, const char *bytes, size_t length,
                                    const GlRuleSet *rules) {
  GlFileResult *result = lint__result(path);
  if (length > MAX_SOURCE_BYTES) {
    result->error = gl_format("file is too large to lint (%zu bytes; the limit is %u)", length, MAX_SOURCE_BYTES);
    return result;
  }
  size_t bad = 0;
  const char *problem = source_check_text(bytes, length, &bad);
  if (problem) {
    result->error = gl_format("%s (byte %zu)", problem, bad);
    return result;
  }
  ProjectParse *parsed = workspace_take_parse(self->workspace, path, bytes, length);
  Source *source = parsed ? parsed->source : lint__load(result, path, bytes, length);
  if (parsed) { /* the same bytes, parsed for a question: the lint names the file as it was given */
    free(source->path);
    source->path = gl_strdup(path);
  }
  if (source) lint__source(self, result, source, rules, NULL, parsed);
  source_delete(source);
  free(parsed);
  return result;
}

/* Reads the whole file; the caller frees the bytes. NULL with `error` set
 * on failure. */
static char *lint__read(const char *path, size_t *length, char **error) {
  struct stat info;
  if (stat(path, &info) != 0) {
    *error = gl_format("cannot read: %s", strerror(errno));
    return NULL;
  }
  if (S_ISDIR(info.st_mode)) {
    *error = gl_strdup("is a directory");
    return NULL;
  }
  if (!S_ISREG(info.st_mode)) { /* a FIFO or a device could block the read forever */
    *error = gl_strdup("is not a regular file");
    return NULL;
  }
  if (info.st_size > (off_t)MAX_SOURCE_BYTES) {
    *error = gl_format("file is too large to lint (%lld bytes; the limit is %u)", (long long)info.st_size,
                       MAX_SOURCE_BYTES);
    return NULL;
  }
  FILE *file = fopen(path, "rb");
  if (!file) {
    *error = gl_format("cannot read: %s", strerror(errno));
    return NULL;
  }
  size_t capacity = (size_t)info.st_size + 1, used = 0;
  char *bytes = gl_malloc(capacity);
  size_t got;
  while ((got = fread(bytes + used, 1, capacity - used, file)) > 0) {
    used += got;
    if (used == capacity) bytes = gl_realloc(bytes, capacity *= 2);
  }
  bool failed = ferror(file);
  fclose(file);
  if (failed) {
    free(bytes);
    *error = gl_strdup("cannot read: I/O error");
    return NULL;
  }
  *length = used;
  return bytes;
}

GlFileResult *gl_linter_lint_file(GlLinter *self, const char *path, const GlRuleSet *rules) {
  size_t length = 0;
  char *error = NULL;
  char *bytes = lint__read(path, &length, &error);
  if (!bytes) {
    GlFileResult *result = lint__result(path);
    result->error = error;
    return result;
  }
  GlFileResult *result = gl_linter_lint_buffer(self, path, bytes, length, rules);
  free(bytes);
  return result;
}

/* ---- Fixing ------------------------------------------------------------------- */

/* The number of ERROR and MISSING nodes in the parse of `source`. */
static uint32_t lint__parse_errors(GlLinter *self, const Source *source) {
  TSTree *tree = ts_parser_parse_string(self->parser, NULL, source->bytes, source->length);
  if (!tree) return UINT32_MAX;
  uint32_t count = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(tree));
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    count += ts_node_is_error(node) || ts_node_is_missing(node);
    if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cursor)) && ts_tree_cursor_goto_parent(&cursor)) {
    }
  }
  ts_tree_cursor_delete(&cursor);
  ts_tree_delete(tree);
  return count;
}

/* The Python the content holds (a notebook's code cells joined), or NULL. */
static Source *lint__code(const char *path, const char *bytes, size_t length) {
  GlFileResult *scratch = lint__result(path);
  Source *source = lint__load(scratch, path, bytes, length);
  gl_file_result_delete(scratch);
  return source;
}

/* One pass: the content with the fixes of `result` applied, or NULL when
 * none applies. A notebook's edits go to its cells' `source` (the code the
 * engine read is the cells joined, masked byte for byte). */
static char *lint__fix_pass(const char *path, const char *bytes, size_t length, const GlFileResult *result,
                            bool unsafe, uint32_t *applied, size_t *new_length) {
  bool notebook = notebook_path_matches(path);
  Source *code = notebook ? lint__code(path, bytes, length) : NULL;
  if (notebook && !code) return NULL;
  EditList edits = array_new();
  apply_select(result, notebook ? code->length : length, unsafe, applied, &edits);
  char *fixed = NULL;
  if (edits.size > 0) {
    fixed = notebook ? notebook_apply_edits(bytes, length, code, edits.contents, edits.size, new_length)
                     : edits_apply(bytes, length, &edits, new_length);
  }
  array_delete(&edits);
  source_delete(code);
  return fixed;
}

/* Whether `bytes` parse no worse than the original did (`errors`). */
static bool lint__parses(GlLinter *self, const char *path, const char *bytes, size_t length, uint32_t errors) {
  Source *code = lint__code(path, bytes, length);
  bool ok = code && lint__parse_errors(self, code) <= errors;
  source_delete(code);
  return ok;
}

void gl_linter_set_fixable(GlLinter *self, const GlRuleSet *fixable) {
  self->some_unfixable = false;
  for (uint32_t i = 0; fixable && i < RULE_COUNT; i++) self->some_unfixable |= !fixable->enabled[i];
  if (fixable) self->fixable = *fixable;
}

void gl_file_result_drop_fixes(GlFileResult *self, const GlRuleSet *fixable) {
  for (uint32_t i = 0; self && i < self->finding_count; i++) {
    GlFinding *finding = &self->findings[i];
    if (!finding->fix || fixable->enabled[finding->rule]) continue;
    gl_fix_delete(finding->fix);
    finding->fix = NULL;
  }
}

/* The findings of `bytes`, with only the fixes the linter may apply. */
static GlFileResult *lint__fixable(GlLinter *self, const char *path, const char *bytes, size_t length,
                                   const GlRuleSet *rules) {
  GlFileResult *result = gl_linter_lint_buffer(self, path, bytes, length, rules);
  if (self->some_unfixable) gl_file_result_drop_fixes(result, &self->fixable);
  return result;
}

GlFixedFile *gl_linter_fix_buffer(GlLinter *self, const char *path, const char *bytes, size_t length,
                                  const GlRuleSet *rules, bool unsafe) {
  GlFixedFile *fixed = gl_calloc(1, sizeof(GlFixedFile));
  fixed->result = lint__fixable(self, path, bytes, length, rules);
  Source *original = fixed->result->error ? NULL : lint__code(path, bytes, length);
  uint32_t errors = original ? lint__parse_errors(self, original) : 0;
  source_delete(original);
  const char *text = bytes;
  size_t text_length = length;
  for (uint32_t pass = 0; pass < GL_FIX_MAX_PASSES && !fixed->result->error; pass++) {
    uint32_t applied[GL_MAX_RULES] = {0};
    size_t next_length = 0;
    char *next = lint__fix_pass(path, text, text_length, fixed->result, unsafe, applied, &next_length);
    if (!next || !lint__parses(self, path, next, next_length, errors)) { /* a fix must not break the parse */
      free(next);
      break;
    }
    gl_file_result_delete(fixed->result);
    fixed->result = lint__fixable(self, path, next, next_length, rules);
    free(fixed->bytes);
    fixed->bytes = next;
    fixed->length = next_length;
    text = next;
    text_length = next_length;
    for (uint32_t i = 0; i < GL_MAX_RULES; i++) {
      fixed->applied[i] += applied[i];
      fixed->applied_count += applied[i];
    }
  }
  return fixed;
}

void gl_fixed_file_delete(GlFixedFile *self) {
  if (!self) return;
  free(self->bytes);
  gl_file_result_delete(self->result);
  free(self);
}

/* ---- Adding `# noqa` -------------------------------------------------------------- */

char *gl_linter_add_noqa(GlLinter *self, const char *path, const char *bytes, size_t length,
                         const GlFileResult *result, size_t *new_length, uint32_t *added) {
  *added = 0;
  Source *code = result->finding_count ? lint__code(path, bytes, length) : NULL;
  TSTree *tree = code ? ts_parser_parse_string(self->parser, NULL, code->bytes, code->length) : NULL;
  char *fixed = NULL;
  if (tree) {
    GlEdit **edits = NULL;
    uint32_t count = suppress_noqa_edits(code, ts_tree_root_node(tree), result, &edits);
    EditList list = array_new();
    for (uint32_t i = 0; i < count; i++) array_push(&list, edits[i]);
    if (count > 0) {
      fixed = notebook_path_matches(path) ? notebook_apply_edits(bytes, length, code, list.contents, list.size, new_length)
                                          : edits_apply(bytes, length, &list, new_length);
    }
    *added = fixed ? count : 0;
    for (uint32_t i = 0; i < count; i++) {
      free(edits[i]->content);
      free(edits[i]);
    }
    free(edits);
    array_delete(&list);
    ts_tree_delete(tree);
  }
  source_delete(code);
  return fixed;
}

/* ---- Documents (editors) ----------------------------------------------------------
 *
 * A document keeps its text and the tree of its last lint. An edit
 * changes the text in place and tells the tree (ts_tree_edit), so that the
 * next lint re-parses only what the edit touched. */

struct GlDocument {
  char *path;     /* owned */
  char *bytes;    /* owned; NUL-terminated */
  size_t length;
  size_t capacity;
  TSTree *tree;   /* the last lint's tree, edited since; NULL: parse afresh */
};

GlDocument *gl_document_new(const char *path, const char *bytes, size_t length) {
  GlDocument *self = gl_calloc(1, sizeof(GlDocument));
  self->path = gl_strdup(path);
  self->capacity = length + 1;
  self->bytes = gl_malloc(self->capacity);
  memcpy(self->bytes, bytes, length);
  self->bytes[length] = '\0';
  self->length = length;
  return self;
}

void gl_document_delete(GlDocument *self) {
  if (!self) return;
  ts_tree_delete(self->tree);
  free(self->bytes);
  free(self->path);
  free(self);
}

const char *gl_document_text(const GlDocument *self, size_t *length) {
  *length = self->length;
  return self->bytes;
}

/* The row and byte column of `offset` in `bytes`, counted from `from` (a
 * point known to lie at byte `from_offset`). */
static TSPoint document__point(const char *bytes, size_t from_offset, TSPoint from, size_t offset) {
  TSPoint point = from;
  for (const char *at = bytes + from_offset, *end = bytes + offset; at < end;) {
    const char *newline = memchr(at, '\n', (size_t)(end - at));
    if (!newline) {
      point.column += (uint32_t)(end - at);
      break;
    }
    point.row++;
    point.column = 0;
    at = newline + 1;
  }
  return point;
}

/* Tells the kept tree about the edit, before the text changes. */
static void document__edit_tree(GlDocument *self, size_t start, size_t end, const char *content, size_t length) {
  if (!self->tree) return;
  TSPoint start_point = document__point(self->bytes, 0, (TSPoint){0, 0}, start);
  TSPoint old_end = document__point(self->bytes, start, start_point, end);
  TSPoint new_end = document__point(content, 0, start_point, length);
  TSInputEdit edit = {(uint32_t)start, (uint32_t)end, (uint32_t)(start + length), start_point, old_end, new_end};
  ts_tree_edit(self->tree, &edit);
}

bool gl_document_edit(GlDocument *self, size_t start, size_t end, const char *content, size_t length) {
  if (start > end || end > self->length) return false;
  size_t new_length = self->length - (end - start) + length;
  if (new_length > MAX_SOURCE_BYTES) return false;
  document__edit_tree(self, start, end, content, length);
  if (new_length + 1 > self->capacity) {
    self->capacity = (new_length + 1) * 3 / 2;
    self->bytes = gl_realloc(self->bytes, self->capacity);
  }
  memmove(self->bytes + start + length, self->bytes + end, self->length - end + 1); /* with the NUL */
  memcpy(self->bytes + start, content, length);
  self->length = new_length;
  return true;
}

GlFileResult *gl_linter_lint_document(GlLinter *self, GlDocument *document, const GlRuleSet *rules) {
  if (notebook_path_matches(document->path)) {
    return gl_linter_lint_buffer(self, document->path, document->bytes, document->length, rules);
  }
  GlFileResult *result = lint__result(document->path);
  size_t bad = 0;
  const char *problem = source_check_text(document->bytes, document->length, &bad);
  if (problem) {
    result->error = gl_format("%s (byte %zu)", problem, bad);
    return result;
  }
  Source *source = source_new(document->path, document->bytes, document->length);
  lint__source(self, result, source, rules, &document->tree, NULL);
  source_delete(source);
  return result;
}

char *gl_fix_apply(const char *path, const char *bytes, size_t length, const GlFix *fix, size_t *new_length) {
  bool notebook = notebook_path_matches(path);
  Source *code = notebook ? lint__code(path, bytes, length) : NULL;
  if (notebook && !code) return NULL;
  EditList edits = array_new();
  for (uint32_t i = 0; i < fix->edit_count; i++) array_push(&edits, &fix->edits[i]);
  char *fixed = notebook ? notebook_apply_edits(bytes, length, code, edits.contents, edits.size, new_length)
                         : edits_apply(bytes, length, &edits, new_length);
  array_delete(&edits);
  source_delete(code);
  return fixed;
}

void gl_workspace_forget(GlWorkspace *self, const char *path) { workspace_forget(self, path); }

void gl_workspace_set_overlay(GlWorkspace *self, const char *path, const char *bytes, size_t length) {
  workspace_set_overlay(self, path, bytes, length);
}
