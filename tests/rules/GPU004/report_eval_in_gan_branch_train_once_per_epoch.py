# The GAN branch scores the generator in eval mode at the end of each step; model.train() runs once per epoch,
# so from the second step on the generator trains with dropout and batch norm in eval mode. The other branch's
# forward runs on other passes only (the branch is fixed for the whole run).
import torch


def train(model, discriminator, loader, optimizer, optimizer_d, criterion, model_name, epochs):
    for epoch in range(epochs):
        model.train()
        for inputs, labels in loader:
            inputs, labels = inputs.cuda(), labels.cuda()
            if model_name == "SRGAN":
                fake = model(inputs)
                d_loss = 1 - discriminator(labels).mean() + discriminator(fake.detach()).mean()
                optimizer_d.zero_grad()
                d_loss.backward()
                optimizer_d.step()
                g_loss = criterion(model(inputs), labels) - discriminator(model(inputs)).mean()
                optimizer.zero_grad()
                g_loss.backward()
                optimizer.step()
                model.eval()  # expect: GPU004
                with torch.no_grad():
                    print(criterion(model(inputs), labels).item())
            else:
                preds = model(inputs)
                loss = criterion(preds, labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
