# Greedy decoding through the submodules of a model built by a factory in
# another file, in eval mode and under torch.no_grad().
import torch

from app.model import factory

model = factory.load_model()


@torch.no_grad()
def translate(src_ids, sos, eos, max_len=50):
    model.eval()
    src = torch.tensor(src_ids).unsqueeze(0)
    encoder_outputs, hidden = model.encoder(src)
    token = torch.tensor([sos])
    result = []
    for _ in range(max_len):
        output, hidden = model.decoder(token, hidden, encoder_outputs)
        next_id = output.argmax(1).item()
        if next_id == eos:
            break
        result.append(next_id)
        token = torch.tensor([next_id])
    return result
