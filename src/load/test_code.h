/* test_code.h — whether a file's code is a test suite's.
 *
 * A file named like a test (`test_*.py`, `*_test.py`) or kept in a folder
 * named `test` is, in a machine-learning repository, as often an
 * evaluation script (`main_test.py` runs the trained model over the test
 * images) as a unit test. Its code tells them apart: a test module imports
 * pytest or unittest, or defines at module level a `test_*` function or a
 * `Test*` class with `test_*` methods (what pytest collects). */
#ifndef GPULINT_TEST_CODE_H
#define GPULINT_TEST_CODE_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "source.h"

/* Whether the module `root` of `source` shows one of the signs above. It
 * looks at the module's own statements only (and a class's body), so it
 * costs the number of top-level statements. */
bool test_code_shows_tests(const Source *source, TSNode root);

#endif
