/* replay.c — a main() for the fuzz harnesses without libFuzzer.
 *
 *   NAME_replay FILE ...
 *
 * Feeds each file to LLVMFuzzerTestOneInput once, as the fuzzer would.
 * The test suite builds each harness with it to replay fuzz/regressions/
 * under the normal compiler and the sanitizer build. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    FILE *file = fopen(argv[i], "rb");
    if (!file) {
      fprintf(stderr, "replay: cannot read %s\n", argv[i]);
      return 2;
    }
    size_t capacity = 1 << 16, size = 0, got;
    uint8_t *data = malloc(capacity);
    while ((got = fread(data + size, 1, capacity - size, file)) > 0) {
      size += got;
      if (size == capacity) data = realloc(data, capacity *= 2);
    }
    fclose(file);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
  }
  printf("replay: %d input(s) ran\n", argc - 1);
  return 0;
}
