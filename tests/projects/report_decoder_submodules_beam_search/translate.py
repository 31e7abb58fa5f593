# Beam search calls the eval-mode decoder's submodules directly, with grad on: every forward records a graph.
import argparse

import torch

from models.seq2seq import Decoder, Encoder

BOS, EOS = 1, 2

parser = argparse.ArgumentParser()
parser.add_argument("checkpoint")
parser.add_argument("input")
parser.add_argument("--beam", type=int, default=5)
parser.add_argument("--max-len", type=int, default=80)
args = parser.parse_args()

ckpt = torch.load(args.checkpoint, map_location="cuda")
src_vocab, tgt_vocab = ckpt["src_vocab"], ckpt["tgt_vocab"]
encoder = Encoder(len(src_vocab), 256, 512).cuda()
decoder = Decoder(len(tgt_vocab), 256, 1024, 512).cuda()
encoder.load_state_dict(ckpt["encoder"])
decoder.load_state_dict(ckpt["decoder"])
encoder.eval()
decoder.eval()

with open(args.input) as f:
    sentences = [line.split() for line in f]

for words in sentences:
    src = torch.tensor([[src_vocab.get(w, 3) for w in words]], device="cuda")
    enc_out, h = encoder(src)  # expect: GPU103
    beams = [(0.0, [BOS], h)]
    done = []
    while True:
        candidates = []
        for score, tokens, state in beams:
            prev = torch.tensor([tokens[-1]], device="cuda")
            emb = decoder.embedding(prev)  # expect: GPU103
            ctx, _ = decoder.attention(enc_out, state)  # expect: GPU103
            state = decoder.rnn(torch.cat([emb, ctx], dim=-1), state)  # expect: GPU103
            log_probs = decoder.fc(state).log_softmax(dim=-1)  # expect: GPU103
            top_lp, top_ix = log_probs[0].topk(args.beam)
            for lp, ix in zip(top_lp.tolist(), top_ix.tolist()):
                candidates.append((score + lp, tokens + [ix], state))
        candidates.sort(key=lambda c: c[0], reverse=True)
        beams = []
        for cand in candidates[: args.beam]:
            (done if cand[1][-1] == EOS else beams).append(cand)
        if not beams or len(beams[0][1]) > args.max_len:
            break
    best = max(done or beams, key=lambda c: c[0] / len(c[1]))
    print(" ".join(tgt_vocab.itos[i] for i in best[1][1:] if i != EOS))
