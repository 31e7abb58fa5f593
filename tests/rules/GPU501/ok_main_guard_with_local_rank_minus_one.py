import torch


def maybe_load_stats(args):
    if args.local_rank in [-1, 0]:
        stats = torch.load(args.stats_path)
        return stats["mean"], stats["std"]
    return None, None
