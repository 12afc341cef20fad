import io
import time

import numpy as np
import pandas as pd

print(pd.__version__, np.__version__)
df = pd.DataFrame({"a": [1, 2, 3, 4], "b": [1.5, 2.5, None, 4.5], "g": list("xyxy")})
print(df)
print("dtypes", dict(df.dtypes.astype(str)))
print("sum", df["a"].sum(), df["b"].mean(), "Series(range(3)).dtype", pd.Series(range(3)).dtype)
print(df.groupby("g").agg({"a": "sum", "b": "mean"}))
print(df.describe().round(3))
print(
    "rolling", df["a"].rolling(2).mean().tolist(), "expanding", df["a"].expanding().sum().tolist()
)
print("ewm", df["a"].ewm(span=2).mean().round(4).tolist())
print("csv", df.to_csv(index=False).replace("\n", "|"))
print("read_csv", pd.read_csv(io.StringIO("x,y\n1,a\n2,b\n")).to_dict("list"))
print("json", df.to_json(orient="records"))
print("read_json", pd.read_json(io.StringIO('[{"p":1},{"p":2}]')).p.tolist())
d = pd.date_range("2024-01-30", periods=3, freq="D", tz="Europe/Paris")
print(
    "dates", list(d.strftime("%Y-%m-%d %Z")), (d[1] - d[0]), pd.Timestamp("2024-03-10").day_name()
)
print("to_datetime", pd.to_datetime(["2024-01-01 00:00", "2024-06-15 12:30"]).tolist())
print(
    "period",
    pd.Period("2024Q1").end_time.date(),
    pd.offsets.MonthEnd().rollforward(pd.Timestamp("2024-02-10")).date(),
)
print("merge", pd.merge(df, pd.DataFrame({"g": ["x", "y"], "v": [10, 20]}), on="g").v.sum())
print("pivot", df.pivot_table(index="g", values="a", aggfunc="sum").to_dict())
print(
    "cat",
    pd.Categorical(["b", "a", "b"]).codes.tolist(),
    "str",
    pd.Series(["Ab", "cD"]).str.lower().tolist(),
)
print(
    "interval",
    pd.interval_range(0, 3).contains(1.5).tolist(),
    "sparse",
    pd.arrays.SparseArray([0, 0, 1]).density,
)
print("isna", df.isna().sum().to_dict(), "fillna", df.b.fillna(0).tolist())
print("sort/rank", df.sort_values("b", ascending=False).a.tolist(), df.a.rank().tolist())
print("hash", pd.util.hash_pandas_object(pd.Series([1, 2])).tolist())
big = pd.DataFrame({"k": np.arange(100000) % 100, "v": np.arange(100000, dtype=np.float64)})
t0 = time.perf_counter()
r = big.groupby("k").v.sum()
t1 = time.perf_counter()
print("groupby 100k: %.1f ms" % ((t1 - t0) * 1e3), r.iloc[:2].tolist())
t0 = time.perf_counter()
rr = big.v.rolling(10).mean()
t1 = time.perf_counter()
print("rolling 100k: %.1f ms" % ((t1 - t0) * 1e3), rr.iloc[9:11].tolist())
try:
    pd.Series([1, 2]).rolling(window=-1).mean()
except ValueError as e:
    print("ValueError:", e)
