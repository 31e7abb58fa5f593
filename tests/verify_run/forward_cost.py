"""forward_cost.py — what intercepting module forwards costs a forward on
the host, the way the probe of `gpulint verify --run` does it now (a
wrapper of nn.Module.__call__) against the way it did before (global
forward pre- and post-hooks), on a model of 70 cheap modules (4 stages
of 2 blocks of 8 modules, and a Linear), so that the per-module cost is
what shows.

    python3 forward_cost.py [ROUNDS]

Each round times each way in its own process, in turn (plain, hooks,
wrapper), as the best of 200 repetitions of 50 forwards; it prints the
microseconds per forward of the model, and at the end the median of
each over the rounds. Needs PyTorch; runs on the CPU."""
import statistics
import subprocess
import sys
import timeit

WAYS = ("plain", "hooks", "wrapper")


def forward_us(way):
    import torch
    torch.set_num_threads(1)

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = torch.nn.Sequential(*[torch.nn.Identity() for _ in range(5)])
            self.shortcut = torch.nn.Identity()

        def forward(self, x):
            return self.body(x) + self.shortcut(x)

    model = torch.nn.Sequential(*[torch.nn.Sequential(Block(), Block()) for _ in range(4)], torch.nn.Linear(4, 4))
    depth = [0]
    if way == "hooks":  # what the probe had: the top-level call counts, the others return at once
        import torch.nn.modules.module as module_mod

        def before(module, inputs):
            depth[0] += 1

        def after(module, inputs, output):
            depth[0] -= 1

        module_mod.register_module_forward_pre_hook(before)
        module_mod.register_module_forward_hook(after)
    elif way == "wrapper":  # what it has now
        original = torch.nn.Module.__call__

        def __call__(self, *args, **kwargs):
            if depth[0]:
                return original(self, *args, **kwargs)
            depth[0] = 1
            try:
                return original(self, *args, **kwargs)
            finally:
                depth[0] = 0

        torch.nn.Module.__call__ = __call__
    x = torch.randn(2, 4)
    model(x)
    return min(timeit.repeat(lambda: model(x), number=50, repeat=200)) / 50 * 1e6


def main(argv):
    if argv[:1] == ["--way"]:
        print(forward_us(argv[1]))
        return
    rounds = int(argv[0]) if argv else 3
    results = {way: [] for way in WAYS}
    for index in range(1, rounds + 1):
        for way in WAYS:
            out = subprocess.run([sys.executable, __file__, "--way", way], capture_output=True, text=True, check=True)
            results[way].append(float(out.stdout))
        print("round %d: %s" % (index, ", ".join("%s %.1f us" % (way, results[way][-1]) for way in WAYS)), flush=True)
    plain = statistics.median(results["plain"])
    for way in WAYS:
        value = statistics.median(results[way])
        print("%-8s %.1f us per forward (median of %d rounds), %+.1f us over plain" % (way, value, rounds, value - plain))


if __name__ == "__main__":
    main(sys.argv[1:])
