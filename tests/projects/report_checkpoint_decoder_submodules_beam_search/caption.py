# Captions one image with beam search. The encoder and decoder objects were
# pickled whole into the checkpoint; both are put in eval mode, and the
# decoder's submodules are then called one step at a time with grad on (the
# encoder's output and the initial state from init_hidden_state, and their
# graphs, live through the whole decode loop).
import argparse
import json

import torch
from PIL import Image
from torchvision import transforms

device = torch.device("cuda")
to_tensor = transforms.Compose([transforms.Resize((256, 256)), transforms.ToTensor()])


def beam_search(encoder, decoder, image_path, vocab, beam=3, max_len=50):
    image = to_tensor(Image.open(image_path).convert("RGB")).unsqueeze(0).to(device)
    feats = encoder(image)  # expect: GPU103
    feats = feats.view(1, -1, feats.size(-1)).expand(beam, -1, -1)
    prev = torch.full((beam, 1), vocab["<start>"], dtype=torch.long, device=device)
    seqs, scores = prev, torch.zeros(beam, 1, device=device)
    h, c = decoder.init_hidden_state(feats)  # expect: GPU103
    finished = []
    for step in range(max_len):
        emb = decoder.embedding(prev).squeeze(1)  # expect: GPU103
        ctx, _ = decoder.attention(feats, h)  # expect: GPU103
        h, c = decoder.decode_step(torch.cat([emb, ctx], dim=1), (h, c))  # expect: GPU103
        logp = decoder.fc(h).log_softmax(dim=1)  # expect: GPU103
        total = (scores + logp).view(-1)
        best, idx = total.topk(seqs.size(0))
        rows, words = idx // logp.size(1), idx % logp.size(1)
        seqs = torch.cat([seqs[rows], words.unsqueeze(1)], dim=1)
        keep = [i for i, w in enumerate(words.tolist()) if w != vocab["<end>"]]
        finished += [seqs[i].tolist() for i in range(len(words)) if i not in keep]
        if not keep:
            break
        seqs, scores = seqs[keep], best[keep].unsqueeze(1)
        h, c, feats = h[rows[keep]], c[rows[keep]], feats[rows[keep]]
        prev = words[keep].unsqueeze(1)
    return finished or seqs.tolist()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model")
    parser.add_argument("--vocab")
    parser.add_argument("--img")
    args = parser.parse_args()
    checkpoint = torch.load(args.model, map_location=device)
    decoder = checkpoint["decoder"]
    decoder = decoder.to(device)
    decoder.eval()
    encoder = checkpoint["encoder"]
    encoder = encoder.to(device)
    encoder.eval()
    with open(args.vocab) as f:
        vocab = json.load(f)
    print(beam_search(encoder, decoder, args.img, vocab))
