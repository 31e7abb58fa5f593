/* findings.h — the engine's list of findings while a file is linted. */
#ifndef GPULINT_FINDINGS_H
#define GPULINT_FINDINGS_H

#include "array.h"
#include "gpulint.h"
#include "source.h"

typedef Array(GlFinding) Findings;

/* Appends a finding of rule `rule` (registry index) over bytes [start,
 * end) of `source`, taking `message`; returns it (valid until the next
 * append). */
GlFinding *findings_add(Findings *findings, const Source *source, uint32_t rule, GlEffect effect, uint32_t start_byte,
                        uint32_t end_byte, char *message);

/* Frees what a finding owns. */
void finding_free(GlFinding *finding);

#endif
