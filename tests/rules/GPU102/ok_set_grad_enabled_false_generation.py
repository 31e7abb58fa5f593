import torch

from model import MelodyRNN

model = MelodyRNN(n_pitches=128, hidden=512).cuda()
model.load_state_dict(torch.load("melody.pt", map_location="cuda"))
model.eval()

state = model.initial_state(batch_size=4)
note = torch.zeros(4, 1, dtype=torch.long, device="cuda")
melody = []
with torch.set_grad_enabled(False):
    for step in range(256):
        logits, state = model(note, state)
        note = logits[:, -1].argmax(-1, keepdim=True)
        melody.append(note.cpu())
torch.save(torch.cat(melody, dim=1), "melody.pt")
