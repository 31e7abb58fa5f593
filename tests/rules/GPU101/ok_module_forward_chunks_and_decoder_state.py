"""Inside a module: its forward encodes its input in chunks into a list
that it concatenates at once, and a decoder accumulates attention over the
steps of one forward in state that each forward initialises afresh."""
import torch
import torch.nn as nn


class MotionEncoder(nn.Module):
    def __init__(self, dim, chunk):
        super().__init__()
        self.encoder = nn.Linear(dim, dim)
        self.chunk = chunk

    def forward(self, frames):
        frame_batches = torch.split(frames, self.chunk)
        encoded_batches = []
        for frame_batch in frame_batches:
            encoded_batches.append(self.encoder(frame_batch))
        return torch.cat(encoded_batches)


class AttentionDecoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.cell = nn.LSTMCell(dim, dim)
        self.score = nn.Linear(dim, 1)

    def initialize_states(self, memory):
        self.weights_cum = torch.zeros(memory.size(0), memory.size(1), device=memory.device)

    def decode(self, step_input, memory):
        weights = torch.softmax(self.score(memory).squeeze(-1) + self.weights_cum, dim=1)
        self.weights_cum += weights
        return self.cell(step_input), weights

    def forward(self, inputs, memory):
        self.initialize_states(memory)
        outputs = []
        for step_input in inputs.unbind(1):
            outputs.append(self.decode(step_input, memory))
        return outputs
