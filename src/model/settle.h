/* settle.h — a file's facts settled after the walk.
 *
 * facts_settle derives what the walk leaves open: calls of the file's own
 * functions (EV_CALL), of imported names (EV_EXTERNAL) and of modules
 * (EV_FORWARD, told by roles.h), the optimizers' targets, which classes
 * are modules, what each function and loop reaches, grad mode through
 * decorators and callers, and who calls the file's functions from other
 * files. What only another file can say it asks `elsewhere` (elsewhere.h):
 * the lint passes the linted file's links, a summary passes NULL. */
#ifndef GPULINT_SETTLE_H
#define GPULINT_SETTLE_H

#include "elsewhere.h"
#include "facts.h"

/* Settles `self` (walked by facts_walk, walk.h), once, asking `elsewhere`
 * (NULL: the file alone), which must outlive it. */
void facts_settle(Facts *self, const Elsewhere *elsewhere);

/* facts_walk, then facts_settle: for callers that need one settling only.
 * The caller deletes the result. */
Facts *facts_new(const Source *source, TSNode root, const Elsewhere *elsewhere);

#endif
