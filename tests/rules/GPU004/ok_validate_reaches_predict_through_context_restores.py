"""The epoch's accuracy check reaches the context's model through a
prediction helper that switches it to eval mode and, in this version,
back to training mode before it returns: every epoch trains in
training mode."""
import torch


class Context:
    def __init__(self, model, processor, train_loader, val_loader):
        self.model = model
        self.processor = processor
        self.train_loader = train_loader
        self.val_loader = val_loader


def predict(processor, model, loader):
    texts = []
    model.eval()
    with torch.no_grad():
        for batch in loader:
            ids = model.generate(batch["pixels"].cuda())
            texts.extend(processor.batch_decode(ids, skip_special_tokens=True))
    model.train()
    return texts


def validate(context):
    texts = predict(context.processor, context.model, context.val_loader)
    labels = [label for batch in context.val_loader for label in batch["text"]]
    return sum(a == b for a, b in zip(texts, labels)) / max(1, len(labels))


def train(context, optimizer, epochs):
    model = context.model
    model.cuda()
    model.train()
    for epoch in range(epochs):
        for batch in context.train_loader:
            loss = model(pixel_values=batch["pixels"].cuda(), labels=batch["labels"].cuda()).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        accuracy = validate(context)
        print(epoch, accuracy)
