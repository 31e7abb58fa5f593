/* select.c — resolving --select, --extend-select and --ignore. */
#include "select.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int selector_specificity(const char *selector, const char *code) {
  if (strcmp(selector, "ALL") == 0) return 0;
  size_t length = strlen(selector);
  if (length == 0 || length > strlen(code) || strncasecmp(selector, code, length) != 0) return -1;
  return (int)length;
}

bool selector_is_known(const char *selector) {
  if (strcmp(selector, "ALL") == 0) return true;
  for (uint32_t i = 0; i < gl_rule_count(); i++) {
    if (selector_specificity(selector, gl_rule_info(i)->code) > 0) return true;
  }
  return false;
}

bool selector_list_parse(const char *text, StringList *out, char **unknown) {
  for (const char *p = text; *p;) {
    while (*p == ',' || isspace((unsigned char)*p)) p++;
    const char *start = p;
    while (*p && *p != ',' && !isspace((unsigned char)*p)) p++;
    if (p == start) continue;
    char *selector = gl_strndup(start, (size_t)(p - start));
    for (char *c = selector; *c; c++) *c = (char)toupper((unsigned char)*c);
    if (!selector_is_known(selector)) {
      *unknown = selector;
      return false;
    }
    array_push(out, selector);
  }
  return true;
}

/* The highest specificity with which any of `selectors` picks `code`. */
static int selection__best(const StringList *selectors, const char *code) {
  int best = -1;
  for (uint32_t i = 0; i < selectors->size; i++) {
    int specificity = selector_specificity(selectors->contents[i], code);
    if (specificity > best) best = specificity;
  }
  return best;
}

void selection_apply(const Selection *self, GlRuleSet *rules) {
  for (uint32_t i = 0; i < gl_rule_count() && i < GL_MAX_RULES; i++) {
    const char *code = gl_rule_info(i)->code;
    int selected = selection__best(&self->extend_select, code);
    if (self->has_select) {
      int chosen = selection__best(&self->select, code);
      if (chosen > selected) selected = chosen;
    }
    int ignored = selection__best(&self->ignore, code);
    bool base = self->has_select ? false : rules->enabled[i];
    rules->enabled[i] = selected < 0 && ignored < 0 ? base : selected > ignored;
  }
}

void selection_disable(GlRuleSet *rules, const StringList *selectors) {
  for (uint32_t i = 0; i < gl_rule_count() && i < GL_MAX_RULES; i++) {
    if (selection__best(selectors, gl_rule_info(i)->code) >= 0) rules->enabled[i] = false;
  }
}

void selection_delete(Selection *self) {
  string_list_delete(&self->select);
  string_list_delete(&self->extend_select);
  string_list_delete(&self->ignore);
  self->has_select = false;
}
