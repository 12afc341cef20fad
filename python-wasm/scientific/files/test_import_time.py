"""Guest-side: how long `import numpy` takes (the timed imports must stay where they are)."""

import sys
import time

t0 = time.perf_counter()
import numpy  # noqa: E402, F401

t1 = time.perf_counter()
print(f"import numpy: {(t1 - t0) * 1e3:.1f} ms; modules: {len(sys.modules)}")
