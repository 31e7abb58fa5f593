/* `gpulint verify --run` without Python: finding the script in a command,
 * the loops of a source, and the verdicts judged from traces built here
 * line by line (the probe's format, see verify/run/gpulint_probe.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "run.h"

/* ---- Finding the script ------------------------------------------------- */

static void assert_script(const char *wanted, char *const *command, uint32_t count) {
  char *script = run_script_of(command, count, ".");
  if (!wanted) assert_null(script);
  else assert_string_equal(script, wanted);
  free(script);
}

static void test_script_of_command(void **state) {
  (void)state;
  char *plain[] = {"python3", "train.py", "--epochs", "1", "--out", "x.py"};
  assert_script("train.py", plain, 6);
  char *options[] = {"/opt/py/bin/python", "-u", "-X", "dev", "src/train.py"};
  assert_script("src/train.py", options, 5);
  char *launcher[] = {"torchrun", "--nproc_per_node=1", "train.py"};
  assert_script("train.py", launcher, 3);
  char *direct[] = {"./train.py", "--lr", "0.1"};
  assert_script("./train.py", direct, 3);
  char *inline_code[] = {"python3", "-c", "import train.py"};
  assert_script(NULL, inline_code, 3);
  char *none[] = {"python3"};
  assert_script(NULL, none, 1);
  assert_script(NULL, none, 0);
}

static void test_script_of_module(void **state) {
  (void)state;
  char dir[] = "/tmp/gpulint-run-test-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char *package = gl_format("%s/pkg", dir), *module = gl_format("%s/pkg/train.py", dir);
  assert_int_equal(mkdir(package, 0777), 0);
  FILE *file = fopen(module, "w");
  fputs("print(1)\n", file);
  fclose(file);
  char *command[] = {"python3", "-m", "pkg.train", "--epochs", "1"};
  char *script = run_script_of(command, 5, dir);
  assert_string_equal(script, module);
  free(script);
  char *missing[] = {"python3", "-m", "pkg.absent"};
  assert_null(run_script_of(missing, 3, dir));
  char *launcher[] = {"python3", "-m", "torch.distributed.run", "--nproc-per-node", "2", "train.py"};
  script = run_script_of(launcher, 6, dir);
  assert_string_equal(script, "train.py");
  free(script);
  unlink(module), rmdir(package), rmdir(dir);
  free(package), free(module);
}

/* ---- Loops -------------------------------------------------------------- */

static const char LOOPS_SOURCE[] =
    "def train(model, loader):\n"              /* 1 */
    "    \"\"\"Trains.\n"                      /* 2 */
    "    for each batch: not a loop\n"         /* 3 */
    "    \"\"\"\n"                             /* 4 */
    "    for epoch in range(3):\n"             /* 5 */
    "        for x, y in loader:\n"            /* 6 */
    "            loss = model(x)\n"            /* 7 */
    "\n"                                       /* 8 */
    "            # a comment at column 0 of the body\n" /* 9 */
    "# outdented comment\n"                    /* 10 */
    "            loss.backward()\n"            /* 11 */
    "        print(epoch)\n"                   /* 12 */
    "    while(True):\n"                       /* 13 */
    "        break\n"                          /* 14 */
    "    async for item in stream():\n"        /* 15 */
    "        pass\n"                           /* 16 */
    "    format = 1\n"                         /* 17 */
    "    forward = 2\n";                       /* 18 */

static void test_loops_by_indentation(void **state) {
  (void)state;
  RunLoops loops = array_new();
  run_loops_scan(&loops, LOOPS_SOURCE);
  assert_int_equal(loops.size, 4);
  uint32_t wanted[][2] = {{5, 12}, {6, 11}, {13, 14}, {15, 16}};
  for (uint32_t i = 0; i < 4; i++) {
    assert_int_equal(loops.contents[i].start, wanted[i][0]);
    assert_int_equal(loops.contents[i].end, wanted[i][1]);
  }
  assert_int_equal(run_loops_innermost(&loops, 7), 1);
  assert_int_equal(run_loops_innermost(&loops, 12), 0);
  assert_int_equal(run_loops_innermost(&loops, 6), 1);
  assert_int_equal(run_loops_innermost(&loops, 17), -1);
  assert_int_equal(run_loops_innermost(&loops, 3), -1);
  array_delete(&loops);
}

/* ---- Traces ------------------------------------------------------------- */

/* A trace of /p/train.py with these findings and loops (JSON array
 * bodies), then `events`. Caller frees. */
static char *trace_of(const char *findings, const char *loops, const char *events) {
  return gl_format("{\"e\":\"start\",\"python\":\"3.11.2\",\"t\":1}\n"
                   "{\"e\":\"plan\",\"script\":\"/p/train.py\",\"findings\":[%s],\"loops\":[%s]}\n"
                   "{\"e\":\"torch\",\"torch\":\"2.5.1\",\"t\":900}\n%s",
                   findings, loops, events);
}

static const char LOOP_10_20[] = "{\"id\":0,\"path\":\"/p/train.py\",\"start\":10,\"end\":20}";

typedef struct {
  int status;
  Text out;
  char *json;
} Judged;

static Judged judge(char *trace) {
  Judged judged = {0, array_new(), NULL};
  judged.status = run_trace_judge(trace, &judged.out, &judged.json);
  free(trace);
  return judged;
}

static void judged_delete(Judged *self) {
  array_delete(&self->out);
  free(self->json);
}

static void assert_contains(const char *text, const char *wanted) {
  if (!strstr(text, wanted)) fail_msg("wanted `%s` in:\n%s", wanted, text);
}

static void assert_lacks(const char *text, const char *unwanted) {
  if (strstr(text, unwanted)) fail_msg("did not want `%s` in:\n%s", unwanted, text);
}

/* Steps with these `cleared` values and norms growing by `growth` a step. */
static void steps_of(Text *events, uint32_t count, const char *cleared, double growth) {
  for (uint32_t i = 1; i <= count; i++) {
    text_append(events, "{\"e\":\"bwd\",\"at\":[[\"/p/train.py\",14]]}\n");
    text_append(events, "{\"e\":\"step\",\"n\":%u,\"cleared\":%s,\"grad_norm\":%g,\"time_ms\":10,\"device\":\"cpu\","
                        "\"at\":[[\"/p/train.py\",15]],\"t\":%u}\n", i, i == 1 ? "true" : cleared, 1 + growth * (i - 1),
                1000 + 10 * i);
  }
}

static const char GPU001_AT_14[] =
    "{\"code\":\"GPU001\",\"path\":\"/p/train.py\",\"line\":14,\"column\":9,\"loop\":0,\"message\":\"no zero_grad\"}";

static void test_gpu001_confirmed_when_not_cleared(void **state) {
  (void)state;
  Text events = array_new();
  steps_of(&events, 10, "false", 1.0);
  text_append(&events, "{\"e\":\"end\",\"why\":\"budget\",\"budget\":\"steps\",\"steps\":10,\"evals\":0}\n");
  Judged judged = judge(trace_of(GPU001_AT_14, LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 1);
  const char *out = text_string(&judged.out);
  assert_contains(out, "/p/train.py:14:9: GPU001 no zero_grad\n    CONFIRMED: gradients were not cleared before 9 of 9 steps");
  assert_contains(out, "went 1 -> 10 (x10.00)");
  assert_contains(out, "ran 10 optimizer step(s), 0 evaluation iteration(s)");
  assert_contains(out, "stopped at the budget (steps)");
  assert_contains(judged.json, "\"verdict\":\t\"CONFIRMED\"");
  assert_contains(judged.json, "\"steps_not_cleared\":\t9");
  judged_delete(&judged);
  array_delete(&events);
}

static void test_gpu001_not_observed_when_cleared(void **state) {
  (void)state;
  Text events = array_new();
  steps_of(&events, 10, "true", 0.0);
  Judged judged = judge(trace_of(GPU001_AT_14, LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 1); /* no end line: the trace does not say why it ended */
  assert_contains(text_string(&judged.out), "NOT OBSERVED: gradients were cleared before every backward (10 steps)");
  assert_contains(text_string(&judged.out), "the trace ends without saying why");
  judged_delete(&judged);
  array_delete(&events);
}

/* A loop's iterations: allocated memory growing `mb` and nodes `nodes`
 * per iteration. */
static void iterations_of(Text *events, uint32_t count, double mb, double nodes) {
  for (uint32_t i = 1; i <= count; i++) {
    text_append(events, "{\"e\":\"fwd\",\"grad\":true,\"train\":false,\"at\":[[\"/p/train.py\",12]]}\n");
    text_append(events, "{\"e\":\"iter\",\"loop\":0,\"n\":%u,\"device\":\"cuda\",\"alloc\":%.0f,\"nodes\":%.0f}\n", i,
                1e9 + mb * 1048576.0 * i, 100 + nodes * i);
  }
  text_append(events, "{\"e\":\"end\",\"why\":\"budget\",\"budget\":\"steps\",\"steps\":0,\"evals\":%u}\n", count);
}

static const char GPU101_AT_13[] =
    "{\"code\":\"GPU101\",\"path\":\"/p/train.py\",\"line\":13,\"column\":5,\"loop\":0,\"message\":\"kept\"}";

static void test_gpu101_growth_confirmed(void **state) {
  (void)state;
  Text events = array_new();
  iterations_of(&events, 20, 48.0, 19.0);
  Judged judged = judge(trace_of(GPU101_AT_13, LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 1);
  assert_contains(text_string(&judged.out), "CONFIRMED: allocated memory +48.0 MB/iteration, live autograd nodes "
                                            "+19.0/iteration over 20 iterations of the loop at line 10");
  assert_lacks(text_string(&judged.out), "no finding explains");
  judged_delete(&judged);
  array_delete(&events);
}

static void test_gpu101_flat_not_observed(void **state) {
  (void)state;
  Text events = array_new();
  iterations_of(&events, 20, 0.0, 0.0);
  Judged judged = judge(trace_of(GPU101_AT_13, LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 0);
  assert_contains(text_string(&judged.out), "NOT OBSERVED: allocated memory +0.0 MB/iteration, live autograd nodes "
                                            "+0.0/iteration over 20 iterations");
  judged_delete(&judged);
  array_delete(&events);
}

static void test_too_few_iterations_not_observed(void **state) {
  (void)state;
  Text events = array_new();
  iterations_of(&events, 3, 48.0, 19.0);
  Judged judged = judge(trace_of(GPU101_AT_13, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: only 3 iteration(s) of the loop at line 10 ran; 5 needed");
  judged_delete(&judged);
  array_delete(&events);
}

static void test_not_reached_after_a_crash(void **state) {
  (void)state;
  const char *events = "{\"e\":\"end\",\"why\":\"crash\",\"error\":\"ValueError: bad data\",\"at\":[[\"/p/train.py\",4]]}\n"
                       "{\"e\":\"runner\",\"command\":[\"python3\",\"train.py\"],\"exit\":1,\"signal\":0}\n";
  Judged judged = judge(trace_of(GPU101_AT_13, LOOP_10_20, events));
  assert_int_equal(judged.status, 1);
  const char *out = text_string(&judged.out);
  assert_contains(out, "gpulint verify --run: python3 train.py\n");
  assert_contains(out, "the script raised ValueError: bad data at /p/train.py:4");
  assert_contains(out, "NOT REACHED: line 13 did not run: the script raised first");
  assert_contains(judged.json, "\"failed\":\ttrue");
  judged_delete(&judged);
}

static void test_not_reached_after_an_exit(void **state) {
  (void)state;
  const char *events = "{\"e\":\"end\",\"why\":\"exit\"}\n{\"e\":\"runner\",\"exit\":0,\"signal\":0}\n";
  Judged judged = judge(trace_of(GPU001_AT_14, LOOP_10_20, events));
  assert_int_equal(judged.status, 0);
  assert_contains(text_string(&judged.out), "the script exited on its own (status 0)");
  assert_contains(text_string(&judged.out), "NOT REACHED: line 14 did not run: the script exited first");
  judged_delete(&judged);
}

static void test_growth_no_finding_explains(void **state) {
  (void)state;
  Text events = array_new();
  iterations_of(&events, 12, 8.0, 0.0);
  Judged judged = judge(trace_of("", LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 1);
  assert_contains(text_string(&judged.out), "no findings in /p/train.py");
  assert_contains(text_string(&judged.out), "/p/train.py:10: memory grows in this loop and no finding explains it\n"
                                            "    allocated memory +8.0 MB/iteration");
  assert_contains(judged.json, "\"unexplained_growth\":\t[{");
  judged_delete(&judged);
  array_delete(&events);
}

static const char GPU201_AT_16[] =
    "{\"code\":\"GPU201\",\"path\":\"/p/train.py\",\"line\":16,\"column\":5,\"loop\":0,\"message\":\"cache\"}";

/* Steps that call empty_cache(): `with_ms` as it is, `without_ms` as a no-op. */
static void cache_steps(Text *events, const char *device, double with_ms, double without_ms) {
  for (uint32_t i = 1; i <= 20; i++) {
    bool noop = (i - 1) / 5 % 2 == 1;
    text_append(events, "{\"e\":\"cache\",\"noop\":%s,\"at\":[[\"/p/train.py\",16]]}\n", noop ? "true" : "false");
    text_append(events, "{\"e\":\"step\",\"n\":%u,\"cleared\":true,\"time_ms\":%g,\"cache_calls\":1,\"cache_noop\":%s,"
                        "\"device\":\"%s\",\"alloc\":1000}\n", i, noop ? without_ms : with_ms, noop ? "true" : "false",
                device);
  }
}

/* Traces from before the windows waited for steady state: windows of 5
 * steps from the first call, judged pair by pair all the same. */
static void test_gpu201_timed_on_cuda(void **state) {
  (void)state;
  Text events = array_new();
  cache_steps(&events, "cuda", 15.2, 13.6);
  Judged judged = judge(trace_of(GPU201_AT_16, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "CONFIRMED: called 20 time(s); step 15.20 ms with it, 13.60 ms with it a "
                                            "no-op (+12%, median of 2 window pairs, pairs +12% to +12%;");
  judged_delete(&judged);
  array_clear(&events);
  cache_steps(&events, "cuda", 13.7, 13.6);
  judged = judge(trace_of(GPU201_AT_16, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: called 20 time(s); step 13.70 ms");
  judged_delete(&judged);
  array_clear(&events);
  cache_steps(&events, "cpu", 15.2, 13.6);
  judged = judge(trace_of(GPU201_AT_16, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: called 20 time(s); without CUDA empty_cache() does nothing");
  judged_delete(&judged);
  array_delete(&events);
}

/* The probe's windows: 12 warm-up steps of 100 ms outside any window
 * ("ab": null), then windows of 6 steps from steady state, every fourth
 * step 100 ms (logging); `without` ms with empty_cache() a no-op, and
 * `wobble` ms added to the no-op windows of odd pairs. */
static void windowed_steps(Text *events, uint32_t steps, double with_ms, double without_ms, double wobble) {
  for (uint32_t n = 1; n <= steps; n++) {
    int window = n <= 12 ? -1 : (int)(n - 13) / 6;
    bool noop = window >= 0 && window % 2 == 1;
    double time = n <= 12 || n % 4 == 0 ? 100 : noop ? without_ms + (window / 2 % 2 ? wobble : 0) : with_ms;
    char ab[16];
    snprintf(ab, sizeof ab, window < 0 ? "null" : "%d", window);
    text_append(events, "{\"e\":\"cache\",\"noop\":%s,\"at\":[[\"/p/train.py\",16]]}\n", noop ? "true" : "false");
    text_append(events, "{\"e\":\"step\",\"n\":%u,\"time_ms\":%g,\"cache_calls\":1,\"cache_noop\":%s,\"ab\":%s,"
                        "\"device\":\"cuda\",\"alloc\":1000}\n", n, time, noop ? "true" : "false", ab);
  }
}

/* The report's run: 12.5 ms with it, 8.25 ms without, 100 ms steps in
 * the warm-up and every fourth step. */
static void test_gpu201_windows_after_warmup(void **state) {
  (void)state;
  Text events = array_new();
  windowed_steps(&events, 60, 12.5, 8.25, 0);
  Judged judged = judge(trace_of(GPU201_AT_16, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "CONFIRMED: called 60 time(s); step 12.50 ms with it, 8.25 ms with it a "
                                            "no-op (+52%, median of 4 window pairs, pairs +52% to +52%;");
  judged_delete(&judged);
  array_clear(&events);
  windowed_steps(&events, 60, 10, 10, 3); /* pairs at 0% and -23% */
  judged = judge(trace_of(GPU201_AT_16, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "INCONCLUSIVE: called 60 time(s); step 10.00 ms with it");
  assert_contains(text_string(&judged.out), "pairs -23% to +0%;");
  assert_contains(text_string(&judged.out), "the pairs disagree");
  judged_delete(&judged);
  array_clear(&events);
  windowed_steps(&events, 18, 12.5, 8.25, 0); /* steady late: one window */
  judged = judge(trace_of(GPU201_AT_16, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "INCONCLUSIVE: called 18 time(s); too few window pairs to compare (0; 2 needed)");
  judged_delete(&judged);
  array_delete(&events);
}

static const char GPU501_AT_14[] = "{\"code\":\"GPU501\",\"path\":\"/p/train.py\",\"line\":14,\"loop\":-1}";

/* A torch.load at line 14 putting `mb` MB on `device`, then a step. */
static void load_on(Text *events, const char *device, double mb, int rank_device) {
  double bytes = mb * 1048576;
  text_append(events, "{\"e\":\"load\",\"at\":[[\"/p/train.py\",14]],\"bytes\":{\"%s\":%.0f},"
                      "\"alloc_before\":{\"%d\":536870912},\"alloc_after\":{\"%d\":%.0f},\"dev\":%d}\n",
              device, bytes, rank_device, rank_device, 536870912 + (strcmp(device, "cpu") ? bytes : 0), rank_device);
  text_append(events, "{\"e\":\"step\",\"n\":1,\"device\":\"cuda\",\"alloc\":1,\"dev\":%d,"
                      "\"alloc_devices\":{\"%d\":536870912}}\n", rank_device, rank_device);
}

static void test_gpu501_where_the_load_went(void **state) {
  (void)state;
  Text events = array_new();
  load_on(&events, "cuda:0", 512, 0);
  Judged judged = judge(trace_of(GPU501_AT_14, "", text_string(&events)));
  assert_contains(text_string(&judged.out), "CONFIRMED: torch.load put 512.0 MB on cuda:0; this process's allocated "
                                            "memory: cuda:0 512.0 -> 1024.0 MB (512.0 MB at the next step)");
  judged_delete(&judged);
  array_clear(&events);
  load_on(&events, "cpu", 512, 0);
  judged = judge(trace_of(GPU501_AT_14, "", text_string(&events)));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: torch.load put 512.0 MB on cpu");
  judged_delete(&judged);
  array_delete(&events);
}

/* A merged trace of torchrun: the launcher (no step), then two ranks whose
 * loads both went to cuda:0, and whose GPU201 shows on rank 1 only. */
static void test_ranks_merged(void **state) {
  (void)state;
  const char *findings = "{\"code\":\"GPU501\",\"path\":\"/p/train.py\",\"line\":14,\"loop\":-1},"
                         "{\"code\":\"GPU201\",\"path\":\"/p/train.py\",\"line\":16,\"loop\":0}";
  Text merged = array_new(), rank = array_new();
  char *launcher = trace_of(findings, LOOP_10_20, "{\"e\":\"end\",\"why\":\"crash\",\"error\":\"ChildFailedError\"}\n");
  text_append(&merged, "{\"e\":\"process\",\"file\":\"trace.jsonl\"}\n%s", launcher);
  for (int r = 1; r >= 0; r--) {
    array_clear(&rank);
    text_append(&rank, "{\"e\":\"rank\",\"rank\":%d,\"world\":2}\n", r);
    load_on(&rank, "cuda:0", 512, r);
    windowed_steps(&rank, 60, 12.5, r ? 8.25 : 12.5, 0);
    text_append(&rank, "{\"e\":\"end\",\"why\":\"budget\",\"budget\":\"steps\",\"steps\":61}\n");
    char *trace = trace_of(findings, LOOP_10_20, text_string(&rank));
    text_append(&merged, "{\"e\":\"process\",\"file\":\"trace.jsonl.%d\"}\n%s", 100 + r, trace);
    free(trace);
  }
  text_append(&merged, "{\"e\":\"runner\",\"exit\":1,\"driver\":\"580.1\",\"nvml_devices\":["
                       "{\"index\":0,\"start\":0,\"peak\":3221225472,\"end\":0},"
                       "{\"index\":1,\"start\":0,\"peak\":1073741824,\"end\":0}]}\n");
  Judged judged = judge(gl_strdup(text_string(&merged)));
  const char *out = text_string(&judged.out);
  assert_contains(out, "2 ranks:\n    rank 0 on cuda:0: 61 step(s)");
  assert_contains(out, "    rank 1 on cuda:1: 61 step(s)");
  assert_contains(out, "GPU 0: 0 MB before, 3072 MB at most");
  assert_contains(out, "GPU501 \n    CONFIRMED: rank 0 (the same on 2 of 2 ranks): torch.load put 512.0 MB on cuda:0");
  assert_contains(out, "; GPU 0 holds 2 copies of it (rank 0 512.0 MB, rank 1 512.0 MB)");
  assert_contains(out, "GPU201 \n    CONFIRMED: rank 1: called 60 time(s); step 12.50 ms with it, 8.25 ms");
  assert_int_equal(judged.status, 1);
  judged_delete(&judged);
  free(launcher);
  array_delete(&merged), array_delete(&rank);
}

static const char GPU103_AT_12[] =
    "{\"code\":\"GPU103\",\"path\":\"/p/train.py\",\"line\":12,\"column\":9,\"loop\":0,\"message\":\"grad on\"}";

static void test_gpu103_peak_against_no_grad(void **state) {
  (void)state;
  Text events = array_new();
  iterations_of(&events, 5, 0, 0);
  text_append(&events, "{\"e\":\"ab103\",\"at\":[[\"/p/train.py\",12]],\"device\":\"cuda\",\"saved_bytes\":4194304000,"
                       "\"grad_peak\":5538578432,\"nograd_peak\":702545920}\n");
  Judged judged = judge(trace_of(GPU103_AT_12, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "CONFIRMED: 5 of 5 forward(s) here ran with grad on (5 in eval mode); its "
                                            "graph saved 4000.0 MB of tensors; peak 5282.0 MB with grad, 670.0 MB under "
                                            "no_grad (x7.88)");
  judged_delete(&judged);
  array_delete(&events);
  const char *off = "{\"e\":\"fwd\",\"grad\":false,\"train\":false,\"at\":[[\"/p/eval.py\",3],[\"/p/train.py\",12]]}\n";
  judged = judge(trace_of(GPU103_AT_12, LOOP_10_20, off));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: all 1 forward(s) at this line ran with grad off");
  judged_delete(&judged);
}

static const char GPU002_AT_14[] =
    "{\"code\":\"GPU002\",\"path\":\"/p/train.py\",\"line\":14,\"column\":5,\"loop\":0,\"message\":\"zero\"}";

/* Steps of two optimizers: opt 0's gradient norm `norm0` ("null": every
 * .grad None), opt 1's growing from 1 by `growth` a step, cleared or not. */
static void two_optimizers(Text *events, const char *norm0, double growth, bool cleared1) {
  for (uint32_t i = 0; i < 10; i++) {
    text_append(events, "{\"e\":\"bwd\",\"at\":[[\"/p/train.py\",14]]}\n");
    text_append(events, "{\"e\":\"step\",\"n\":%u,\"opt\":0,\"backwards\":1,\"cleared\":true,\"grad_norm\":%s,"
                        "\"device\":\"cuda\"}\n", 2 * i + 1, norm0);
    text_append(events, "{\"e\":\"bwd\",\"at\":[[\"/p/train.py\",16]]}\n");
    text_append(events, "{\"e\":\"step\",\"n\":%u,\"opt\":1,\"backwards\":2,\"cleared\":%s,\"grad_norm\":%g,"
                        "\"device\":\"cuda\"}\n", 2 * i + 2, cleared1 || i == 0 ? "true" : "false", 1 + growth * i);
  }
  text_append(events, "{\"e\":\"end\",\"why\":\"budget\",\"budget\":\"steps\"}\n");
}

static void test_gpu002_steps_without_gradient(void **state) {
  (void)state;
  Text events = array_new();
  two_optimizers(&events, "null", 0, true);
  Judged judged = judge(trace_of(GPU002_AT_14, LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 1);
  assert_contains(text_string(&judged.out), "CONFIRMED: 10 of 20 step(s) after a backward applied no gradient");
  judged_delete(&judged);
  array_clear(&events);
  two_optimizers(&events, "0", 0, true);
  judged = judge(trace_of(GPU002_AT_14, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "CONFIRMED: 10 of 20 step(s)");
  judged_delete(&judged);
  array_clear(&events);
  two_optimizers(&events, "5", 0, true);
  judged = judge(trace_of(GPU002_AT_14, LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 0);
  assert_contains(text_string(&judged.out), "NOT OBSERVED: 0 of 20 step(s) after a backward applied no gradient");
  judged_delete(&judged);
  /* a norm that is not finite (written as a string) is a gradient applied */
  array_clear(&events);
  two_optimizers(&events, "\"nan\"", 0, true);
  judged = judge(trace_of(GPU002_AT_14, LOOP_10_20, text_string(&events)));
  assert_int_equal(judged.status, 0);
  assert_contains(text_string(&judged.out), "NOT OBSERVED: 0 of 20 step(s) after a backward applied no gradient");
  judged_delete(&judged);
  array_clear(&events);
  two_optimizers(&events, "\"inf\"", 0, true);
  judged = judge(trace_of(GPU002_AT_14, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: 0 of 20 step(s)");
  judged_delete(&judged);
  array_delete(&events);
}

/* A GAN's generator not cleared while the discriminator is: the norms
 * quoted are the generator's, not the other optimizer's. */
static void test_gpu001_norms_of_the_optimizer_not_cleared(void **state) {
  (void)state;
  Text events = array_new();
  two_optimizers(&events, "50", 1, false);
  Judged judged = judge(trace_of(GPU001_AT_14, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "CONFIRMED: gradients were not cleared before 9 of 19 steps; the gradient "
                                            "norm went 1 -> 10 (x10.00)");
  judged_delete(&judged);
  array_clear(&events);
  two_optimizers(&events, "50", 0, true);
  judged = judge(trace_of(GPU001_AT_14, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: gradients were cleared before every backward");
  judged_delete(&judged);
  array_delete(&events);
}

/* An inner loop (12-15) of the loop at 10-20 whose memory grows: a leak,
 * unless a backward runs after it inside the outer loop (a rollout whose
 * graph is backpropagated after it); a backward inside it does not count. */
static void test_growth_backpropagated_after_the_loop(void **state) {
  (void)state;
  const char *loops = "{\"id\":0,\"path\":\"/p/train.py\",\"start\":10,\"end\":20},"
                      "{\"id\":1,\"path\":\"/p/train.py\",\"start\":12,\"end\":15}";
  const uint32_t backward_lines[] = {0, 14, 21, 17};
  const bool reported[] = {true, true, true, false};
  for (uint32_t k = 0; k < 4; k++) {
    Text events = array_new();
    for (uint32_t i = 1; i <= 12; i++) {
      text_append(&events, "{\"e\":\"iter\",\"loop\":1,\"n\":%u,\"device\":\"cuda\",\"alloc\":%.0f}\n", i,
                  1e9 + 26.0 * 1048576.0 * i);
    }
    if (backward_lines[k]) text_append(&events, "{\"e\":\"bwd\",\"at\":[[\"/p/train.py\",%u]]}\n", backward_lines[k]);
    text_append(&events, "{\"e\":\"end\",\"why\":\"budget\",\"budget\":\"steps\"}\n");
    Judged judged = judge(trace_of("", loops, text_string(&events)));
    if (reported[k]) assert_contains(text_string(&judged.out), "/p/train.py:12: memory grows in this loop");
    else assert_lacks(text_string(&judged.out), "memory grows");
    assert_int_equal(judged.status, reported[k] ? 1 : 0);
    judged_delete(&judged);
    array_delete(&events);
  }
}

/* GPU103 whose one forward costs no more with grad (a fused cell that
 * allocates its workspace either way) is confirmed by its loop growing,
 * which it then explains. */
static void test_gpu103_confirmed_by_its_loop_growing(void **state) {
  (void)state;
  Text events = array_new();
  text_append(&events, "{\"e\":\"ab103\",\"at\":[[\"/p/train.py\",12]],\"device\":\"cuda\",\"saved_bytes\":29360128,"
                       "\"grad_peak\":27279360,\"nograd_peak\":27262976}\n");
  iterations_of(&events, 12, 5.75, 0);
  Judged judged = judge(trace_of(GPU103_AT_12, LOOP_10_20, text_string(&events)));
  const char *out = text_string(&judged.out);
  assert_contains(out, "CONFIRMED: 12 of 12 forward(s) here ran with grad on (12 in eval mode); its graph saved 28.0 MB "
                       "of tensors; peak 26.0 MB with grad, 26.0 MB under no_grad (x1.00); with grad on the loop at line "
                       "10 grew +5.8 MB/iteration over 12 iterations");
  assert_lacks(out, "no finding explains");
  judged_delete(&judged);
  array_clear(&events);
  text_append(&events, "{\"e\":\"ab103\",\"at\":[[\"/p/train.py\",12]],\"device\":\"cuda\",\"saved_bytes\":29360128,"
                       "\"grad_peak\":27279360,\"nograd_peak\":27262976}\n");
  iterations_of(&events, 12, 0, 0);
  judged = judge(trace_of(GPU103_AT_12, LOOP_10_20, text_string(&events)));
  assert_contains(text_string(&judged.out), "NOT OBSERVED: 12 of 12 forward(s)");
  assert_int_equal(judged.status, 0);
  judged_delete(&judged);
  array_delete(&events);
}

static void test_unmeasured_rule_and_bad_traces(void **state) {
  (void)state;
  const char *findings = "{\"code\":\"GPU301\",\"path\":\"/p/train.py\",\"line\":14,\"loop\":0}";
  Judged judged = judge(trace_of(findings, LOOP_10_20, "{\"e\":\"bwd\",\"at\":[[\"/p/train.py\",14]]}\nnot json\n"));
  assert_contains(text_string(&judged.out), "NOT MEASURED: the line ran; --run has no measurement for GPU301");
  judged_delete(&judged);
  Text out = array_new();
  assert_int_equal(run_trace_judge("", &out, NULL), 2);
  assert_int_equal(run_trace_judge("{\"e\":\"start\"}\n[1,2]\n{\"e\":", &out, NULL), 2);
  array_delete(&out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_script_of_command),
      cmocka_unit_test(test_script_of_module),
      cmocka_unit_test(test_loops_by_indentation),
      cmocka_unit_test(test_gpu001_confirmed_when_not_cleared),
      cmocka_unit_test(test_gpu001_not_observed_when_cleared),
      cmocka_unit_test(test_gpu101_growth_confirmed),
      cmocka_unit_test(test_gpu101_flat_not_observed),
      cmocka_unit_test(test_too_few_iterations_not_observed),
      cmocka_unit_test(test_not_reached_after_a_crash),
      cmocka_unit_test(test_not_reached_after_an_exit),
      cmocka_unit_test(test_growth_no_finding_explains),
      cmocka_unit_test(test_gpu201_timed_on_cuda),
      cmocka_unit_test(test_gpu201_windows_after_warmup),
      cmocka_unit_test(test_gpu501_where_the_load_went),
      cmocka_unit_test(test_ranks_merged),
      cmocka_unit_test(test_gpu103_peak_against_no_grad),
      cmocka_unit_test(test_gpu002_steps_without_gradient),
      cmocka_unit_test(test_gpu001_norms_of_the_optimizer_not_cleared),
      cmocka_unit_test(test_growth_backpropagated_after_the_loop),
      cmocka_unit_test(test_gpu103_confirmed_by_its_loop_growing),
      cmocka_unit_test(test_unmeasured_rule_and_bad_traces),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
