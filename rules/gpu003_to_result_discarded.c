/* GPU003 to-result-discarded
 *
 *   model = Net().to(device)
 *   for images, labels in train_loader:
 *       images.to(device)                  <- reported: images stays on the host
 *       labels.to(device)                  <- reported
 *       loss = criterion(model(images), labels)
 *
 * `t.to(...)`, `t.cuda()`, `t.cpu()`, `t.half()`, `t.float()`,
 * `t.double()`, `t.bfloat16()`, `t.long()`, `t.int()`, `t.bool()`,
 * `t.type(dtype)` return a new tensor and leave `t` as it was; as a
 * statement of their own, their result is dropped. Modules convert in
 * place (`model.to(device)` is right), so the rule reports only when the
 * code shows the receiver is a tensor (roles_tensor: built by a torch
 * function, an element of a loader's batch, a forward's output, a
 * parameter annotated `torch.Tensor`, `self.x` built from a tensor in
 * __init__ ...). Not reported: modules, whole batches (a dict, an HF
 * BatchEncoding, a graph: their own `.to` may move in place), objects of
 * classes with their own `.to`, names whose type the code does not show,
 * results that are used (`x = x.to(d)`, `return x.to(d)`, `f(x.to(d))`,
 * a lambda's body).
 *
 * Evidence of harm: the function goes on to read the unconverted name
 * before binding it again (a name never read again costs nothing); after
 * a dropped dtype conversion any read shows it, unless the tensor was built
 * with that very dtype; after a dropped device move, an operation on it
 * does (an argument, an operand, a method), while a read that only hands
 * it on (a return, a dict another function takes) is reported with
 * --pedantic: what takes it may move it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roles.h"
#include "rule.h"

/* The finding's detail (`--output-format full`); the page has the rest. */
#define GPU003_DETAIL                                                                                           \
  "A tensor is not converted in place: .to(), .cuda(), .half() and the other conversions return a new "         \
  "tensor and leave the original as it was (an nn.Module's .to() moves its parameters in place; a tensor's "   \
  "does not). As a statement, the new tensor is dropped at once, and the next use of the name still sees the "  \
  "host copy or the old dtype: a forward of a model on the GPU raises \"Expected all tensors to be on the "      \
  "same device\". Measured on an H100 (PyTorch 2.11): a 4x1024 MLP fed host batches after a dropped "         \
  "x.to(device) raised that error at its first step; with x = x.to(device) it ran 20 steps of 1.28 ms."

/* The conversions, and what stays as it was after each. */
typedef enum { MOVE_DEVICE, MOVE_DTYPE, MOVE_EITHER } MoveKind;

/* The conversions by method name; MOVES says, in the same order, what
 * stays as it was after each and whether it needs an argument to convert. */
static const char *const MOVE_NAMES[] = {"to",       "cuda", "cpu", "half", "float", "double",
                                         "bfloat16", "long", "int", "bool", "type",  NULL};

static const struct {
  MoveKind kind;
  bool needs_argument;
} MOVES[] = {
    {MOVE_EITHER, true}, {MOVE_DEVICE, false}, {MOVE_DEVICE, false}, {MOVE_DTYPE, false},
    {MOVE_DTYPE, false}, {MOVE_DTYPE, false},  {MOVE_DTYPE, false},  {MOVE_DTYPE, false},
    {MOVE_DTYPE, false}, {MOVE_DTYPE, false},  {MOVE_DTYPE, true},
};

_Static_assert(sizeof MOVES / sizeof MOVES[0] + 1 == sizeof MOVE_NAMES / sizeof MOVE_NAMES[0],
               "a conversion in MOVE_NAMES without its entry in MOVES");

/* ---- Finding the calls ------------------------------------------------------- */

/* [A-Za-z0-9_.] and the bytes of non-ASCII characters, which may be
 * part of a Python name. */
static bool gpu003__name_byte(char c) {
  return c == '_' || c == '.' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
         (unsigned char)c >= 0x80;
}

/* Whether the text before the dot at `at` can start a statement: a
 * receiver made of names, dots and bracketed groups on the dot's line,
 * preceded by nothing but blanks since the line's start, a `:` (`if c:
 * x.cuda()`) or a `;`. Rules out `y = x.to(d)`, `return x.to(d)`,
 * `f(x.to(d))` without looking at the tree. */
static bool gpu003__may_start_statement(const Source *source, uint32_t at) {
  const char *bytes = source->bytes;
  int depth = 0;
  uint32_t i = at;
  for (; i > 0; i--) {
    char c = bytes[i - 1];
    if (c == '\n') return depth == 0 && i < at;
    if (c == ')' || c == ']') depth++;
    else if (c == '(' || c == '[') {
      if (--depth < 0) return false;
    } else if (depth == 0 && (c == ' ' || c == '\t')) break;
    else if (depth == 0 && !gpu003__name_byte(c)) return false;
  }
  if (i == at) return false;
  while (i > 0 && (bytes[i - 1] == ' ' || bytes[i - 1] == '\t')) i--;
  return i == 0 || bytes[i - 1] == '\n' || bytes[i - 1] == ':' || bytes[i - 1] == ';';
}

/* The notebook cell holding 1-based buffer line `line` (an index into
 * source->cells). */
static uint32_t gpu003__cell_of(const Source *source, uint32_t line) {
  uint32_t cell = 0;
  for (uint32_t i = 0; i < source->cells.size && source->cells.contents[i].first_line <= line; i++) cell = i;
  return cell;
}

/* Whether `statement`, at the top level, is the last statement of its
 * notebook cell: Jupyter shows its value (`out.cpu()` to look at it), so the
 * value is not dropped. */
static bool gpu003__shown_by_notebook(const RuleContext *ctx, TSNode statement) {
  const Source *source = ctx->source;
  if (source->cells.size == 0) return false;
  TSNode next = ts_node_next_named_sibling(statement);
  while (!ts_node_is_null(next) && node_is(next, K_COMMENT)) next = ts_node_next_named_sibling(next);
  if (ts_node_is_null(next)) return true;
  uint32_t here = source_line_of(source, ts_node_start_byte(statement));
  return gpu003__cell_of(source, here) != gpu003__cell_of(source, source_line_of(source, ts_node_start_byte(next)));
}

/* The top-level statement of the file that holds byte `at` (a binary
 * search of facts->top_level), or a null node. */
static TSNode gpu003__top_level_at(const Facts *facts, uint32_t at) {
  uint32_t low = 0, high = facts->top_level.size;
  while (low < high) { /* the first whose end lies past `at` */
    uint32_t middle = low + (high - low) / 2;
    if (ts_node_end_byte(facts->top_level.contents[middle]) <= at) low = middle + 1;
    else high = middle;
  }
  if (low == facts->top_level.size || ts_node_start_byte(facts->top_level.contents[low]) > at) return (TSNode){0};
  return facts->top_level.contents[low];
}

/* The call whose callee's attribute starts at `name` and that stands as
 * an expression statement of its own (its value dropped, not shown as a
 * notebook cell's last value); a null node otherwise. The path down to
 * the attribute's name is found from its top-level statement, keeping
 * the last five nodes: a script of thousands of top-level statements is
 * not searched from its root at each call. */
static TSNode gpu003__dropped_call(const RuleContext *ctx, uint32_t name, uint32_t length) {
  TSNode path[5], node = gpu003__top_level_at(ctx->facts, name);
  uint32_t depth = 0;
  path[depth++ % 5] = ctx->root;
  for (uint32_t steps = 0; !ts_node_is_null(node) && ts_node_start_byte(node) <= name && steps < FACTS_MAX_DEPTH; steps++) {
    path[depth++ % 5] = node;
    if (ts_node_start_byte(node) == name && node_is(node, K_IDENTIFIER)) break;
    node = ts_node_first_named_child_for_byte(node, name);
  }
  if (depth < 5 || !node_is(path[(depth - 1) % 5], K_IDENTIFIER) || ts_node_start_byte(path[(depth - 1) % 5]) != name ||
      ts_node_end_byte(path[(depth - 1) % 5]) != name + length) {
    return (TSNode){0};
  }
  TSNode identifier = path[(depth - 1) % 5], attribute = path[(depth - 2) % 5], call = path[(depth - 3) % 5];
  TSNode statement = path[(depth - 4) % 5], holder = path[(depth - 5) % 5];
  if (!node_is(attribute, K_ATTRIBUTE) || !ts_node_eq(node_field(attribute, F_ATTRIBUTE), identifier) ||
      !node_is(call, K_CALL) || !ts_node_eq(node_field(call, F_FUNCTION), attribute) ||
      !node_is(statement, K_EXPRESSION_STATEMENT) || ts_node_named_child_count(statement) != 1) {
    return (TSNode){0};
  }
  if (node_is(holder, K_MODULE) && gpu003__shown_by_notebook(ctx, statement)) return (TSNode){0};
  return call;
}

/* ---- Reporting ----------------------------------------------------------------- */

/* Whether the conversion changes the dtype rather than the device
 * (`.float()`, `.to(torch.float16)`, `.to(dtype=...)`). */
static bool gpu003__converts_dtype(const RuleContext *ctx, TSNode call, MoveKind kind) {
  if (kind != MOVE_EITHER) return kind == MOVE_DTYPE;
  TSNode first = call_positional(call, 0);
  Text text = ts_node_is_null(first) ? (Text){"", 0} : node_text(ctx->source, first);
  bool torch_word = text.length > 6 && memcmp(text.ptr, "torch.", 6) == 0 && !text_contains_ci(text, "device");
  return (ts_node_is_null(first) && !ts_node_is_null(call_keyword(ctx->source, call, "dtype"))) || torch_word ||
         text_contains_ci(text, "dtype");
}

/* What stays as it was: the device, or the dtype. */
static const char *gpu003__what_stays(const RuleContext *ctx, TSNode call, MoveKind kind) {
  return gpu003__converts_dtype(ctx, call, kind) ? "keeps its dtype" : "stays where it was";
}

/* Fix (unsafe: later code sees the converted tensor, which is its point):
 * `x.to(d)` -> `x = x.to(d)`, for a plain name or attribute. */
static void gpu003__fix(const RuleContext *ctx, GlFinding *finding, TSNode call, TSNode receiver) {
  if (!finding || (!node_is(receiver, K_IDENTIFIER) && !node_is(receiver, K_ATTRIBUTE))) return;
  Text name = node_text(ctx->source, receiver);
  char *content = gl_format("%.*s = ", (int)name.length, name.ptr);
  GlFix *fix = fix_new(finding, GL_FIX_UNSAFE, "Assign the result back to `%.*s`", (int)name.length, name.ptr);
  fix_replace(fix, ctx->source, ts_node_start_byte(call), ts_node_start_byte(call), content);
  free(content);
  fix_finish(finding);
}

static void gpu003__report(RuleContext *ctx, TSNode call, TSNode receiver, MoveKind kind, bool pedantic) {
  Text call_text = node_text(ctx->source, call), name_text = node_text(ctx->source, receiver);
  Shown shown_call, shown_name;
  rule_shown(call_text.ptr, call_text.length, 32, &shown_call);
  rule_shown(name_text.ptr, name_text.length, 20, &shown_name);
  const char *stays = gpu003__what_stays(ctx, call, kind);
  char rebind[RULE_MESSAGE_MAX + 1] = "assign it back";
  bool named = node_is(receiver, K_IDENTIFIER) || node_is(receiver, K_ATTRIBUTE);
  if (named && call_text.length == strlen(shown_call.text) && name_text.length == strlen(shown_name.text)) {
    snprintf(rebind, sizeof rebind, "write `%s = %s`", shown_name.text, shown_call.text);
  }
  size_t fixed = strlen("`` is discarded: ``  ; ");
  if (fixed + strlen(shown_call.text) + 2 * strlen(shown_name.text) + strlen(stays) + strlen(rebind) > 100) {
    snprintf(rebind, sizeof rebind, "assign it back");
  }
  GlFinding *finding = rule_report_on(ctx, call, GL_EFFECT_CRASH, (Basis){.detail = GPU003_DETAIL, .pedantic = pedantic},
                                      "`%s` is discarded: `%s` %s; %s",
                                      shown_call.text, shown_name.text, stays, rebind);
  gpu003__fix(ctx, finding, call, receiver);
}

/* The innermost function whose definition holds `node` (a statement of
 * its body, then), or -1: facts_function_at without a field look-up per
 * function. */
static int32_t gpu003__function_at(const Facts *facts, TSNode node) {
  int32_t found = -1;
  uint32_t at = ts_node_start_byte(node);
  for (uint32_t i = 0; i < facts->functions.size; i++) {
    TSNode definition = facts->functions.contents[i].node;
    if (ts_node_start_byte(definition) < at && at < ts_node_end_byte(definition)) found = (int32_t)i;
  }
  return found;
}

/* Whether a receiver reads a value that later code can use again: a
 * name, an attribute, an index of one, or method calls on one
 * (`x.float()`); not a fresh value (`torch.zeros(1).cuda()`, which warms
 * up CUDA, or `model(x).cpu()`): nothing of it stays to be used. */
static bool gpu003__names_a_value(const RuleContext *ctx, TSNode receiver) {
  bool called = false;
  for (int steps = 0; steps < 64; steps++) {
    receiver = node_unparenthesize(receiver);
    if (node_is(receiver, K_SUBSCRIPT)) {
      receiver = node_field(receiver, F_VALUE);
    } else if (node_is(receiver, K_CALL) && node_is(node_field(receiver, F_FUNCTION), K_ATTRIBUTE)) {
      receiver = call_receiver(receiver);
      called = true;
    } else if (node_is(receiver, K_ATTRIBUTE) && called) {
      receiver = node_field(receiver, F_OBJECT); /* `torch.nn.functional.pad(x).cuda()`: its module */
    } else if (node_is(receiver, K_IDENTIFIER)) {
      return !called || !facts_import(ctx->facts, node_text(ctx->source, receiver)); /* not `torch.zeros(1)` */
    } else {
      return node_is(receiver, K_ATTRIBUTE);
    }
  }
  return false;
}

/* ---- Evidence of harm ----------------------------------------------------------- */

/* The first node after byte `after` within `scope` that reads or binds
 * `name` (an identifier or attribute of that text), or a null node. */
static TSNode gpu003__next_use(const Source *source, TSNode scope, uint32_t after, Text name) {
  if (ts_node_end_byte(scope) <= after) return (TSNode){0};
  if (ts_node_start_byte(scope) >= after && (node_is(scope, K_IDENTIFIER) || node_is(scope, K_ATTRIBUTE)) &&
      text_eq(node_text(source, scope), name)) {
    return scope;
  }
  uint32_t count = ts_node_named_child_count(scope);
  for (uint32_t i = 0; i < count; i++) {
    TSNode found = gpu003__next_use(source, ts_node_named_child(scope, i), after, name);
    if (!ts_node_is_null(found)) return found;
  }
  return (TSNode){0};
}

/* Whether `use` hands the value on to an operation: an argument of a call
 * (`model(x)`, `criterion(out, y)`, `torch.cat([x, z])`), an operand of
 * arithmetic or a comparison, the receiver of a method or attribute
 * (`logits.argmax(1)`, `x.shape`), or indexed. Put in a dict, returned
 * or bound to another name, it may be moved or copied by what takes it
 * (a detector that moves its inputs, a caller that copies into a device
 * buffer). */
static bool gpu003__operand(TSNode use) {
  TSNode parent = ts_node_parent(use);
  if (node_is(parent, K_LIST) || node_is(parent, K_TUPLE)) parent = ts_node_parent(parent);
  if (node_is(parent, K_KEYWORD_ARGUMENT)) parent = ts_node_parent(parent);
  if (node_is(parent, K_ATTRIBUTE) || node_is(parent, K_SUBSCRIPT)) return true;
  return node_is(parent, K_ARGUMENT_LIST) || node_is(parent, K_BINARY_OPERATOR) ||
         node_is(parent, K_COMPARISON_OPERATOR);
}

/* `attn_bias = torch.zeros(..., dtype=query.dtype)` then
 * `attn_bias.to(query.dtype)`: the tensor already has that dtype. */
static bool gpu003__already_converted(const RuleContext *ctx, TSNode call, TSNode receiver) {
  TSNode target = call_positional(call, 0);
  if (ts_node_is_null(target)) target = call_keyword(ctx->source, call, "dtype");
  if (ts_node_is_null(target) || !node_is(receiver, K_IDENTIFIER)) return false;
  char buffer[128];
  TSNode built;
  if (!facts_built_by(ctx->facts, node_text(ctx->source, receiver), buffer, sizeof buffer, &built)[0]) return false;
  TSNode dtype = call_keyword(ctx->source, built, "dtype");
  return !ts_node_is_null(dtype) && text_eq(node_text(ctx->source, dtype), node_text(ctx->source, target));
}

/* The next read of `name` after the dropped conversion in `scope`: the
 * first node of that text, or, when that one is bound again by an
 * assignment, a read on the assignment's right side (`out = gelu(out)`
 * reads first); a null node when the name is not read again before. */
static TSNode gpu003__next_read(const RuleContext *ctx, TSNode scope, uint32_t after, Text name) {
  TSNode use = gpu003__next_use(ctx->source, scope, after, name);
  if (ts_node_is_null(use)) return use;
  TSNode parent = ts_node_parent(use);
  if (!node_is(parent, K_ASSIGNMENT) || !ts_node_eq(node_field(parent, F_LEFT), use)) return use;
  return gpu003__next_use(ctx->source, node_field(parent, F_RIGHT), after, name);
}

/* Whether `receiver` is the element a `for` over a container binds
 * (`for key, value in batch.items(): value.to(device)`): the container,
 * used later as a whole (`model(**batch)`), is what stays unmoved. */
static bool gpu003__loop_element(const RuleContext *ctx, TSNode receiver, TSNode call) {
  if (!node_is(receiver, K_IDENTIFIER)) return false;
  Text name = node_text(ctx->source, receiver);
  for (TSNode node = ts_node_parent(call); !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (node_is(node, K_FOR_STATEMENT)) return text_mentions(node_text(ctx->source, node_field(node, F_LEFT)), name);
  }
  return false;
}

typedef enum { HARM_NONE, HARM_UNSHOWN, HARM_SHOWN } Harm;

/* What the dropped conversion costs: the function goes on to read the
 * unconverted name before binding it again; after a dtype conversion
 * any read shows the harm (unless the tensor was built with that very
 * dtype); after a device move, an operation on it does, and a read that
 * only hands it on (a return, a dict) does not show it. Not read again:
 * no harm, but for a loop's element of a container (an attribute not read
 * again here is read by other methods: not shown). Receivers other than
 * names (an index, a call) are judged by the pattern. */
static Harm gpu003__harm(const RuleContext *ctx, TSNode call, TSNode receiver, MoveKind kind, int32_t function) {
  if (!node_is(receiver, K_IDENTIFIER) && !node_is(receiver, K_ATTRIBUTE)) return HARM_SHOWN;
  bool dtype = gpu003__converts_dtype(ctx, call, kind);
  if (dtype && gpu003__already_converted(ctx, call, receiver)) return HARM_NONE;
  TSNode scope = function >= 0 ? ctx->facts->functions.contents[function].node : ctx->root;
  TSNode read = gpu003__next_read(ctx, scope, ts_node_end_byte(call), node_text(ctx->source, receiver));
  if (ts_node_is_null(read)) {
    if (node_is(receiver, K_ATTRIBUTE)) return HARM_UNSHOWN; /* `self.mean`: read by other methods */
    return gpu003__loop_element(ctx, receiver, call) ? HARM_SHOWN : HARM_NONE;
  }
  return dtype || gpu003__operand(read) ? HARM_SHOWN : HARM_UNSHOWN;
}

/* The call at the dot `at`, when it is a dropped conversion of a tensor. */
static void gpu003__check_at(RuleContext *ctx, TensorUses *uses, uint32_t at, uint32_t move) {
  TSNode call = gpu003__dropped_call(ctx, at + 1, (uint32_t)strlen(MOVE_NAMES[move]));
  if (ts_node_is_null(call)) return;
  if (MOVES[move].needs_argument && call_positional_count(call) == 0 && ts_node_named_child_count(node_field(call, F_ARGUMENTS)) == 0) {
    return; /* `t.type()` returns a string; `t.to()` converts nothing */
  }
  TSNode receiver = node_unparenthesize(call_receiver(call));
  if (ts_node_is_null(receiver) || !gpu003__names_a_value(ctx, receiver)) return;
  int32_t function = gpu003__function_at(ctx->facts, call);
  if (roles_tensor(ctx->facts, receiver, function, uses) != ROLE_EVIDENCE) return;
  if (node_expects_error(ctx->source, call)) return; /* under pytest.raises */
  Harm harm = gpu003__harm(ctx, call, receiver, MOVES[move].kind, function);
  if (harm != HARM_NONE) gpu003__report(ctx, call, receiver, MOVES[move].kind, harm == HARM_UNSHOWN);
}

static void gpu003_check(RuleContext *ctx) {
  const Source *source = ctx->source;
  if (!ctx->facts->uses_torch) return;
  TensorUses uses = {.built = false};
  uint32_t move;
  for (uint32_t at = source_next_method_name(source, 0, MOVE_NAMES, &move); at != UINT32_MAX;
       at = source_next_method_name(source, at + 1, MOVE_NAMES, &move)) {
    if (gpu003__may_start_statement(source, at)) gpu003__check_at(ctx, &uses, at, move);
  }
  roles_tensor_uses_delete(&uses);
}

const Rule GPU003_TO_RESULT_DISCARDED = {
    .info =
        {
            .code = "GPU003",
            .name = "to-result-discarded",
            .summary = "A tensor's .to() / .cuda() / .half() result is dropped: tensors are not converted in "
                       "place, so the tensor stays where it was.",
            .fix_hint = "Assign the result back: x = x.to(device).",
            .effect = GL_EFFECT_CRASH,
            .severity = GL_SEVERITY_ERROR,
            .default_enabled = true,
        },
    .check = gpu003_check,
};
