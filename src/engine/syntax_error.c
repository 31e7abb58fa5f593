/* syntax_error.c — GPU900: the first place a file is not Python 3. */
#include "syntax_error.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "rule.h"

/* ---- Python 2 ------------------------------------------------------------------------ */

/* What makes `node` Python 2 (a print statement with something to print,
 * an exec statement, a backquoted expression, which the grammar parses as
 * a string), or NULL. `except E, e:` is not a mark: Python 3.14 reads it
 * as `except (E, e):`. */
static const char *syntax__python2_mark(TSNode node, const char *bytes) {
  const char *type = ts_node_type(node);
  if (strcmp(type, "print_statement") == 0) { /* `print >> f` alone is a (useless) Python 3 expression */
    return ts_node_is_null(ts_node_child_by_field_name(node, "argument", 8)) ? NULL : "a `print` statement";
  }
  if (strcmp(type, "exec_statement") == 0) return "an `exec` statement";
  if (strcmp(type, "string") == 0 && bytes[ts_node_start_byte(node)] == '`') return "a backquoted expression";
  return NULL;
}

/* Whether `word` occurs in the source's bytes. */
static bool syntax__contains(const Source *source, const char *word) {
  size_t length = strlen(word);
  const char *end = source->bytes + source->length;
  for (const char *at = memchr(source->bytes, word[0], source->length); at; at = memchr(at + 1, word[0], (size_t)(end - at - 1))) {
    if ((size_t)(end - at) >= length && memcmp(at, word, length) == 0) return true;
    if (at + 1 >= end) break;
  }
  return false;
}

/* The first node, in source order, that only Python 2 allows; its mark in
 * `mark`. Null when there is none (the tree is walked only when the text
 * holds one of the words or a backquote). */
static TSNode syntax__python2(const Source *source, TSNode root, const char **mark) {
  TSNode found = {0};
  *mark = NULL;
  if (!syntax__contains(source, "print") && !syntax__contains(source, "exec") && !syntax__contains(source, "`")) {
    return found;
  }
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if ((*mark = syntax__python2_mark(node, source->bytes))) {
      found = node;
      break;
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!(more = ts_tree_cursor_goto_next_sibling(&cursor)) && ts_tree_cursor_goto_parent(&cursor)) {
    }
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

/* ---- The grammar's gap: `x = 1, *[2]` ------------------------------------------------ */

static bool syntax__blank(char c) { return c == ' ' || c == '\t'; }

/* Whether byte `at` of the source lies in a string or a comment. */
static bool syntax__in_literal(TSNode root, uint32_t at) {
  for (TSNode node = ts_node_descendant_for_byte_range(root, at, at + 1); !ts_node_is_null(node);
       node = ts_node_parent(node)) {
    const char *type = ts_node_type(node);
    if (strcmp(type, "string") == 0 || strcmp(type, "comment") == 0) return true;
  }
  return false;
}

/* Whether the `*` at `at` starts a starred item the grammar cannot parse:
 * after `,` or a lone `=`, before an operand that opens with a bracket, a
 * brace or a quote (`x = 1, *[2]`, `y = *(a,), b`). */
static bool syntax__gap_star(const char *bytes, uint32_t length, uint32_t at) {
  if (bytes[at] != '*' || (at > 0 && bytes[at - 1] == '*') || (at + 1 < length && strchr("*=", bytes[at + 1]))) {
    return false;
  }
  uint32_t before = at, after = at + 1;
  while (before > 0 && syntax__blank(bytes[before - 1])) before--;
  while (after < length && syntax__blank(bytes[after])) after++;
  if (before == 0 || after == length || !strchr("[({\"'", bytes[after])) return false;
  char previous = bytes[before - 1];
  if (previous == ',') return true;
  return previous == '=' && (before < 2 || !strchr("=<>!:+-*/%&|^@", bytes[before - 2]));
}

/* A copy of the source with the star of every such item blanked (`x = 1,
 * [2]`: valid exactly when the original is, and of the same length), or
 * NULL when there is none. The caller frees it. */
static char *syntax__unstarred(const Source *source, TSNode root) {
  char *copy = NULL;
  for (const char *star = memchr(source->bytes, '*', source->length); star;) {
    uint32_t at = (uint32_t)(star - source->bytes);
    if (syntax__gap_star(source->bytes, source->length, at) && !syntax__in_literal(root, at)) {
      if (!copy) copy = gl_strndup(source->bytes, source->length);
      copy[at] = ' ';
    }
    star = at + 1 < source->length ? memchr(star + 1, '*', source->length - at - 1) : NULL;
  }
  return copy;
}

/* ---- The first error -------------------------------------------------------------------- */

/* The first ERROR or MISSING node in source order, by pre-order search. */
static TSNode syntax__first_error(TSNode root) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  TSNode found = {0};
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_is_error(node) || ts_node_is_missing(node)) {
      found = node;
      break;
    }
    if (ts_node_has_error(node) && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

/* The message for the error node `error` of a tree over `bytes` (the
 * source, or its unstarred copy: the same offsets); the caller frees it. */
static char *syntax__message(const Source *source, TSNode error) {
  if (ts_node_is_missing(error)) return gl_format("syntax error: expected `%s`", ts_node_type(error));
  const char *text = source->bytes + ts_node_start_byte(error);
  uint32_t length = ts_node_end_byte(error) - ts_node_start_byte(error), shown = 0;
  while (shown < length && shown < 30 && text[shown] != '\n' && text[shown] != '\r') shown++;
  return gl_format("syntax error: unexpected `%.*s`; later findings may be incomplete", (int)shown, text);
}

/* The first real error: the tree's, unless the copy without the grammar's
 * gap parses better; null when the copy has none. Owns nothing. */
static bool syntax__real_error(const Source *source, TSNode root, TSParser *parser, char **message, uint32_t *at) {
  char *unstarred = syntax__unstarred(source, root);
  TSTree *tree = unstarred ? ts_parser_parse_string(parser, NULL, unstarred, source->length) : NULL;
  TSNode checked = tree ? ts_tree_root_node(tree) : root;
  bool found = ts_node_has_error(checked);
  if (found) {
    TSNode error = syntax__first_error(checked);
    if (ts_node_is_null(error)) error = checked;
    *message = syntax__message(source, error);
    *at = ts_node_start_byte(error);
  }
  ts_tree_delete(tree);
  free(unstarred);
  return found;
}

void syntax_error_report(Findings *findings, const Source *source, TSNode root, TSParser *parser,
                         const GlRuleSet *rules) {
  int rule = gl_rule_index("GPU900");
  if (rule < 0 || !rules->enabled[rule]) return;
  const char *mark = NULL;
  TSNode python2 = syntax__python2(source, root, &mark);
  char *message = NULL;
  uint32_t at = 0;
  if (mark) {
    message = gl_format("Python 2 syntax (%s): gpulint checks Python 3 code; port the file or exclude it", mark);
    at = ts_node_start_byte(python2);
  } else if (!ts_node_has_error(root) || !syntax__real_error(source, root, parser, &message, &at)) {
    return;
  }
  findings_add(findings, source, (uint32_t)rule, GL_EFFECT_NONE, at, at, message);
}
