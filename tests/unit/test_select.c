/* Rule selectors: codes, prefixes and ALL, specificity, and layers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

static bool on(const GlRuleSet *rules, const char *code) {
  int index = gl_rule_index(code);
  assert_true(index >= 0);
  return rules->enabled[index];
}

static void add(StringList *list, const char *text) {
  char *unknown = NULL;
  if (!selector_list_parse(text, list, &unknown)) fail_msg("unknown selector %s", unknown);
}

/* Applies one layer given as comma lists (NULL select: not given). */
static GlRuleSet apply(GlRuleSet rules, const char *select, const char *extend, const char *ignore) {
  Selection selection = {select != NULL, array_new(), array_new(), array_new()};
  if (select) add(&selection.select, select);
  if (extend) add(&selection.extend_select, extend);
  if (ignore) add(&selection.ignore, ignore);
  selection_apply(&selection, &rules);
  selection_delete(&selection);
  return rules;
}

static void test_specificity(void **state) {
  (void)state;
  assert_int_equal(selector_specificity("ALL", "GPU001"), 0);
  assert_int_equal(selector_specificity("GPU", "GPU001"), 3);
  assert_int_equal(selector_specificity("GPU0", "GPU001"), 4);
  assert_int_equal(selector_specificity("gpu001", "GPU001"), 6);
  assert_int_equal(selector_specificity("GPU1", "GPU001"), -1);
  assert_int_equal(selector_specificity("GPU0011", "GPU001"), -1);
  assert_int_equal(selector_specificity("", "GPU001"), -1);
}

static void test_parse(void **state) {
  (void)state;
  StringList list = array_new();
  char *unknown = NULL;
  assert_true(selector_list_parse(" gpu001,GPU002  gpu9, all ,", &list, &unknown));
  assert_int_equal(list.size, 4);
  assert_string_equal(list.contents[0], "GPU001");
  assert_string_equal(list.contents[2], "GPU9");
  assert_string_equal(list.contents[3], "ALL");
  assert_false(selector_list_parse("GPU001,XYZ1", &list, &unknown));
  assert_string_equal(unknown, "XYZ1");
  free(unknown);
  assert_false(selector_list_parse("GPU0019", &list, &unknown));
  free(unknown);
  string_list_delete(&list);
  assert_true(selector_is_known("GPU"));
  assert_false(selector_is_known("GP1"));
}

static void test_select_replaces_defaults(void **state) {
  (void)state;
  GlRuleSet rules = apply(gl_rule_set_default(), "GPU0", NULL, NULL);
  assert_true(on(&rules, "GPU001"));
  assert_true(on(&rules, "GPU002"));
  assert_false(on(&rules, "GPU900"));
  rules = apply(gl_rule_set_default(), "", NULL, NULL);
  for (uint32_t i = 0; i < gl_rule_count(); i++) assert_false(rules.enabled[i]);
}

static void test_more_specific_wins(void **state) {
  (void)state;
  GlRuleSet rules = apply(gl_rule_set_default(), "ALL", NULL, "GPU0");
  assert_false(on(&rules, "GPU001"));
  assert_true(on(&rules, "GPU900"));
  rules = apply(gl_rule_set_default(), "GPU001", NULL, "GPU0");
  assert_true(on(&rules, "GPU001"));
  assert_false(on(&rules, "GPU002"));
  rules = apply(gl_rule_set_default(), "GPU0", NULL, "GPU002");
  assert_true(on(&rules, "GPU001"));
  assert_false(on(&rules, "GPU002"));
}

static void test_ignore_wins_ties(void **state) {
  (void)state;
  GlRuleSet rules = apply(gl_rule_set_default(), "GPU0", NULL, "GPU0");
  assert_false(on(&rules, "GPU001"));
  rules = apply(gl_rule_set_default(), "ALL", NULL, "ALL");
  assert_false(on(&rules, "GPU900"));
}

static void test_layers(void **state) {
  (void)state;
  /* config: select GPU0, ignore GPU002; command line: extend-select GPU900 */
  GlRuleSet rules = apply(gl_rule_set_default(), "GPU0", NULL, "GPU002");
  rules = apply(rules, NULL, "GPU900", NULL);
  assert_true(on(&rules, "GPU001"));
  assert_false(on(&rules, "GPU002"));
  assert_true(on(&rules, "GPU900"));
  /* a later select starts afresh */
  rules = apply(rules, "GPU002", NULL, NULL);
  assert_false(on(&rules, "GPU001"));
  assert_true(on(&rules, "GPU002"));
  /* ignore alone only removes; extend-select alone only adds */
  rules = apply(gl_rule_set_default(), NULL, NULL, "GPU900");
  assert_true(on(&rules, "GPU001"));
  assert_false(on(&rules, "GPU900"));
  /* ignore ALL, then bring one back more specifically */
  rules = apply(gl_rule_set_default(), NULL, "GPU002", "ALL");
  assert_false(on(&rules, "GPU001"));
  assert_true(on(&rules, "GPU002"));
}

static void test_disable(void **state) {
  (void)state;
  GlRuleSet rules = gl_rule_set_default();
  StringList codes = array_new();
  add(&codes, "GPU00");
  selection_disable(&rules, &codes);
  assert_false(on(&rules, "GPU001"));
  assert_false(on(&rules, "GPU002"));
  assert_true(on(&rules, "GPU900"));
  string_list_delete(&codes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_specificity),
      cmocka_unit_test(test_parse),
      cmocka_unit_test(test_select_replaces_defaults),
      cmocka_unit_test(test_more_specific_wins),
      cmocka_unit_test(test_ignore_wins_ties),
      cmocka_unit_test(test_layers),
      cmocka_unit_test(test_disable),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
