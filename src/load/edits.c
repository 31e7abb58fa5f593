/* edits.c — byte edits applied to a text. */
#include "edits.h"

#include <string.h>

char *edits_apply(const char *text, size_t length, const EditList *edits, size_t *new_length) {
  size_t total = length + 1;
  for (uint32_t i = 0; i < edits->size; i++) total += strlen(edits->contents[i]->content);
  char *out = gl_malloc(total);
  size_t written = 0, copied = 0;
  for (uint32_t i = 0; i < edits->size; i++) {
    const GlEdit *edit = edits->contents[i];
    size_t keep = edit->start_byte - copied, content = strlen(edit->content);
    memcpy(out + written, text + copied, keep);
    memcpy(out + written + keep, edit->content, content);
    written += keep + content;
    copied = edit->end_byte;
  }
  memcpy(out + written, text + copied, length - copied);
  written += length - copied;
  out[written] = '\0';
  *new_length = written;
  return out;
}
