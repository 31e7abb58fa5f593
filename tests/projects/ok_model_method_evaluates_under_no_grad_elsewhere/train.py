import torch

from model import Seq2seq


def train(batches, dev_batches, valid_every=200):
    model = Seq2seq()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, (src, tgt) in enumerate(batches):
        loss = -model(src, tgt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % valid_every == 0:
            model.eval()
            with torch.no_grad():
                print("dev nll", model.evaluate_ppl(dev_batches))
            model.train()
