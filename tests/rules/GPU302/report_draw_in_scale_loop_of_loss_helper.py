"""Self-supervised depth: the loss helper loops over the output scales
and adds host-drawn noise to break ties at each scale. The helper runs
inside the per-batch helper that the training loop calls every batch,
so the scale loop repeats the draw within each step, several times per
step."""
import torch


class DepthTrainer:
    def __init__(self, encoder, decoder, optimizer, scales):
        self.encoder = encoder
        self.decoder = decoder
        self.optimizer = optimizer
        self.scales = scales

    def photometric(self, pred, target):
        return (pred - target).abs().mean(1, True)

    def compute_losses(self, inputs, outputs):
        total = 0
        for scale in self.scales:
            error = self.photometric(outputs[scale], inputs["target"])
            identity = self.photometric(inputs["source"], inputs["target"])
            identity = identity + torch.randn(identity.shape).cuda() * 1e-5  # expect: GPU302
            total = total + torch.min(torch.cat((identity, error), 1), 1)[0].mean()
        return total / len(self.scales)

    def process_batch(self, inputs):
        for key, value in inputs.items():
            inputs[key] = value.cuda()
        outputs = self.decoder(self.encoder(inputs["target"]))
        return self.compute_losses(inputs, outputs)

    def run_epoch(self, loader):
        for inputs in loader:
            loss = self.process_batch(inputs)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
