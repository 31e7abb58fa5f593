/* data.h — where gpulint keeps verify/: the reproductions, their harness
 * and the probe of `verify --run`. */
#ifndef GPULINT_VERIFY_DATA_H
#define GPULINT_VERIFY_DATA_H

/* The first verify/ folder that holds `marker` (a path inside it):
 * $GPULINT_VERIFY_DIR, then beside the binary (installed, pip-installed
 * from the wheel, a build directory of the source tree), the install
 * prefix, the source tree the binary was built from. Caller frees; NULL
 * when none does. */
char *verify_data_dir(const char *marker);

#endif
