import torch


def do_train(cfg, model, loader, optimizer, scheduler, checkpointer, evaluate_every=5000):
    model.train()
    for iteration, (images, targets, captions) in enumerate(loader, 1):
        if cfg.freeze_text_encoder:
            if hasattr(model, "module"):
                model.module.text_encoder.eval()
            else:
                model.text_encoder.eval()
        loss_dict = model(images.cuda(), targets, captions)
        losses = sum(loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        scheduler.step()
        if iteration % evaluate_every == 0:
            checkpointer.save(f"model_{iteration:07d}")
