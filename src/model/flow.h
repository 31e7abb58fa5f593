/* flow.h — which expressions hold a tensor that carries autograd history.
 *
 * A light, per-function def-use over the facts' assignment table: a value
 * carries a graph when it comes from a module's forward or a loss computed
 * with grad on, or from arithmetic, indexing, tensor methods and torch
 * functions on such values, or from a same-file helper that returns one.
 * `.item()`, `.detach()`, `.data`, `float()`, `int()`, `.tolist()`,
 * `.numpy()`, comparisons and argmax strip it. */
#ifndef GPULINT_FLOW_H
#define GPULINT_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "facts.h"

typedef struct Flow Flow;

/* How a value is known to carry a graph. Levels order: a higher one wins
 * when values combine. */
typedef uint8_t Carry;
enum {
  CARRY_NONE,     /* no graph */
  CARRY_NAME,     /* only a name says so: a callee called like a module or a loss */
  CARRY_EVIDENCE, /* a forward of a module or a loss on such a value, with grad on */
};

/* Borrows `facts`, which must outlive the result; the caller deletes it. */
Flow *flow_new(const Facts *facts);
void flow_delete(Flow *self);

/* Whether `expression`, evaluated at its place in `function`, carries a
 * graph. Names resolve to their last assignment before that place. */
Carry flow_carries(Flow *self, TSNode expression, int32_t function);

/* Whether `name` flows into a backward in `function`: a backward's call
 * names it (`total.backward()`, `autograd.backward([total])`), or names a
 * value built from it through assignments and container stores
 * (`loss = torch.stack(losses).sum(); loss.backward()`). */
bool flow_feeds_backward(Flow *self, Text name, int32_t function);

/* Whether the value of `node` (a call, say a forward) flows into a
 * backward in `function`: it sits inside a backward's call, or the
 * statement that holds it binds or stores into a name that does. */
bool flow_node_feeds_backward(Flow *self, TSNode node, int32_t function);

/* Whether the name `name` holds a graph at byte `at` of `function`. */
Carry flow_name_carries(Flow *self, Text name, int32_t function, uint32_t at);

/* Whether `function`'s return value carries a graph: the whole value
 * (`position` UNPACKED_DEEP) or element `position` of returned tuples. */
Carry flow_returns(Flow *self, int32_t function, uint8_t position);

/* The forward() method of this file's module class that `call` runs
 * (`model(x)` with `model = Net()`, `self(x)` in Net's methods), or -1. */
int32_t flow_forward_method(const struct Facts *facts, TSNode call, int32_t function);

/* flow_returns when every parameter of every function carries: what the
 * function returns from its arguments. */
Carry flow_returns_given_arguments(Flow *self, int32_t function, uint8_t position);

/* Whether `function` keeps its parameter `name` past the call: adds it
 * into an attribute (`self.sum += val * n`) or appends it to a container
 * that is never emptied, without `.item()`, `float()` or `.detach()`. */
bool flow_keeps_parameter(Flow *self, int32_t function, Text name);

/* Whether the container `name` is emptied somewhere in the file:
 * `.clear()`, `del x[:]`, or `self.x = []` in a method other than
 * __init__. */
bool flow_container_emptied(Flow *self, Text name, TSNode periodic);

#endif
