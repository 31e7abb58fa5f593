import torch


def train(model, loader, opt_main, opt_aux, criterion, aux_criterion):
    for x, y in loader:
        features, logits = model(x)
        opt_main.zero_grad()
        opt_aux.zero_grad()
        criterion(logits, y).backward(retain_graph=True)
        aux_criterion(features).backward()
        opt_main.step()
        opt_aux.step()
