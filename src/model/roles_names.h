/* roles_names.h — what a name or a library path says by itself.
 *
 * The vocabulary of torch and the libraries built on it, read from text
 * alone: which library classes are modules, which calls build one, which
 * methods every module has, which names read as a model's or a loss's.
 * It knows no file's facts, so the walk (walk.c), the summaries
 * (summary.c), the links (links.c) and roles.c all read it. A name is
 * never the only evidence for a finding (roles.h). */
#ifndef GPULINT_ROLES_NAMES_H
#define GPULINT_ROLES_NAMES_H

#include <stdbool.h>

#include "syntax.h"

/* Whether only the name reads as a module's (model, netD, self.encoder);
 * for resolving calls, never for findings. */
bool roles_named_module(Text name);

/* build_model(), save_model(), unwrap_model(), train_model(): a name that
 * starts with a verb does something to a model; it is not one. */
bool roles_verb_named(Text name);

/* Whether a callee's text names a loss: criterion, loss_fn, F.cross_entropy. */
bool roles_loss_function(Text callee);

/* Whether a qualified class name is a module class of torch or a framework
 * built on it ("torch.nn.Module", "pytorch_lightning.LightningModule",
 * "transformers.PreTrainedModel"). */
bool roles_library_module_class(Text qualified);

/* What a library call builds, by its qualified callee: 1 a module (torch.nn
 * layers with parameters, torchvision and timm models, `from_pretrained` of
 * a model class, DDP and other wrappers), 0 no module (losses, torch
 * functions, tokenizers, Accelerator()), -1 when the name does not say. */
int roles_library_constructor(Text qualified);

/* `.to()`, `.cuda()`, `.half()`, `.eval()`, ...: methods that return the
 * module they are called on. */
bool roles_returns_receiver(Text method);

/* `object`, `ABC`, `Generic`, `Enum`, ...: bases that say a class is no
 * module. */
bool roles_plain_base(Text qualified);

/* A method every nn.Module has (`parameters`, `eval`, `to`, `state_dict`,
 * `generate`...): `model.parameters()` is no forward. */
bool roles_module_method(Text name);

#endif
