import torch
import torch.nn as nn
import torch.utils.checkpoint


def create_custom_forward(module):
    def custom_forward(*inputs):
        return module(*inputs)

    return custom_forward


class Decoder(nn.Module):
    def __init__(self, vocab, dim, n_layers):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(nn.TransformerDecoderLayer(dim, 8, batch_first=True) for _ in range(n_layers))
        for p in self.wte.parameters():
            p.requires_grad = False

    def forward(self, input_ids, memory):
        hidden = self.wte(input_ids)
        memory = memory.detach()
        for layer in self.layers:
            hidden = torch.utils.checkpoint.checkpoint(create_custom_forward(layer), hidden, memory)  # expect: GPU005
        return hidden
