import torch
import torch.nn as nn

from nets import build_backbone, ArcMargin
from evaluation import verification_accuracy

CFG = {"epochs": 20, "val_every": 1000, "lr": 0.1}

if __name__ == "__main__":
    BACKBONE = build_backbone("ir_50")
    HEAD = ArcMargin(512, 10575)
    OPTIMIZER = torch.optim.SGD(list(BACKBONE.parameters()) + list(HEAD.parameters()), lr=CFG["lr"])
    LOSS = nn.CrossEntropyLoss()
    BACKBONE, HEAD = BACKBONE.cuda(), HEAD.cuda()
    batch = 0
    for epoch in range(CFG["epochs"]):
        BACKBONE.train()
        HEAD.train()
        for images, labels in train_loader:
            features = BACKBONE(images.cuda())
            loss = LOSS(HEAD(features, labels.cuda()), labels.cuda())
            OPTIMIZER.zero_grad()
            loss.backward()
            OPTIMIZER.step()
            if batch % CFG["val_every"] == 0 and batch > 0:
                BACKBONE.eval()  # expect: GPU004
                with torch.no_grad():
                    print(verification_accuracy(BACKBONE, lfw_pairs))
            batch += 1
