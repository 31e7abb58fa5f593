import lightning as L
import torch
import torch.nn.functional as F

from models import Critic, Generator


class WGAN(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.generator = Generator()
        self.critic = Critic()

    def training_step(self, batch, batch_idx):
        opt_g, opt_c = self.optimizers()
        real, _ = batch
        z = torch.randn(real.size(0), 128, device=self.device)
        fake = self.generator(z)

        c_loss = self.critic(fake.detach()).mean() - self.critic(real).mean()
        opt_c.zero_grad()
        self.manual_backward(c_loss)
        opt_c.step()

        g_loss = -self.critic(fake).mean()
        opt_g.zero_grad()
        self.manual_backward(g_loss)
        opt_g.step()
        self.log_dict({"c_loss": c_loss, "g_loss": g_loss})

    def configure_optimizers(self):
        return [torch.optim.RMSprop(self.generator.parameters(), lr=5e-5),
                torch.optim.RMSprop(self.critic.parameters(), lr=5e-5)]
