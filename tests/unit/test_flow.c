/* flow: which values carry an autograd graph. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "parsed.h"

/* Whether the value appended by `probe.append(...)` on line `line` carries. */
static bool appended_carries(Parsed *p, uint32_t line) {
  for (uint32_t i = 0; i < p->facts->events.size; i++) {
    const Event *event = &p->facts->events.contents[i];
    if (event->kind != EV_STORE || source_line_of(p->source, ts_node_start_byte(event->node)) != line) continue;
    return flow_carries(p->flow, call_positional(event->node, 0), event->function);
  }
  fail_msg("no append on line %u", line);
  return false;
}

static const char PRELUDE[] =
    "import torch\n"                                   /* 1 */
    "import torch.nn.functional as F\n"                /* 2 */
    "probe = []\n";                                    /* 3 */

static void test_forwards_and_losses_carry(void **state) {
  (void)state;
  char text[2048];
  snprintf(text, sizeof text, "%s%s", PRELUDE,
           "out = model(x)\n"                          /* 4 */
           "loss = criterion(out, y)\n"                /* 5 */
           "probe.append(loss)\n"                      /* 6 */
           "probe.append(out.softmax(-1))\n"           /* 7 */
           "probe.append(F.mse_loss(a, b))\n"          /* 8 */
           "probe.append(loss * 2 + 1)\n"              /* 9 */
           "probe.append(out[0].cpu())\n");            /* 10 */
  Parsed p = parse(text);
  for (uint32_t line = 6; line <= 10; line++) assert_true(appended_carries(&p, line));
  parsed_delete(&p);
}

static void test_strippers_clean(void **state) {
  (void)state;
  char text[2048];
  snprintf(text, sizeof text, "%s%s", PRELUDE,
           "out = model(x)\n"                          /* 4 */
           "loss = criterion(out, y)\n"                /* 5 */
           "probe.append(loss.item())\n"               /* 6 */
           "probe.append(loss.detach())\n"             /* 7 */
           "probe.append(float(loss))\n"               /* 8 */
           "probe.append(out.argmax(1))\n"             /* 9 */
           "probe.append((out > 0).sum())\n"           /* 10 */
           "probe.append(out.data)\n"                  /* 11 */
           "probe.append(out.cpu().numpy())\n"         /* 12 */
           "loss = loss.item()\n"                      /* 13 */
           "probe.append(loss)\n"                      /* 14 */
           "probe.append(Net())\n");                   /* 15 */
  Parsed p = parse(text);
  for (uint32_t line = 6; line <= 15; line++) {
    if (line == 13) continue;
    assert_false(appended_carries(&p, line));
  }
  parsed_delete(&p);
}

static void test_grad_off_produces_no_graph(void **state) {
  (void)state;
  char text[2048];
  snprintf(text, sizeof text, "%s%s", PRELUDE,
           "with torch.no_grad():\n"                   /* 4 */
           "    out = model(x)\n"                      /* 5 */
           "probe.append(out)\n"                       /* 6 */
           "@torch.inference_mode()\n"                 /* 7 */
           "def predict(x):\n"                         /* 8 */
           "    probe.append(model(x))\n");            /* 9 */
  Parsed p = parse(text);
  assert_false(appended_carries(&p, 6));
  assert_false(appended_carries(&p, 9));
  parsed_delete(&p);
}

static void test_helpers_return_values(void **state) {
  (void)state;
  char text[2048];
  snprintf(text, sizeof text, "%s%s", PRELUDE,
           "def step(x, y):\n"                         /* 4 */
           "    return criterion(model(x), y)\n"       /* 5 */
           "def accuracy(out, y):\n"                   /* 6 */
           "    return (out.argmax(1) == y).float().mean().item()\n" /* 7 */
           "probe.append(step(x, y))\n"                /* 8 */
           "probe.append(accuracy(model(x), y))\n");   /* 9 */
  Parsed p = parse(text);
  assert_true(appended_carries(&p, 8));
  assert_false(appended_carries(&p, 9));
  parsed_delete(&p);
}

/* A method of what a torch function returned is a method of a tensor,
 * not a torch function of the method's own arguments. */
static void test_methods_of_torch_results_carry(void **state) {
  (void)state;
  char text[2048];
  snprintf(text, sizeof text, "%s%s", PRELUDE,
           "out = model(x)\n"                                  /* 4 */
           "probe.append(torch.stack([out, out]).mean())\n"    /* 5 */
           "probe.append(torch.sqrt(out).mean(1).sum())\n"     /* 6 */
           "probe.append(torch.cat([out]).mean().item())\n");  /* 7 */
  Parsed p = parse(text);
  assert_true(appended_carries(&p, 5));
  assert_true(appended_carries(&p, 6));
  assert_false(appended_carries(&p, 7));
  parsed_delete(&p);
}

static void test_files_without_torch_carry_nothing(void **state) {
  (void)state;
  Parsed p = parse("probe = []\nout = model(x)\nprobe.append(out)\n");
  assert_false(appended_carries(&p, 3));
  parsed_delete(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_forwards_and_losses_carry),
      cmocka_unit_test(test_strippers_clean),
      cmocka_unit_test(test_grad_off_produces_no_graph),
      cmocka_unit_test(test_helpers_return_values),
      cmocka_unit_test(test_methods_of_torch_results_carry),
      cmocka_unit_test(test_files_without_torch_carry_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
