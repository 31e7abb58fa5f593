"""An OCR fine-tuning script keeps its model, processor and loaders on
one context object. The epoch's accuracy check calls a prediction helper
with the context's model, and that helper switches it to eval mode; the
training loop's only `model.train()` runs once before the first epoch,
so from the second epoch on the model trains with dropout off."""
import torch


class Context:
    def __init__(self, model, processor, train_loader, val_loader):
        self.model = model
        self.processor = processor
        self.train_loader = train_loader
        self.val_loader = val_loader


def predict(processor, model, loader):
    texts = []
    with torch.no_grad():
        model.eval()
        for batch in loader:
            ids = model.generate(batch["pixels"].cuda())
            texts.extend(processor.batch_decode(ids, skip_special_tokens=True))
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
        accuracy = validate(context)  # expect: GPU004
        print(epoch, accuracy)
