# verify: rule GPU201
# verify: case training-loop
# verify: role good
# verify: title the same speed
from harness import Harness

Harness().run(lambda k: (1 << 20, 5.0, {}))
