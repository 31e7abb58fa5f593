# Replacing a model's linear layers walks its children: the layers built are modules, not graph-carrying outputs.
import torch.nn as nn


def replace_linear(model: nn.Module, linear_replacement: nn.Module, skip=("lm_head",)):
    for name, module in model.named_children():
        if len(list(module.children())) > 0:
            replace_linear(module, linear_replacement, skip)
        if isinstance(module, nn.Linear) and name not in skip:
            model._modules[name] = linear_replacement(module.in_features, module.out_features, module.bias is not None)
    return model
