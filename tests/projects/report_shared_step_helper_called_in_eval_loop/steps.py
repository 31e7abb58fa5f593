# One forward and loss of a segmentation batch, shared by the training
# and the validation loops.
import torch.nn.functional as F


def forward_batch(model, batch, device="cuda"):
    images, masks = batch["image"].to(device), batch["mask"].to(device)
    logits = model(images)
    loss = F.cross_entropy(logits, masks, ignore_index=255)
    return loss, logits
