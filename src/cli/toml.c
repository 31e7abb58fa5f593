/* toml.c — a TOML 1.0 reader (https://toml.io/en/v1.0.0).
 *
 * A recursive-descent parser over the whole buffer. Lines are counted as
 * newlines are consumed; every failure goes through parser__fail, which
 * records the first error's position and makes the caller unwind with
 * false. Tables remember how they were created (by a [header], implicitly
 * as the parent of one, by dotted keys, or inline) because TOML's rules on
 * redefinition depend on it. */
#include "toml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a table or array came to be. */
enum {
  ORIGIN_VALUE,        /* a plain value */
  ORIGIN_IMPLICIT,     /* [a.b] creates `a` implicitly */
  ORIGIN_HEADER,       /* defined by its own [header] */
  ORIGIN_DOTTED,       /* created by a dotted key: a.b = 1 */
  ORIGIN_INLINE,       /* { ... }: closed to later additions */
  ORIGIN_STATIC_ARRAY, /* [ ... ] */
  ORIGIN_TABLE_ARRAY,  /* [[header]] */
};

typedef Array(char) Buffer;

typedef struct {
  char *text; /* owned */
  uint32_t length;
} KeyPart;

typedef Array(KeyPart) Key;

typedef struct {
  const char *p;
  const char *end;
  const char *line_start;
  uint32_t line;
  uint32_t depth;
  bool failed;
  TomlError *error;
} Parser;

static bool toml__value(Parser *self, TomlValue **out);

/* ---- Errors and positions ------------------------------------------------ */

static bool parser__fail(Parser *self, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Records the first error at the current position; always returns false. */
static bool parser__fail(Parser *self, const char *format, ...) {
  if (self->failed) return false;
  self->failed = true;
  self->error->line = self->line;
  self->error->column = (uint32_t)(self->p - self->line_start) + 1;
  va_list args;
  va_start(args, format);
  vsnprintf(self->error->message, sizeof self->error->message, format, args);
  va_end(args);
  return false;
}

static bool parser__at_end(const Parser *self) { return self->p >= self->end; }

static char parser__peek(const Parser *self, size_t ahead) {
  return self->p + ahead < self->end ? self->p[ahead] : '\0';
}

static bool parser__starts(const Parser *self, const char *text) {
  size_t length = strlen(text);
  return (size_t)(self->end - self->p) >= length && memcmp(self->p, text, length) == 0;
}

/* Consumes "\n" or "\r\n" and counts the line. */
static bool parser__newline(Parser *self) {
  if (parser__peek(self, 0) == '\r' && parser__peek(self, 1) == '\n') self->p++;
  if (parser__peek(self, 0) != '\n' || parser__at_end(self)) return false;
  self->p++;
  self->line++;
  self->line_start = self->p;
  return true;
}

static void parser__skip_space(Parser *self) {
  while (!parser__at_end(self) && (*self->p == ' ' || *self->p == '\t')) self->p++;
}

/* Control characters other than tab are not allowed in comments or strings. */
static bool toml__is_control(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7F; }

/* comment -> '#' non-control* ; stops before the newline. */
static bool parser__skip_comment(Parser *self) {
  if (parser__peek(self, 0) != '#' || parser__at_end(self)) return true;
  for (self->p++; !parser__at_end(self) && *self->p != '\n'; self->p++) {
    if (*self->p == '\r' && parser__peek(self, 1) == '\n') break;
    if (toml__is_control((unsigned char)*self->p)) {
      return parser__fail(self, "control character U+%04X in a comment", (unsigned char)*self->p);
    }
  }
  return true;
}

/* Spaces, comments and newlines, as allowed between array elements. */
static bool parser__skip_blank(Parser *self) {
  for (;;) {
    parser__skip_space(self);
    if (!parser__skip_comment(self)) return false;
    if (!parser__newline(self)) return true;
  }
}

/* After a key/value pair or a header: spaces, a comment, then a newline or
 * the end of the input. */
static bool parser__end_of_line(Parser *self, const char *after) {
  parser__skip_space(self);
  if (!parser__skip_comment(self)) return false;
  if (parser__at_end(self) || parser__newline(self)) return true;
  return parser__fail(self, "expected the end of the line after %s", after);
}

/* ---- UTF-8 ---------------------------------------------------------------- */

/* The length of the valid UTF-8 sequence at `s`, or 0. */
static size_t toml__utf8_length(const unsigned char *s, size_t left) {
  if (s[0] < 0x80) return 1;
  size_t need = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (need == 0 || need > left) return 0;
  uint32_t cp = s[0] & (0x7F >> need);
  for (size_t i = 1; i < need; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return need;
}

/* Checks the whole input; reports the line of the first bad byte. */
static bool parser__check_utf8(Parser *self) {
  const unsigned char *s = (const unsigned char *)self->p;
  size_t length = (size_t)(self->end - self->p);
  for (size_t i = 0; i < length;) {
    size_t n = toml__utf8_length(s + i, length - i);
    if (n == 0) {
      const char *bad = self->p + i;
      while (self->p < bad) {
        if (!parser__newline(self)) self->p++;
      }
      return parser__fail(self, "invalid UTF-8");
    }
    i += n;
  }
  return true;
}

static void buffer__push_code_point(Buffer *buffer, uint32_t cp) {
  if (cp < 0x80) {
    array_push(buffer, (char)cp);
  } else if (cp < 0x800) {
    array_push(buffer, (char)(0xC0 | (cp >> 6)));
    array_push(buffer, (char)(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    array_push(buffer, (char)(0xE0 | (cp >> 12)));
    array_push(buffer, (char)(0x80 | ((cp >> 6) & 0x3F)));
    array_push(buffer, (char)(0x80 | (cp & 0x3F)));
  } else {
    array_push(buffer, (char)(0xF0 | (cp >> 18)));
    array_push(buffer, (char)(0x80 | ((cp >> 12) & 0x3F)));
    array_push(buffer, (char)(0x80 | ((cp >> 6) & 0x3F)));
    array_push(buffer, (char)(0x80 | (cp & 0x3F)));
  }
}

/* ---- Values and tables --------------------------------------------------- */

static TomlValue *toml__new(TomlKind kind, uint8_t origin, uint32_t line) {
  TomlValue *value = gl_calloc(1, sizeof(TomlValue));
  value->kind = kind;
  value->origin = origin;
  value->line = line;
  return value;
}

typedef Array(TomlValue *) TomlValues;

/* Frees one value, handing its children to `pending`. */
static void toml__free_one(TomlValue *self, TomlValues *pending) {
  for (uint32_t i = 0; i < self->entries.size; i++) {
    free(self->entries.contents[i].key);
    array_push(pending, self->entries.contents[i].value);
  }
  for (uint32_t i = 0; i < self->items.size; i++) array_push(pending, self->items.contents[i]);
  array_delete(&self->entries);
  array_delete(&self->items);
  array_delete(&self->index);
  free(self->text);
  free(self);
}

/* Without recursion: dotted keys and table headers may nest tables as
 * deep as the file is long, which is valid TOML. */
void toml_delete(TomlValue *self) {
  TomlValues pending = array_new();
  if (self) array_push(&pending, self);
  while (pending.size > 0) toml__free_one(pending.contents[--pending.size], &pending);
  array_delete(&pending);
}

const char *toml_kind_name(TomlKind kind) {
  static const char *const NAMES[] = {"table", "array", "string", "integer", "float", "boolean", "date-time"};
  return (unsigned)kind < sizeof NAMES / sizeof NAMES[0] ? NAMES[kind] : "value";
}

static uint32_t toml__hash(const char *key, uint32_t length) {
  uint32_t hash = 2166136261u;
  for (uint32_t i = 0; i < length; i++) hash = (hash ^ (unsigned char)key[i]) * 16777619u;
  return hash;
}

/* Tables of more than a few entries keep an open-addressing index of entry
 * positions (+1; 0 is empty) so that long tables stay linear to build. */
static void table__reindex(TomlValue *table) {
  uint32_t capacity = 16;
  while (capacity < table->entries.size * 2) capacity *= 2;
  array_reserve(&table->index, capacity);
  table->index.size = capacity;
  memset(table->index.contents, 0, capacity * sizeof(uint32_t));
  for (uint32_t i = 0; i < table->entries.size; i++) {
    const TomlEntry *entry = &table->entries.contents[i];
    uint32_t slot = toml__hash(entry->key, entry->key_length) & (capacity - 1);
    while (table->index.contents[slot]) slot = (slot + 1) & (capacity - 1);
    table->index.contents[slot] = i + 1;
  }
}

static bool entry__is(const TomlEntry *entry, const char *key, uint32_t length) {
  return entry->key_length == length && memcmp(entry->key, key, length) == 0;
}

static TomlValue *table__get(const TomlValue *table, const char *key, uint32_t length) {
  if (table->index.size == 0) {
    for (uint32_t i = 0; i < table->entries.size; i++) {
      if (entry__is(&table->entries.contents[i], key, length)) return table->entries.contents[i].value;
    }
    return NULL;
  }
  uint32_t mask = table->index.size - 1;
  for (uint32_t slot = toml__hash(key, length) & mask; table->index.contents[slot]; slot = (slot + 1) & mask) {
    const TomlEntry *entry = &table->entries.contents[table->index.contents[slot] - 1];
    if (entry__is(entry, key, length)) return entry->value;
  }
  return NULL;
}

/* Adds `value` under a copy of `part`; the key must be new. */
static void table__add(TomlValue *table, const KeyPart *part, uint32_t line, TomlValue *value) {
  TomlEntry entry = {gl_strndup(part->text, part->length), part->length, line, value};
  array_push(&table->entries, entry);
  if (table->entries.size >= 8 && table->entries.size * 2 > table->index.size) table__reindex(table);
  else if (table->index.size > 0) {
    uint32_t mask = table->index.size - 1, slot = toml__hash(entry.key, entry.key_length) & mask;
    while (table->index.contents[slot]) slot = (slot + 1) & mask;
    table->index.contents[slot] = table->entries.size;
  }
}

const TomlEntry *toml_find(const TomlValue *self, const char *key) {
  if (!self || self->kind != TOML_TABLE) return NULL;
  uint32_t length = (uint32_t)strlen(key);
  for (uint32_t i = 0; i < self->entries.size; i++) {
    if (entry__is(&self->entries.contents[i], key, length)) return &self->entries.contents[i];
  }
  return NULL;
}

/* ---- Strings -------------------------------------------------------------- */

/* A \uXXXX or \UXXXXXXXX escape; self->p is at the 'u' or 'U'. */
static bool toml__unicode_escape(Parser *self, Buffer *out) {
  int digits = *self->p == 'u' ? 4 : 8;
  uint32_t cp = 0;
  for (int i = 1; i <= digits; i++) {
    char c = parser__peek(self, (size_t)i);
    int value = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (value < 0) return parser__fail(self, "expected %d hexadecimal digits after \\%c", digits, *self->p);
    cp = cp * 16 + (uint32_t)value;
  }
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    return parser__fail(self, "\\%c escape U+%X is not a Unicode scalar value", *self->p, cp);
  }
  buffer__push_code_point(out, cp);
  self->p += digits + 1;
  return true;
}

/* In a multi-line basic string, a backslash at the end of a line trims the
 * newline and all whitespace after it. self->p is after the backslash. */
static bool toml__line_ending_backslash(Parser *self) {
  const char *start = self->p;
  parser__skip_space(self);
  if (!parser__newline(self)) {
    self->p = start;
    return parser__fail(self, "invalid escape `\\%c`", parser__peek(self, 0));
  }
  for (;;) {
    parser__skip_space(self);
    if (!parser__newline(self)) return true;
  }
}

/* escape -> '\' ( b t n f r " \ uXXXX UXXXXXXXX ) ; self->p is at '\'. */
static bool toml__escape(Parser *self, Buffer *out, bool multiline) {
  self->p++;
  char c = parser__peek(self, 0);
  static const char FROM[] = "btnfr\"\\", TO[] = "\b\t\n\f\r\"\\";
  const char *known = c ? strchr(FROM, c) : NULL;
  if (known) {
    array_push(out, TO[known - FROM]);
    self->p++;
    return true;
  }
  if (c == 'u' || c == 'U') return toml__unicode_escape(self, out);
  if (multiline && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) return toml__line_ending_backslash(self);
  if (parser__at_end(self)) return parser__fail(self, "unterminated string");
  return parser__fail(self, "invalid escape `\\%c`", c);
}

/* At a run of closing quotes of a multi-line string: up to two extra quotes
 * belong to the content. Returns true when the string ends here. */
static bool toml__multiline_close(Parser *self, char quote, Buffer *out) {
  size_t run = 0;
  while (parser__peek(self, run) == quote && self->p + run < self->end) run++;
  if (run < 3) return false;
  if (run > 5) {
    self->p += 5;
    return parser__fail(self, "too many quotes at the end of a multi-line string");
  }
  for (size_t i = 3; i < run; i++) array_push(out, quote);
  self->p += run;
  return true;
}

/* The body of any string; self->p is after the opening quote(s). `basic`
 * allows escapes; `multiline` allows newlines. */
static bool toml__string_body(Parser *self, Buffer *out, char quote, bool basic, bool multiline) {
  for (;;) {
    if (parser__at_end(self)) return parser__fail(self, "unterminated string");
    char c = *self->p;
    if (multiline && c == quote && toml__multiline_close(self, quote, out)) return true;
    if (self->failed) return false;
    if (!multiline && c == quote) {
      self->p++;
      return true;
    }
    if (basic && c == '\\') {
      if (!toml__escape(self, out, multiline)) return false;
    } else if (multiline && (c == '\n' || (c == '\r' && parser__peek(self, 1) == '\n'))) {
      parser__newline(self);
      array_push(out, '\n');
    } else if (!multiline && (c == '\n' || c == '\r')) {
      return parser__fail(self, "unterminated string (a newline in a single-line string)");
    } else if (toml__is_control((unsigned char)c)) {
      return parser__fail(self, "control character U+%04X in a string", (unsigned char)c);
    } else {
      array_push(out, c);
      self->p++;
    }
  }
}

/* string -> basic | literal | multi-line basic | multi-line literal.
 * `out` receives the bytes, without a terminator. */
static bool toml__string(Parser *self, Buffer *out, bool allow_multiline) {
  char quote = *self->p;
  bool basic = quote == '"';
  char triple[4] = {quote, quote, quote, '\0'};
  if (parser__starts(self, triple)) {
    if (!allow_multiline) return parser__fail(self, "a key cannot be a multi-line string");
    self->p += 3;
    parser__newline(self); /* a newline right after the opening quotes is trimmed */
    return toml__string_body(self, out, quote, basic, true);
  }
  self->p++;
  return toml__string_body(self, out, quote, basic, false);
}

/* ---- Keys ----------------------------------------------------------------- */

static bool toml__is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static void key__delete(Key *key) {
  for (uint32_t i = 0; i < key->size; i++) free(key->contents[i].text);
  array_delete(key);
}

/* simple-key -> bare-key | basic-string | literal-string */
static bool toml__simple_key(Parser *self, Key *key) {
  Buffer text = array_new();
  char c = parser__peek(self, 0);
  if (!parser__at_end(self) && (c == '"' || c == '\'')) {
    if (!toml__string(self, &text, false)) {
      array_delete(&text);
      return false;
    }
  } else {
    while (!parser__at_end(self) && toml__is_bare_key_char(*self->p)) array_push(&text, *self->p++);
    if (text.size == 0) return parser__fail(self, "expected a key");
  }
  KeyPart part = {gl_strndup(text.contents ? text.contents : "", text.size), text.size};
  array_delete(&text);
  array_push(key, part);
  return true;
}

/* key -> simple-key ( ws '.' ws simple-key )* */
static bool toml__key(Parser *self, Key *key) {
  for (;;) {
    parser__skip_space(self);
    if (!toml__simple_key(self, key)) return false;
    parser__skip_space(self);
    if (parser__peek(self, 0) != '.' || parser__at_end(self)) return true;
    self->p++;
  }
}

/* ---- Numbers and dates ------------------------------------------------------ */

static bool toml__is_digit(char c) { return c >= '0' && c <= '9'; }

/* Whether `count` digits start at p[offset]. */
static bool parser__digits_at(const Parser *self, size_t offset, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (!toml__is_digit(parser__peek(self, offset + i))) return false;
  }
  return true;
}

static int toml__two_digits(const char *p) { return (p[0] - '0') * 10 + (p[1] - '0'); }

/* time -> HH ':' MM ':' SS ( '.' digit+ )? ; returns the length or 0. */
static size_t toml__time_length(const Parser *self, size_t at) {
  if (!parser__digits_at(self, at, 2) || parser__peek(self, at + 2) != ':' || !parser__digits_at(self, at + 3, 2) ||
      parser__peek(self, at + 5) != ':' || !parser__digits_at(self, at + 6, 2)) {
    return 0;
  }
  const char *p = self->p + at;
  if (toml__two_digits(p) > 23 || toml__two_digits(p + 3) > 59 || toml__two_digits(p + 6) > 60) return 0;
  size_t length = 8;
  if (parser__peek(self, at + 8) == '.') {
    size_t digits = 0;
    while (toml__is_digit(parser__peek(self, at + 9 + digits))) digits++;
    if (digits == 0) return 0;
    length += 1 + digits;
  }
  return length;
}

static bool toml__valid_date(const char *p) {
  int year = (p[0] - '0') * 1000 + (p[1] - '0') * 100 + toml__two_digits(p + 2);
  int month = toml__two_digits(p + 5), day = toml__two_digits(p + 8);
  static const int DAYS[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return !(month == 2 && day == 29 && !leap);
}

/* offset -> 'Z' | ('+' | '-') HH ':' MM ; returns the length or 0. */
static size_t toml__offset_length(const Parser *self, size_t at) {
  char c = parser__peek(self, at);
  if (c == 'Z' || c == 'z') return 1;
  if ((c != '+' && c != '-') || !parser__digits_at(self, at + 1, 2) || parser__peek(self, at + 3) != ':' ||
      !parser__digits_at(self, at + 4, 2)) {
    return 0;
  }
  const char *p = self->p + at;
  return toml__two_digits(p + 1) <= 23 && toml__two_digits(p + 4) <= 59 ? 6 : 0;
}

/* date-time -> date ( ('T' | ' ') time offset? )? | time ; self->p is at
 * four digits and '-' or two digits and ':'. */
static bool toml__datetime(Parser *self, TomlValue **out) {
  size_t length = 0;
  if (parser__peek(self, 2) == ':') {
    length = toml__time_length(self, 0);
    if (length == 0) return parser__fail(self, "invalid time");
  } else {
    if (!parser__digits_at(self, 5, 2) || parser__peek(self, 7) != '-' || !parser__digits_at(self, 8, 2) ||
        !toml__valid_date(self->p)) {
      return parser__fail(self, "invalid date");
    }
    length = 10;
    char separator = parser__peek(self, 10);
    if (separator == 'T' || separator == 't' || (separator == ' ' && parser__digits_at(self, 11, 2))) {
      size_t time = toml__time_length(self, 11);
      if (time == 0) return parser__fail(self, "invalid time in a date-time");
      length = 11 + time;
      length += toml__offset_length(self, length);
    }
  }
  char next = parser__peek(self, length);
  if (self->p + length < self->end && (toml__is_bare_key_char(next) || next == '.' || next == ':' || next == '+')) {
    return parser__fail(self, "invalid date-time");
  }
  *out = toml__new(TOML_DATETIME, ORIGIN_VALUE, self->line);
  (*out)->text = gl_strndup(self->p, length);
  (*out)->text_length = (uint32_t)length;
  self->p += length;
  return true;
}

/* digits with single underscores between them, in `base`; copies the
 * digits to `out`. Returns the number of digits, or 0 if malformed. */
static size_t toml__digit_run(const char **p, const char *end, int base, Buffer *out) {
  size_t count = 0;
  bool after_underscore = false;
  for (; *p < end; (*p)++) {
    char c = **p;
    bool digit = base == 16 ? (toml__is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
                            : (c >= '0' && c < '0' + base);
    if (c == '_') {
      if (count == 0 || after_underscore) return 0;
      after_underscore = true;
      continue;
    }
    if (!digit) break;
    array_push(out, c);
    count++;
    after_underscore = false;
  }
  return after_underscore ? 0 : count;
}

/* 0x / 0o / 0b integers; `token` starts at the '0'. */
static bool toml__prefixed_integer(Parser *self, const char *token, const char *end, TomlValue *value) {
  int base = token[1] == 'x' ? 16 : token[1] == 'o' ? 8 : 2;
  const char *p = token + 2;
  Buffer digits = array_new();
  size_t count = toml__digit_run(&p, end, base, &digits);
  array_push(&digits, '\0');
  bool ok = count > 0 && p == end;
  uint64_t result = 0;
  for (size_t i = 0; ok && i < count; i++) {
    char c = digits.contents[i];
    uint64_t d = (uint64_t)(toml__is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    if (result > (UINT64_C(0x7FFFFFFFFFFFFFFF) - d) / (uint64_t)base) ok = false;
    result = result * (uint64_t)base + d;
  }
  array_delete(&digits);
  if (!ok) return parser__fail(self, "invalid integer");
  value->kind = TOML_INTEGER;
  value->integer = (int64_t)result;
  return true;
}

/* A decimal integer or float, sign included, as a cleaned copy without
 * underscores; `is_float` says which. False if malformed. */
static bool toml__decimal(const char *p, const char *end, Buffer *clean, bool *is_float) {
  if (p < end && (*p == '+' || *p == '-')) array_push(clean, *p++);
  const char *integer_start = p;
  size_t count = toml__digit_run(&p, end, 10, clean);
  if (count == 0 || (count > 1 && *integer_start == '0')) return false;
  *is_float = false;
  if (p < end && *p == '.') {
    array_push(clean, *p++);
    if (toml__digit_run(&p, end, 10, clean) == 0) return false;
    *is_float = true;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    array_push(clean, *p++);
    if (p < end && (*p == '+' || *p == '-')) array_push(clean, *p++);
    if (toml__digit_run(&p, end, 10, clean) == 0) return false;
    *is_float = true;
  }
  return p == end;
}

static bool toml__special_float(const char *token, size_t length, double *number) {
  const char *p = token;
  double sign = 1;
  if (*p == '+' || *p == '-') {
    sign = *p == '-' ? -1 : 1;
    p++;
  }
  size_t rest = length - (size_t)(p - token);
  if (rest == 3 && memcmp(p, "inf", 3) == 0) *number = sign * INFINITY;
  else if (rest == 3 && memcmp(p, "nan", 3) == 0) *number = sign < 0 ? -NAN : NAN;
  else return false;
  return true;
}

/* number -> integer | float ; the token runs over [0-9A-Za-z_+-.]. */
static bool toml__number(Parser *self, TomlValue **out) {
  const char *token = self->p, *end = self->p;
  while (end < self->end && (toml__is_bare_key_char(*end) || *end == '+' || *end == '.')) end++;
  TomlValue *value = toml__new(TOML_FLOAT, ORIGIN_VALUE, self->line);
  *out = value;
  size_t length = (size_t)(end - token);
  if (toml__special_float(token, length, &value->number)) {
    self->p = end;
    return true;
  }
  if (length > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'o' || token[1] == 'b')) {
    if (!toml__prefixed_integer(self, token, end, value)) return false;
    self->p = end;
    return true;
  }
  Buffer clean = array_new();
  bool is_float = false, ok = toml__decimal(token, end, &clean, &is_float);
  array_push(&clean, '\0');
  if (ok && is_float) {
    value->number = strtod(clean.contents, NULL);
  } else if (ok) {
    char *stop = NULL;
    errno = 0;
    long long integer = strtoll(clean.contents, &stop, 10);
    ok = errno == 0;
    value->kind = TOML_INTEGER;
    value->integer = integer;
  }
  array_delete(&clean);
  if (!ok) return parser__fail(self, "invalid number `%.*s`", (int)(length > 40 ? 40 : length), token);
  self->p = end;
  return true;
}

/* ---- Key/value pairs -------------------------------------------------------- */

/* Follows the dotted key's leading parts from `table`, creating tables as
 * needed; returns the table that receives the last part, or NULL. */
static TomlValue *toml__dotted_parent(Parser *self, TomlValue *table, const Key *key, uint32_t line) {
  for (uint32_t i = 0; i + 1 < key->size; i++) {
    const KeyPart *part = &key->contents[i];
    TomlValue *next = table__get(table, part->text, part->length);
    if (!next) {
      next = toml__new(TOML_TABLE, ORIGIN_DOTTED, line);
      table__add(table, part, line, next);
    } else if (next->kind != TOML_TABLE || next->origin != ORIGIN_DOTTED) {
      parser__fail(self, "cannot add keys to `%s`: it is already defined", part->text);
      return NULL;
    }
    table = next;
  }
  return table;
}

/* keyval -> key ws '=' ws value ; added to `table`. */
static bool toml__keyval(Parser *self, TomlValue *table) {
  uint32_t line = self->line;
  Key key = array_new();
  bool ok = toml__key(self, &key);
  if (ok && parser__peek(self, 0) != '=') ok = parser__fail(self, "expected `=` after the key");
  TomlValue *value = NULL;
  if (ok) {
    self->p++;
    parser__skip_space(self);
    ok = toml__value(self, &value);
  }
  TomlValue *parent = ok ? toml__dotted_parent(self, table, &key, line) : NULL;
  const KeyPart *last = ok ? array_back(&key) : NULL;
  if (parent && table__get(parent, last->text, last->length)) {
    parser__fail(self, "duplicate key `%s`", last->text);
    parent = NULL;
  }
  if (parent) table__add(parent, last, line, value);
  else toml_delete(value);
  key__delete(&key);
  return parent != NULL;
}

/* ---- Arrays and inline tables ------------------------------------------------ */

/* array -> '[' blank ( value blank ( ',' blank value blank )* ','? )? blank ']' */
static bool toml__array(Parser *self, TomlValue **out) {
  TomlValue *array = toml__new(TOML_ARRAY, ORIGIN_STATIC_ARRAY, self->line);
  *out = array;
  self->p++;
  for (;;) {
    if (!parser__skip_blank(self)) return false;
    if (parser__peek(self, 0) == ']' && !parser__at_end(self)) break;
    TomlValue *item = NULL;
    bool ok = toml__value(self, &item);
    if (item) array_push(&array->items, item);
    if (!ok || !parser__skip_blank(self)) return false;
    char c = parser__peek(self, 0);
    if (parser__at_end(self)) return parser__fail(self, "unterminated array");
    if (c == ']') break;
    if (c != ',') return parser__fail(self, "expected `,` or `]` in an array");
    self->p++;
  }
  self->p++;
  return true;
}

/* inline-table -> '{' ws ( keyval ws ( ',' ws keyval ws )* )? '}' on one line */
static bool toml__inline_table(Parser *self, TomlValue **out) {
  TomlValue *table = toml__new(TOML_TABLE, ORIGIN_INLINE, self->line);
  *out = table;
  self->p++;
  parser__skip_space(self);
  if (parser__peek(self, 0) == '}' && !parser__at_end(self)) {
    self->p++;
    return true;
  }
  for (;;) {
    if (!toml__keyval(self, table)) return false;
    parser__skip_space(self);
    char c = parser__peek(self, 0);
    if (parser__at_end(self)) return parser__fail(self, "unterminated inline table");
    if (c == '}') break;
    if (c != ',') return parser__fail(self, "expected `,` or `}` in an inline table (inline tables stay on one line)");
    self->p++;
  }
  self->p++;
  return true;
}

/* ---- Values ------------------------------------------------------------------ */

static bool toml__string_value(Parser *self, TomlValue **out) {
  uint32_t line = self->line;
  Buffer text = array_new();
  bool ok = toml__string(self, &text, true);
  *out = toml__new(TOML_STRING, ORIGIN_VALUE, line);
  (*out)->text = gl_strndup(text.contents ? text.contents : "", text.size);
  (*out)->text_length = text.size;
  array_delete(&text);
  return ok;
}

static bool toml__boolean(Parser *self, TomlValue **out) {
  bool truth = parser__starts(self, "true");
  if (!truth && !parser__starts(self, "false")) return parser__fail(self, "expected a value");
  const char *after = self->p + (truth ? 4 : 5);
  if (after < self->end && toml__is_bare_key_char(*after)) return parser__fail(self, "expected a value");
  *out = toml__new(TOML_BOOLEAN, ORIGIN_VALUE, self->line);
  (*out)->boolean = truth;
  self->p = after;
  return true;
}

/* value -> string | boolean | array | inline-table | date-time | number.
 * On failure `*out` may still hold a partial value for the caller to free. */
static bool toml__value(Parser *self, TomlValue **out) {
  *out = NULL;
  if (parser__at_end(self)) return parser__fail(self, "expected a value");
  if (self->depth >= TOML_MAX_DEPTH) return parser__fail(self, "arrays and inline tables nest too deeply");
  char c = *self->p;
  if (c == '"' || c == '\'') return toml__string_value(self, out);
  if (c == 't' || c == 'f') return toml__boolean(self, out);
  if (c == '[' || c == '{') {
    self->depth++;
    bool ok = c == '[' ? toml__array(self, out) : toml__inline_table(self, out);
    self->depth--;
    return ok;
  }
  if ((parser__digits_at(self, 0, 4) && parser__peek(self, 4) == '-') ||
      (parser__digits_at(self, 0, 2) && parser__peek(self, 2) == ':')) {
    return toml__datetime(self, out);
  }
  if (toml__is_digit(c) || c == '+' || c == '-' || c == 'i' || c == 'n') return toml__number(self, out);
  return parser__fail(self, "expected a value");
}

/* ---- Tables ------------------------------------------------------------------- */

/* Follows a header's leading parts from the root; arrays of tables lead to
 * their last table. Returns the parent of the header's table, or NULL. */
static TomlValue *toml__header_parent(Parser *self, TomlValue *root, const Key *key, uint32_t line) {
  TomlValue *table = root;
  for (uint32_t i = 0; i + 1 < key->size; i++) {
    const KeyPart *part = &key->contents[i];
    TomlValue *next = table__get(table, part->text, part->length);
    if (!next) {
      next = toml__new(TOML_TABLE, ORIGIN_IMPLICIT, line);
      table__add(table, part, line, next);
    } else if (next->kind == TOML_ARRAY && next->origin == ORIGIN_TABLE_ARRAY) {
      next = *array_back(&next->items);
    } else if (next->kind != TOML_TABLE || next->origin == ORIGIN_INLINE) {
      parser__fail(self, "`%s` is not a table", part->text);
      return NULL;
    }
    table = next;
  }
  return table;
}

/* [a.b] defines a table once; a table created implicitly by an earlier
 * [a.b.c] may still be defined. */
static TomlValue *toml__define_table(Parser *self, TomlValue *parent, const KeyPart *last, uint32_t line) {
  TomlValue *table = table__get(parent, last->text, last->length);
  if (!table) {
    table = toml__new(TOML_TABLE, ORIGIN_HEADER, line);
    table__add(parent, last, line, table);
  } else if (table->kind == TOML_TABLE && table->origin == ORIGIN_IMPLICIT) {
    table->origin = ORIGIN_HEADER;
    table->line = line;
  } else {
    parser__fail(self, "`%s` is defined more than once", last->text);
    return NULL;
  }
  return table;
}

/* [[a.b]] appends a table to the array of tables `a.b`. */
static TomlValue *toml__append_table(Parser *self, TomlValue *parent, const KeyPart *last, uint32_t line) {
  TomlValue *array = table__get(parent, last->text, last->length);
  if (!array) {
    array = toml__new(TOML_ARRAY, ORIGIN_TABLE_ARRAY, line);
    table__add(parent, last, line, array);
  } else if (array->kind != TOML_ARRAY || array->origin != ORIGIN_TABLE_ARRAY) {
    parser__fail(self, "`%s` is not an array of tables", last->text);
    return NULL;
  }
  TomlValue *table = toml__new(TOML_TABLE, ORIGIN_HEADER, line);
  array_push(&array->items, table);
  return table;
}

/* header -> '[' key ']' | '[[' key ']]' ; returns the table that receives the
 * following key/value pairs, or NULL. */
static TomlValue *toml__header(Parser *self, TomlValue *root) {
  uint32_t line = self->line;
  bool append = parser__starts(self, "[[");
  self->p += append ? 2 : 1;
  Key key = array_new();
  TomlValue *table = NULL;
  if (toml__key(self, &key)) {
    if (!parser__starts(self, append ? "]]" : "]")) {
      parser__fail(self, append ? "expected `]]` after the table name" : "expected `]` after the table name");
    } else {
      self->p += append ? 2 : 1;
      TomlValue *parent = toml__header_parent(self, root, &key, line);
      if (parent) {
        table = append ? toml__append_table(self, parent, array_back(&key), line)
                       : toml__define_table(self, parent, array_back(&key), line);
      }
    }
  }
  key__delete(&key);
  return table;
}

/* document -> ( blank | header | keyval )* */
static bool toml__document(Parser *self, TomlValue *root) {
  TomlValue *current = root;
  while (!parser__at_end(self)) {
    parser__skip_space(self);
    if (!parser__skip_comment(self)) return false;
    if (parser__at_end(self) || parser__newline(self)) continue;
    if (*self->p == '[') {
      current = toml__header(self, root);
      if (!current || !parser__end_of_line(self, "the table header")) return false;
    } else {
      if (!toml__keyval(self, current) || !parser__end_of_line(self, "the value")) return false;
    }
  }
  return true;
}

TomlValue *toml_parse(const char *bytes, size_t length, TomlError *error) {
  memset(error, 0, sizeof *error);
  Parser parser = {bytes, bytes + length, bytes, 1, 0, false, error};
  if (length > 0 && !parser__check_utf8(&parser)) return NULL;
  parser.p = parser.line_start = bytes;
  parser.line = 1;
  if (parser__starts(&parser, "\xEF\xBB\xBF")) parser.p += 3; /* byte order mark */
  TomlValue *root = toml__new(TOML_TABLE, ORIGIN_HEADER, 1);
  if (!toml__document(&parser, root)) {
    toml_delete(root);
    return NULL;
  }
  return root;
}
