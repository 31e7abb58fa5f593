# A validation forward inside the training loop, never backpropagated, no eval().
import torch
import torch.nn as nn

model = nn.Linear(8, 2)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in train_loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    x_val, y_val = next(val_iter)
    output_val = model(x_val)  # pedantic: GPU103
    val_loss = criterion(output_val, y_val)
    loss.backward()
    optimizer.step()
    print(loss.item(), val_loss.item())
