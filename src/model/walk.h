/* walk.h — the one walk that fills a Facts (see facts.h). */
#ifndef GPULINT_WALK_H
#define GPULINT_WALK_H

#include "facts.h"

/* Records the functions, classes, loops, events, assignments and bindings
 * of the tree under `root` into `facts`, in source order. */
void walk_tree(Facts *facts, TSNode root);

/* A file's facts as its tree says them, asking no other file: walk_tree,
 * then the look-ups by name (facts_index). Settle them next
 * (facts_settle, settle.h). `source` and the tree must outlive the
 * result; the caller deletes it (facts_delete). */
Facts *facts_walk(const Source *source, TSNode root);

#endif
