# empty_cache() once per experiment run, above the epoch and batch loops.
import torch


def run_experiments(n_runs, epochs, loader, make_model, crit):
    for run in range(n_runs):
        model = make_model().cuda()
        opt = torch.optim.Adam(model.parameters())
        torch.cuda.empty_cache()
        for epoch in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                crit(model(x), y).backward()
                opt.step()
