/* array.h — a growable array of T, as in tree-sitter's lib/src/array.h.
 *
 *   Array(Loop) loops = array_new();
 *   array_push(&loops, loop);
 *   array_delete(&loops);
 *
 * Elements are stored by value; the array owns its buffer only. */
#ifndef GPULINT_ARRAY_H
#define GPULINT_ARRAY_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define Array(T)     \
  struct {           \
    T *contents;     \
    uint32_t size;   \
    uint32_t capacity; \
  }

#define array_new() \
  { NULL, 0, 0 }

#define array_get(self, index) (&(self)->contents[index])
#define array_back(self) (&(self)->contents[(self)->size - 1])

#define array_reserve(self, wanted)                                        \
  array__reserve((void **)&(self)->contents, &(self)->capacity,            \
                 sizeof(*(self)->contents), (wanted))

#define array_push(self, element)                                          \
  (array__grow((void **)&(self)->contents, (self)->size, &(self)->capacity, \
               sizeof(*(self)->contents)),                                 \
   (self)->contents[(self)->size++] = (element))

#define array_clear(self) ((self)->size = 0)

#define array_delete(self) \
  (free((self)->contents), (self)->contents = NULL, (self)->size = 0, (self)->capacity = 0)

static inline void array__reserve(void **contents, uint32_t *capacity,
                                  size_t element_size, uint32_t wanted) {
  if (wanted <= *capacity) return;
  *contents = gl_realloc(*contents, wanted * element_size);
  *capacity = wanted;
}

static inline void array__grow(void **contents, uint32_t size, uint32_t *capacity,
                               size_t element_size) {
  if (size < *capacity) return;
  uint32_t wanted = *capacity ? *capacity * 2 : 8;
  array__reserve(contents, capacity, element_size, wanted);
}

#endif
