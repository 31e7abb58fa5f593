# timm-style training: the loss scaler runs backward and step, so the loop trains.
import torch

from timm.utils import NativeScaler

model = create_model("resnet50").cuda()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
loss_scaler = NativeScaler()
criterion = torch.nn.CrossEntropyLoss()

for epoch in range(10):
    model.train()
    for images, targets in train_loader:
        with torch.autocast("cuda", dtype=torch.bfloat16):
            output = model(images.cuda())
            loss = criterion(output, targets.cuda())
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, parameters=model.parameters())
