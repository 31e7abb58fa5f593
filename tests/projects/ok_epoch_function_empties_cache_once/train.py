from engine import train_one_epoch


def fit(model, optimizer, loader, epochs=10):
    for epoch in range(epochs):
        train_one_epoch(model, optimizer, loader)
