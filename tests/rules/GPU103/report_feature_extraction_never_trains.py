# Feature extraction in code that never trains, with grad on.
# `model` is a parameter nothing else shows to be a module: reported with --pedantic.
import torch


def hidden_state_distance(test_ids, best_model, nlayer):
    dist = torch.zeros(test_ids.size(1), nlayer)
    for m in range(test_ids.size(1)):
        input_ids = test_ids[:, m].unsqueeze(0)
        for j in range(nlayer):
            h = best_model(input_ids)[3][j][0, -1, :]  # pedantic: GPU103
            dist[m, j] = h.norm().item()
    return dist
