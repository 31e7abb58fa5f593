/* The project index kept between runs: summaries written and read back,
 * stored entries, and damaged bytes never trusted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parsed.h"
#include "store.h"
#include "summary.h"

static const char TRAINING[] =
    "import torch\n"
    "import torch.nn as nn\n"
    "from .meters import AverageMeter\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(4, 2)\n"
    "        self.fc.requires_grad_(False)\n"
    "    def forward(self, x):\n"
    "        return self.fc(x)\n"
    "def step(model, x):\n"
    "    out = model(x)\n"
    "    return out.sum(), 0.5\n"
    "@torch.no_grad()\n"
    "def evaluate(model, loader):\n"
    "    for x in loader:\n"
    "        model(x)\n"
    "for epoch in range(3):\n"
    "    evaluate(Net(), [])\n";

static Summary *summarize(const char *text) {
  Parsed p = parse(text);
  Summary *summary = summary_new("/p/train.py", summary_hash_bytes(text, strlen(text)), p.facts, p.flow);
  parsed_delete(&p);
  return summary;
}

static void test_a_summary_reads_back_as_written(void **state) {
  (void)state;
  Summary *summary = summarize(TRAINING);
  BinWriter first = {0}, second = {0};
  summary_write(summary, &first);
  Summary *read = summary_read("/p/train.py", first.bytes, first.length);
  assert_non_null(read);
  summary_write(read, &second);
  assert_int_equal(first.length, second.length);
  assert_memory_equal(first.bytes, second.bytes, first.length);
  assert_int_equal(read->hash, summary->hash);
  assert_int_equal(read->functions.size, summary->functions.size);
  assert_int_equal(read->classes.size, 1);
  assert_string_equal(read->classes.contents[0].name, "Net");
  assert_int_equal(read->classes.contents[0].submodules.size, summary->classes.contents[0].submodules.size);
  const SummaryFunction *step = summary_function(read, "step", 4);
  assert_non_null(step);
  assert_int_equal(step->returns, summary_function(summary, "step", 4)->returns);
  assert_string_equal(summary_import(read, "AverageMeter", 12), ".meters.AverageMeter");
  summary_delete(read);
  summary_delete(summary);
  bin_writer_free(&first);
  bin_writer_free(&second);
}

static void test_damaged_summary_bytes_are_refused(void **state) {
  (void)state;
  Summary *summary = summarize(TRAINING);
  BinWriter out = {0};
  summary_write(summary, &out);
  for (size_t length = 0; length < out.length; length++) {
    assert_null(summary_read("/p/train.py", out.bytes, length)); /* every cut is caught */
  }
  uint8_t *flipped = malloc(out.length);
  for (size_t at = 0; at < out.length; at++) { /* a changed byte: refused or read whole, never a crash */
    memcpy(flipped, out.bytes, out.length);
    flipped[at] ^= 0xff;
    summary_delete(summary_read("/p/train.py", flipped, out.length));
  }
  free(flipped);
  summary_delete(summary);
  bin_writer_free(&out);
}

static char *temporary_path(void) {
  char *path = strdup("/tmp/gpulint-store-XXXXXX");
  int descriptor = mkstemp(path);
  assert_true(descriptor >= 0);
  close(descriptor);
  return path;
}

static void write_bytes(const char *path, const void *bytes, size_t length) {
  FILE *stream = fopen(path, "wb");
  assert_non_null(stream);
  assert_int_equal(fwrite(bytes, 1, length, stream), length);
  fclose(stream);
}

static void test_stored_entries_read_back(void **state) {
  (void)state;
  char *path = temporary_path();
  Summary *summary = summarize(TRAINING);
  uint64_t slots[4] = {0, 7, 0, 9};
  StoreWriter writer;
  store_begin(&writer, "/p");
  StoredFile entry = {"/p/train.py", 11, 123, 4, 5, 77, slots, 4, 2, NULL, 0};
  store_add(&writer, &entry, summary);
  StoredFile bare = {"/p/other.py", 11, 1, 2, 3, 4, NULL, 0, 0, NULL, 0};
  store_add(&writer, &bare, NULL);
  assert_true(store_save(&writer, path));
  assert_null(store_open(path, "/q")); /* another root's */
  Store *store = store_open(path, "/p");
  assert_non_null(store);
  StoredFile read;
  assert_true(store_next(store, &read));
  assert_int_equal(read.path_length, 11);
  assert_memory_equal(read.path, "/p/train.py", 11);
  assert_int_equal(read.size, 123);
  assert_int_equal(read.mtime_nsec, 5);
  assert_int_equal(read.capacity, 4);
  assert_memory_equal(read.slots, slots, sizeof slots);
  Summary *back = summary_read("/p/train.py", read.summary, read.summary_length);
  assert_non_null(back);
  assert_int_equal(back->functions.size, summary->functions.size);
  summary_delete(back);
  assert_true(store_next(store, &read));
  assert_null(read.summary);
  assert_false(store_next(store, &read));
  store_close(store);
  summary_delete(summary);
  unlink(path);
  free(path);
}

static void test_a_damaged_store_is_read_up_to_the_damage(void **state) {
  (void)state;
  char *path = temporary_path();
  Summary *summary = summarize(TRAINING);
  uint64_t slots[8] = {1, 2, 3, 4, 5, 6, 7, 0};
  StoreWriter writer;
  store_begin(&writer, "/p");
  StoredFile entry = {"/p/train.py", 11, 123, 4, 5, 77, slots, 8, 7, NULL, 0};
  for (int i = 0; i < 3; i++) store_add(&writer, &entry, summary);
  assert_true(store_save(&writer, path));
  FILE *stream = fopen(path, "rb");
  fseek(stream, 0, SEEK_END);
  size_t length = (size_t)ftell(stream);
  rewind(stream);
  uint8_t *bytes = malloc(length);
  assert_int_equal(fread(bytes, 1, length, stream), length);
  fclose(stream);
  for (size_t cut = 0; cut < length; cut += 7) {
    write_bytes(path, bytes, cut);
    Store *store = store_open(path, "/p");
    uint32_t entries = 0;
    StoredFile read;
    while (store && store_next(store, &read)) entries++;
    assert_true(entries < 3); /* the last entry is never whole */
    store_close(store);
  }
  bytes[length / 2] ^= 0x55; /* a changed byte in the middle: no crash */
  write_bytes(path, bytes, length);
  Store *store = store_open(path, "/p");
  StoredFile read;
  while (store && store_next(store, &read)) summary_delete(summary_read("/p/train.py", read.summary, read.summary_length));
  store_close(store);
  free(bytes);
  summary_delete(summary);
  unlink(path);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_summary_reads_back_as_written),
      cmocka_unit_test(test_damaged_summary_bytes_are_refused),
      cmocka_unit_test(test_stored_entries_read_back),
      cmocka_unit_test(test_a_damaged_store_is_read_up_to_the_damage),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
