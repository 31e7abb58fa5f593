/* select.h — choosing rules with selectors: codes, prefixes and ALL.
 *
 *   --select GPU1 --ignore GPU102 --extend-select GPU201
 *
 * A selector picks the rules whose code it starts (case-insensitive); ALL
 * picks every rule. When selectors disagree about a rule the more specific
 * (longer) one wins, and `ignore` wins a tie. */
#ifndef GPULINT_SELECT_H
#define GPULINT_SELECT_H

#include <stdbool.h>

#include "gpulint.h"
#include "path.h"

/* One layer of selection (a config file, or the command line). Without
 * `has_select` the layer adjusts the rules of the layer below. */
typedef struct {
  bool has_select;
  StringList select;
  StringList extend_select;
  StringList ignore;
} Selection;

/* Whether `selector` is ALL or starts the code of at least one rule. */
bool selector_is_known(const char *selector);

/* How specifically `selector` picks `code`: -1 not at all, 0 for ALL,
 * otherwise the selector's length. */
int selector_specificity(const char *selector, const char *code);

/* Splits "GPU1, GPU201" at commas and whitespace and appends the upper-cased
 * selectors to `out`. Returns false and sets `unknown` (the caller frees it)
 * at the first selector that picks no rule. */
bool selector_list_parse(const char *text, StringList *out, char **unknown);

/* Applies one layer to `rules`. */
void selection_apply(const Selection *self, GlRuleSet *rules);

/* Turns off every rule that one of `selectors` picks. */
void selection_disable(GlRuleSet *rules, const StringList *selectors);

void selection_delete(Selection *self);

#endif
