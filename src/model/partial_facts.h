/* partial_facts.h — one file's facts for a model frozen as a whole and
 * unfrozen by name (partial.h): what a file's summary keeps of its plans,
 * its classes' parts and the steps of their forwards, read from its facts
 * alone. */
#ifndef GPULINT_PARTIAL_FACTS_H
#define GPULINT_PARTIAL_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "syntax.h"

struct Facts;

typedef Array(char *) PartialStrings;

/* Frees the strings and the array. */
void partial_strings_delete(PartialStrings *strings);

/* The most names one plan unfreezes. */
#define PARTIAL_MAX_PATTERNS 32

/* The methods that turn gradient checkpointing on
 * (`unet.enable_gradient_checkpointing()`); NULL-terminated. */
extern const char *const PARTIAL_ENABLERS[];

/* ---- Facts of one file, for its summary ------------------------------------------- */

/* The plans of the file's functions, one string each:
 * "LINE|TEST|QUALIFIED_CLASS|PATTERN|PATTERN...", where LINE is the
 * freeze's and TEST is 's' (module names end with a pattern), 'p'
 * (parameter names end with one) or 'i' (names contain one). */
void partial_plans(const struct Facts *facts, PartialStrings *out);

/* The classes a module class builds each attribute from, in __init__:
 * "ATTRIBUTE=QUALIFIED" (a class or a factory function, qualified through
 * the file's imports), one per class; "ATTRIBUTE=" when the attribute is
 * bound to something no constructor shows. */
void partial_parts(const struct Facts *facts, int32_t class_index, PartialStrings *out);

/* What the class's forward runs, in order: "KB:LINE:ATTRIBUTE", where K is
 * 'p' (the attribute's forward), 'c' (a reentrant checkpoint of it whose
 * inputs only pass on the forward's parameters), 'x' (any other reentrant
 * checkpoint) or 'm' (a call of a method of the class: not followed), and
 * B is 'C' (in the branch that runs when gradient checkpointing is on),
 * 'E' (in its else branch) or '-' (either way). Also "g-:0:QUALIFIED" for
 * each class that `_set_gradient_checkpointing` turns checkpointing on
 * for. */
void partial_steps(const struct Facts *facts, int32_t class_index, PartialStrings *out);

/* Whether a checkpoint call runs the reentrant implementation:
 * DeepSpeed's always does; torch's with `use_reentrant=True`, or with it
 * left out and no `**kwargs` that may pass it. */
bool partial_reentrant(const struct Facts *facts, TSNode call);

#endif
