/* GPU301 host-sync-per-step is off by default, so the fixture runner (which
 * lints at default settings) cannot hold its cases: they live here, linted
 * with GPU301 selected. Each case marks the lines it must report with
 * "# <-"; every other line must stay clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulint.h"

/* The 1-based lines of `text` that hold "# <-", as a bit set (lines < 64). */
static uint64_t marked_lines(const char *text) {
  uint64_t lines = 0;
  uint32_t line = 1;
  for (const char *at = text; *at; at++) {
    if (*at == '\n') line++;
    else if (strncmp(at, "# <-", 4) == 0) lines |= 1ull << line;
  }
  return lines;
}

/* The lines GPU301 reports in `text` with GPU301 enabled, as a bit set. */
static uint64_t reported_lines(const char *text) {
  GlLinter *linter = gl_linter_new();
  GlRuleSet rules = gl_rule_set_default();
  int index = gl_rule_index("GPU301");
  assert_true(index >= 0);
  assert_false(rules.enabled[index]); /* off by default */
  rules.enabled[index] = true;
  GlFileResult *result = gl_linter_lint_buffer(linter, "train.py", text, strlen(text), &rules);
  uint64_t lines = 0;
  for (uint32_t i = 0; i < result->finding_count; i++) {
    if (result->findings[i].rule == (uint32_t)index) lines |= 1ull << result->findings[i].start.line;
  }
  gl_file_result_delete(result);
  gl_linter_delete(linter);
  return lines;
}

static void check(const char *text) {
  assert_int_equal(reported_lines(text), marked_lines(text));
}

static void test_running_loss_item_per_step(void **state) {
  (void)state;
  check("import torch\n"
        "model = Net().cuda()\n"
        "for epoch in range(10):\n"
        "    running_loss = 0.0\n"
        "    for x, y in loader:\n"
        "        loss = criterion(model(x.cuda()), y.cuda())\n"
        "        optimizer.zero_grad()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"
        "        running_loss += loss.item()  # <-\n"
        "    print(epoch, running_loss / len(loader))\n");
}

static void test_interval_guard_is_clean(void **state) {
  (void)state;
  check("import torch\n"
        "model = Net().cuda()\n"
        "for step, (x, y) in enumerate(loader):\n"
        "    loss = criterion(model(x.cuda()), y.cuda())\n"
        "    optimizer.zero_grad()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    if step % log_interval == 0:\n"
        "        print(step, loss.item())\n"
        "        torch.cuda.synchronize()\n");
}

static void test_synchronize_and_chain_reported_once(void **state) {
  (void)state;
  check("import torch\n"
        "from tqdm import tqdm\n"
        "model = Net().to('cuda')\n"
        "bar = tqdm(loader)\n"
        "for x, y in bar:\n"
        "    out = model(x.to('cuda'))\n"
        "    loss = criterion(out, y.to('cuda'))\n"
        "    optimizer.zero_grad()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    torch.cuda.synchronize()  # <-\n"
        "    preds.extend(out.argmax(1).cpu().numpy())  # <-\n"
        "    bar.set_postfix(loss=loss.item())  # <-\n");
}

static void test_per_sample_inner_loop(void **state) {
  (void)state;
  check("import torch\n"
        "def train(model, loader, optimizer):\n"
        "    for x, y in loader:\n"
        "        out = model(x.cuda())\n"
        "        loss = out.sum()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"
        "        optimizer.zero_grad()\n"
        "        for row in out:\n"
        "            scores.append(row.max().item())  # <-\n");
}

static void test_evaluation_and_epoch_end_are_clean(void **state) {
  (void)state;
  check("import torch\n"
        "model = Net().cuda()\n"
        "for epoch in range(5):\n"
        "    for x, y in loader:\n"
        "        loss = criterion(model(x.cuda()), y.cuda())\n"
        "        optimizer.zero_grad()\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"
        "    print(epoch, loss.item())\n"
        "    with torch.no_grad():\n"
        "        for x, y in val_loader:\n"
        "            acc = (model(x.cuda()).argmax(1) == y.cuda()).float().mean().item()\n");
}

static void test_cpu_only_file_is_clean(void **state) {
  (void)state;
  check("import torch\n"
        "model = Net()\n"
        "for x, y in loader:\n"
        "    loss = criterion(model(x), y)\n"
        "    optimizer.zero_grad()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    total += loss.item()\n");
}

static void test_except_clause_is_clean(void **state) {
  (void)state;
  check("import torch\n"
        "model = Net().cuda()\n"
        "for x, y in loader:\n"
        "    try:\n"
        "        loss = criterion(model(x.cuda()), y.cuda())\n"
        "        loss.backward()\n"
        "        optimizer.step()\n"
        "        optimizer.zero_grad()\n"
        "    except RuntimeError:\n"
        "        print('skipped', x.cpu().shape)\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_running_loss_item_per_step),
      cmocka_unit_test(test_interval_guard_is_clean),
      cmocka_unit_test(test_synchronize_and_chain_reported_once),
      cmocka_unit_test(test_per_sample_inner_loop),
      cmocka_unit_test(test_evaluation_and_epoch_end_are_clean),
      cmocka_unit_test(test_cpu_only_file_is_clean),
      cmocka_unit_test(test_except_clause_is_clean),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
