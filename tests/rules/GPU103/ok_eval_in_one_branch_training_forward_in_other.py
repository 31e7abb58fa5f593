# The model is switched to eval mode only in the GAN branch (which scores under no_grad); the other branch's
# forward is a training forward of its own iteration, and every iteration starts with model.train().
import torch


def train(model, discriminator, loader, optimizer, optimizer_d, criterion, gan, epochs):
    for epoch in range(epochs):
        for inputs, labels in loader:
            model.train()
            inputs, labels = inputs.cuda(), labels.cuda()
            if gan:
                fake = model(inputs)
                d_loss = 1 - discriminator(labels).mean() + discriminator(fake.detach()).mean()
                optimizer_d.zero_grad()
                d_loss.backward()
                optimizer_d.step()
                g_loss = criterion(model(inputs), labels) - discriminator(model(inputs)).mean()
                optimizer.zero_grad()
                g_loss.backward()
                optimizer.step()
                model.eval()
                with torch.no_grad():
                    psnr_loss = criterion(model(inputs), labels).item()
                print(psnr_loss)
            else:
                preds = model(inputs)
                loss = criterion(preds, labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
