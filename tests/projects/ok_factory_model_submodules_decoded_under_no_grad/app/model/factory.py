import torch

from app.model import seq2seq

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_model():
    model = seq2seq.Seq2Seq(seq2seq.Encoder(), seq2seq.Decoder(), device).to(device)
    return model
