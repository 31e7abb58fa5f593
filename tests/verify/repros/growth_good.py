# verify: rule GPU101
# verify: case validation-loop
# verify: role good
# verify: title stays flat
from harness import Harness

Harness().run(lambda k: (1 << 20, 5.0, {"loss": 1.0}))
