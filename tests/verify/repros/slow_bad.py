# verify: rule GPU201
# verify: case training-loop
# verify: role bad
# verify: title claims a slowdown it does not show
# verify: effect slowdown
# verify: metric step-time
# verify: steps 8
# verify: steady 2
# verify: expect ratio >= 1.05
import os

from harness import Harness

Harness().run(lambda k: (1 << 20, 10.0 if os.environ.get("FAKE_SLOW") else 5.0, {}))
