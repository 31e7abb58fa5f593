import torch
from torch import nn

layers = [nn.Linear(128, 128), nn.GELU()] * 4
encoder = nn.Sequential(*layers, nn.LayerNorm(128))
encoder.to("cuda")
head = nn.ModuleList([nn.Linear(128, 10) for _ in range(3)])
head.cuda()
heads_fp16 = nn.ModuleDict({"a": nn.Linear(10, 2)})
heads_fp16.half()
