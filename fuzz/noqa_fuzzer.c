/* noqa_fuzzer.c — the `# noqa` and `# gpulint: noqa` parsers on arbitrary
 * bytes.
 *
 * The first byte picks the rule code asked about (or NULL for the whole
 * file); the rest is a physical line for noqa_suppresses and a whole file
 * for noqa_skips_file. Both get a buffer of exactly the input's length, so
 * AddressSanitizer sees any read past the end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "noqa.h"

static const char *const CODES[] = {"GPU001", "GPU101", "GPU201", "GPU900", "G", ""};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const char *code = data[0] % 7 == 6 ? NULL : CODES[data[0] % 7];
  size--;
  char *bytes = malloc(size ? size : 1);
  memcpy(bytes, data + 1, size);
  if (code) (void)noqa_suppresses(bytes, (uint32_t)size, code);
  (void)noqa_skips_file(bytes, (uint32_t)size, code);
  free(bytes);
  return 0;
}
