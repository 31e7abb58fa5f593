/* walk.h — the one walk that fills a Facts (see facts.h); for facts.c. */
#ifndef GPULINT_WALK_H
#define GPULINT_WALK_H

#include "facts.h"

/* Records the functions, classes, loops, events, assignments and bindings
 * of the tree under `root` into `facts`, in source order. */
void walk_tree(Facts *facts, TSNode root);

/* The grad mode a with-statement sets for its body (GRAD_OFF for
 * `with torch.no_grad():`), or -1 when it sets none. */
int walk_with_grad_mode(const Facts *facts, TSNode with);

#endif
