# Stats of the steps, merged key by key with `fn` (torch.stack, say).
import torch


def merge_stats(stats_list, fn):
    return {key: fn([s[key] for s in stats_list]) for key in stats_list[0]}
