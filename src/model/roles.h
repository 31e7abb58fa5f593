/* roles.h — what a value is, from evidence: is it a module, is a call a
 * forward, is it frozen, is a callee a loss.
 *
 * A value is a module because the code shows it: it was built from an
 * nn.Module class (this file's, another project file's, asked through
 * elsewhere.h, or a library's: torch.nn, torchvision, timm, transformers
 * `from_pretrained`), it flows from one (`.to()`, `.cuda()`, `DDP(...)`,
 * `accelerator.prepare(...)` position by position, `torch.compile`), it is
 * `self` or a submodule attribute inside an nn.Module, it is used as one
 * (`.parameters()`, `.eval()`, handed to an optimizer, `.zero_grad()`), or
 * it is a parameter whose annotation says so or whose every caller in the
 * project passes a module. A name alone (`model`, `encoder`, `netD`) is
 * weaker evidence: ROLE_NAME, which rules report only when asked to
 * (`--pedantic`). */
#ifndef GPULINT_ROLES_H
#define GPULINT_ROLES_H

#include <stdbool.h>
#include <stdint.h>

#include "array.h"
#include "roles_names.h"
#include "syntax.h"

struct Facts;

typedef enum {
  ROLE_NONE,     /* not a module, as far as the code shows */
  ROLE_NAME,     /* only its name says it is one */
  ROLE_EVIDENCE, /* the code shows it is one */
} Role;

/* Whether `name` (an expression's text) in `function` (-1: module level)
 * is a module, and on what evidence. */
Role roles_module(const struct Facts *facts, Text name, int32_t function);

/* Whether `call`, in `function` (-1: module level), runs a module's forward (`model(x)`, `self.encoder(x)`,
 * `model.forward(x)`, `self(x)` in a module's method), and on what
 * evidence; ROLE_NONE for constructors, losses, helpers and library
 * functions. */
Role roles_forward(const struct Facts *facts, TSNode call, int32_t function);

/* Answers of roles_module kept while the facts do not change: a name asked
 * again in the same function is answered from it. Zero-initialise it;
 * roles_memo_delete frees it. */
typedef struct {
  TextMap first; /* name -> 1 + index of its first entry */
  Array(struct RoleMemoEntry { int32_t function; Role role; uint32_t next; }) entries; /* next: 1 + index, 0 ends */
} RoleMemo;

/* roles_forward, with roles_module's answers kept in `memo` (the facts
 * must not change while it is in use). */
Role roles_forward_memo(const struct Facts *facts, TSNode call, int32_t function, RoleMemo *memo);
void roles_memo_delete(RoleMemo *memo);

/* The module a forward call runs: `self.encoder` for
 * `self.encoder.forward(x)`; the callee text otherwise. */
Text roles_forward_module(const struct Facts *facts, TSNode call);

/* Whether the code uses `name` as a module: `.parameters()`,
 * `.named_parameters()`, `.eval()`, `.train()`, `.zero_grad()` on what is
 * no optimizer, `.requires_grad_()`, `.modules()`, handed to an optimizer,
 * or annotated as a module. */
bool roles_used_as_module(const struct Facts *facts, Text name, int32_t function);

/* Whether the value of `expression`, at its place in `function` (-1:
 * module level), is a tensor: built by a torch function (`torch.zeros`,
 * `torch.from_numpy`, `F.softmax`, `torch.FloatTensor(n)`), a tensor
 * method of a tensor (`t.float()`) or a tensor-only method of a batch
 * (`data.float()`), a module's forward shown by evidence or its
 * `.generate()`, a loss of torch's (`criterion(out, y)` with `criterion =
 * nn.CrossEntropyLoss()`), an element of a loader's batch (`for x, y in loader`,
 * `for x, y in dataloaders[phase]`, `x, y = batch`, `batch["image"]`, the
 * `batch` of a Lightning step or one handed to a helper, a value of
 * `batch.items()`), an index of a
 * tensor, arithmetic on one, a same-file helper whose every return is
 * one, a parameter annotated `torch.Tensor` or that every call of its
 * function (all in this file) passes one, or `self.x` that __init__
 * builds from one or registers as a buffer; or, with `uses`, a name that
 * its function uses as a tensor (`x.view(...)`, `x.shape`,
 * `x.unsqueeze(0)`: what no module or batch object has). ROLE_EVIDENCE or
 * ROLE_NONE (never ROLE_NAME: no name makes a tensor); a module shown by
 * evidence is never one, nor a whole batch (a dict, a BatchEncoding, a
 * graph). */
typedef struct TensorUses TensorUses;
Role roles_tensor(const struct Facts *facts, TSNode expression, int32_t function, TensorUses *uses);

/* The uses of names as tensors in one file (`x.view`, `x.shape`), found
 * in one pass over its text at the first question that needs them, then
 * looked up by name: zero-initialise it, keep it while the facts do not
 * change; roles_tensor_uses_delete frees it. */
struct TensorUses {
  bool built;
  TextMap first; /* name -> 1 + index of its last use */
  Array(struct TensorUse { uint32_t at; uint32_t next; }) uses; /* next: 1 + index, 0 ends */
};
void roles_tensor_uses_delete(TensorUses *uses);

/* The module that `name`, in `function` (-1: module level), wraps: the
 * `M` of `name = DDP(M)` (DataParallel, FSDP, `torch.compile(M)`),
 * `name = accelerator.prepare(M)`, `name, opt = accelerator.prepare(M,
 * opt)` by position, and `name, opt, _, _ = deepspeed.initialize(model=M,
 * ...)`: a wrapper runs M's forward and its `.train()` / `.eval()` set
 * M's mode. An empty text when `name` is bound to no such wrapper (or the
 * wrapped value is no plain name). */
Text roles_wrapped(const struct Facts *facts, Text name, int32_t function);

/* Whether `module` (or a module that owns it) is frozen: its forwards
 * build no graph. */
bool roles_frozen(const struct Facts *facts, Text module);

#endif
