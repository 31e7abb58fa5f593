/* nvml.h — device memory as the driver sees it, through NVML loaded at run
 * time (dlopen), so gpulint builds and runs where no GPU driver is. */
#ifndef GPULINT_VERIFY_NVML_H
#define GPULINT_VERIFY_NVML_H

#include <stdbool.h>

typedef struct Nvml Nvml;

/* Loads `library` (NULL: libnvidia-ml.so.1), initializes NVML and opens
 * device `index` (PCI bus order, as CUDA_DEVICE_ORDER=PCI_BUS_ID numbers
 * them). NULL and `error` (caller frees) when any of that fails; the error
 * says whether NVML, the driver or the GPU is missing. */
Nvml *nvml_open(const char *library, unsigned index, char **error);
/* Shuts NVML down and unloads it; NULL is fine. */
void nvml_delete(Nvml *self);

/* Memory in use on the device now, in bytes; false when NVML fails. */
bool nvml_memory_used(Nvml *self, double *used);
/* Memory in use on device `index` (any device NVML sees, not only the
 * one opened), in bytes; false when NVML fails or there is no such one. */
bool nvml_device_memory_used(Nvml *self, unsigned index, double *used);
/* Borrowed; valid until nvml_delete. */
const char *nvml_device_name(const Nvml *self);
const char *nvml_driver_version(const Nvml *self);
double nvml_memory_total(const Nvml *self);
unsigned nvml_device_count(const Nvml *self);

#endif
