"""The epoch's check runs a prediction helper on a separate reference
model kept on the context (a frozen teacher's transcriptions), not on
the model being trained: the trained model never leaves training mode."""
import torch


class Context:
    def __init__(self, model, teacher, train_loader, val_loader):
        self.model = model
        self.teacher = teacher
        self.train_loader = train_loader
        self.val_loader = val_loader


def predict(model, loader):
    outputs = []
    with torch.no_grad():
        model.eval()
        for batch in loader:
            outputs.append(model(batch["pixels"].cuda()).argmax(-1))
    return outputs


def validate(context):
    return len(predict(context.teacher, context.val_loader))


def train(context, optimizer, epochs):
    model = context.model
    model.train()
    for epoch in range(epochs):
        for batch in context.train_loader:
            loss = model(pixel_values=batch["pixels"].cuda(), labels=batch["labels"].cuda()).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        print(epoch, validate(context))
