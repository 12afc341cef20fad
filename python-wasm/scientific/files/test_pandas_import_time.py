import sys
import time

t0 = time.perf_counter()
t1 = time.perf_counter()
t2 = time.perf_counter()
print(
    "import numpy %.0f ms, pandas %.0f ms (total %.0f ms); %d modules"
    % ((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t2 - t0) * 1e3, len(sys.modules))
)
