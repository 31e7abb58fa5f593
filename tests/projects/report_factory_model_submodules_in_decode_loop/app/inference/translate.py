# Greedy decoding through the submodules of a model built by a factory in
# another file; the model is in eval mode but grad stays on.
import torch

from app.model import factory

model = factory.load_model()


def translate(src_ids, sos, eos, max_len=50):
    model.eval()
    src = torch.tensor(src_ids).unsqueeze(0)
    encoder_outputs, hidden = model.encoder(src)  # expect: GPU103
    token = torch.tensor([sos])
    result = []
    for _ in range(max_len):
        output, hidden = model.decoder(token, hidden, encoder_outputs)  # expect: GPU103  # pedantic: GPU102
        next_id = output.argmax(1).item()
        if next_id == eos:
            break
        result.append(next_id)
        token = torch.tensor([next_id])
    return result
