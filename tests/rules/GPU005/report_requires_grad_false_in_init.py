import torch.nn as nn
import torch.utils.checkpoint as cp


class TextEncoder(nn.Module):
    def __init__(self, vocab, dim, layers):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.token_embedding.requires_grad_(False)
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(dim, 8, batch_first=True) for _ in range(layers))
        self.grad_checkpointing = True

    def forward(self, text):
        x = self.token_embedding(text)
        for layer in self.layers:
            if self.grad_checkpointing:
                x = cp.checkpoint(layer, x)  # expect: GPU005
            else:
                x = layer(x)
        return x
