/* The facts pass: loops, events, helpers, grad mode, branches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "parsed.h"

static uint32_t count_kind(const Facts *facts, EventKind kind) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < facts->events.size; i++) count += facts->events.contents[i].kind == kind;
  return count;
}

/* The events of `kind` in source order, up to `max`; how many. */
static uint32_t of_kind(const Facts *facts, EventKind kind, const Event **out, uint32_t max) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < facts->events.size && count < max; i++) {
    if (facts->events.contents[i].kind == kind) out[count++] = &facts->events.contents[i];
  }
  return count;
}

static const Event *first_kind(const Facts *facts, EventKind kind) {
  const Event *first = NULL;
  return of_kind(facts, kind, &first, 1) ? first : NULL;
}

static void test_loops_nest_within_functions(void **state) {
  (void)state;
  Parsed p = parse(
      "for epoch in range(3):\n"
      "    for x in loader:\n"
      "        pass\n"
      "def f():\n"
      "    while True:\n"
      "        break\n");
  assert_int_equal(p.facts->loops.size, 3);
  assert_int_equal(p.facts->loops.contents[0].parent, -1);
  assert_int_equal(p.facts->loops.contents[1].parent, 0);
  assert_int_equal(p.facts->loops.contents[2].parent, -1);
  assert_int_equal(p.facts->loops.contents[2].function, 0);
  parsed_delete(&p);
}

static void test_training_events_and_targets(void **state) {
  (void)state;
  Parsed p = parse(
      "opt = torch.optim.Adam(model.parameters())\n"
      "o2 = opt\n"
      "for x in loader:\n"
      "    o2.zero_grad()\n"
      "    scaler.scale(loss).backward()\n"
      "    scaler.step(o2)\n"
      "    scheduler.step()\n"
      "    env.step(action)\n");
  assert_int_equal(count_kind(p.facts, EV_BACKWARD), 1);
  assert_int_equal(count_kind(p.facts, EV_STEP), 1);
  const Event *step = first_kind(p.facts, EV_STEP);
  assert_true(text_is(step->target, "opt"));
  assert_true(text_is(first_kind(p.facts, EV_CLEAR)->target, "opt"));
  assert_int_equal(step->loop, 0);
  uint32_t all = REACH(EV_BACKWARD) | REACH(EV_STEP) | REACH(EV_CLEAR);
  assert_int_equal(p.facts->loops.contents[0].reaches & all, all);
  parsed_delete(&p);
}

static void test_module_zero_grad_clears_everything(void **state) {
  (void)state;
  Parsed p = parse("for x in loader:\n    model.zero_grad()\n    for q in model.parameters():\n        q.grad = None\n");
  assert_int_equal(count_kind(p.facts, EV_CLEAR), 2);
  assert_int_equal(p.facts->events.contents[0].target.length, 0);
  parsed_delete(&p);
}

static void test_helpers_are_summarized(void **state) {
  (void)state;
  Parsed p = parse(
      "class Trainer:\n"
      "    def step_once(self, x):\n"
      "        self.loss(x).backward()\n"
      "        self.optimizer.step()\n"
      "    def fit(self):\n"
      "        for x in self.loader:\n"
      "            self.step_once(x)\n");
  assert_int_equal(p.facts->loops.size, 1);
  uint32_t both = REACH(EV_BACKWARD) | REACH(EV_STEP);
  assert_int_equal(p.facts->loops.contents[0].reaches & both, both);
  FlatEvents flat = array_new();
  facts_flatten(p.facts, p.facts->loops.contents[0].function, p.facts->loops.contents[0].body, &flat);
  assert_int_equal(flat.size, 2);
  assert_int_equal(flat.contents[0].event->kind, EV_BACKWARD);
  assert_int_equal(flat.contents[1].event->kind, EV_STEP);
  array_delete(&flat);
  parsed_delete(&p);
}

static void test_grad_mode(void **state) {
  (void)state;
  Parsed p = parse(
      "from torch import no_grad\n"
      "import torch as T\n"
      "with no_grad():\n"
      "    a.eval()\n"
      "with T.set_grad_enabled(phase == 'train'):\n"
      "    b.eval()\n"
      "@T.inference_mode()\n"
      "def f():\n"
      "    c.eval()\n"
      "def g():\n"
      "    d.eval()\n"
      "with T.no_grad():\n"
      "    g()\n"
      "    with T.enable_grad():\n"
      "        e.eval()\n");
  const Facts *facts = p.facts;
  GradMode expected[] = {GRAD_OFF, GRAD_MAYBE, GRAD_OFF, GRAD_OFF, GRAD_ON};
  uint32_t seen = 0;
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = &facts->events.contents[i];
    if (event->kind != EV_EVAL) continue;
    assert_int_equal(facts_grad_mode(facts, event), expected[seen]);
    seen++;
  }
  assert_int_equal(seen, 5);
  parsed_delete(&p);
}

static void test_empty_cache_through_aliases(void **state) {
  (void)state;
  Parsed p = parse(
      "import torch as T\n"
      "from torch.cuda import empty_cache\n"
      "T.cuda.empty_cache()\n"
      "empty_cache()\n"
      "cache.empty_cache()\n");
  assert_int_equal(count_kind(p.facts, EV_EMPTY_CACHE), 2);
  parsed_delete(&p);
}

static void test_exclusive_branches(void **state) {
  (void)state;
  Parsed p = parse(
      "if train:\n"
      "    loss.backward()\n"
      "else:\n"
      "    opt.zero_grad()\n"
      "opt.step()\n");
  const Event *backward = first_kind(p.facts, EV_BACKWARD);
  const Event *clear = first_kind(p.facts, EV_CLEAR);
  const Event *step = first_kind(p.facts, EV_STEP);
  assert_true(facts_exclusive(backward->node, clear->node));
  assert_false(facts_exclusive(backward->node, step->node));
  assert_false(facts_exclusive(clear->node, step->node));
  parsed_delete(&p);
}

/* The calls of `name` at module level, in source order, up to `max`. */
static uint32_t module_calls(const Facts *facts, const char *name, const Event **out, uint32_t max) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < facts->events.size && count < max; i++) {
    const Event *event = &facts->events.contents[i];
    if (event->kind != EV_CALL || event->function != -1 || event->callee < 0) continue;
    if (text_is(facts->functions.contents[event->callee].name, name)) out[count++] = event;
  }
  return count;
}

static void test_call_rules_out_branches(void **state) {
  (void)state;
  Parsed p = parse(
      "def step(loss, opt=None, train=True, scale=1.0):\n"
      "    if opt is not None:\n"
      "        loss.backward()\n"            /* A */
      "    if train and opt:\n"
      "        loss.backward()\n"            /* B */
      "    elif scale:\n"
      "        loss.backward()\n"            /* C */
      "    else:\n"
      "        loss.backward()\n"            /* D */
      "    if not train or opt is None:\n"
      "        return\n"
      "    loss.backward()\n"                /* E: no branch around it */
      "def rebinds(loss, opt=None):\n"
      "    opt = opt or make_optimizer()\n"
      "    if opt is not None:\n"
      "        loss.backward()\n"            /* F */
      "step(l)\n"                           /* opt None, train True, scale 1.0 */
      "step(l, o, False)\n"                 /* opt unknown, train False */
      "step(l, opt=None, train=True, scale=0)\n"
      "step(l, *rest)\n"                    /* unknown */
      "rebinds(l)\n");
  const Event *calls[4], *rebind[1], *b[6];
  assert_int_equal(module_calls(p.facts, "step", calls, 4), 4);
  assert_int_equal(module_calls(p.facts, "rebinds", rebind, 1), 1);
  assert_int_equal(of_kind(p.facts, EV_BACKWARD, b, 6), 6);
  /* rows: calls; columns: A B C D E */
  static const bool EXPECTED[4][5] = {
      {true, true, false, true, false},
      {false, true, false, true, false},
      {true, true, true, false, false},
      {false, false, false, false, false},
  };
  for (uint32_t c = 0; c < 4; c++) {
    for (uint32_t k = 0; k < 5; k++) {
      if (facts_call_rules_out(p.facts, calls[c], b[k]->node) != EXPECTED[c][k]) {
        fail_msg("call %u, backward %c: expected %s", c, 'A' + k, EXPECTED[c][k] ? "ruled out" : "kept");
      }
    }
  }
  assert_false(facts_call_rules_out(p.facts, rebind[0], b[5]->node)); /* the parameter is bound again */
  parsed_delete(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_loops_nest_within_functions),
      cmocka_unit_test(test_training_events_and_targets),
      cmocka_unit_test(test_module_zero_grad_clears_everything),
      cmocka_unit_test(test_helpers_are_summarized),
      cmocka_unit_test(test_grad_mode),
      cmocka_unit_test(test_empty_cache_through_aliases),
      cmocka_unit_test(test_exclusive_branches),
      cmocka_unit_test(test_call_rules_out_branches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
