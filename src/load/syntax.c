/* syntax.c — node kinds, fields and text slices. */
#include "syntax.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const KIND_NAMES[K_KIND_COUNT] = {
    [K_MODULE] = "module",
    [K_FUNCTION_DEFINITION] = "function_definition",
    [K_CLASS_DEFINITION] = "class_definition",
    [K_DECORATED_DEFINITION] = "decorated_definition",
    [K_DECORATOR] = "decorator",
    [K_FOR_STATEMENT] = "for_statement",
    [K_WHILE_STATEMENT] = "while_statement",
    [K_IF_STATEMENT] = "if_statement",
    [K_ELIF_CLAUSE] = "elif_clause",
    [K_ELSE_CLAUSE] = "else_clause",
    [K_WITH_STATEMENT] = "with_statement",
    [K_WITH_ITEM] = "with_item",
    [K_TRY_STATEMENT] = "try_statement",
    [K_EXCEPT_CLAUSE] = "except_clause",
    [K_FINALLY_CLAUSE] = "finally_clause",
    [K_CALL] = "call",
    [K_ATTRIBUTE] = "attribute",
    [K_IDENTIFIER] = "identifier",
    [K_ARGUMENT_LIST] = "argument_list",
    [K_KEYWORD_ARGUMENT] = "keyword_argument",
    [K_ASSIGNMENT] = "assignment",
    [K_AUGMENTED_ASSIGNMENT] = "augmented_assignment",
    [K_EXPRESSION_STATEMENT] = "expression_statement",
    [K_RETURN_STATEMENT] = "return_statement",
    [K_LAMBDA] = "lambda",
    [K_BLOCK] = "block",
    [K_SUBSCRIPT] = "subscript",
    [K_TUPLE] = "tuple",
    [K_PATTERN_LIST] = "pattern_list",
    [K_TUPLE_PATTERN] = "tuple_pattern",
    [K_LIST_PATTERN] = "list_pattern",
    [K_EXPRESSION_LIST] = "expression_list",
    [K_LIST] = "list",
    [K_LIST_COMPREHENSION] = "list_comprehension",
    [K_GENERATOR_EXPRESSION] = "generator_expression",
    [K_BINARY_OPERATOR] = "binary_operator",
    [K_PARENTHESIZED_EXPRESSION] = "parenthesized_expression",
    [K_CONDITIONAL_EXPRESSION] = "conditional_expression",
    [K_COMMENT] = "comment",
    [K_STRING] = "string",
    [K_INTEGER] = "integer",
    [K_FLOAT] = "float",
    [K_TRUE] = "true",
    [K_FALSE] = "false",
    [K_NONE] = "none",
    [K_DICTIONARY] = "dictionary",
    [K_PAIR] = "pair",
    [K_IMPORT_STATEMENT] = "import_statement",
    [K_IMPORT_FROM_STATEMENT] = "import_from_statement",
    [K_FUTURE_IMPORT_STATEMENT] = "future_import_statement",
    [K_ALIASED_IMPORT] = "aliased_import",
    [K_WILDCARD_IMPORT] = "wildcard_import",
    [K_DOTTED_NAME] = "dotted_name",
    [K_AS_PATTERN] = "as_pattern",
    [K_AS_PATTERN_TARGET] = "as_pattern_target",
    [K_COMPARISON_OPERATOR] = "comparison_operator",
    [K_BOOLEAN_OPERATOR] = "boolean_operator",
    [K_NOT_OPERATOR] = "not_operator",
    [K_UNARY_OPERATOR] = "unary_operator",
    [K_NAMED_EXPRESSION] = "named_expression",
    [K_DELETE_STATEMENT] = "delete_statement",
    [K_CONTINUE_STATEMENT] = "continue_statement",
    [K_BREAK_STATEMENT] = "break_statement",
    [K_RAISE_STATEMENT] = "raise_statement",
    [K_ERROR] = "ERROR",
};

static const char *const FIELD_NAMES[F_FIELD_COUNT] = {
    [F_NAME] = "name",           [F_BODY] = "body",
    [F_LEFT] = "left",           [F_RIGHT] = "right",
    [F_FUNCTION] = "function",   [F_ARGUMENTS] = "arguments",
    [F_OBJECT] = "object",       [F_ATTRIBUTE] = "attribute",
    [F_VALUE] = "value",         [F_CONDITION] = "condition",
    [F_CONSEQUENCE] = "consequence", [F_ALTERNATIVE] = "alternative",
    [F_PARAMETERS] = "parameters", [F_DEFINITION] = "definition",
    [F_ALIAS] = "alias",         [F_MODULE_NAME] = "module_name",
    [F_OPERATOR] = "operator",   [F_SUPERCLASSES] = "superclasses",
    [F_ARGUMENT] = "argument",
};

#define MAX_SYMBOLS 1024
static uint8_t kind_by_symbol[MAX_SYMBOLS];
static TSFieldId field_ids[F_FIELD_COUNT];
static pthread_once_t syntax_once = PTHREAD_ONCE_INIT;

static void syntax__resolve(void) {
  const TSLanguage *language = tree_sitter_python();
  uint32_t symbol_count = ts_language_symbol_count(language);
  for (uint32_t symbol = 0; symbol < symbol_count && symbol < MAX_SYMBOLS; symbol++) {
    if (ts_language_symbol_type(language, (TSSymbol)symbol) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(language, (TSSymbol)symbol);
    for (int kind = 1; kind < K_KIND_COUNT; kind++) {
      if (strcmp(name, KIND_NAMES[kind]) == 0) kind_by_symbol[symbol] = (uint8_t)kind;
    }
  }
  for (int field = 0; field < F_FIELD_COUNT; field++) {
    const char *name = FIELD_NAMES[field];
    field_ids[field] = ts_language_field_id_for_name(language, name, (uint32_t)strlen(name));
  }
}

void syntax_init(void) { pthread_once(&syntax_once, syntax__resolve); }

Kind node_kind(TSNode node) {
  if (ts_node_is_null(node)) return K_OTHER;
  TSSymbol symbol = ts_node_symbol(node); /* asked once: ts_node_is_error asks it too */
  if (symbol == (TSSymbol)-1) return K_ERROR; /* ts_builtin_sym_error */
  return symbol < MAX_SYMBOLS ? (Kind)kind_by_symbol[symbol] : K_OTHER;
}

TSFieldId syntax_field_id(Field field) { return field_ids[field]; }

bool node_is(TSNode node, Kind kind) { return node_kind(node) == kind; }

TSNode node_field(TSNode node, Field field) {
  return ts_node_child_by_field_id(node, field_ids[field]);
}

Text node_text(const Source *source, TSNode node) {
  if (ts_node_is_null(node)) return (Text){"", 0};
  uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
  if (end > source->length) end = source->length;
  if (start > end) start = end;
  return (Text){source->bytes + start, end - start};
}

bool text_is(Text text, const char *literal) {
  if (text.length > 0 && text.ptr[0] != literal[0]) return false; /* most words differ at once */
  size_t length = strlen(literal);
  return text.length == length && memcmp(text.ptr, literal, length) == 0;
}

bool text_eq(Text a, Text b) {
  return a.length == b.length && memcmp(a.ptr, b.ptr, a.length) == 0;
}

int text_compare(Text a, Text b) {
  uint32_t shorter = a.length < b.length ? a.length : b.length;
  int order = shorter ? memcmp(a.ptr, b.ptr, shorter) : 0;
  if (order != 0) return order;
  return a.length < b.length ? -1 : a.length > b.length;
}

int text_order(const void *a, const void *b) { return text_compare(*(const Text *)a, *(const Text *)b); }

bool text_ends_with(Text text, const char *suffix) {
  size_t length = strlen(suffix);
  return text.length >= length && memcmp(text.ptr + text.length - length, suffix, length) == 0;
}

/* ASCII lower case without the locale tables: names are compared as
 * bytes, and this runs for every name a matcher looks at. */
static inline unsigned char syntax__lower(unsigned char c) {
  return c >= 'A' && c <= 'Z' ? (unsigned char)(c | 0x20) : c;
}

bool text_contains_ci(Text text, const char *needle) {
  size_t length = strlen(needle);
  if (length == 0) return true;
  unsigned char first = syntax__lower((unsigned char)needle[0]);
  for (size_t i = 0; i + length <= text.length; i++) {
    if (syntax__lower((unsigned char)text.ptr[i]) != first) continue;
    size_t j = 1;
    while (j < length && syntax__lower((unsigned char)text.ptr[i + j]) == syntax__lower((unsigned char)needle[j])) j++;
    if (j == length) return true;
  }
  return false;
}

static bool syntax__identifier_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* `word` at a start of an identifier (after a dot too when
 * `after_dot`) and not followed by an identifier character. */
static bool syntax__mentions(Text text, Text word, bool after_dot) {
  if (word.length == 0) return false;
  for (uint32_t at = 0; at + word.length <= text.length; at++) {
    if (text.ptr[at] != word.ptr[0] || memcmp(text.ptr + at, word.ptr, word.length) != 0) continue;
    char before = at == 0 ? ' ' : text.ptr[at - 1];
    bool starts = !syntax__identifier_char(before) && (after_dot || before != '.');
    bool ends = at + word.length == text.length || !syntax__identifier_char(text.ptr[at + word.length]);
    if (starts && ends) return true;
  }
  return false;
}

bool text_mentions(Text text, Text word) { return syntax__mentions(text, word, false); }

bool text_mentions_identifier(Text text, Text word) { return syntax__mentions(text, word, true); }

bool text_is_identifier(Text word) { return text_is_dotted_name(word) && !memchr(word.ptr, '.', word.length); }

bool text_is_dotted_name(Text word) {
  if (word.length == 0 || word.ptr[0] == '.') return false;
  for (uint32_t i = 0; i < word.length; i++) {
    if (!syntax__identifier_char(word.ptr[i]) && word.ptr[i] != '.') return false;
  }
  return true;
}

/* ---- Maps of texts ------------------------------------------------------- */

static uint32_t syntax__hash(Text text) {
  uint32_t hash = 2166136261u; /* FNV-1a */
  for (uint32_t i = 0; i < text.length; i++) hash = (hash ^ (uint8_t)text.ptr[i]) * 16777619u;
  return hash;
}

/* The slot that holds `key`, or the empty one where it goes. */
static uint32_t syntax__slot(const TextMap *self, Text key) {
  uint32_t mask = self->capacity - 1, slot = syntax__hash(key) & mask;
  while (self->keys[slot].ptr && !text_eq(self->keys[slot], key)) slot = (slot + 1) & mask;
  return slot;
}

static void syntax__grow(TextMap *self) {
  TextMap grown = {gl_calloc(self->capacity ? self->capacity * 2 : 16, sizeof(Text)), NULL,
                   self->capacity ? self->capacity * 2 : 16, self->count};
  grown.values = gl_calloc(grown.capacity, sizeof(uint32_t));
  for (uint32_t i = 0; i < self->capacity; i++) {
    if (!self->keys[i].ptr) continue;
    uint32_t slot = syntax__slot(&grown, self->keys[i]);
    grown.keys[slot] = self->keys[i];
    grown.values[slot] = self->values[i];
  }
  text_map_delete(self);
  *self = grown;
}

uint32_t *text_map_at(TextMap *self, Text key) {
  if (2 * (self->count + 1) > self->capacity) syntax__grow(self);
  uint32_t slot = syntax__slot(self, key);
  if (!self->keys[slot].ptr) {
    self->keys[slot] = key.ptr ? key : (Text){"", 0};
    self->values[slot] = 0;
    self->count++;
  }
  return &self->values[slot];
}

uint32_t text_map_get(const TextMap *self, Text key) {
  if (self->count == 0) return 0;
  uint32_t slot = syntax__slot(self, key);
  return self->keys[slot].ptr ? self->values[slot] : 0;
}

void text_map_mentions(TextMap *self, Text text, uint32_t value) {
  for (uint32_t start = 0; start < text.length; start++) {
    if (!syntax__identifier_char(text.ptr[start])) continue;
    if (start > 0 && (syntax__identifier_char(text.ptr[start - 1]) || text.ptr[start - 1] == '.')) continue;
    for (uint32_t end = start + 1;; end++) {
      bool more = end < text.length && (syntax__identifier_char(text.ptr[end]) || text.ptr[end] == '.');
      if (more && text.ptr[end] != '.') continue;
      uint32_t *slot = text_map_at(self, (Text){text.ptr + start, end - start});
      if (*slot < value) *slot = value;
      if (!more) break;
    }
  }
}

void text_map_delete(TextMap *self) {
  free(self->keys);
  free(self->values);
  *self = (TextMap){0};
}

bool text_mentions_attribute(Text text, const char *name) {
  size_t length = strlen(name);
  for (uint32_t at = 0; at + length + 1 <= text.length; at++) {
    if (text.ptr[at] != '.' || memcmp(text.ptr + at + 1, name, length) != 0) continue;
    if (at + 1 + length == text.length || !syntax__identifier_char(text.ptr[at + 1 + length])) return true;
  }
  return false;
}

bool text_in(Text text, const char *const *words) {
  for (size_t i = 0; words[i]; i++) {
    if (text_is(text, words[i])) return true;
  }
  return false;
}

bool text_starts_with_any(Text text, const char *const *prefixes) {
  for (size_t i = 0; prefixes[i]; i++) {
    if (text.length > 0 && prefixes[i][0] != '\0' && prefixes[i][0] != text.ptr[0]) continue;
    size_t length = strlen(prefixes[i]);
    if (text.length > length && memcmp(text.ptr, prefixes[i], length) == 0) return true;
  }
  return false;
}

bool text_capitalized(Text text) { return text.length > 0 && text.ptr[0] >= 'A' && text.ptr[0] <= 'Z'; }

bool node_expects_error(const Source *source, TSNode node) {
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    Kind kind = node_kind(at);
    if (kind == K_FUNCTION_DEFINITION || kind == K_LAMBDA) return false;
    if (kind != K_WITH_STATEMENT) continue;
    Text items = node_text(source, ts_node_named_child(at, 0));
    if (text_contains_ci(items, "raises") || text_contains_ci(items, "assertRaises")) return true;
  }
  return false;
}

bool node_under_if(TSNode node, TSNode scope) {
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && !ts_node_eq(at, scope) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    Kind kind = node_kind(at);
    if (kind == K_IF_STATEMENT || kind == K_ELIF_CLAUSE || kind == K_ELSE_CLAUSE) return true;
  }
  return false;
}

TSNode node_branch_of(TSNode node, TSNode scope) {
  TSNode child = node;
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && !ts_node_eq(child, scope) && steps < MAX_ASCENT;
       child = at, at = ts_node_parent(at), steps++) {
    Kind kind = node_kind(at);
    if (kind == K_ELIF_CLAUSE || kind == K_ELSE_CLAUSE || kind == K_EXCEPT_CLAUSE) return at;
    if (kind == K_IF_STATEMENT && ts_node_eq(child, node_field(at, F_CONSEQUENCE))) return child;
  }
  return (TSNode){0};
}

bool node_branch_is_consequence(TSNode branch) {
  TSNode parent = ts_node_parent(branch);
  return node_is(parent, K_IF_STATEMENT) && ts_node_eq(branch, node_field(parent, F_CONSEQUENCE));
}

bool text_owns(Text owner, Text name) {
  if (name.length < owner.length || memcmp(name.ptr, owner.ptr, owner.length) != 0) return false;
  return name.length == owner.length || name.ptr[owner.length] == '.';
}

Text text_last_segment(Text text) {
  for (uint32_t i = text.length; i > 0; i--) {
    if (text.ptr[i - 1] == '.') return (Text){text.ptr + i, text.length - i};
  }
  return text;
}

Text text_strip_self(Text text) {
  if (text.length > 5 && memcmp(text.ptr, "self.", 5) == 0) return (Text){text.ptr + 5, text.length - 5};
  return text;
}

Text call_function_text(const Source *source, TSNode call) {
  return node_text(source, node_field(call, F_FUNCTION));
}

Text call_method_name(const Source *source, TSNode call) {
  TSNode function = node_field(call, F_FUNCTION);
  if (!node_is(function, K_ATTRIBUTE)) return (Text){"", 0};
  return node_text(source, node_field(function, F_ATTRIBUTE));
}

TSNode call_receiver(TSNode call) {
  TSNode function = node_field(call, F_FUNCTION);
  if (!node_is(function, K_ATTRIBUTE)) return (TSNode){0};
  return node_field(function, F_OBJECT);
}

uint32_t source_next_method_name(const Source *source, uint32_t from, const char *const *names, uint32_t *name) {
  const char *bytes = source->bytes;
  for (const char *dot = from < source->length ? memchr(bytes + from, '.', source->length - from) : NULL; dot;
       dot = memchr(dot + 1, '.', source->length - (uint32_t)(dot + 1 - bytes))) {
    uint32_t at = (uint32_t)(dot - bytes);
    for (uint32_t i = 0; names[i]; i++) {
      if (at + 1 >= source->length || bytes[at + 1] != names[i][0]) continue;
      uint32_t length = (uint32_t)strlen(names[i]);
      if (at + 1 + length >= source->length || memcmp(bytes + at + 1, names[i], length) != 0) continue;
      uint32_t end = at + 1 + length;
      while (end < source->length && (bytes[end] == ' ' || bytes[end] == '\t')) end++;
      if (end == source->length || bytes[end] != '(') continue;
      *name = i;
      return at;
    }
  }
  return UINT32_MAX;
}

TSNode call_of_method_name_at(TSNode root, uint32_t at, uint32_t length) {
  TSNode name = ts_node_descendant_for_byte_range(root, at, at + length);
  if (!node_is(name, K_IDENTIFIER)) return (TSNode){0};
  TSNode attribute = ts_node_parent(name);
  if (!node_is(attribute, K_ATTRIBUTE)) return (TSNode){0};
  TSNode call = ts_node_parent(attribute);
  return node_is(call, K_CALL) && ts_node_eq(node_field(call, F_FUNCTION), attribute) ? call : (TSNode){0};
}

TSNode call_of_callee_name_at(TSNode root, uint32_t at, uint32_t length) {
  TSNode name = ts_node_descendant_for_byte_range(root, at, at + length);
  if (!node_is(name, K_IDENTIFIER) || ts_node_start_byte(name) != at || ts_node_end_byte(name) != at + length) {
    return (TSNode){0};
  }
  TSNode call = call_of_method_name_at(root, at, length);
  if (!ts_node_is_null(call)) return call;
  call = ts_node_parent(name);
  return node_is(call, K_CALL) && ts_node_eq(node_field(call, F_FUNCTION), name) ? call : (TSNode){0};
}

static bool syntax__is_positional(TSNode argument) {
  Kind kind = node_kind(argument);
  return ts_node_is_named(argument) && kind != K_KEYWORD_ARGUMENT && kind != K_COMMENT &&
         strcmp(ts_node_type(argument), "dictionary_splat") != 0;
}

TSNode call_positional(TSNode call, uint32_t n) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  if (!node_is(arguments, K_ARGUMENT_LIST)) return (TSNode){0};
  uint32_t count = ts_node_named_child_count(arguments), seen = 0;
  for (uint32_t i = 0; i < count; i++) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (!syntax__is_positional(argument)) continue;
    if (seen++ == n) return argument;
  }
  return (TSNode){0};
}

uint32_t call_positional_count(TSNode call) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  if (!node_is(arguments, K_ARGUMENT_LIST)) return 0;
  uint32_t count = ts_node_named_child_count(arguments), seen = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (syntax__is_positional(ts_node_named_child(arguments, i))) seen++;
  }
  return seen;
}

TSNode call_keyword(const Source *source, TSNode call, const char *name) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  if (!node_is(arguments, K_ARGUMENT_LIST)) return (TSNode){0};
  uint32_t count = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < count; i++) {
    TSNode argument = ts_node_named_child(arguments, i);
    if (!node_is(argument, K_KEYWORD_ARGUMENT)) continue;
    if (text_is(node_text(source, node_field(argument, F_NAME)), name)) {
      return node_field(argument, F_VALUE);
    }
  }
  return (TSNode){0};
}

bool node_leaves_before(TSNode node, TSNode until) {
  TSNode statement = node;
  for (int steps = 0; steps < MAX_ASCENT; steps++) {
    TSNode parent = ts_node_parent(statement);
    if (ts_node_is_null(parent) || node_is(parent, K_BLOCK) || node_is(parent, K_MODULE)) break;
    statement = parent;
  }
  for (TSNode next = ts_node_next_named_sibling(statement); !ts_node_is_null(next);
       next = ts_node_next_named_sibling(next)) {
    if (node_contains(next, until)) return false;
    Kind kind = node_kind(next);
    if (kind == K_CONTINUE_STATEMENT || kind == K_BREAK_STATEMENT || kind == K_RETURN_STATEMENT ||
        kind == K_RAISE_STATEMENT) {
      return true;
    }
  }
  return false;
}

bool node_contains(TSNode outer, TSNode inner) {
  return ts_node_start_byte(outer) <= ts_node_start_byte(inner) &&
         ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

TSNode node_unparenthesize(TSNode node) {
  while (node_is(node, K_PARENTHESIZED_EXPRESSION) && ts_node_named_child_count(node) == 1) {
    node = ts_node_named_child(node, 0);
  }
  return node;
}

bool node_is_literal(TSNode node) {
  static const Kind LITERALS[] = {K_NONE, K_TRUE, K_FALSE, K_INTEGER, K_FLOAT, K_STRING};
  for (size_t i = 0; i < sizeof LITERALS / sizeof LITERALS[0]; i++) {
    if (node_is(node, LITERALS[i])) return true;
  }
  return false;
}
