import deepspeed
import torch.nn.functional as F

from data import train_set
from model import LargeModel

model = LargeModel()
engine, _, loader, _ = deepspeed.initialize(
    model=model, model_parameters=model.parameters(), training_data=train_set, config="ds_config.json"
)

for epoch in range(3):
    for x, y in loader:
        x, y = x.to(engine.device), y.to(engine.device)
        loss = F.cross_entropy(engine(x), y)
        engine.backward(loss)
        engine.step()
