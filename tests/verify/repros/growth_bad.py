# verify: rule GPU101
# verify: case validation-loop
# verify: role bad
# verify: title grows 48 MB a step
# verify: effect gpu-growth
# verify: metric alloc-slope
# verify: steps 8
# verify: steady 2
# verify: expect bad >= 10
# verify: expect good <= 1
from harness import Harness

Harness().run(lambda k: ((1 + 48 * k) << 20, 5.0, {"loss": 1.0}))
