/* GPU201 empty-cache-in-loop
 *
 *   for batch in loader:
 *       loss = model(batch).loss
 *       loss.backward(); optimizer.step(); optimizer.zero_grad()
 *       torch.cuda.empty_cache()      <- reported: runs every step
 *
 * A per-step loop is the innermost loop that runs a forward, backward or
 * optimizer step, or one that iterates a data loader. Calls once per epoch
 * (in an outer loop whose body holds the batch loop), under a periodic
 * guard (`if step % N == 0`), or in an exception handler are fine. */
#include <stdlib.h>
#include <string.h>

#include "rule.h"

#define WORK (REACH(EV_FORWARD) | REACH(EV_BACKWARD) | REACH(EV_STEP))
#define TRAINING (REACH(EV_BACKWARD) | REACH(EV_STEP))

typedef struct {
  bool work;          /* forward, backward or step, itself or through loopless helpers */
  bool training;      /* backward or step, likewise */
  bool helper_trains; /* calls a helper whose own loop trains */
  bool helper_loops;  /* calls a helper whose own loop runs forwards only */
} LoopWork;

/* What each loop's body runs, in one pass over the events. */
static void gpu201__scan_events(const Facts *facts, LoopWork *work) {
  for (uint32_t i = 0; i < facts->events.size; i++) {
    const Event *event = array_get(&facts->events, i);
    if (event->loop < 0) continue;
    LoopWork *here = &work[event->loop];
    uint32_t reaches = REACH(event->kind);
    if (event->kind == EV_CALL) reaches = facts->functions.contents[event->callee].reaches;
    if (event->kind == EV_EXTERNAL) reaches = event->reaches;
    if (!(reaches & WORK)) continue;
    bool helper_loop = (event->kind == EV_CALL || event->kind == EV_EXTERNAL) && (reaches & REACH_LOOP);
    if (helper_loop && (reaches & TRAINING)) here->helper_trains = true;
    else if (helper_loop) here->helper_loops = true;
    else {
      here->work = true;
      here->training |= (reaches & TRAINING) != 0;
    }
  }
}

/* A per-step loop iterates data, or does per-step work itself while no
 * nested loop does it: its own, a helper's that trains, or a helper's
 * evaluation loop when the loop trains nothing itself (a loop over models
 * that benchmarks each). Inner loops come after their parents, so a
 * reverse pass sees them first. */
static bool *gpu201__per_step_loops(const RuleContext *ctx) {
  const Facts *facts = ctx->facts;
  uint32_t count = facts->loops.size;
  bool *per_step = gl_calloc(count + 1, sizeof(bool));
  LoopWork *work = gl_calloc(count + 1, sizeof(LoopWork));
  bool *inner_work = gl_calloc(count + 1, sizeof(bool));
  gpu201__scan_events(facts, work);
  for (uint32_t i = count; i > 0; i--) {
    const LoopWork *here = &work[i - 1];
    bool nested = inner_work[i - 1] || here->helper_trains || (here->helper_loops && !here->training);
    per_step[i - 1] = facts_loop_iterates_data(facts, (int32_t)(i - 1)) || (here->work && !nested);
    int32_t parent = facts->loops.contents[i - 1].parent;
    if (per_step[i - 1] && parent >= 0) inner_work[parent] = true;
  }
  free(work);
  free(inner_work);
  return per_step;
}

/* `if step % N == 0:` or an except clause between `node` and `stop`. */
static bool gpu201__guarded(const Source *source, TSNode node, TSNode stop) {
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && !ts_node_eq(at, stop) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    if (node_is(at, K_EXCEPT_CLAUSE)) return true;
    if (node_is(at, K_IF_STATEMENT) || node_is(at, K_ELIF_CLAUSE)) {
      Text condition = node_text(source, node_field(at, F_CONDITION));
      if (memchr(condition.ptr, '%', condition.length)) return true;
    }
  }
  return false;
}

static void gpu201__check_loop(RuleContext *ctx, uint32_t loop_index) {
  const Loop *loop = array_get(&ctx->facts->loops, loop_index);
  FlatEvents events = array_new();
  facts_flatten(ctx->facts, loop->function, loop->body, &events);
  for (uint32_t i = 0; i < events.size; i++) {
    const FlatEvent *flat = array_get(&events, i);
    const Event *event = flat->event;
    if (event->kind != EV_EMPTY_CACHE) continue;
    bool direct = event->function == loop->function;
    if (direct ? event->loop != (int32_t)loop_index : event->loop >= 0) continue;
    if (gpu201__guarded(ctx->source, flat->anchor, loop->body)) continue;
    if (!direct && gpu201__guarded(ctx->source, event->node, ctx->facts->functions.contents[event->function].node)) {
      continue;
    }
    Where where;
    rule_report(ctx, event->node, GL_EFFECT_SLOWDOWN,
                "`empty_cache()` runs every iteration of the loop at %s: it frees no tensor that is still "
                "referenced, so it cannot fix a leak, and it slows every step (measured +9 to +14%%) without "
                "lowering the peak; find the tensor kept alive, or set "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation",
                rule_where(ctx, loop->node, &where));
  }
  array_delete(&events);
}

static void gpu201_check(RuleContext *ctx) {
  bool any = false;
  for (uint32_t i = 0; i < ctx->facts->events.size && !any; i++) any = ctx->facts->events.contents[i].kind == EV_EMPTY_CACHE;
  if (!any) return;
  bool *per_step = gpu201__per_step_loops(ctx);
  for (uint32_t i = 0; i < ctx->facts->loops.size; i++) {
    if (per_step[i]) gpu201__check_loop(ctx, i);
  }
  free(per_step);
}

const Rule GPU201_EMPTY_CACHE_IN_LOOP = {
    .info =
        {
            .code = "GPU201",
            .name = "empty-cache-in-loop",
            .summary = "torch.cuda.empty_cache() runs on every step of a training or inference loop.",
            .fix_hint = "Remove it; find the tensor that is kept alive, or use expandable_segments against "
                        "fragmentation.",
            .effect = GL_EFFECT_SLOWDOWN,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = true,
        },
    .check = gpu201_check,
};
