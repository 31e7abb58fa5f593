# verify: rule GPU102
# verify: case training-loop
# verify: role bad
# verify: title raises at step 2
# verify: effect crash
# verify: metric crash
# verify: steps 6
# verify: raises Trying to backward through the graph a second time
from harness import Harness


def step(k):
    if k == 2:
        raise RuntimeError("Trying to backward through the graph a second time (fake)")
    return (1 << 20, 5.0, {})


Harness().run(step)
