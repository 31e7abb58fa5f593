# A trainer that runs one optimisation step and hands back every loss term, graphs and all.
import torch.nn as nn
import torch.nn.functional as F


class SegTrainer(nn.Module):
    def __init__(self, segmenter, optimizer):
        super().__init__()
        self.segmenter = segmenter
        self.optimizer = optimizer

    def forward(self, images, masks, edges):
        mask_logits, edge_logits = self.segmenter(images)
        mask_loss = F.cross_entropy(mask_logits, masks)
        edge_loss = F.binary_cross_entropy_with_logits(edge_logits, edges)
        return mask_loss, edge_loss, mask_loss + 0.5 * edge_loss

    def train_step(self, images, masks, edges):
        self.optimizer.zero_grad()
        terms = self.forward(images, masks, edges)
        terms[2].backward()
        self.optimizer.step()
        return terms
