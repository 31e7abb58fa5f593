/* fake_nvml.c — a stand-in for libnvidia-ml.so.1 with the functions the
 * runner resolves, so the sampling code runs where no GPU is.
 *
 *   FAKE_NVML_FAIL=load-symbols  (not handled here: see the tests)
 *   FAKE_NVML_FAIL=init          nvmlInit_v2 fails as without a driver
 *   FAKE_NVML_FAIL=no-device     NVML sees no device
 *   FAKE_NVML_USED_FILE=PATH     memory used = 512 MiB + the number in PATH
 *                                (the fake harness writes its "allocated")
 * Without FAKE_NVML_USED_FILE, used memory grows 1 MiB per query. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned long long total, free, used;
} Memory;

static unsigned long long queries;

static int fake__fails(const char *what) {
  const char *fail = getenv("FAKE_NVML_FAIL");
  return fail && strcmp(fail, what) == 0;
}

int nvmlInit_v2(void) { return fake__fails("init") ? 9 : 0; } /* NVML_ERROR_DRIVER_NOT_LOADED */
int nvmlShutdown(void) { return 0; }

int nvmlDeviceGetCount_v2(unsigned *count) {
  *count = fake__fails("no-device") ? 0 : 1;
  return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned index, void **device) {
  *device = (void *)&queries;
  return index == 0 ? 0 : 2; /* NVML_ERROR_INVALID_ARGUMENT */
}

static unsigned long long fake__used(void) {
  const char *path = getenv("FAKE_NVML_USED_FILE");
  unsigned long long base = 512ull << 20, extra = 0;
  if (!path) return base + (++queries << 20);
  FILE *file = fopen(path, "r");
  if (file) {
    if (fscanf(file, "%llu", &extra) != 1) extra = 0;
    fclose(file);
  }
  return base + extra;
}

int nvmlDeviceGetMemoryInfo(void *device, Memory *memory) {
  (void)device;
  memory->total = 80ull << 30;
  memory->used = fake__used();
  memory->free = memory->total - memory->used;
  return 0;
}

int nvmlDeviceGetName(void *device, char *name, unsigned length) {
  (void)device;
  snprintf(name, length, "Fake GPU");
  return 0;
}

int nvmlSystemGetDriverVersion(char *version, unsigned length) {
  snprintf(version, length, "0.0.fake");
  return 0;
}

const char *nvmlErrorString(int result) {
  return result == 9 ? "Driver Not Loaded" : result == 2 ? "Invalid Argument" : "Unknown Error";
}
