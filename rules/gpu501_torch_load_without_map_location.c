/* GPU501 torch-load-without-map-location
 *
 *   dist.init_process_group("nccl")
 *   torch.cuda.set_device(local_rank)
 *   model = DDP(build_model().cuda(), device_ids=[local_rank])
 *   state = torch.load(args.resume)              <- reported
 *   model.load_state_dict(state["model"])
 *   optimizer.load_state_dict(state["optimizer"])
 *
 * `torch.load(f)` restores every tensor to the device it was saved from,
 * whatever the current device is: a checkpoint saved by rank 0 lands on
 * GPU 0 in every process. A `torch.load` with no `map_location` (keyword,
 * second positional argument, or `**kwargs`) is harmful when both halves
 * show in the code:
 *
 * - it runs in every process of a per-GPU run: a launcher runs its
 *   function once per process (`parallel.run(fn)` under ignite's
 *   `Parallel(backend=...)`, `mp.spawn(fn)`), here or through a function
 *   of another file that one runs; or its function sets the run
 *   up (`init_process_group`, DDP, FSDP, `LOCAL_RANK`) and something runs
 *   it, or a function that does calls it, or other files call it and a
 *   file that sets a run up imports this one;
 * - the file can hold CUDA tensors: it restores an optimizer (whose state
 *   lives beside the parameters on the GPU; also through ignite's
 *   `Checkpoint.load_objects`), or it restores a module and
 *   this file saves state dicts without moving them to the CPU; and
 *   nothing shows the project saving from the CPU (FSDP's
 *   `offload_to_cpu`, every save of the file moved to the CPU).
 *
 * Where either half is not shown (weights the project never saves, a
 * function nothing calls), the finding is pedantic. Never reported: a
 * load under a rank-0 guard or after `if rank != 0: return`, a file named
 * by the rank, a GradScaler's or a scheduler's state (Python numbers), a
 * branch only a single-process run takes. */
#include <ctype.h>
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

/* Words that suggest code running one process per GPU: the floor for a
 * (pedantic) finding. */
static const char *const PER_RANK_WORDS[] = {"init_process_group", "DistributedDataParallel",
                                             "FullyShardedDataParallel", "LOCAL_RANK", "local_rank", NULL};

/* Words that show a function setting a per-GPU run up. */
static const char *const ENTRY_WORDS[] = {"init_process_group", "DistributedDataParallel",
                                          "FullyShardedDataParallel", "LOCAL_RANK", NULL};

/* Identifiers that name the process in a file name. */
static const char *const RANK_WORDS[] = {"rank",          "local_rank",          "global_rank", "get_rank",
                                         "process_index", "local_process_index", "rank_id",     NULL};

#define GPU501_MAX_CALLER_DEPTH 4
#define GPU501_MAX_NAMES 8
/* How far from a load (or a save) the rule reads the code around it, in
 * bytes and in statements before it: what restores the loaded value, the
 * loads on other branches, an early return. It keeps the cost per load
 * bounded in files of thousands of loads. */
#define GPU501_WINDOW 8192
#define GPU501_MAX_STATEMENTS_BEFORE 64

/* What one lint learns once, for every load of the file. */
typedef struct {
  Array(TSNode) mapped;    /* the loads that pass map_location */
  Array(Text) aliases;     /* local names of DistributedDataParallel / FullyShardedDataParallel */
  int per_rank_text;       /* -1 unknown; the file or an importer names per-rank code */
  int imported_by_entry;   /* -1 unknown; a file that sets a per-GPU run up imports this one */
  int saves;               /* -1 unknown; else SAVES_* bits */
  int module_sets_up;      /* -1 unknown; module-level code sets a per-GPU run up */
  int8_t *every_rank;      /* per function: -1 unknown, else gpu501__every_rank's answer; owned */
  bool *launched;          /* per function: a launcher of the file runs it per process; NULL until needed; owned */
  int32_t *first_call;     /* per function: its first EV_CALL event, -1; NULL until needed; owned */
  int32_t *next_call;      /* per event: the next EV_CALL event of the same callee, -1; owned */
  TextMap words;           /* how often each identifier occurs in the file; empty until needed */
  Array(uint32_t) restores_at; /* where each `.load_state_dict(` or `.load_objects(` of the file starts */
  struct { uint32_t start, end; } *bodies; /* per function: its body's bytes; NULL until needed; owned */
} Gpu501;

/* A `torch.load(...)` and where it sits. */
typedef struct {
  TSNode call;
  TSNode ancestors[FACTS_ANCESTORS]; /* nearest first (facts_ancestors) */
  uint32_t ancestor_count;
  int32_t function; /* the function whose body holds it, -1 at module level */
} Load;

/* The node of `load` one step below ancestors[i] on the way down to the call. */
static TSNode load__child(const Load *load, uint32_t i) { return i ? load->ancestors[i - 1] : load->call; }

enum { SAVES_ANY = 1, SAVES_GPU_STATE = 2, SAVES_CPU_ONLY = 4 };

/* What a loaded value restores through `.load_state_dict(...)`. */
enum { RESTORES_MODULE = 1, RESTORES_OPTIMIZER = 2, RESTORES_NUMBERS = 4 };

/* ---- Small predicates ------------------------------------------------------------------------ */

static bool gpu501__mentions_any(Text text, const char *const *words) {
  for (const char *const *word = words; *word; word++) {
    if (text_mentions_identifier(text, text_of(*word))) return true;
  }
  return false;
}

/* Whether `text` sets a per-GPU run up: an ENTRY word, or a local name of
 * DDP or FSDP (`DDP(model)`). */
static bool gpu501__sets_up(const Gpu501 *self, Text text) {
  if (gpu501__mentions_any(text, ENTRY_WORDS)) return true;
  for (uint32_t i = 0; i < self->aliases.size; i++) {
    if (text_mentions(text, self->aliases.contents[i])) return true;
  }
  return false;
}

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

/* The value a name held just before `at` in `function`: its last plain
 * assignment, or the name itself. */
static Text gpu501__value_before(const RuleContext *ctx, TSNode expression, int32_t function, uint32_t at) {
  Text text = node_text(ctx->source, expression);
  if (!node_is(expression, K_IDENTIFIER) && !node_is(expression, K_ATTRIBUTE)) return text;
  const Assign *assign = facts_assign_last_before(ctx->facts, text, function, at, facts_plain_assign);
  return assign ? node_text(ctx->source, assign->value) : text;
}

/* ---- Loads that cannot put tensors on another rank's GPU ----------------------------------------- */

/* Whether `condition` selects one process: it compares a rank with 0
 * (`rank == 0`, `args.local_rank in [-1, 0]`) or asks for the main one
 * (`is_main_process()`, `is_master`). */
static bool gpu501__rank_zero_condition(Text condition) {
  if (text_contains_ci(condition, "main_process") || text_contains_ci(condition, "is_master") ||
      text_contains_ci(condition, "is_main") || text_contains_ci(condition, "master_process")) {
    return !text_contains_ci(condition, "not ");
  }
  return text_contains_ci(condition, "rank") && text_contains_ci(condition, "0") &&
         !text_contains_ci(condition, "!=") && !text_contains_ci(condition, "not in") &&
         !text_contains_ci(condition, ">");
}

/* Whether `condition` selects every process but the main one:
 * `rank != 0`, `rank > 0`, `local_rank not in [-1, 0]`,
 * `not is_main_process()`, `not accelerator.is_main_process`. */
static bool gpu501__other_ranks_condition(Text condition) {
  bool main = text_contains_ci(condition, "main_process") || text_contains_ci(condition, "is_master") ||
              text_contains_ci(condition, "is_main") || text_contains_ci(condition, "master_process");
  if (main) return condition.length > 4 && memcmp(condition.ptr, "not ", 4) == 0;
  return text_contains_ci(condition, "rank") &&
         (text_contains_ci(condition, "!=") || text_contains_ci(condition, "not in") ||
          text_contains_ci(condition, "> 0") || text_contains_ci(condition, ">0"));
}

/* Whether `condition` holds only in a run of one process:
 * `not args.distributed`, `not dist.is_initialized()`, `world_size == 1`,
 * `args.gpu is None`. */
static bool gpu501__single_process_condition(Text condition) {
  bool negated = condition.length > 4 && memcmp(condition.ptr, "not ", 4) == 0;
  if (negated && (text_contains_ci(condition, "distributed") || text_contains_ci(condition, "is_initialized") ||
                  text_contains_ci(condition, "ddp"))) {
    return true;
  }
  if (text_contains_ci(condition, "world_size") && text_contains_ci(condition, "== 1")) return true;
  return text_contains_ci(condition, "gpu is none");
}

/* Whether `condition` holds only in a run of several processes:
 * `args.distributed`, `dist.is_initialized()`, `world_size > 1`,
 * `args.gpu is not None`. */
static bool gpu501__multi_process_condition(Text condition) {
  if (condition.length > 4 && memcmp(condition.ptr, "not ", 4) == 0) return false;
  return text_contains_ci(condition, "distributed") || text_contains_ci(condition, "is_initialized") ||
         (text_contains_ci(condition, "world_size") && text_contains_ci(condition, "> 1")) ||
         text_contains_ci(condition, "gpu is not none");
}

/* Whether `load` sits, within its function, under an `if` whose condition
 * `then_test` accepts, or in the `else:` of one whose condition
 * `else_test` accepts. */
static bool gpu501__under_branch(const RuleContext *ctx, const Load *load, bool (*then_test)(Text condition),
                                 bool (*else_test)(Text condition)) {
  for (uint32_t i = 0; i < load->ancestor_count; i++) {
    TSNode at = load->ancestors[i];
    if (node_is(at, K_FUNCTION_DEFINITION)) return false;
    if (node_is(at, K_ELSE_CLAUSE) && i + 1 < load->ancestor_count) {
      TSNode owner = load->ancestors[i + 1];
      Text condition = node_text(ctx->source, node_field(owner, F_CONDITION));
      if (node_is(owner, K_IF_STATEMENT) && else_test(condition)) return true;
      continue;
    }
    if (!node_is(at, K_IF_STATEMENT) || !ts_node_eq(node_field(at, F_CONSEQUENCE), load__child(load, i))) continue;
    if (then_test(node_text(ctx->source, node_field(at, F_CONDITION)))) return true;
  }
  return false;
}

/* Whether `node` sits on a branch that a run of one process per GPU
 * takes: under `if args.distributed:` or `if args.gpu is not None:`, or
 * in the `else:` of `if args.gpu is None:`. */
static bool gpu501__per_gpu_branch(const RuleContext *ctx, const Load *load) {
  return gpu501__under_branch(ctx, load, gpu501__multi_process_condition, gpu501__single_process_condition);
}

static bool gpu501__one_process_condition(Text condition) {
  return gpu501__rank_zero_condition(condition) || gpu501__single_process_condition(condition);
}

/* Whether `node` runs only where an enclosing `if` selects one process,
 * or only in a run of one process (`if not args.distributed:`, the
 * `else:` of `if args.distributed:`). */
static bool gpu501__one_process_branch(const RuleContext *ctx, const Load *load) {
  return gpu501__under_branch(ctx, load, gpu501__one_process_condition, gpu501__multi_process_condition);
}

/* Whether `statement` is `if <other ranks>: ... return` (or raise). */
static bool gpu501__leaves_other_ranks(const RuleContext *ctx, TSNode statement) {
  if (!node_is(statement, K_IF_STATEMENT) || !ts_node_is_null(node_field(statement, F_ALTERNATIVE))) return false;
  TSNode body = node_field(statement, F_CONSEQUENCE);
  uint32_t count = ts_node_named_child_count(body);
  TSNode last = count ? ts_node_named_child(body, count - 1) : (TSNode){0};
  if (ts_node_is_null(last) || (!node_is(last, K_RETURN_STATEMENT) && !node_is(last, K_RAISE_STATEMENT))) return false;
  return gpu501__other_ranks_condition(node_text(ctx->source, node_field(statement, F_CONDITION)));
}

/* Whether an `if <other ranks>: return` (or raise) runs before the load
 * in a block around it, up to its function (the statements up to
 * GPU501_WINDOW bytes before it): only the main process gets there. */
static bool gpu501__after_other_ranks_leave(const RuleContext *ctx, const Load *load) {
  if (load->function < 0) return false; /* `return` needs a function */
  for (uint32_t i = 0; i < load->ancestor_count && !node_is(load->ancestors[i], K_FUNCTION_DEFINITION); i++) {
    if (!node_is(load->ancestors[i], K_BLOCK)) continue;
    uint32_t at = ts_node_start_byte(load__child(load, i));
    TSTreeCursor cursor = ts_tree_cursor_new(load->ancestors[i]);
    bool found = false;
    if (ts_tree_cursor_goto_first_child_for_byte(&cursor, at > GPU501_WINDOW ? at - GPU501_WINDOW : 0) >= 0) {
      do {
        TSNode before = ts_tree_cursor_current_node(&cursor);
        if (ts_node_start_byte(before) >= at) break;
        found = gpu501__leaves_other_ranks(ctx, before);
      } while (!found && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    if (found) return true;
  }
  return false;
}

/* Whether the file loaded is named by the process (`f"opt_rank{rank}.pt"`,
 * `..._{accelerator.process_index}.bin`): each rank loads its own file,
 * saved from its own GPU. */
static bool gpu501__per_rank_file(const RuleContext *ctx, TSNode call, int32_t function) {
  TSNode path = call_positional(call, 0);
  if (ts_node_is_null(path)) path = call_keyword(ctx->source, call, "f");
  if (ts_node_is_null(path)) return false;
  Text value = gpu501__value_before(ctx, path, function, ts_node_start_byte(call));
  return gpu501__mentions_any(value, RANK_WORDS) || gpu501__mentions_any(node_text(ctx->source, path), RANK_WORDS);
}

/* Whether a load that passes map_location lies in bytes [start, end). */
static bool gpu501__mapped_within(const Gpu501 *self, uint32_t start, uint32_t end) {
  uint32_t low = 0, high = self->mapped.size; /* the first at or after `start` */
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (ts_node_start_byte(self->mapped.contents[middle]) < start) low = middle + 1;
    else high = middle;
  }
  return low < self->mapped.size && ts_node_start_byte(self->mapped.contents[low]) < end;
}

/* Whether another branch of an `if` around the load holds a load that
 * passes map_location, and this one is not on the per-GPU branch: the
 * code tells the per-GPU path from the one this load is on. */
static bool gpu501__mapped_elsewhere(const Gpu501 *self, const RuleContext *ctx, const Load *load) {
  if (self->mapped.size == 0 || gpu501__per_gpu_branch(ctx, load)) return false;
  for (uint32_t i = 0; i < load->ancestor_count; i++) {
    TSNode at = load->ancestors[i];
    if (node_is(at, K_FUNCTION_DEFINITION)) return false;
    if (!node_is(at, K_IF_STATEMENT)) continue;
    TSNode branch = load__child(load, i), condition = node_field(at, F_CONDITION);
    if (ts_node_eq(branch, condition)) continue;
    uint32_t after_condition = ts_node_end_byte(condition);
    if (gpu501__mapped_within(self, after_condition, ts_node_start_byte(branch)) ||
        gpu501__mapped_within(self, ts_node_end_byte(branch), ts_node_end_byte(at))) {
      return true;
    }
  }
  return false;
}

/* ---- What the load restores ------------------------------------------------------------------------ */

/* The kind of a `.load_state_dict(value)` call: a GradScaler or a
 * scheduler keeps Python numbers; an optimizer keeps tensors beside the
 * parameters; anything else is taken for a module. */
static int gpu501__restore_kind(const RuleContext *ctx, TSNode restore) {
  Text receiver = node_text(ctx->source, call_receiver(restore));
  Text argument = node_text(ctx->source, call_positional(restore, 0));
  if (text_contains_ci(receiver, "scaler") || text_contains_ci(receiver, "sched")) return RESTORES_NUMBERS;
  if (text_contains_ci(receiver, "optim") || facts_binding(ctx->facts, BIND_OPTIMIZER, receiver) ||
      (text_contains_ci(argument, "optim") && !text_contains_ci(argument, "sched"))) {
    return RESTORES_OPTIMIZER;
  }
  if (text_contains_ci(argument, "scaler") || text_contains_ci(argument, "sched")) return RESTORES_NUMBERS;
  return RESTORES_MODULE;
}

/* Whether `restore` is ignite's `Checkpoint.load_objects(to_load,
 * checkpoint)`, which calls `load_state_dict` of each object of
 * `to_load` with its entry of the checkpoint. */
static bool gpu501__loads_objects(const RuleContext *ctx, TSNode restore) {
  char buffer[128];
  Text qualified = text_of(facts_qualify(ctx->facts, node_field(restore, F_FUNCTION), buffer, sizeof buffer));
  return text_ends_with(qualified, "Checkpoint.load_objects");
}

/* The checkpoint that `Checkpoint.load_objects(...)` restores from. */
static TSNode gpu501__objects_checkpoint(const RuleContext *ctx, TSNode restore) {
  TSNode checkpoint = call_keyword(ctx->source, restore, "checkpoint");
  return ts_node_is_null(checkpoint) ? call_positional(restore, 1) : checkpoint;
}

/* What `Checkpoint.load_objects(to_load=objects, ...)` restores: an
 * optimizer when the objects (`{"model": model, "optimizer": optimizer}`,
 * as bound before the call in `function`) hold one, else a module. */
static int gpu501__objects_kind(const RuleContext *ctx, TSNode restore, int32_t function) {
  TSNode objects = call_keyword(ctx->source, restore, "to_load");
  if (ts_node_is_null(objects)) objects = call_positional(restore, 0);
  if (ts_node_is_null(objects)) return RESTORES_MODULE;
  Text value = gpu501__value_before(ctx, objects, function, ts_node_start_byte(restore));
  return text_contains_ci(value, "optim") ? RESTORES_OPTIMIZER : RESTORES_MODULE;
}

/* The `.load_state_dict(...)` call that `call` is the argument of,
 * directly or through a subscript (`m.load_state_dict(torch.load(p)["model"])`),
 * or a null node. */
static TSNode gpu501__restored_directly(const Load *load) {
  uint32_t i = 0;
  while (i < load->ancestor_count &&
         (node_is(load->ancestors[i], K_SUBSCRIPT) || node_is(load->ancestors[i], K_PARENTHESIZED_EXPRESSION))) {
    i++;
  }
  if (i + 1 >= load->ancestor_count || !node_is(load->ancestors[i], K_ARGUMENT_LIST)) return (TSNode){0};
  TSNode restore = load->ancestors[i + 1];
  return node_is(restore, K_CALL) ? restore : (TSNode){0};
}

/* The index of the first assignment of the file that starts after byte
 * `at` (assignments are in source order). */
static uint32_t gpu501__first_assign_after(const Facts *facts, uint32_t at) {
  uint32_t low = 0, high = facts->assigns.size;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (ts_node_start_byte(facts->assigns.contents[middle].statement) <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/* The innermost function whose body holds byte `at`, or -1 at module
 * level. Functions are in source order, a nested one after its parent:
 * the last one that starts before `at` and holds it is the innermost. The
 * bodies' ranges are read at first use. */
static int32_t gpu501__function_at(Gpu501 *self, const RuleContext *ctx, uint32_t at) {
  const Facts *facts = ctx->facts;
  if (!self->bodies && facts->functions.size) {
    self->bodies = gl_malloc(facts->functions.size * sizeof *self->bodies);
    for (uint32_t i = 0; i < facts->functions.size; i++) {
      TSNode body = node_field(facts->functions.contents[i].node, F_BODY);
      self->bodies[i].start = ts_node_start_byte(body);
      self->bodies[i].end = ts_node_end_byte(body);
    }
  }
  for (uint32_t i = facts->functions.size; i-- > 0;) {
    if (self->bodies[i].start <= at && at < self->bodies[i].end) return (int32_t)i;
  }
  return -1;
}

/* The names that hold the loaded value in `function` (`ckpt = torch.load(p)`,
 * then `state = ckpt["model"]`), at most GPU501_MAX_NAMES; returns how many. */
static uint32_t gpu501__holders(const RuleContext *ctx, const Load *load, Text *names) {
  TSNode call = load->call;
  int32_t function = load->function;
  uint32_t i = 0;
  while (i < load->ancestor_count && node_is(load->ancestors[i], K_SUBSCRIPT)) i++;
  if (i >= load->ancestor_count || !node_is(load->ancestors[i], K_ASSIGNMENT)) return 0;
  TSNode statement = load->ancestors[i];
  TSNode left = node_field(statement, F_LEFT);
  if (!node_is(left, K_IDENTIFIER) && !node_is(left, K_ATTRIBUTE)) return 0;
  uint32_t count = 0;
  names[count++] = node_text(ctx->source, left);
  uint32_t after = ts_node_end_byte(call);
  for (uint32_t i = gpu501__first_assign_after(ctx->facts, after); i < ctx->facts->assigns.size; i++) {
    const Assign *assign = array_get(&ctx->facts->assigns, i);
    if (count == GPU501_MAX_NAMES || ts_node_start_byte(assign->statement) > after + GPU501_WINDOW) break;
    if (assign->function != function || assign->augmented || assign->subscript) continue;
    for (uint32_t j = 0; j < count; j++) {
      if (text_mentions(node_text(ctx->source, assign->value), names[j])) {
        names[count++] = assign->name;
        break;
      }
    }
  }
  return count;
}

/* The index in self->restores_at of the first restoring call at or
 * after byte `at`; the offsets are found in one pass, at first use. */
static uint32_t gpu501__first_restore_after(Gpu501 *self, const RuleContext *ctx, uint32_t at) {
  static const char *const RESTORE[] = {"load_state_dict", "load_objects", NULL};
  if (self->restores_at.size == 0 && self->restores_at.capacity == 0) {
    array_reserve(&self->restores_at, 1); /* marks the pass as done, even when it finds none */
    uint32_t name;
    for (uint32_t found = source_next_method_name(ctx->source, 0, RESTORE, &name); found != UINT32_MAX;
         found = source_next_method_name(ctx->source, found + 1, RESTORE, &name)) {
      array_push(&self->restores_at, found);
    }
  }
  uint32_t low = 0, high = self->restores_at.size;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (self->restores_at.contents[middle] < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/* Whether the text just after byte `at` (a `.load_state_dict(`, up to
 * the end of its line) mentions one of `names`. */
static bool gpu501__names_near(const RuleContext *ctx, uint32_t at, const Text *names, uint32_t count) {
  const char *start = ctx->source->bytes + at, *stop = ctx->source->bytes + ctx->source->length;
  const char *line_end = memchr(start, '\n', (size_t)(stop - start));
  Text line = {start, (uint32_t)((line_end ? line_end : stop) - start)};
  for (uint32_t j = 0; j < count; j++) {
    if (text_mentions(line, names[j])) return true;
  }
  return false;
}

/* What the loaded value restores (RESTORES_* bits): the
 * `.load_state_dict(...)` it is handed to, directly or through the names
 * that hold it in its function, up to GPU501_WINDOW bytes after the load. */
static int32_t gpu501__first_call(Gpu501 *self, const RuleContext *ctx, int32_t function);

/* Whether the function of `load` hands the loaded value back:
 * `return torch.load(path)`, or `ckpt = torch.load(path)` ... `return
 * ckpt`. */
static bool gpu501__returns_load(const RuleContext *ctx, const Load *load, const Text *names, uint32_t count) {
  uint32_t i = 0;
  while (i < load->ancestor_count && node_is(load->ancestors[i], K_SUBSCRIPT)) i++;
  if (i < load->ancestor_count && node_is(load->ancestors[i], K_RETURN_STATEMENT)) return true;
  for (uint32_t r = 0; count > 0 && r < ctx->facts->returns.size; r++) {
    const Return *entry = array_get(&ctx->facts->returns, r);
    if (entry->function == load->function && text_eq(node_text(ctx->source, entry->value), names[0])) return true;
  }
  return false;
}

static int gpu501__restores_here(Gpu501 *self, const RuleContext *ctx, const Load *load);

/* What the callers of a loader helper in this file restore from its
 * result (`state = load_checkpoint(path)` then
 * `optimizer.load_state_dict(state["optimizer"])`), one call deep. */
static int gpu501__restored_by_callers(Gpu501 *self, const RuleContext *ctx, int32_t function) {
  int restores = 0;
  if (function < 0) return 0;
  for (int32_t i = gpu501__first_call(self, ctx, function); i >= 0; i = self->next_call[i]) {
    const Event *event = array_get(&ctx->facts->events, (uint32_t)i);
    if (event->function == function) continue;
    Load caller = {.call = event->node, .function = event->function};
    caller.ancestor_count = facts_ancestors(event->node, caller.ancestors);
    restores |= gpu501__restores_here(self, ctx, &caller);
  }
  return restores;
}

/* RESTORES_* bits: what the loaded value restores in the load's own
 * function, or, when the function hands it back, in its callers'. */
static int gpu501__restores(Gpu501 *self, const RuleContext *ctx, const Load *load) {
  int restores = gpu501__restores_here(self, ctx, load);
  if (restores) return restores;
  Text names[GPU501_MAX_NAMES];
  uint32_t count = gpu501__holders(ctx, load, names);
  if (!gpu501__returns_load(ctx, load, names, count)) return 0;
  return gpu501__restored_by_callers(self, ctx, load->function);
}

static int gpu501__restores_here(Gpu501 *self, const RuleContext *ctx, const Load *load) {
  TSNode call = load->call;
  int32_t function = load->function;
  TSNode direct = gpu501__restored_directly(load);
  if (!ts_node_is_null(direct) && text_is(call_method_name(ctx->source, direct), "load_state_dict")) {
    return gpu501__restore_kind(ctx, direct);
  }
  if (!ts_node_is_null(direct) && gpu501__loads_objects(ctx, direct)) return gpu501__objects_kind(ctx, direct, function);
  Text names[GPU501_MAX_NAMES];
  uint32_t count = gpu501__holders(ctx, load, names);
  if (count == 0) return 0;
  TSNode scope = function >= 0 ? ctx->facts->functions.contents[function].node : ctx->root;
  uint32_t from = ts_node_end_byte(call), end = ts_node_end_byte(scope);
  if (end > from + GPU501_WINDOW) end = from + GPU501_WINDOW;
  int restores = 0;
  for (uint32_t i = gpu501__first_restore_after(self, ctx, from); i < self->restores_at.size; i++) {
    uint32_t at = self->restores_at.contents[i];
    if (at >= end) break;
    if (!gpu501__names_near(ctx, at, names, count)) continue; /* cheap: the text after `(` names no holder */
    bool objects = memcmp(ctx->source->bytes + at + 1, "load_objects", strlen("load_objects")) == 0;
    uint32_t length = (uint32_t)strlen(objects ? "load_objects" : "load_state_dict");
    TSNode restore = call_of_method_name_at(ctx->root, at + 1, length);
    if (ts_node_is_null(restore) || gpu501__function_at(self, ctx, at) != function) continue;
    if (objects && !gpu501__loads_objects(ctx, restore)) continue;
    Text argument = node_text(ctx->source, objects ? gpu501__objects_checkpoint(ctx, restore) : call_positional(restore, 0));
    for (uint32_t j = 0; j < count; j++) {
      if (text_mentions(argument, names[j])) {
        restores |= objects ? gpu501__objects_kind(ctx, restore, function) : gpu501__restore_kind(ctx, restore);
        break;
      }
    }
  }
  return restores;
}

/* ---- What the project saves ------------------------------------------------------------------------- */

/* Whether a `torch.save(value, ...)` saves from the CPU: the value moves
 * its tensors there (`model.cpu().state_dict()`, `{k: v.cpu() ...}`), or
 * its function moved something to the CPU before it (`model.cpu()`). */
static bool gpu501__save_from_cpu(const RuleContext *ctx, TSNode save, int32_t function) {
  TSNode value = call_positional(save, 0);
  if (ts_node_is_null(value)) return false;
  Text saved = gpu501__value_before(ctx, value, function, ts_node_start_byte(save));
  if (text_contains_ci(saved, "cpu")) return true;
  TSNode scope = function >= 0 ? ctx->facts->functions.contents[function].node : ctx->root;
  uint32_t start = ts_node_start_byte(scope), end = ts_node_start_byte(save);
  if (end - start > GPU501_WINDOW) start = end - GPU501_WINDOW;
  return text_mentions_attribute((Text){ctx->source->bytes + start, end - start}, "cpu");
}

/* Whether a `torch.save(value, ...)` saves state dicts (`model.state_dict()`,
 * a dict of them, a name bound to one). */
static bool gpu501__save_of_state(const RuleContext *ctx, TSNode save, int32_t function) {
  TSNode value = call_positional(save, 0);
  if (ts_node_is_null(value)) return false;
  Text saved = gpu501__value_before(ctx, value, function, ts_node_start_byte(save));
  return text_contains_ci(saved, "state_dict") || text_contains_ci(node_text(ctx->source, value), "state_dict");
}

/* SAVES_* bits for the file's `torch.save` calls, and SAVES_CPU_ONLY when
 * every one saves from the CPU, or this file or one that imports it
 * offloads its state to the CPU (FSDP's `offload_to_cpu`). */
static int gpu501__saves(Gpu501 *self, RuleContext *ctx) {
  int saves = 0;
  bool every_cpu = true;
  static const char *const SAVE[] = {"save", NULL};
  uint32_t name;
  for (uint32_t at = source_next_method_name(ctx->source, 0, SAVE, &name); at != UINT32_MAX;
       at = source_next_method_name(ctx->source, at + 1, SAVE, &name)) {
    TSNode save = call_of_method_name_at(ctx->root, at + 1, 4);
    char buffer[64];
    if (ts_node_is_null(save) ||
        strcmp(facts_qualify(ctx->facts, node_field(save, F_FUNCTION), buffer, sizeof buffer), "torch.save") != 0) {
      continue;
    }
    int32_t function = gpu501__function_at(self, ctx, ts_node_start_byte(save));
    bool cpu = gpu501__save_from_cpu(ctx, save, function);
    saves |= SAVES_ANY;
    every_cpu &= cpu;
    if (!cpu && gpu501__save_of_state(ctx, save, function)) saves |= SAVES_GPU_STATE;
  }
  Text text = {ctx->source->bytes, ctx->source->length};
  if ((saves & SAVES_ANY) && every_cpu) saves |= SAVES_CPU_ONLY;
  if (text_mentions_identifier(text, text_of("offload_to_cpu"))) saves |= SAVES_CPU_ONLY;
  if (links_imported_by_file_mentioning(ctx->links, "offload_to_cpu")) saves |= SAVES_CPU_ONLY;
  return saves;
}

/* Whether the file loaded can hold CUDA tensors, as the code shows it:
 * it restores an optimizer, or a module while this file saves state
 * dicts from the GPU; and the project does not save from the CPU. */
static bool gpu501__holds_cuda(Gpu501 *self, RuleContext *ctx, int restores) {
  if (self->saves < 0) self->saves = gpu501__saves(self, ctx);
  if (self->saves & SAVES_CPU_ONLY) return false;
  if (restores & RESTORES_OPTIMIZER) return true;
  if (!(restores & RESTORES_MODULE) || !(self->saves & SAVES_GPU_STATE)) return false;
  Text text = {ctx->source->bytes, ctx->source->length};
  return text_mentions_identifier(text, text_of("cuda")) || text_mentions_identifier(text, text_of("device")) ||
         gpu501__sets_up(self, text);
}

/* ---- Where the load runs ---------------------------------------------------------------------------- */

/* Whether the file's module-level code (imports, functions and classes
 * aside) sets a per-GPU run up. */
static bool gpu501__module_sets_up_uncached(const Gpu501 *self, const RuleContext *ctx) {
  for (uint32_t i = 0; i < ctx->facts->top_level.size; i++) {
    TSNode statement = ctx->facts->top_level.contents[i];
    Kind kind = node_kind(statement);
    if (kind == K_FUNCTION_DEFINITION || kind == K_CLASS_DEFINITION || kind == K_DECORATED_DEFINITION ||
        kind == K_IMPORT_STATEMENT || kind == K_IMPORT_FROM_STATEMENT) {
      continue;
    }
    if (gpu501__sets_up(self, node_text(ctx->source, statement))) return true;
  }
  return false;
}

static bool gpu501__module_sets_up(Gpu501 *self, const RuleContext *ctx) {
  if (self->module_sets_up < 0) self->module_sets_up = gpu501__module_sets_up_uncached(self, ctx);
  return self->module_sets_up;
}

static bool gpu501__word_char(char c) { return c == '_' || isalnum((unsigned char)c); }

/* How often the file's text holds `name` as a whole word (in code,
 * strings and comments alike); the counts are taken in one pass, at the
 * first question. */
static uint32_t gpu501__occurrences(Gpu501 *self, const RuleContext *ctx, Text name) {
  if (self->words.count == 0) {
    const char *bytes = ctx->source->bytes;
    uint32_t length = ctx->source->length;
    for (uint32_t at = 0; at < length;) {
      if (!gpu501__word_char(bytes[at]) || (at > 0 && gpu501__word_char(bytes[at - 1]))) {
        at++;
        continue;
      }
      uint32_t end = at;
      while (end < length && gpu501__word_char(bytes[end])) end++;
      (*text_map_at(&self->words, (Text){bytes + at, end - at}))++;
      at = end;
    }
  }
  return text_map_get(&self->words, name);
}

/* Whether something in the file runs `function`: its name occurs beyond
 * its definition (a call, `mp.spawn(worker, ...)`, a callback), or for
 * `__init__`, its class's name does. */
static bool gpu501__run_here(Gpu501 *self, const RuleContext *ctx, int32_t function) {
  const Function *f = array_get(&ctx->facts->functions, (uint32_t)function);
  if (text_is(f->name, "__init__") && f->class_index >= 0) {
    const Class *owner = array_get(&ctx->facts->classes, (uint32_t)f->class_index);
    return gpu501__occurrences(self, ctx, owner->name) > 1;
  }
  return f->call_count > 0 || gpu501__occurrences(self, ctx, f->name) > 1;
}

/* The first EV_CALL event of `function`'s callers, or -1; then
 * self->next_call[event] for the next. The index is built at first use. */
static int32_t gpu501__first_call(Gpu501 *self, const RuleContext *ctx, int32_t function) {
  const Facts *facts = ctx->facts;
  if (!self->first_call) {
    self->first_call = gl_malloc((facts->functions.size + 1) * sizeof *self->first_call);
    self->next_call = gl_malloc((facts->events.size + 1) * sizeof *self->next_call);
    for (uint32_t i = 0; i < facts->functions.size; i++) self->first_call[i] = -1;
    for (uint32_t i = facts->events.size; i-- > 0;) { /* backwards: each list in source order */
      const Event *event = array_get(&facts->events, i);
      self->next_call[i] = -1;
      if (event->kind != EV_CALL || event->callee < 0 || (uint32_t)event->callee >= facts->functions.size) continue;
      self->next_call[i] = self->first_call[event->callee];
      self->first_call[event->callee] = (int32_t)i;
    }
  }
  return self->first_call[function];
}

/* Whether a file that sets a per-GPU run up imports this one. */
static bool gpu501__imported_by_entry(Gpu501 *self, RuleContext *ctx) {
  if (self->imported_by_entry < 0) {
    self->imported_by_entry = 0;
    for (const char *const *word = ENTRY_WORDS; *word && !self->imported_by_entry; word++) {
      self->imported_by_entry = links_imported_by_file_mentioning(ctx->links, *word);
    }
  }
  return self->imported_by_entry;
}

/* Whether code of `function` (-1: module level) runs in every process of
 * a per-GPU run: a launcher runs it per process (here, or through a
 * function another file's launcher runs); it sets the run up and something runs it; or a function
 * of the file that does calls it; or other files run it (`__init__`: the
 * file is imported) and a file that sets a run up imports this one. */
static bool gpu501__every_rank_uncached(Gpu501 *self, RuleContext *ctx, int32_t function, uint32_t depth);

/* gpu501__every_rank, each function's answer computed once (a function
 * on the way, and one past the depth, counts as no). */
static bool gpu501__every_rank(Gpu501 *self, RuleContext *ctx, int32_t function, uint32_t depth) {
  if (function < 0) return gpu501__module_sets_up(self, ctx);
  if (self->every_rank[function] >= 0) return self->every_rank[function];
  self->every_rank[function] = 0;
  bool answer = gpu501__every_rank_uncached(self, ctx, function, depth);
  self->every_rank[function] = answer;
  return answer;
}

/* Whether a launcher of the file (`parallel.run(training, cfg)` under
 * `with idist.Parallel(...) as parallel:`, `mp.spawn(worker, ...)`) runs
 * `function` in every process it starts. */
static bool gpu501__launched(Gpu501 *self, const RuleContext *ctx, int32_t function) {
  if (!self->launched) {
    self->launched = gl_calloc(ctx->facts->functions.size + 1, sizeof(bool));
    facts_launched_functions(ctx->facts, self->launched);
  }
  return self->launched[function];
}

static bool gpu501__every_rank_uncached(Gpu501 *self, RuleContext *ctx, int32_t function, uint32_t depth) {
  const Function *f = array_get(&ctx->facts->functions, (uint32_t)function);
  bool constructor = text_is(f->name, "__init__") && f->class_index >= 0;
  bool run_elsewhere = f->callers_elsewhere || constructor;
  if (f->called_per_process_elsewhere || gpu501__launched(self, ctx, function)) return true;
  if (gpu501__sets_up(self, node_text(ctx->source, f->node)) &&
      (gpu501__run_here(self, ctx, function) || f->callers_elsewhere)) {
    return true;
  }
  if (depth < GPU501_MAX_CALLER_DEPTH) {
    for (int32_t i = gpu501__first_call(self, ctx, function); i >= 0; i = self->next_call[i]) {
      const Event *event = array_get(&ctx->facts->events, (uint32_t)i);
      if (event->function == function) continue;
      if (gpu501__every_rank(self, ctx, event->function, depth + 1)) return true;
    }
  }
  return run_elsewhere && gpu501__imported_by_entry(self, ctx);
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

/* Whether the file, or a file of the project that imports it, names
 * per-rank code: the floor below which nothing is reported. */
static bool gpu501__per_rank_text(Gpu501 *self, RuleContext *ctx) {
  if (self->per_rank_text >= 0) return self->per_rank_text;
  self->per_rank_text = gpu501__mentions_any((Text){ctx->source->bytes, ctx->source->length}, PER_RANK_WORDS);
  for (const char *const *word = PER_RANK_WORDS; *word && !self->per_rank_text; word++) {
    self->per_rank_text = links_imported_by_file_mentioning(ctx->links, *word);
  }
  return self->per_rank_text;
}

/* Whether the load cannot put tensors on another rank's GPU, whatever
 * the file holds: one process runs it, it loads the rank's own file,
 * it restores Python numbers only. */
static bool gpu501__harmless(const Gpu501 *self, const RuleContext *ctx, const Load *load, int restores) {
  if (gpu501__one_process_branch(ctx, load) || gpu501__after_other_ranks_leave(ctx, load)) return true;
  if (gpu501__mapped_elsewhere(self, ctx, load) || gpu501__per_rank_file(ctx, load->call, load->function)) {
    return true;
  }
  return restores == RESTORES_NUMBERS;
}

static void gpu501__visit(Gpu501 *self, RuleContext *ctx, TSNode call) {
  Load load = {.call = call, .function = gpu501__function_at(self, ctx, ts_node_start_byte(call))};
  load.ancestor_count = facts_ancestors(call, load.ancestors);
  int restores = gpu501__restores(self, ctx, &load);
  if (gpu501__harmless(self, ctx, &load, restores) || !gpu501__per_rank_text(self, ctx)) return;
  bool harm = gpu501__every_rank(self, ctx, load.function, 0) && gpu501__holds_cuda(self, ctx, restores);
  Basis basis = {.detail = GPU501_DETAIL, .pedantic = !harm};
  GlFinding *finding =
      harm ? rule_report_on(ctx, call, GL_EFFECT_PEAK, basis,
                            "`torch.load()` without `map_location` runs on every rank, each loading onto the "
                            "saving GPU")
           : rule_report_on(ctx, call, GL_EFFECT_PEAK, basis,
                            "`torch.load()` without `map_location` near per-GPU code: each rank may load onto "
                            "the saving GPU");
  gpu501__fix(ctx, finding, call);
}

/* The `torch.load(...)` call whose `.load` starts at byte `at`, or a null node. */
static TSNode gpu501__load_at(const RuleContext *ctx, uint32_t at) {
  TSNode call = call_of_method_name_at(ctx->root, at + 1, 4);
  char buffer[64];
  if (ts_node_is_null(call)) return call;
  if (strcmp(facts_qualify(ctx->facts, node_field(call, F_FUNCTION), buffer, sizeof buffer), "torch.load") != 0) {
    return (TSNode){0};
  }
  return call;
}

/* Visits every `torch.load(` of the file, found in its text: the loads
 * that pass map_location are set apart first (the others are compared
 * with them). */
static void gpu501_check(RuleContext *ctx) {
  Gpu501 self = {.per_rank_text = -1, .imported_by_entry = -1, .saves = -1, .module_sets_up = -1};
  self.every_rank = gl_malloc(ctx->facts->functions.size + 1);
  memset(self.every_rank, -1, ctx->facts->functions.size + 1);
  Array(TSNode) unmapped = array_new();
  static const char *const LOAD[] = {"load", NULL};
  uint32_t name;
  for (uint32_t at = source_next_method_name(ctx->source, 0, LOAD, &name); at != UINT32_MAX;
       at = source_next_method_name(ctx->source, at + 1, LOAD, &name)) {
    TSNode call = gpu501__load_at(ctx, at);
    if (ts_node_is_null(call)) continue;
    if (gpu501__maps(ctx, call)) array_push(&self.mapped, call);
    else array_push(&unmapped, call);
  }
  for (uint32_t i = 0; i < ctx->facts->imports.size; i++) {
    const Binding *import = array_get(&ctx->facts->imports, i);
    if (text_ends_with(import->value, "DistributedDataParallel") ||
        text_ends_with(import->value, "FullyShardedDataParallel")) {
      array_push(&self.aliases, import->name);
    }
  }
  for (uint32_t i = 0; i < unmapped.size; i++) gpu501__visit(&self, ctx, unmapped.contents[i]);
  array_delete(&unmapped);
  array_delete(&self.mapped);
  array_delete(&self.aliases);
  free(self.every_rank);
  free(self.launched);
  free(self.bodies);
  free(self.first_call);
  free(self.next_call);
  text_map_delete(&self.words);
  array_delete(&self.restores_at);
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
