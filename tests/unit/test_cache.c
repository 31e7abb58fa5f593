/* The result cache: what the key covers, entries read back equal to what
 * was stored, and damaged or foreign entries read as misses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "cache.h"
#include "gpulint.h"

static const char TRAIN[] =
    "import torch\n"
    "def train(model, loader, optimizer):\n"
    "    for x, y in loader:\n"
    "        loss = model(x).sum()\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
    "    broken(:\n";

static bool same_key(CacheKey a, CacheKey b) { return a.high == b.high && a.low == b.low; }

static GlFileResult *lint(const char *path, const char *text, const GlRuleSet *rules) {
  GlLinter *linter = gl_linter_new();
  GlFileResult *result = gl_linter_lint_buffer(linter, path, text, strlen(text), rules);
  gl_linter_delete(linter);
  return result;
}

static void assert_same_result(const GlFileResult *a, const GlFileResult *b) {
  assert_string_equal(a->path, b->path);
  assert_int_equal(a->finding_count, b->finding_count);
  assert_true((a->error == NULL) == (b->error == NULL));
  if (a->error) assert_string_equal(a->error, b->error);
  assert_true((a->note == NULL) == (b->note == NULL));
  if (a->note) assert_string_equal(a->note, b->note);
  for (uint32_t i = 0; i < a->finding_count; i++) {
    const GlFinding *x = &a->findings[i], *y = &b->findings[i];
    assert_int_equal(x->rule, y->rule);
    assert_int_equal(x->effect, y->effect);
    assert_memory_equal(&x->start, &y->start, sizeof x->start);
    assert_memory_equal(&x->end, &y->end, sizeof x->end);
    assert_int_equal(x->cell, y->cell);
    assert_int_equal(x->start_byte, y->start_byte);
    assert_int_equal(x->end_byte, y->end_byte);
    assert_string_equal(x->message, y->message);
    assert_true((x->detail == NULL) == (y->detail == NULL));
    if (x->detail) assert_string_equal(x->detail, y->detail);
  }
}

/* A fresh folder for one test; the caller frees the name. */
static char *temporary_folder(void) {
  char *folder = gl_strdup("/tmp/gpulint-cache-test-XXXXXX");
  assert_non_null(mkdtemp(folder));
  return folder;
}

static void remove_tree(const char *path) {
  char *command = NULL;
  command = gl_format("rm -rf '%s'", path);
  assert_int_equal(system(command), 0);
  free(command);
}

/* The one entry file under `directory` (fan-out folders are two hex
 * digits); the caller frees it. */
static char *only_entry(const char *directory) {
  char *found = NULL;
  DIR *top = opendir(directory);
  for (struct dirent *fan; top && (fan = readdir(top));) {
    if (strlen(fan->d_name) != 2 || fan->d_name[0] == '.') continue;
    char *sub = NULL;
    sub = gl_format("%s/%s", directory, fan->d_name);
    DIR *inner = opendir(sub);
    for (struct dirent *entry; inner && (entry = readdir(inner));) {
      if (entry->d_name[0] == '.') continue;
      assert_null(found);
      found = gl_format("%s/%s", sub, entry->d_name);
    }
    if (inner) closedir(inner);
    free(sub);
  }
  if (top) closedir(top);
  assert_non_null(found);
  return found;
}

static void overwrite(const char *path, const char *text, size_t length) {
  FILE *file = fopen(path, "wb");
  assert_non_null(file);
  assert_int_equal(fwrite(text, 1, length, file), length);
  fclose(file);
}

/* ---- Keys ----------------------------------------------------------------------- */

static void test_key_covers_bytes_rules_and_kind(void **state) {
  (void)state;
  GlRuleSet rules = gl_rule_set_default(), fewer = rules;
  fewer.enabled[gl_rule_index("GPU001")] = false;
  CacheKey key = cache_key("a/train.py", TRAIN, strlen(TRAIN), &rules);
  assert_true(same_key(key, cache_key("b/other_name.py", TRAIN, strlen(TRAIN), &rules)));
  assert_false(same_key(key, cache_key("a/train.py", TRAIN, strlen(TRAIN) - 1, &rules)));
  assert_false(same_key(key, cache_key("a/train.py", TRAIN, strlen(TRAIN), &fewer)));
  assert_false(same_key(key, cache_key("a/train.ipynb", TRAIN, strlen(TRAIN), &rules)));
  assert_false(same_key(key, cache_key("a/train", TRAIN, strlen(TRAIN), &rules)));
  char changed[sizeof TRAIN];
  memcpy(changed, TRAIN, sizeof TRAIN);
  changed[20] ^= 1;
  assert_false(same_key(key, cache_key("a/train.py", changed, strlen(TRAIN), &rules)));
}

/* Every length around the hash's 16-byte blocks gives its own key. */
static void test_key_of_every_tail_length(void **state) {
  (void)state;
  GlRuleSet rules = gl_rule_set_default();
  CacheKey keys[40];
  for (size_t length = 0; length < 40; length++) {
    keys[length] = cache_key("t.py", TRAIN, length, &rules);
    for (size_t earlier = 0; earlier < length; earlier++) assert_false(same_key(keys[earlier], keys[length]));
  }
}

/* ---- Entries ---------------------------------------------------------------------- */

static void test_round_trip(void **state) {
  (void)state;
  char *folder = temporary_folder();
  Cache *cache = cache_new(folder);
  assert_non_null(cache);
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *fresh = lint("train.py", TRAIN, &rules);
  assert_true(fresh->finding_count >= 2); /* GPU001 and GPU900 */
  bool detailed = false, plain = false; /* a rule's finding has a detail, GPU900's has none */
  for (uint32_t i = 0; i < fresh->finding_count; i++) {
    detailed |= fresh->findings[i].detail != NULL;
    plain |= fresh->findings[i].detail == NULL;
  }
  assert_true(detailed && plain);
  CacheKey key = cache_key("train.py", TRAIN, strlen(TRAIN), &rules);
  assert_null(cache_get(cache, key, "train.py"));
  cache_put(cache, key, fresh);
  GlFileResult *stored = cache_get(cache, key, "train.py");
  assert_non_null(stored);
  assert_same_result(fresh, stored);
  GlFileResult *renamed = cache_get(cache, key, "elsewhere/copy.py");
  assert_string_equal(renamed->path, "elsewhere/copy.py");
  gl_file_result_delete(renamed);
  gl_file_result_delete(stored);
  gl_file_result_delete(fresh);
  cache_delete(cache);
  remove_tree(folder);
  free(folder);
}

static void test_errors_and_notes_round_trip(void **state) {
  (void)state;
  char *folder = temporary_folder();
  Cache *cache = cache_new(folder);
  GlRuleSet rules = gl_rule_set_default();
  static const char BINARY[] = "x = 1\n\xff\xfe\n";
  GlFileResult *fresh = lint("bad.py", BINARY, &rules);
  assert_non_null(fresh->error);
  CacheKey key = cache_key("bad.py", BINARY, strlen(BINARY), &rules);
  cache_put(cache, key, fresh);
  GlFileResult *stored = cache_get(cache, key, "bad.py");
  assert_non_null(stored);
  assert_same_result(fresh, stored);
  gl_file_result_delete(stored);
  gl_file_result_delete(fresh);
  cache_delete(cache);
  remove_tree(folder);
  free(folder);
}

/* Truncated, empty, foreign, ill-typed and unknown-rule entries are
 * misses; a later put replaces them. */
static void test_damaged_entries_are_misses(void **state) {
  (void)state;
  static const char *const DAMAGED[] = {
      "",
      "{\"key\":",
      "not json at all \x01\x02",
      "{\"key\":\"00000000000000000000000000000000\",\"findings\":[]}",
      "{\"key\":\"%s\"}",
      "{\"key\":\"%s\",\"findings\":{}}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU999\",0,0,1,1,1,1,0,0,0,\"m\",null]]}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU001\",0,0,1,1,1,1,0,0,0,\"m\"]]}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU001\",0,0,1,1,1,1,0,0,0,\"m\",7]]}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU001\",99,0,1,1,1,1,0,0,0,\"m\",null]]}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU001\",0,0,-1,1,1,1,0,0,0,\"m\",null]]}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU001\",0,0,1.5,1,1,1,0,0,0,\"m\",null]]}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU001\",0,0,1,1,1,1,0,0,0,\"m\",null],7]}",
      "{\"key\":\"%s\",\"findings\":[[\"GPU001\",0,0,1,1,1,1,0,0,0,\"m\",null,{\"unsafe\":1}]]}",
      "{\"key\":\"%s\",\"error\":7,\"findings\":[]}",
  };
  char *folder = temporary_folder();
  Cache *cache = cache_new(folder);
  GlRuleSet rules = gl_rule_set_default();
  GlFileResult *fresh = lint("train.py", TRAIN, &rules);
  CacheKey key = cache_key("train.py", TRAIN, strlen(TRAIN), &rules);
  char hex[33];
  snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)key.high, (unsigned long long)key.low);
  cache_put(cache, key, fresh);
  char *entry = only_entry(folder);
  char valid[256]; /* the damaged entries' undamaged form is a hit */
  snprintf(valid, sizeof valid, "{\"key\":\"%s\",\"findings\":[[\"GPU001\",0,0,1,1,1,1,0,0,0,\"m\",null]]}", hex);
  overwrite(entry, valid, strlen(valid));
  GlFileResult *read = cache_get(cache, key, "train.py");
  assert_non_null(read);
  assert_int_equal(read->finding_count, 1);
  assert_string_equal(read->findings[0].message, "m");
  assert_null(read->findings[0].detail);
  gl_file_result_delete(read);
  for (size_t i = 0; i < sizeof DAMAGED / sizeof DAMAGED[0]; i++) {
    char text[512];
    int length = snprintf(text, sizeof text, DAMAGED[i], hex);
    overwrite(entry, text, (size_t)length);
    assert_null(cache_get(cache, key, "train.py"));
    cache_put(cache, key, fresh);
    GlFileResult *stored = cache_get(cache, key, "train.py");
    assert_non_null(stored);
    gl_file_result_delete(stored);
  }
  free(entry);
  gl_file_result_delete(fresh);
  cache_delete(cache);
  remove_tree(folder);
  free(folder);
}

/* ---- Folders ---------------------------------------------------------------------- */

static void test_new_folder_is_tagged(void **state) {
  (void)state;
  char *folder = temporary_folder(), *inner = NULL, *tag = NULL;
  inner = gl_format("%s/a/b/cache", folder);
  Cache *cache = cache_new(inner);
  assert_non_null(cache);
  assert_string_equal(cache_directory(cache), inner);
  tag = gl_format("%s/CACHEDIR.TAG", inner);
  assert_int_equal(access(tag, R_OK), 0);
  cache_delete(cache);
  free(tag);
  free(inner);
  remove_tree(folder);
  free(folder);
}

/* A folder that cannot be made (a file stands in the way) gives no cache;
 * a project whose folder cannot be made falls back to the user's. */
static void test_unusable_folders(void **state) {
  (void)state;
  char *folder = temporary_folder(), *blocker = NULL, *below = NULL, *user = NULL;
  blocker = gl_format("%s/%s", folder, CACHE_FOLDER);
  below = gl_format("%s/sub", blocker);
  overwrite(blocker, "x", 1);
  assert_null(cache_new(blocker));
  assert_null(cache_new(below));
  assert_null(cache_new(""));
  cache_delete(NULL);
  user = gl_format("%s/user-cache", folder);
  setenv("XDG_CACHE_HOME", user, 1);
  Cache *cache = cache_new_for_project(folder);
  assert_non_null(cache);
  char *expected = NULL;
  expected = gl_format("%s/gpulint", user);
  assert_string_equal(cache_directory(cache), expected);
  cache_delete(cache);
  free(expected);
  free(user);
  free(below);
  free(blocker);
  remove_tree(folder);
  free(folder);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_key_covers_bytes_rules_and_kind),
      cmocka_unit_test(test_key_of_every_tail_length),
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_errors_and_notes_round_trip),
      cmocka_unit_test(test_damaged_entries_are_misses),
      cmocka_unit_test(test_new_folder_is_tagged),
      cmocka_unit_test(test_unusable_folders),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
