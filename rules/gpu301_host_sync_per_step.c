/* GPU301 host-sync-per-step
 *
 *   for x, y in loader:
 *       loss = criterion(model(x.cuda()), y.cuda())
 *       optimizer.zero_grad()
 *       loss.backward()
 *       optimizer.step()
 *       running_loss += loss.item()            <- reported (with --select GPU301)
 *
 * In code that runs on a GPU (the file names `cuda`), a call that makes the
 * host wait for the device (`t.item()`, `t.cpu()`, `t.tolist()`,
 * `t.numpy()`, `torch.cuda.synchronize()`) on every iteration of a training
 * loop: the innermost loop of its function whose body runs a backward or an
 * optimizer step, or a loop nested in it. Not reported: a call under an
 * interval guard (`if step % log_every == 0:`), under an except clause,
 * after `.cpu()`/`.item()` in the same chain (`t.cpu().numpy()` is one
 * wait), outside training loops (evaluation, after the epoch). `float(t)`,
 * `print(t)` and `if t > 0:` need to know that `t` is a CUDA tensor and are
 * not reported.
 *
 * Off by default: on an H100 one `loss.item()` per step cost from nothing
 * to +22% depending on the model, the input pipeline and the run (see
 * GPU301_DETAIL); the tutorial shape is everywhere, so reporting it by
 * default would mostly cry wolf. */
#include <stdlib.h>
#include <string.h>

#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU301_DETAIL                                                                                             \
  "item(), cpu(), tolist(), numpy() and torch.cuda.synchronize() make the host wait until the GPU has run "      \
  "everything queued, so the host cannot queue the next step while the GPU works. Measured on an H100 "          \
  "(PyTorch 2.11), blocks of 20 to 50 training iterations against a twin that keeps the losses on the device: " \
  "loss.item() every iteration cost +18% on a 3x512 MLP (1.51 vs 1.28 ms per iteration) and +22% on ResNet-18 " \
  "at batch 32 (9.3 vs 7.7 ms), torch.cuda.synchronize() +49% on the MLP, and nothing when the host spent "     \
  "longer preparing each batch than the GPU computing it; a second run of the same pairs gave -20% to +7%, so "  \
  "the cost depends on the model, the GPU and the input pipeline. Read values every N steps, or keep them on "  \
  "the device (losses.append(loss.detach())) and read them once per interval."

#define GPU301_TRAINING (REACH(EV_BACKWARD) | REACH(EV_STEP))

/* ---- Training loops ------------------------------------------------------------- */

/* Per loop: it is a training loop (its body runs a backward or a step, and
 * no loop inside it does), or lies inside one. Owned by the caller (free). */
static bool *gpu301__per_step_loops(const Facts *facts) {
  uint32_t count = facts->loops.size;
  bool *training = gl_calloc(count + 1, sizeof(bool));
  bool *inner_trains = gl_calloc(count + 1, sizeof(bool));
  for (uint32_t i = count; i > 0; i--) {
    const Loop *loop = array_get(&facts->loops, i - 1);
    bool trains = (loop->reaches & GPU301_TRAINING) != 0;
    training[i - 1] = trains && !inner_trains[i - 1];
    if (trains && loop->parent >= 0) inner_trains[loop->parent] = true;
  }
  free(inner_trains);
  return training;
}

/* Whether `node` (in `function`) sits in a training loop of its function,
 * or in a loop inside one. */
static bool gpu301__in_training_loop(const RuleContext *ctx, const bool *training, TSNode node, int32_t function) {
  const Facts *facts = ctx->facts;
  for (uint32_t i = 0; i < facts->loops.size; i++) {
    const Loop *loop = array_get(&facts->loops, i);
    if (loop->function != function || !node_contains(loop->body, node)) continue;
    for (int32_t at = (int32_t)i; at >= 0; at = facts->loops.contents[at].parent) {
      if (training[at]) return true;
    }
  }
  return false;
}

/* Between `node` and the start of its function: an if or elif whose
 * condition holds `%` (an interval guard), or an except clause. */
static bool gpu301__guarded(const RuleContext *ctx, TSNode node) {
  TSNode at = ts_node_parent(node);
  for (int steps = 0; !ts_node_is_null(at) && steps < MAX_ASCENT; at = ts_node_parent(at), steps++) {
    if (node_is(at, K_FUNCTION_DEFINITION) || node_is(at, K_MODULE)) return false;
    if (node_is(at, K_EXCEPT_CLAUSE)) return true;
    if (node_is(at, K_IF_STATEMENT) || node_is(at, K_ELIF_CLAUSE)) {
      Text condition = node_text(ctx->source, node_field(at, F_CONDITION));
      if (memchr(condition.ptr, '%', condition.length)) return true;
    }
  }
  return false;
}

/* ---- The calls --------------------------------------------------------------------- */

static bool gpu301__is_sync_method(Text method) {
  return text_is(method, "item") || text_is(method, "cpu") || text_is(method, "tolist") || text_is(method, "numpy");
}

/* Whether a sync of the chain already ran in `call`'s receiver
 * (`t.cpu().numpy()`: the numpy() waits for nothing more). */
static bool gpu301__after_sync(const RuleContext *ctx, TSNode call) {
  TSNode receiver = node_unparenthesize(call_receiver(call));
  for (int depth = 0; !ts_node_is_null(receiver) && depth < 16; depth++) {
    if (node_is(receiver, K_CALL)) {
      if (gpu301__is_sync_method(call_method_name(ctx->source, receiver))) return true;
      receiver = node_unparenthesize(call_receiver(receiver));
    } else if (node_is(receiver, K_ATTRIBUTE) || node_is(receiver, K_SUBSCRIPT)) {
      receiver = node_unparenthesize(ts_node_named_child(receiver, 0));
    } else {
      return false;
    }
  }
  return false;
}

/* The kind of wait `call` is ("item", "synchronize"...), or NULL. Calls
 * with arguments (`x.cpu(memory_format)` aside, `numpy(force=True)`) are
 * taken as they come; `.item()` takes none. */
static const char *gpu301__sync_kind(const RuleContext *ctx, TSNode call) {
  Text method = call_method_name(ctx->source, call);
  if (text_is(method, "synchronize")) {
    char buffer[128];
    const char *qualified = facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer);
    return strcmp(qualified, "torch.cuda.synchronize") == 0 ? "synchronize" : NULL;
  }
  if (!gpu301__is_sync_method(method) || gpu301__after_sync(ctx, call)) return NULL;
  if (text_is(method, "item") && call_positional_count(call) != 0) return NULL;
  return text_is(method, "item") ? "item" : text_is(method, "cpu") ? "cpu" : text_is(method, "tolist") ? "tolist" : "numpy";
}

/* ---- Check ---------------------------------------------------------------------------- */

static void gpu301__visit(RuleContext *ctx, const bool *training, TSNode call) {
  const char *kind = gpu301__sync_kind(ctx, call);
  if (!kind) return;
  int32_t function = facts_function_at(ctx->facts, call);
  if (!gpu301__in_training_loop(ctx, training, call, function) || gpu301__guarded(ctx, call)) return;
  rule_report_on(ctx, call, GL_EFFECT_SLOWDOWN, (Basis){.detail = GPU301_DETAIL, .warning = true},
                 "`%s()` waits for the GPU on every training step; read it every N steps",
                 kind);
}

/* The length of the sync method named at `at` (after a '.'), or 0. */
static uint32_t gpu301__method_at(const Source *source, uint32_t at) {
  static const char *const METHODS[] = {"item(", "cpu(", "tolist(", "numpy(", "synchronize(", NULL};
  for (const char *const *method = METHODS; *method; method++) {
    uint32_t length = (uint32_t)strlen(*method);
    if (at + length <= source->length && memcmp(source->bytes + at, *method, length) == 0) return length - 1;
  }
  return 0;
}

static void gpu301_check(RuleContext *ctx) {
  const Source *source = ctx->source;
  if (!strstr(source->bytes, "cuda") || !ctx->facts->trains) return; /* bytes end with a NUL */
  bool *training = gpu301__per_step_loops(ctx->facts);
  for (uint32_t at = 0; at + 1 < source->length; at++) {
    if (source->bytes[at] != '.') continue;
    uint32_t length = gpu301__method_at(source, at + 1);
    if (!length) continue;
    TSNode call = call_of_method_name_at(ctx->root, at + 1, length);
    if (!ts_node_is_null(call)) gpu301__visit(ctx, training, call);
  }
  free(training);
}

const Rule GPU301_HOST_SYNC_PER_STEP = {
    .info =
        {
            .code = "GPU301",
            .name = "host-sync-per-step",
            .summary = "The host waits for the GPU on every training step (.item(), .cpu(), .tolist(), "
                       ".numpy(), torch.cuda.synchronize()) outside an interval guard.",
            .fix_hint = "Read values every N steps (if step % N == 0), or keep them on the device and read them "
                        "once per interval.",
            .effect = GL_EFFECT_SLOWDOWN,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = false,
        },
    .check = gpu301_check,
};
