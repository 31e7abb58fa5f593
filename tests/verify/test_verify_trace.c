/* One recorded case (argv[1], a file stem in traces/): judged again from
 * the traces of the H200 run, it must stay CONFIRMED with the bad and good
 * values that run printed (argv[2], argv[3]), to the printed precision. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static const char *stem;
static double wanted_bad, wanted_good;

/* Half a unit of the last printed digit of `printed`. */
static double tolerance(const char *printed) {
  const char *dot = strchr(printed, '.');
  int digits = dot ? (int)strlen(dot + 1) : 0;
  return 0.5 * pow(10, -digits) + 1e-12;
}

static void test_recorded_case(void **state) {
  char **values = *state;
  ReproList repros = array_new();
  test_load_verify_repros(&repros);
  CaseResults results = array_new();
  test_replay(&repros, test_env("GPULINT_TEST_TRACES"), &results);
  const CaseResult *found = NULL;
  for (uint32_t i = 0; i < results.size; i++) {
    const char *path = results.contents[i].repro->bad.path;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (strncmp(name, stem, strlen(stem)) == 0 && strcmp(name + strlen(stem), "_bad.py") == 0) found = &results.contents[i];
  }
  if (!found) fail_msg("no case %s", stem);
  if (found->outcome.verdict != VERDICT_CONFIRMED) fail_msg("%s: %s", verdict_name(found->outcome.verdict), found->outcome.reason);
  assert_near(found->outcome.bad, wanted_bad, tolerance(values[0]));
  assert_near(found->outcome.good, wanted_good, tolerance(values[1]));
  case_results_delete(&results);
  repro_list_delete(&repros);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: test_verify_trace STEM BAD GOOD\n");
    return 2;
  }
  stem = argv[1];
  wanted_bad = strtod(argv[2], NULL);
  wanted_good = strtod(argv[3], NULL);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_prestate(test_recorded_case, argv + 2),
  };
  return cmocka_run_group_tests_name(stem, tests, NULL, NULL);
}
