/* noqa.h — suppression comments.
 *
 *   x = 1  # noqa              every rule on this line
 *   x = 1  # noqa: GPU101, GPU2 these codes (case-insensitive `noqa`)
 *   # gpulint: noqa            alone on a line: skip the file
 *   # gpulint: noqa: GPU201    alone on a line: skip GPU201 in the file */
#ifndef GPULINT_NOQA_H
#define GPULINT_NOQA_H

#include <stdbool.h>
#include <stdint.h>

#define NOQA_MAX_CODES 16

typedef enum {
  NOQA_ALL,       /* `# noqa`: every rule on the line */
  NOQA_CODES,     /* `# noqa: GPU101, GPU2` */
  NOQA_MALFORMED, /* `# noqa GPU101`: a code of ours without the colon (its codes are listed all
                     the same); suppresses nothing. (`# noqa F401`, another tool's, is NOQA_ALL, as
                     flake8 reads it.) */
} NoqaKind;

typedef struct {
  uint32_t start, length; /* in the line */
  bool well_formed;       /* letters then digits; `GPU2O1` is not */
  bool ours;              /* starts with GPU (`F401` is another tool's code) */
} NoqaCode;

/* The `# noqa` comment of one physical line. Offsets are into the line. */
typedef struct {
  NoqaKind kind;
  uint32_t comment_start; /* the '#' */
  uint32_t end;           /* after "noqa" or the last listed code */
  uint32_t code_count;
  NoqaCode codes[NOQA_MAX_CODES];
} NoqaDirective;

/* Reads the line's `# noqa` comment; false when it has none. */
bool noqa_parse(const char *line, uint32_t length, NoqaDirective *out);

/* Whether a listed code (or prefix) covers `code`. */
bool noqa_code_covers(const char *line, const NoqaCode *listed, const char *code);

/* Whether the `# noqa` comment on this physical line covers `code`: a bare
 * `# noqa` (or one with words that are no codes) covers all; a malformed
 * one (`# noqa GPU101`) covers nothing; a list covers its well-formed
 * codes (`GPU2O1` covers nothing). */
bool noqa_suppresses(const char *line, uint32_t length, const char *code);

/* Whether a `# gpulint: noqa` line skips the file for `code`; with `code`
 * NULL, whether it skips the whole file. */
bool noqa_skips_file(const char *bytes, uint32_t length, const char *code);

#endif
