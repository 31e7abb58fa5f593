/* roles_names.c — what names and library paths say, before any fact of a
 * file: the vocabulary roles.c reads, and the walk and the summaries too. */
#include "roles_names.h"

#include <string.h>
#include <strings.h>

/* ---- Names ------------------------------------------------------------------ */

/* Words that name a module anywhere in a name (resnet, netD, my_model). */
static const char *const MODULE_STEMS[] = {"model", "net"};

/* Words that name a module as a whole word of the name (self.encoder,
 * policy, lstm_layer), but not data_generator or noise_generator. */
static const char *const MODULE_WORDS[] = {
    "encoder", "decoder", "backbone", "teacher", "student", "generator", "discriminator", "classifier",
    "policy", "actor", "critic", "rnn", "lstm", "gru", "transformer", "vae", "unet", "cell",
    "autoencoder", "detector", "segmenter", "embedder", "disc", "clf", "head",
};

/* Words that mark a name as data, not a module: data_generator. */
static const char *const DATA_WORDS[] = {"data", "batch", "loader", "sample", "noise", "dataset", "input",
                                         "output", "train", "test", "val", "valid", "dev", "id", "name",
                                         "str", "random", "rand", "seed"};

static bool roles_names__listed_ci(const char *part, size_t length, const char *const *words, size_t count) {
  if (length == 0) return false; /* no word is empty */
  char first = part[0] >= 'A' && part[0] <= 'Z' ? (char)(part[0] | 0x20) : part[0];
  for (size_t i = 0; i < count; i++) { /* the words are lower case */
    if (words[i][0] == first && strlen(words[i]) == length && strncasecmp(part, words[i], length) == 0) return true;
  }
  return false;
}

/* By the last segment's `_`-separated parts, in one pass: a data word
 * vetoes, a module word or stem decides. */
bool roles_named_module(Text name) {
  Text last = text_last_segment(name);
  bool module = text_contains_ci(last, MODULE_STEMS[0]) || text_contains_ci(last, MODULE_STEMS[1]);
  for (uint32_t start = 0; start < last.length;) {
    uint32_t end = start;
    while (end < last.length && last.ptr[end] != '_') end++;
    const char *part = last.ptr + start;
    size_t length = end - start;
    if (roles_names__listed_ci(part, length, DATA_WORDS, sizeof DATA_WORDS / sizeof DATA_WORDS[0])) return false;
    if (!module) module = roles_names__listed_ci(part, length, MODULE_WORDS, sizeof MODULE_WORDS / sizeof MODULE_WORDS[0]);
    start = end + 1;
  }
  return module;
}

bool roles_verb_named(Text name) {
  static const char *const VERBS[] = {
      "make_", "build_", "create_", "get_", "load_", "init_", "new_", "setup_", "save_", "unwrap_",
      "wrap_", "freeze_", "unfreeze_", "print_", "log_", "export_", "copy_", "count_", "reset_",
      "prepare_", "to_", "set_", "eval_", "train_", "test_", "evaluate_", "validate_", "run_", "fit_",
      "update_", "summarize_", "show_", "plot_", "check_", "convert_", "restore_", "push_", "is_",
      "disable_", "enable_", "apply_", "auto_", NULL};
  return text_starts_with_any(name, VERBS);
}

bool roles_loss_function(Text callee) {
  Text last = text_last_segment(callee);
  /* `crit`, `criterion`, but not an actor-critic's `critic` network */
  bool crit = text_contains_ci(last, "criterion") || (text_contains_ci(last, "crit") && !text_contains_ci(last, "critic"));
  return text_contains_ci(last, "loss") || crit || text_contains_ci(last, "objective") ||
         text_contains_ci(last, "likelihood") || text_is(last, "elbo") ||
         text_is(last, "cross_entropy") || text_is(last, "nll_loss") || text_is(last, "kl_div") ||
         text_is(last, "binary_cross_entropy") || text_is(last, "binary_cross_entropy_with_logits");
}

/* ---- Library classes ------------------------------------------------------------ */

static bool roles_names__starts(Text text, const char *prefix) {
  size_t length = strlen(prefix);
  return text.length >= length && memcmp(text.ptr, prefix, length) == 0;
}

/* nn.Sigmoid(), nn.Softmax(dim=1), nn.Dropout(): layers without
 * parameters record no graph of their own. */
static bool roles_names__parameterless_layer(Text constructor) {
  static const char *const LAYERS[] = {
      "Sigmoid", "Tanh", "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "ELU", "Softplus", "Softmax",
      "LogSoftmax", "Dropout", "Dropout2d", "Flatten", "Unflatten", "Identity", "MaxPool1d", "MaxPool2d",
      "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveAvgPool1d", "Upsample", "Hardtanh", "Mish", NULL};
  return text_in(text_last_segment(constructor), LAYERS);
}

/* AutoTokenizer.from_pretrained(...), AutoConfig, AutoProcessor: loaded
 * like models, but not modules. */
static bool roles_names__preprocessor(Text constructor) {
  return text_contains_ci(constructor, "Tokenizer") || text_contains_ci(constructor, "Processor") ||
         text_contains_ci(constructor, "Config") || text_contains_ci(constructor, "FeatureExtractor") ||
         text_contains_ci(constructor, "Scheduler") || text_contains_ci(constructor, "Dataset");
}

bool roles_library_module_class(Text qualified) {
  Text last = text_last_segment(qualified);
  if (roles_names__starts(qualified, "torch.nn.") || roles_names__starts(qualified, "nn.")) {
    return text_capitalized(last) && !text_contains_ci(last, "Loss") && !text_is(last, "Parameter");
  }
  if (text_contains_ci(last, "DataModule")) return false; /* LightningDataModule */
  return text_contains_ci(last, "Module") || text_ends_with(last, "PreTrainedModel") ||
         text_is(last, "ModelMixin") || text_is(last, "LightningModule");
}

int roles_library_constructor(Text qualified) {
  Text last = text_last_segment(qualified);
  static const char *const WRAPPERS[] = {"DataParallel", "DistributedDataParallel", "DDP",  "FullyShardedDataParallel",
                                         "FSDP",         "compile",                 "script", "trace",
                                         "ModuleList",   "Sequential",              "ModuleDict", NULL};
  if (text_in(last, WRAPPERS)) return 1;
  if (text_is(last, "from_pretrained")) return roles_names__preprocessor(qualified) ? 0 : 1;
  /* a load returns what was saved: a pickled module or a state dict; its use tells */
  if (text_is(qualified, "torch.load") || text_is(qualified, "torch.jit.load")) return -1;
  if (roles_names__starts(qualified, "torch.nn.") || roles_names__starts(qualified, "nn.")) {
    if (roles_names__parameterless_layer(qualified) || text_contains_ci(last, "Loss") || !text_capitalized(last)) return 0;
    return 1;
  }
  if (roles_names__starts(qualified, "torchvision.models.") || roles_names__starts(qualified, "timm.create_model") ||
      roles_names__starts(qualified, "models.") /* `from torchvision import models` */) {
    return 1;
  }
  if (roles_names__starts(qualified, "torch.") || roles_names__starts(qualified, "accelerate.") ||
      roles_names__starts(qualified, "transformers.") || roles_names__preprocessor(qualified)) {
    return 0; /* torch.optim.Adam, Accelerator(), tokenizers */
  }
  return -1;
}


/* ---- Methods and bases ---------------------------------------------------------- */

bool roles_returns_receiver(Text method) {
  static const char *const PASSING[] = {"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "train",
                                        "eval", "requires_grad_", "share_memory", NULL};
  return method.length && text_in(method, PASSING);
}

bool roles_plain_base(Text qualified) {
  static const char *const PLAIN[] = {"object", "ABC", "Generic", "Protocol", "Enum", "NamedTuple", "dict", "list",
                                      "tuple", "Exception", "TypedDict", "ABCMeta", NULL};
  return text_in(text_last_segment(qualified), PLAIN);
}

bool roles_module_method(Text name) {
  static const char *const METHODS[] = {
      "parameters", "named_parameters", "modules", "named_modules", "children", "named_children", "buffers",
      "state_dict", "load_state_dict", "train", "eval", "zero_grad", "to", "cuda", "cpu", "half", "float",
      "double", "bfloat16", "apply", "add_module", "register_buffer", "register_parameter", "register_forward_hook",
      "register_forward_pre_hook", "register_full_backward_hook", "requires_grad_", "share_memory", "type",
      "extra_repr", "get_submodule", "get_parameter", "generate", "save_pretrained", "resize_token_embeddings",
      "gradient_checkpointing_enable", "get_input_embeddings", "get_output_embeddings", "tie_weights",
      "print_trainable_parameters", "num_parameters", "compile", "fuse", "module", NULL};
  return text_in(name, METHODS);
}
