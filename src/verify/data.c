/* data.c — where gpulint keeps verify/: the reproductions, their harness
 * and the probe of `verify --run`. */
#include "data.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "verify_config.h"

/* The directory of the running binary; caller frees. */
static char *data__exe_dir(void) {
  char path[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return gl_strdup(".");
  path[length] = '\0';
  char *slash = strrchr(path, '/');
  if (slash) *slash = '\0';
  return gl_strdup(path);
}

/* The first verify/ folder that holds `marker` (a path inside it):
 * $GPULINT_VERIFY_DIR, then beside the binary: installed
 * (<prefix>/bin/../share/gpulint/verify), installed by pip from the wheel
 * (<prefix>/bin/../gpulint/verify: a wheel's data goes to the prefix
 * itself), a build directory inside the source tree
 * (build/src/../../verify), the install prefix, the source tree the binary
 * was built from. Caller frees; NULL when none holds it. */
char *verify_data_dir(const char *marker) {
  char *exe = data__exe_dir();
  char *candidates[] = {
      getenv("GPULINT_VERIFY_DIR") ? gl_strdup(getenv("GPULINT_VERIFY_DIR")) : NULL,
      gl_format("%s/../share/gpulint/verify", exe),
      gl_format("%s/../gpulint/verify", exe),
      gl_format("%s/../../verify", exe),
      gl_strdup(GPULINT_VERIFY_INSTALL_DIR),
      gl_strdup(GPULINT_VERIFY_SOURCE_DIR),
  };
  free(exe);
  char *found = NULL;
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
    char *path = candidates[i] ? gl_format("%s/%s", candidates[i], marker) : NULL;
    if (!found && path && access(path, R_OK) == 0) found = candidates[i];
    else free(candidates[i]);
    free(path);
  }
  return found;
}
