/* nvml.c — the few NVML calls the runner needs, resolved with dlsym. The
 * types are declared here as NVML's header defines them; where the CUDA
 * Toolkit's nvml.h is installed, the build checks them against it. */
#include "nvml.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#ifdef GPULINT_HAVE_NVML_H
/* nvml.h has enumerators past INT_MAX, which -Wpedantic rejects before C23. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#include <nvml.h>
#pragma GCC diagnostic pop
#endif

typedef int Return; /* nvmlReturn_t; 0 is NVML_SUCCESS */
typedef void *Device; /* nvmlDevice_t */
typedef struct {
  unsigned long long total, free, used;
} Memory; /* nvmlMemory_t */

#ifdef GPULINT_HAVE_NVML_H
_Static_assert(sizeof(Memory) == sizeof(nvmlMemory_t), "nvmlMemory_t changed");
_Static_assert(sizeof(Device) == sizeof(nvmlDevice_t), "nvmlDevice_t changed");
_Static_assert(NVML_SUCCESS == 0, "NVML_SUCCESS changed");
#endif

#define NAME_SIZE 96

typedef struct {
  Return (*init)(void);
  Return (*shutdown)(void);
  Return (*device_count)(unsigned *count);
  Return (*device_by_index)(unsigned index, Device *device);
  Return (*memory_info)(Device device, Memory *memory);
  Return (*device_name)(Device device, char *name, unsigned length);
  Return (*driver_version)(char *version, unsigned length);
  const char *(*error_string)(Return result);
} Api;

struct Nvml {
  void *library;
  Api api;
  bool initialized;
  Device device;
  unsigned count;
  char name[NAME_SIZE];
  char driver[NAME_SIZE];
  double total;
};

/* Looks up `symbol`; a function pointer is copied byte for byte, which ISO
 * C allows where a cast from void * would not be. */
static bool nvml__symbol(void *library, const char *symbol, void *function, size_t size) {
  void *address = dlsym(library, symbol);
  if (!address) return false;
  memcpy(function, &address, size);
  return true;
}

#define NVML_SYMBOL(self, field, symbol) \
  nvml__symbol((self)->library, symbol, &(self)->api.field, sizeof((self)->api.field))

static bool nvml__bind(Nvml *self) {
  return NVML_SYMBOL(self, init, "nvmlInit_v2") && NVML_SYMBOL(self, shutdown, "nvmlShutdown") &&
         NVML_SYMBOL(self, device_count, "nvmlDeviceGetCount_v2") &&
         NVML_SYMBOL(self, device_by_index, "nvmlDeviceGetHandleByIndex_v2") &&
         NVML_SYMBOL(self, memory_info, "nvmlDeviceGetMemoryInfo") &&
         NVML_SYMBOL(self, device_name, "nvmlDeviceGetName") &&
         NVML_SYMBOL(self, driver_version, "nvmlSystemGetDriverVersion") &&
         NVML_SYMBOL(self, error_string, "nvmlErrorString");
}

static const char *nvml__error(Nvml *self, Return result) {
  const char *text = self->api.error_string ? self->api.error_string(result) : NULL;
  return text ? text : "unknown NVML error";
}

/* Opens device `index` and reads what does not change. */
static bool nvml__open_device(Nvml *self, unsigned index, char **error) {
  Return result = self->api.device_count(&self->count);
  if (result) {
    *error = gl_format("no GPU: NVML cannot count devices (%s)", nvml__error(self, result));
    return false;
  }
  if (self->count == 0 || index >= self->count) {
    *error = self->count == 0 ? gl_strdup("no GPU: NVML sees no NVIDIA device")
                              : gl_format("no GPU %u: NVML sees %u device(s)", index, self->count);
    return false;
  }
  Memory memory;
  if ((result = self->api.device_by_index(index, &self->device)) ||
      (result = self->api.memory_info(self->device, &memory))) {
    *error = gl_format("no GPU %u: NVML cannot open it (%s)", index, nvml__error(self, result));
    return false;
  }
  self->total = (double)memory.total;
  if (self->api.device_name(self->device, self->name, NAME_SIZE)) strcpy(self->name, "unknown");
  if (self->api.driver_version(self->driver, NAME_SIZE)) strcpy(self->driver, "unknown");
  return true;
}

Nvml *nvml_open(const char *library, unsigned index, char **error) {
  const char *path = library ? library : "libnvidia-ml.so.1";
  Nvml *self = gl_calloc(1, sizeof(Nvml));
  self->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!self->library) {
    const char *why = dlerror();
    *error = gl_format("no NVML: cannot load %s (%s); is the NVIDIA driver installed?", path, why ? why : "");
  } else if (!nvml__bind(self)) {
    *error = gl_format("no NVML: %s lacks the functions gpulint needs", path);
  } else {
    Return result = self->api.init();
    self->initialized = result == 0;
    if (!self->initialized) {
      *error = gl_format("no GPU: NVML did not initialize (%s)", nvml__error(self, result));
    } else if (nvml__open_device(self, index, error)) {
      return self;
    }
  }
  nvml_delete(self);
  return NULL;
}

void nvml_delete(Nvml *self) {
  if (!self) return;
  if (self->initialized) self->api.shutdown();
  if (self->library) dlclose(self->library);
  free(self);
}

bool nvml_memory_used(Nvml *self, double *used) {
  Memory memory;
  if (self->api.memory_info(self->device, &memory)) return false;
  *used = (double)memory.used;
  return true;
}

bool nvml_device_memory_used(Nvml *self, unsigned index, double *used) {
  Device device;
  Memory memory;
  if (index >= self->count || self->api.device_by_index(index, &device) || self->api.memory_info(device, &memory)) {
    return false;
  }
  *used = (double)memory.used;
  return true;
}

const char *nvml_device_name(const Nvml *self) { return self->name; }
const char *nvml_driver_version(const Nvml *self) { return self->driver; }
double nvml_memory_total(const Nvml *self) { return self->total; }
unsigned nvml_device_count(const Nvml *self) { return self->count; }
