"""Guest-side: how long `import numpy` and `import pandas` take (timed where they stand)."""

import sys
import time

t0 = time.perf_counter()
import numpy  # noqa: E402, F401

t1 = time.perf_counter()
import pandas  # noqa: E402, F401

t2 = time.perf_counter()
print(
    f"import numpy {(t1 - t0) * 1e3:.0f} ms, pandas {(t2 - t1) * 1e3:.0f} ms "
    f"(total {(t2 - t0) * 1e3:.0f} ms); {len(sys.modules)} modules"
)
