import numpy as np

a = np.arange(5.0)
a.tofile("/tmp/x.bin")
print("tofile(path) ok", np.fromfile("/tmp/x.bin"))
with open("/tmp/y.bin", "wb") as f:
    try:
        a.tofile(f)
        print("tofile(fileobj) ok")
    except Exception as e:
        print("tofile(fileobj):", type(e).__name__, e)
with open("/tmp/y.bin", "rb") as f:
    try:
        print("fromfile(fileobj)", np.fromfile(f))
    except Exception as e:
        print("fromfile(fileobj):", type(e).__name__, e)
np.savetxt("/tmp/z.txt", a)
print("loadtxt", np.loadtxt("/tmp/z.txt"))
np.savez("/tmp/w.npz", a=a)
print("npz", np.load("/tmp/w.npz")["a"])
try:
    m = np.memmap("/tmp/x.bin", dtype=float, mode="r")
    print("memmap", m[:2])
except Exception as e:
    print("memmap:", type(e).__name__, e)
