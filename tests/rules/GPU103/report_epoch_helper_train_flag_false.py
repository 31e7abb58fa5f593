# A shared epoch function guarded by a `train` flag: the evaluation call passes train=False, so the helper's
# backward is skipped and its forward runs in eval mode with grad on.
import torch


def epoch_pass(net, batches, loss_fn, opt, train=True):
    running = 0.0
    for images, labels in batches:
        images, labels = images.cuda(), labels.cuda()
        scores = net(images)  # expect: GPU103
        loss = loss_fn(scores, labels)
        if train and opt is not None:
            opt.zero_grad()
            loss.backward()
            opt.step()
        running += loss.item()
    return running / len(batches)


def fit(net, train_batches, val_batches, loss_fn, opt, epochs):
    for epoch in range(epochs):
        net.train()
        epoch_pass(net, train_batches, loss_fn, opt)
        net.eval()
        val_loss = epoch_pass(net, val_batches, loss_fn, opt, train=False)
        print(epoch, val_loss)
