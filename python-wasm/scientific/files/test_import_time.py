import sys
import time

t0 = time.perf_counter()
t1 = time.perf_counter()
print("import numpy: %.1f ms; modules: %d" % ((t1 - t0) * 1e3, len(sys.modules)))
