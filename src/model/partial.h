/* partial.h — a model frozen as a whole and unfrozen by name, and the
 * reentrant checkpoints inside it that then get no gradient.
 *
 * Fine-tuning scripts of large models often freeze the whole model
 * (`unet.requires_grad_(False)`), unfreeze the modules whose names match a
 * list (`for name, module in unet.named_modules(): if
 * name.endswith(tuple(trainable_modules)): ...requires_grad = True`) and
 * turn on gradient checkpointing (`unet.enable_gradient_checkpointing()`).
 * The model's blocks, in other files, checkpoint their layers with the
 * reentrant implementation. A block whose inputs come only from frozen
 * layers (the stem, the frozen layers of earlier blocks, other reentrant
 * checkpoints of the same kind) then hands its trainable layers inputs
 * that require no grad, and those layers get no gradient, while blocks
 * after the first trained layer that runs outside a checkpoint are fine.
 *
 * Telling the two apart takes three facts, each kept in the files'
 * summaries (summary.h):
 * - the plan: which class the script builds the model from, the names it
 *   unfreezes, and whether it turns checkpointing on (Summary.plans);
 * - the tree: which classes each module class builds its attributes from,
 *   through ModuleLists, list appends and factory functions
 *   (SummaryClass.parts, SummaryFunction.builds);
 * - the order: which attributes a class's forward runs, in order, and
 *   whether through a reentrant checkpoint whose inputs only pass on what
 *   the forward was given (SummaryClass.steps).
 * partial_starved_checkpoints walks the model's forward from the script's
 * class, tracking whether anything trained has run yet. */
#ifndef GPULINT_PARTIAL_H
#define GPULINT_PARTIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "partial_facts.h"

struct Links;

/* ---- The question, across files ------------------------------------------------- */

/* A reentrant checkpoint of the linted file that a plan starves. */
typedef struct {
  uint32_t line;      /* 1-based line of the checkpoint call */
  char script[160];   /* "train.py:115": where the model is frozen */
} PartialStarved;
typedef Array(PartialStarved) PartialStarvedList;

/* The reentrant checkpoints of the linted file that some training
 * script's plan runs with gradient checkpointing on, with only inputs
 * that require no grad, while the checkpointed layer holds a module the
 * plan unfreezes (under every configuration of the project that sets the
 * plan's keys). Appended to `out`; one walk per plan, for the whole file. */
void partial_starved_checkpoints(struct Links *links, PartialStarvedList *out);

#endif
