/* verify.c — entry point of `gpulint verify` (the runner is not built yet). */
#include <stdio.h>

#include "verify.h"

int verify_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "gpulint: verify: not available in this build\n");
  return 2;
}
