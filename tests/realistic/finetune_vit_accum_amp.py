"""Fine-tune a pretrained ViT on an image folder with gradient accumulation and
mixed precision; evaluates on a held-out split every --eval-every optimizer steps.
"""
import argparse
import math
import os

import timm
import torch
import torch.nn as nn
from torch.amp import GradScaler, autocast
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def build_loaders(root, batch_size, workers):
    mean, std = (0.5, 0.5, 0.5), (0.5, 0.5, 0.5)
    train_tf = transforms.Compose([
        transforms.RandomResizedCrop(224, scale=(0.08, 1.0)), transforms.RandomHorizontalFlip(),
        transforms.ToTensor(), transforms.Normalize(mean, std)])
    val_tf = transforms.Compose([
        transforms.Resize(248), transforms.CenterCrop(224), transforms.ToTensor(), transforms.Normalize(mean, std)])
    train_set = datasets.ImageFolder(os.path.join(root, "train"), train_tf)
    val_set = datasets.ImageFolder(os.path.join(root, "val"), val_tf)
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True, num_workers=workers,
                              pin_memory=True, drop_last=True)
    val_loader = DataLoader(val_set, batch_size=batch_size * 2, num_workers=workers, pin_memory=True)
    return train_loader, val_loader, len(train_set.classes)


def cosine_lr(step, total, warmup, base_lr):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return base_lr * 0.5 * (1.0 + math.cos(math.pi * progress))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--model", default="vit_base_patch16_224")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--accum-steps", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--warmup-steps", type=int, default=200)
    parser.add_argument("--eval-every", type=int, default=250)
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()

    device = torch.device("cuda")
    train_loader, val_loader, num_classes = build_loaders(args.data, args.batch_size, args.workers)
    model = timm.create_model(args.model, pretrained=True, num_classes=num_classes).to(device)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    scaler = GradScaler("cuda")
    total_steps = args.epochs * len(train_loader) // args.accum_steps

    opt_step = 0
    best_acc = 0.0
    optimizer.zero_grad(set_to_none=True)
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for i, (images, labels) in enumerate(train_loader):
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            with autocast("cuda", dtype=torch.float16):
                logits = model(images)
                loss = criterion(logits, labels) / args.accum_steps
            scaler.scale(loss).backward()
            running += loss.item()

            if (i + 1) % args.accum_steps != 0:
                continue

            for group in optimizer.param_groups:
                group["lr"] = cosine_lr(opt_step, total_steps, args.warmup_steps, args.lr)
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
            opt_step += 1

            if opt_step % 50 == 0:
                print(f"epoch {epoch} step {opt_step}/{total_steps} loss {running:.4f} "
                      f"lr {optimizer.param_groups[0]['lr']:.2e}")
            running = 0.0

            if opt_step % args.eval_every == 0:
                model.eval()
                correct, seen = 0, 0
                for val_images, val_labels in val_loader:
                    val_images = val_images.to(device, non_blocking=True)
                    with autocast("cuda", dtype=torch.float16):
                        val_logits = model(val_images)  # expect: GPU103
                    correct += (val_logits.argmax(-1).cpu() == val_labels).sum().item()
                    seen += val_labels.size(0)
                acc = correct / seen
                print(f"step {opt_step}: val acc {acc:.4f}")
                if acc > best_acc:
                    best_acc = acc
                    torch.save(model.state_dict(), "best.pt")
                model.train()
                torch.cuda.empty_cache()

    print(f"best val acc {best_acc:.4f}")


if __name__ == "__main__":
    main()
