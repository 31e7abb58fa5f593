import torch


def meta_train(model, tasks, meta_optimizer, inner_lr, loss_fn):
    for support, query in tasks:
        params = dict(model.named_parameters())
        loss = loss_fn(torch.func.functional_call(model, params, support[0]), support[1])
        grads = torch.autograd.grad(loss, params.values(), create_graph=True, retain_graph=True)
        adapted = {name: p - inner_lr * g for (name, p), g in zip(params.items(), grads)}
        query_loss = loss_fn(torch.func.functional_call(model, adapted, query[0]), query[1])
        meta_optimizer.zero_grad()
        query_loss.backward()
        meta_optimizer.step()
