import warnings

import numpy as np

try:
    np.linalg.inv(np.zeros((2, 2)))
    print("inv(zeros): no error (BAD)")
except np.linalg.LinAlgError as e:
    print("LinAlgError:", e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    r = np.array([1, 2]) // np.array([0, 1])
    print("int //0:", r, [str(x.message) for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    r = np.array([1.0, 0.0]) / 0
    print("float /0:", r, [str(x.message) for x in w])
with np.errstate(all="raise"):
    try:
        np.array([1]) // 0
        print("int errstate raise: nothing")
    except FloatingPointError as e:
        print("int errstate raise: FloatingPointError", e)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print("nan->int", np.array([np.nan]).astype(np.int64), [str(x.message) for x in w])
print("cholesky of non-PD:", end=" ")
try:
    np.linalg.cholesky(np.array([[1.0, 2], [2, 1]]))
    print("no error")
except np.linalg.LinAlgError as e:
    print("LinAlgError", e)
print("pinv", np.linalg.pinv(np.array([[1.0, 2], [2, 4]])).round(4).tolist())
import os  # noqa: E402

print("has os.dup:", hasattr(os, "dup"))
a = np.arange(5.0)
try:
    a.tofile("/tmp/x.bin")
except Exception as e:
    print("tofile:", type(e).__name__, e)
