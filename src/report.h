/* report.h — printing results: text and JSON. */
#ifndef GPULINT_REPORT_H
#define GPULINT_REPORT_H

#include <stdio.h>

#include "gpulint.h"

typedef enum { FORMAT_TEXT, FORMAT_JSON } OutputFormat;

/* Parses a --output-format value; false if unknown. */
bool report_parse_format(const char *name, OutputFormat *format);

/* Writes the findings of `results` (borrowed) to `out`. Load errors are not
 * findings; they go to `errors` as `path: message`. */
void report_write(FILE *out, FILE *errors, OutputFormat format, GlFileResult *const *results, size_t count);

/* Counts findings over all results. */
size_t report_finding_count(GlFileResult *const *results, size_t count);

#endif
