"""Dropped conversions that cost nothing: the name is never read again, it
only goes into a dict that a detector moves itself or into a return, or
the tensor was built with the dtype it is converted to."""
import numpy as np
import torch


def set_embeddings(encoder, dtype, device):
    input_embeddings = encoder.get_input_embeddings().weight
    input_embeddings.to(dtype=dtype, device=device)


def predict(model, image, device):
    image = torch.as_tensor(np.ascontiguousarray(image.transpose(2, 0, 1)))
    image.to(device)
    inputs = {"image": image, "height": image.shape[1]}
    return model([inputs])[0]


def transpose(data):
    data = torch.as_tensor(data).contiguous()
    data = data.reshape(data.shape[-1], data.shape[-2])
    data.to("cuda")
    return data


def bias_for(query, length):
    attn_bias = torch.zeros(length, length, dtype=query.dtype, device=query.device)
    attn_bias.to(query.dtype)
    return query + attn_bias
