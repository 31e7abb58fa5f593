# verify: rule GPU102
# verify: case training-loop
# verify: role good
# verify: title runs
from harness import Harness

Harness().run(lambda k: (1 << 20, 5.0, {}))
