/* toml.h — a TOML 1.0 reader for configuration files.
 *
 * Reads a whole document into a tree of values: tables, arrays, strings,
 * integers, floats, booleans and date-times (kept as their text). Every
 * value and key remembers its 1-based line so that configuration errors can
 * point at it. Bad input never crashes: toml_parse returns NULL and fills a
 * TomlError with the line, column and a message.
 *
 *   TomlError error;
 *   TomlValue *root = toml_parse(bytes, length, &error);
 *   const TomlEntry *entry = toml_find(root, "tool");
 *   toml_delete(root); */
#ifndef GPULINT_TOML_H
#define GPULINT_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"

/* Nesting of arrays and inline tables beyond this is refused. */
#define TOML_MAX_DEPTH 100

typedef enum {
  TOML_TABLE,
  TOML_ARRAY,
  TOML_STRING,
  TOML_INTEGER,
  TOML_FLOAT,
  TOML_BOOLEAN,
  TOML_DATETIME, /* offset or local date-time, date or time; `text` holds it */
} TomlKind;

typedef struct TomlValue TomlValue;

typedef struct {
  char *key;           /* owned, NUL-terminated (a key may also hold NUL bytes) */
  uint32_t key_length;
  uint32_t line;       /* where the key was written */
  TomlValue *value;    /* owned */
} TomlEntry;

struct TomlValue {
  TomlKind kind;
  uint8_t origin;          /* how a table or array came to be; private */
  uint32_t line;           /* where the value (or its table header) starts */
  char *text;              /* STRING and DATETIME: owned, NUL-terminated */
  uint32_t text_length;
  int64_t integer;
  double number;
  bool boolean;
  Array(TomlEntry) entries;   /* TABLE: in the order they were defined */
  Array(TomlValue *) items;   /* ARRAY */
  Array(uint32_t) index;      /* TABLE: hash index over entries; private */
};

typedef struct {
  uint32_t line;   /* 1-based */
  uint32_t column; /* 1-based, in bytes */
  char message[160];
} TomlError;

/* Parses `length` bytes of UTF-8 TOML (borrowed for the call). Returns the
 * root table, which the caller deletes, or NULL with `error` filled. */
TomlValue *toml_parse(const char *bytes, size_t length, TomlError *error);

/* Frees a value and everything below it; NULL is fine. */
void toml_delete(TomlValue *self);

/* The entry named `key` in a table, or NULL (also when `self` is NULL or
 * not a table). Borrowed from the table. */
const TomlEntry *toml_find(const TomlValue *self, const char *key);

/* "table", "array", "string", ... for messages. */
const char *toml_kind_name(TomlKind kind);

#endif
