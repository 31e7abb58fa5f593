# MXNet Gluon training: autograd.record / loss.backward / trainer.step are not PyTorch, and an NDArray loss keeps no torch graph.
import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

ctx = mx.gpu(0)
net = nn.HybridSequential()
net.add(nn.Dense(256, activation="relu"), nn.Dropout(0.2), nn.Dense(10))
net.initialize(mx.init.Xavier(), ctx=ctx)
net.hybridize()

transform = gluon.data.vision.transforms.ToTensor()
train_data = gluon.data.DataLoader(gluon.data.vision.MNIST(train=True).transform_first(transform), batch_size=128, shuffle=True)
val_data = gluon.data.DataLoader(gluon.data.vision.MNIST(train=False).transform_first(transform), batch_size=256)
loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 1e-3})
metric = mx.metric.Accuracy()

for epoch in range(10):
    losses = []
    for x, y in train_data:
        x, y = x.as_in_context(ctx), y.as_in_context(ctx)
        with autograd.record():
            out = net(x)
            loss = loss_fn(out, y)
        loss.backward()
        trainer.step(x.shape[0])
        losses.append(loss)
    metric.reset()
    for x, y in val_data:
        out = net(x.as_in_context(ctx))
        metric.update(y.as_in_context(ctx), out)
    mean_loss = sum(l.mean().asscalar() for l in losses) / len(losses)
    print(f"epoch {epoch} loss {mean_loss:.4f} {metric.get()}")
