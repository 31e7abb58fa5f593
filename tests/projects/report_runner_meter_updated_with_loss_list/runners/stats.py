# Running averages of several named values, updated with one list per step.
class MultiAverage:
    def __init__(self, names):
        self.names = names
        self.reset()

    def reset(self):
        self.sums = [0] * len(self.names)
        self.counts = [0] * len(self.names)

    def update(self, values):
        for i, v in enumerate(values):
            self.sums[i] += v
            self.counts[i] += 1

    def averages(self):
        return [s / max(c, 1) for s, c in zip(self.sums, self.counts)]
