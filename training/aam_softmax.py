"""Additive angular margin softmax (ArcFace; Deng et al. 2019), the speaker trainers' loss.

Shared by train-speaker-net.py and train-window-embedding.py (each imports it from beside itself).
The class weights are the one parameter, `w`, so that checkpoints of either trainer resume.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AamSoftmax(nn.Module):
    def __init__(self, dims, classes, margin=0.2, scale=30.0):
        super().__init__()
        self.w = nn.Parameter(torch.randn(classes, dims) * 0.01)
        self.margin, self.scale = margin, scale

    def forward(self, e, y):
        """The loss of embeddings `e` [batch, dims] for classes `y`, and the batch's accuracy."""
        cos = F.linear(F.normalize(e), F.normalize(self.w)).clamp(-1 + 1e-7, 1 - 1e-7)
        target = torch.cos(torch.acos(cos.gather(1, y[:, None])) + self.margin)
        logits = cos.scatter(1, y[:, None], target) * self.scale
        return F.cross_entropy(logits, y), (cos.argmax(1) == y).float().mean()
