/* syntax.h — small helpers over tree-sitter-python nodes.
 *
 * Node kinds are resolved to an enum once, so matchers compare integers,
 * and node text is a borrowed slice of the source. */
#ifndef GPULINT_SYNTAX_H
#define GPULINT_SYNTAX_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "source.h"

const TSLanguage *tree_sitter_python(void);

typedef enum {
  K_OTHER,
  K_MODULE,
  K_FUNCTION_DEFINITION,
  K_CLASS_DEFINITION,
  K_DECORATED_DEFINITION,
  K_DECORATOR,
  K_FOR_STATEMENT,
  K_WHILE_STATEMENT,
  K_IF_STATEMENT,
  K_ELIF_CLAUSE,
  K_ELSE_CLAUSE,
  K_WITH_STATEMENT,
  K_WITH_ITEM,
  K_TRY_STATEMENT,
  K_EXCEPT_CLAUSE,
  K_FINALLY_CLAUSE,
  K_CALL,
  K_ATTRIBUTE,
  K_IDENTIFIER,
  K_ARGUMENT_LIST,
  K_KEYWORD_ARGUMENT,
  K_ASSIGNMENT,
  K_AUGMENTED_ASSIGNMENT,
  K_EXPRESSION_STATEMENT,
  K_RETURN_STATEMENT,
  K_LAMBDA,
  K_BLOCK,
  K_SUBSCRIPT,
  K_TUPLE,
  K_PATTERN_LIST,
  K_TUPLE_PATTERN,
  K_LIST_PATTERN,
  K_EXPRESSION_LIST,
  K_LIST,
  K_LIST_COMPREHENSION,
  K_GENERATOR_EXPRESSION,
  K_BINARY_OPERATOR,
  K_PARENTHESIZED_EXPRESSION,
  K_CONDITIONAL_EXPRESSION,
  K_COMMENT,
  K_STRING,
  K_INTEGER,
  K_FLOAT,
  K_TRUE,
  K_FALSE,
  K_NONE,
  K_DICTIONARY,
  K_PAIR,
  K_IMPORT_STATEMENT,
  K_IMPORT_FROM_STATEMENT,
  K_FUTURE_IMPORT_STATEMENT,
  K_ALIASED_IMPORT,
  K_WILDCARD_IMPORT,
  K_DOTTED_NAME,
  K_AS_PATTERN,
  K_AS_PATTERN_TARGET,
  K_COMPARISON_OPERATOR,
  K_BOOLEAN_OPERATOR,
  K_NOT_OPERATOR,
  K_UNARY_OPERATOR,
  K_NAMED_EXPRESSION,
  K_DELETE_STATEMENT,
  K_CONTINUE_STATEMENT,
  K_BREAK_STATEMENT,
  K_RAISE_STATEMENT,
  K_ERROR,
  K_KIND_COUNT
} Kind;

typedef enum {
  F_NAME,
  F_BODY,
  F_LEFT,
  F_RIGHT,
  F_FUNCTION,
  F_ARGUMENTS,
  F_OBJECT,
  F_ATTRIBUTE,
  F_VALUE,
  F_CONDITION,
  F_CONSEQUENCE,
  F_ALTERNATIVE,
  F_PARAMETERS,
  F_DEFINITION,
  F_ALIAS,
  F_MODULE_NAME,
  F_OPERATOR,
  F_SUPERCLASSES,
  F_ARGUMENT,
  F_FIELD_COUNT
} Field;

/* Upward walks (ts_node_parent costs the node's depth) stop after this
 * many steps: deeper than real code nests between a statement and the
 * scope that matters, and it keeps hostile nesting from going cubic. */
#define MAX_ASCENT 64

/* A borrowed slice of source text. */
typedef struct {
  const char *ptr;
  uint32_t length;
} Text;

/* The text of a NUL-terminated string (borrowed). */
static inline Text text_of(const char *string) { return (Text){string, (uint32_t)strlen(string)}; }

/* Resolves symbol and field ids; safe to call from any thread, any time. */
void syntax_init(void);

Kind node_kind(TSNode node);
TSFieldId syntax_field_id(Field field);
TSNode node_field(TSNode node, Field field);
bool node_is(TSNode node, Kind kind);

Text node_text(const Source *source, TSNode node);
bool text_is(Text text, const char *literal);
bool text_eq(Text a, Text b);
/* Byte order, a prefix first: <0, 0 or >0 as for memcmp. */
int text_compare(Text a, Text b);
/* text_compare of two `const Text *`, for qsort and bsearch over Text arrays. */
int text_order(const void *a, const void *b);
bool text_ends_with(Text text, const char *suffix);
bool text_contains_ci(Text text, const char *needle);
/* Whether `word` occurs in `text` as a whole identifier or dotted name
 * (not inside a longer identifier: "hidden" is not in "init_hidden"). */
bool text_mentions(Text text, Text word);
/* Whether `word` occurs in `text` as a whole identifier, also as an
 * attribute or inside a string: `dist.init_process_group(...)`,
 * `os.environ["LOCAL_RANK"]`. */
bool text_mentions_identifier(Text text, Text word);

/* Whether `word` is a dotted name (identifier characters and dots, not
 * starting with a dot): text_mentions finds such a word exactly when
 * text_map_mentions enters it. */
bool text_is_dotted_name(Text word);
/* Whether `word` is one identifier (a dotted name without dots). */
bool text_is_identifier(Text word);

/* A map from texts (borrowed, not copied) to numbers, by open addressing;
 * zero-initialise it. */
typedef struct {
  Text *keys;       /* NULL ptr: an empty slot */
  uint32_t *values;
  uint32_t capacity; /* 0 or a power of two, at most half used */
  uint32_t count;
} TextMap;

/* The value of `key`, entered as 0 when new; valid until the next entry. */
uint32_t *text_map_at(TextMap *self, Text key);
/* The value of `key`, or 0 when it is not in the map. */
uint32_t text_map_get(const TextMap *self, Text key);
/* Enters every dotted name that `text` mentions (text_mentions: at each
 * start of a dotted name, the name up to each of its dots and whole),
 * raising its value to `value` when lower. */
void text_map_mentions(TextMap *self, Text text, uint32_t value);
void text_map_delete(TextMap *self);

/* Whether `text` reads attribute `name` somewhere: ".data" followed by
 * no further identifier character (".data" but not ".data_ptr"). */
bool text_mentions_attribute(Text text, const char *name);

/* Whether `text` is one of `words` (a NULL-terminated list). */
bool text_in(Text text, const char *const *words);

/* Whether `text` starts with one of `prefixes` and goes on after it. */
bool text_starts_with_any(Text text, const char *const *prefixes);

/* Whether `text` starts with an upper-case letter: a class (`Net()`,
 * `ContentLoss(t)`) rather than an instance or a function. */
bool text_capitalized(Text text);

/* Whether `owner` is `name` or a dotted prefix of it: `model` owns
 * `model.encoder`. */
bool text_owns(Text owner, Text name);

/* The last dotted segment: "self.opt.step" -> "step". */
Text text_last_segment(Text text);
/* Returns the text without a leading "self."; other text unchanged. */
Text text_strip_self(Text text);

/* The callee of a call as text: "optimizer.zero_grad", "torch.no_grad". */
Text call_function_text(const Source *source, TSNode call);
/* The `attribute` name of `x.attr(...)` calls; empty text otherwise. */
Text call_method_name(const Source *source, TSNode call);
/* The receiver of `x.attr(...)`; a null node otherwise. */
TSNode call_receiver(TSNode call);
/* The call `x.name(...)` whose method name spans `length` bytes from
 * `at` in the tree under `root`; a null node when the name there is not
 * the method of a call (`x.name` alone, a comment, a string). */
TSNode call_of_method_name_at(TSNode root, uint32_t at, uint32_t length);
/* The byte offset of the next `.NAME(` of `source` at or after `from`,
 * NAME one of `names` (NULL-terminated) as a whole word, blanks allowed
 * before `(`; the name's index in *name. UINT32_MAX when none. A text
 * scan: the rules that look for calls of a few methods use it to visit
 * only the places worth asking the tree about (call_of_method_name_at
 * at the offset + 1 tells whether it is a call). */
uint32_t source_next_method_name(const Source *source, uint32_t from, const char *const *names, uint32_t *name);
/* The call `name(...)` or `x.name(...)` whose callee's last name spans
 * `length` bytes from `at`; a null node otherwise. */
TSNode call_of_callee_name_at(TSNode root, uint32_t at, uint32_t length);
/* The n-th positional argument (0-based), or a null node. */
TSNode call_positional(TSNode call, uint32_t n);
uint32_t call_positional_count(TSNode call);
/* The value of keyword argument `name`, or a null node. */
TSNode call_keyword(const Source *source, TSNode call, const char *name);

/* Whether the statement holding `node` is followed in its own block by a
 * continue, break, return or raise before any statement that holds
 * `until`: on that path, `until` does not run after `node`. */
bool node_leaves_before(TSNode node, TSNode until);

/* Whether `node` sits in `with pytest.raises(...):` or
 * `with self.assertRaises(...):` in its function: code expected to raise
 * (a forward or backward checked for its error). */
bool node_expects_error(const Source *source, TSNode node);

/* Whether `node` sits under an if, elif or else between it and `scope`
 * (an ancestor): it does not run on every pass through `scope`. */
bool node_under_if(TSNode node, TSNode scope);

/* The innermost branch between `node` and `scope` (an ancestor) that
 * holds `node`: an `if`'s consequence block, an `elif`, `else` or
 * `except` clause; a null node when none does. Call it again with the
 * branch's parent for the next branch out. */
TSNode node_branch_of(TSNode node, TSNode scope);

/* Whether `branch` (from node_branch_of) is the consequence of its `if`:
 * it runs when the condition holds. */
bool node_branch_is_consequence(TSNode branch);

/* Whether `inner` lies within `outer` (by byte range). */
bool node_contains(TSNode outer, TSNode inner);
/* Looks through parentheses. */
TSNode node_unparenthesize(TSNode node);
/* Whether `node` is a literal constant: None, True, False, a number, a
 * string. */
bool node_is_literal(TSNode node);

#endif
