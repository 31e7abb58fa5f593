# Linear probing on a frozen backbone: the features are computed afresh on
# every pass (in one branch or the other), then replaced by the head's
# logits. Nothing flows from one iteration into the next.
import torch
import torch.nn as nn


class LinearHead(nn.Module):
    def __init__(self, dim, classes):
        super().__init__()
        self.fc = nn.Linear(dim, classes)

    def forward(self, x):
        return self.fc(x)


def train_probe(backbone, head: LinearHead, loader, optimizer, use_cls_tokens, avgpool):
    criterion = nn.CrossEntropyLoss()
    for images, target in loader:
        images = images.cuda(non_blocking=True)
        with torch.no_grad():
            if use_cls_tokens:
                layers = backbone.get_intermediate_layers(images, 4)
                output = torch.cat([x[:, 0] for x in layers], dim=-1)
                if avgpool:
                    output = torch.cat((output, layers[-1][:, 1:].mean(dim=1)), dim=-1)
            elif avgpool:
                output = backbone(images).mean(dim=1)
            else:
                output = backbone(images)
        output = head(output)
        loss = criterion(output, target.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
