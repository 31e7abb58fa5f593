import torch.nn.functional as F


def check(net, batches):
    net.eval()
    error = 0.0
    for inputs, targets in batches:
        error += F.mse_loss(net(inputs), targets).item()  # expect: GPU103
    return error


def run_epoch(net, batches, held_out, opt):
    net.train()
    for inputs, targets in batches:
        opt.zero_grad()
        F.mse_loss(net(inputs), targets).backward()
        opt.step()
    return check(net, held_out)


def fit(net, train_batches, held_out, test_batches, opt, rounds):
    for _ in range(rounds):
        print(run_epoch(net, train_batches, held_out, opt))
        print(check(net, test_batches))
