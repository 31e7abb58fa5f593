import torch


class TextClassifier:
    def __init__(self, model, device="cuda"):
        self.model = model.to(device)
        self.device = device

    def train(self, loader, eval_batches, epochs, log_every=100):
        model = self.model
        optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
        step = 0
        for epoch in range(epochs):
            model.train()
            for batch in loader:
                loss = model(**batch).loss
                loss.backward()
                optimizer.step()
                model.zero_grad()
                step += 1
                if step % log_every == 0:
                    print(self.eval_model(eval_batches))  # expect: GPU004

    def eval_model(self, batches):
        return self.evaluate(batches)["accuracy"]

    def evaluate(self, batches):
        model = self.model
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in batches:
                logits = model(**batch).logits
                correct += (logits.argmax(-1) == batch["labels"]).sum().item()
                total += len(batch["labels"])
        return {"accuracy": correct / total}
