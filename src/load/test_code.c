/* test_code.c — the signs that a module is a test suite's. */
#include "test_code.h"

#include "syntax.h"

static const char *const TEST_MODULES[] = {"pytest", "unittest", NULL};

/* Whether the dotted name `name` is a test framework or inside one
 * (`unittest`, `unittest.mock`, `pytest`). */
static bool test_code__framework(const Source *source, TSNode name) {
  Text text = node_text(source, name);
  for (uint32_t i = 0; i < text.length; i++) {
    if (text.ptr[i] == '.') {
      text.length = i;
      break;
    }
  }
  return text_in(text, TEST_MODULES);
}

/* `import pytest`, `import unittest.mock as mock`,
 * `from unittest import TestCase`. */
static bool test_code__imports_framework(const Source *source, TSNode statement) {
  if (node_is(statement, K_IMPORT_FROM_STATEMENT)) {
    TSNode module = node_field(statement, F_MODULE_NAME);
    return !ts_node_is_null(module) && test_code__framework(source, module);
  }
  uint32_t count = ts_node_named_child_count(statement);
  for (uint32_t i = 0; i < count; i++) {
    TSNode name = ts_node_named_child(statement, i);
    if (node_is(name, K_ALIASED_IMPORT)) name = node_field(name, F_NAME);
    if (!ts_node_is_null(name) && test_code__framework(source, name)) return true;
  }
  return false;
}

static bool test_code__named(const Source *source, TSNode definition, const char *prefix) {
  TSNode name = node_field(definition, F_NAME);
  if (ts_node_is_null(name)) return false;
  Text text = node_text(source, name);
  size_t length = strlen(prefix);
  return text.length > length && memcmp(text.ptr, prefix, length) == 0;
}

static TSNode test_code__undecorated(TSNode node) {
  return node_is(node, K_DECORATED_DEFINITION) ? node_field(node, F_DEFINITION) : node;
}

/* A `Test*` class whose body defines a `test_*` method: a dataset class
 * named TestDataset is not one. */
static bool test_code__test_class(const Source *source, TSNode definition) {
  if (!test_code__named(source, definition, "Test")) return false;
  TSNode body = node_field(definition, F_BODY);
  uint32_t count = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count; i++) {
    TSNode method = test_code__undecorated(ts_node_named_child(body, i));
    if (node_is(method, K_FUNCTION_DEFINITION) && test_code__named(source, method, "test_")) return true;
  }
  return false;
}

bool test_code_shows_tests(const Source *source, TSNode root) {
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode statement = test_code__undecorated(ts_node_named_child(root, i));
    if (ts_node_is_null(statement)) continue;
    bool sign = false;
    switch (node_kind(statement)) {
    case K_IMPORT_STATEMENT:
    case K_IMPORT_FROM_STATEMENT: sign = test_code__imports_framework(source, statement); break;
    case K_FUNCTION_DEFINITION: sign = test_code__named(source, statement, "test_"); break;
    case K_CLASS_DEFINITION: sign = test_code__test_class(source, statement); break;
    default: break;
    }
    if (sign) return true;
  }
  return false;
}
