"""matplotlib and seaborn charts for the chart-fidelity suite: the same code natively and in the
guest, the saved files compared (test_charts.py).

Each case is the kind of code a model writes to draw a chart in a tool call: its own imports,
pyplot with its defaults (no `matplotlib.use`: the guest's default backend and native headless
Agg render the same through `savefig`), a `plt.figure`/`plt.subplots` of a modest size at the
default 100 dpi, titles, axis and tick labels, legends and annotations, and one `savefig` of a
file named `output` in its current directory. Data is deterministic (`np.random.default_rng`
with a seed, or literal values); seaborn's sample data sets need the network, so the seaborn cases
build their DataFrames themselves. `KINDS` maps each chart kind the suite must cover to its case.
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple


class ChartCase(NamedTuple):
    name: str
    code: str
    output: str  # the file the case saves (.png, or .pdf/.svg: compared by page size)


CASES: list[ChartCase] = []


def _case(name: str, output: str, code: str) -> None:
    CASES.append(ChartCase(name, textwrap.dedent(code).strip() + "\n", output))


_case(
    "line_monthly_sales",
    "sales_trend.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    rng = np.random.default_rng(42)
    online = 120 + np.cumsum(rng.normal(5, 8, 12))
    retail = 150 + np.cumsum(rng.normal(2, 6, 12))

    plt.figure(figsize=(7, 4))
    plt.plot(months, online, marker="o", label="Online")
    plt.plot(months, retail, marker="s", linestyle="--", label="Retail")
    plt.title("Monthly Sales 2024")
    plt.xlabel("Month")
    plt.ylabel("Sales (k$)")
    plt.legend()
    plt.grid(True, alpha=0.3)
    plt.tight_layout()
    plt.savefig("sales_trend.png")
    print("saved sales_trend.png")
    """,
)
_case(
    "bar_with_labels",
    "revenue_by_region.png",
    """
    import matplotlib.pyplot as plt

    regions = ["North America", "Europe", "Asia Pacific", "Latin America", "Middle East"]
    revenue = [4.2, 3.1, 5.6, 1.4, 0.9]

    fig, ax = plt.subplots(figsize=(7, 4))
    bars = ax.bar(regions, revenue, color=["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3"])
    ax.bar_label(bars, labels=[f"${v:.1f}M" for v in revenue], padding=3)
    ax.set_title("Revenue by Region (FY2024)")
    ax.set_ylabel("Revenue (USD millions)")
    ax.set_ylim(0, 6.5)
    plt.xticks(rotation=20, ha="right")
    plt.tight_layout()
    plt.savefig("revenue_by_region.png")
    """,
)
_case(
    "scatter_colormap",
    "scatter.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rng = np.random.default_rng(7)
    x = rng.normal(0, 1, 300)
    y = 0.6 * x + rng.normal(0, 0.6, 300)
    z = np.hypot(x, y)

    plt.figure(figsize=(6, 4.5))
    sc = plt.scatter(x, y, c=z, cmap="viridis", s=25, alpha=0.8, edgecolors="none")
    plt.colorbar(sc, label="Distance from origin")
    plt.title("Correlated Measurements")
    plt.xlabel("Feature A")
    plt.ylabel("Feature B")
    plt.tight_layout()
    plt.savefig("scatter.png")
    """,
)
_case(
    "histogram",
    "histogram.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rng = np.random.default_rng(0)
    scores = rng.normal(70, 12, 1000)

    plt.figure(figsize=(6, 4))
    plt.hist(scores, bins=30, color="steelblue", edgecolor="black", alpha=0.7)
    plt.axvline(scores.mean(), color="red", linestyle="dashed", linewidth=1.5, label=f"Mean: {scores.mean():.1f}")
    plt.title("Distribution of Exam Scores")
    plt.xlabel("Score")
    plt.ylabel("Frequency")
    plt.legend()
    plt.tight_layout()
    plt.savefig("histogram.png")
    """,
)
_case(
    "pie_market_share",
    "market_share.png",
    """
    import matplotlib.pyplot as plt

    labels = ["Product A", "Product B", "Product C", "Product D"]
    sizes = [35, 30, 20, 15]
    explode = (0.05, 0, 0, 0)

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.pie(sizes, explode=explode, labels=labels, autopct="%1.1f%%", startangle=90, shadow=False)
    ax.axis("equal")
    ax.set_title("Market Share")
    plt.savefig("market_share.png")
    """,
)
_case(
    "subplots_grid",
    "dashboard.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rng = np.random.default_rng(3)
    x = np.linspace(0, 10, 100)

    fig, axes = plt.subplots(2, 2, figsize=(8, 6))
    axes[0, 0].plot(x, np.sin(x), color="tab:blue")
    axes[0, 0].set_title("Sine Wave")
    axes[0, 1].bar(["A", "B", "C", "D"], [3, 7, 2, 5], color="tab:orange")
    axes[0, 1].set_title("Category Counts")
    axes[1, 0].scatter(rng.random(50), rng.random(50), color="tab:green")
    axes[1, 0].set_title("Random Scatter")
    axes[1, 1].hist(rng.normal(size=500), bins=20, color="tab:purple")
    axes[1, 1].set_title("Normal Distribution")
    for ax in axes.flat:
        ax.set_xlabel("x")
        ax.set_ylabel("y")
    fig.suptitle("Analysis Dashboard", fontsize=16)
    plt.tight_layout()
    plt.savefig("dashboard.png")
    """,
)
_case(
    "twin_axes",
    "climate.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    months = np.arange(1, 13)
    temperature = [3, 4, 8, 12, 16, 20, 23, 22, 18, 13, 8, 4]
    rainfall = [78, 60, 55, 48, 52, 45, 40, 50, 58, 75, 85, 90]

    fig, ax1 = plt.subplots(figsize=(7, 4))
    ax1.plot(months, temperature, color="tab:red", marker="o", label="Temperature")
    ax1.set_xlabel("Month")
    ax1.set_ylabel("Temperature (C)", color="tab:red")
    ax1.tick_params(axis="y", labelcolor="tab:red")

    ax2 = ax1.twinx()
    ax2.bar(months, rainfall, alpha=0.3, color="tab:blue", label="Rainfall")
    ax2.set_ylabel("Rainfall (mm)", color="tab:blue")
    ax2.tick_params(axis="y", labelcolor="tab:blue")

    ax1.set_xticks(months)
    plt.title("Average Temperature and Rainfall")
    fig.tight_layout()
    plt.savefig("climate.png")
    """,
)
_case(
    "annotations",
    "stock_annotated.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rng = np.random.default_rng(11)
    days = np.arange(60)
    price = 100 + np.cumsum(rng.normal(0.2, 1.5, 60))
    peak = int(np.argmax(price))
    low = int(np.argmin(price))

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(days, price, color="black", linewidth=1.2)
    ax.annotate(f"Peak: {price[peak]:.2f}", xy=(peak, price[peak]), xytext=(peak - 15, price[peak] + 3),
                arrowprops=dict(facecolor="green", shrink=0.05, width=1.5, headwidth=7))
    ax.annotate(f"Low: {price[low]:.2f}", xy=(low, price[low]), xytext=(low + 5, price[low] - 4),
                arrowprops=dict(arrowstyle="->", color="red"))
    ax.text(0.02, 0.95, "Simulated data", transform=ax.transAxes, fontsize=9, va="top",
            bbox=dict(boxstyle="round", facecolor="wheat", alpha=0.5))
    ax.axhline(100, color="gray", linestyle=":", linewidth=1)
    ax.set_title("Stock Price with Key Points")
    ax.set_xlabel("Trading day")
    ax.set_ylabel("Price ($)")
    plt.tight_layout()
    plt.savefig("stock_annotated.png")
    """,
)
_case(
    "log_scale",
    "growth_log.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    n = np.logspace(1, 5, 50)
    plt.figure(figsize=(6, 4))
    plt.loglog(n, n, label="O(n)")
    plt.loglog(n, n * np.log2(n), label="O(n log n)")
    plt.loglog(n, n**2, label="O(n²)")
    plt.title("Algorithm Complexity")
    plt.xlabel("Input size n")
    plt.ylabel("Operations")
    plt.legend()
    plt.grid(True, which="both", linestyle="--", alpha=0.4)
    plt.tight_layout()
    plt.savefig("growth_log.png")
    """,
)
_case(
    "dates_axis",
    "daily_visitors.png",
    """
    import matplotlib.dates as mdates
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    dates = pd.date_range("2024-01-01", periods=120, freq="D")
    rng = np.random.default_rng(5)
    visitors = 500 + 80 * np.sin(np.arange(120) / 7) + rng.normal(0, 25, 120)
    df = pd.DataFrame({"date": dates, "visitors": visitors})
    df["rolling"] = df["visitors"].rolling(7).mean()

    fig, ax = plt.subplots(figsize=(8, 4))
    ax.plot(df["date"], df["visitors"], alpha=0.5, label="Daily")
    ax.plot(df["date"], df["rolling"], color="darkred", label="7-day average")
    ax.xaxis.set_major_locator(mdates.MonthLocator())
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
    fig.autofmt_xdate()
    ax.set_title("Website Visitors")
    ax.set_ylabel("Visitors")
    ax.legend()
    plt.tight_layout()
    plt.savefig("daily_visitors.png")
    """,
)
_case(
    "contour",
    "contour.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    x = np.linspace(-3, 3, 200)
    y = np.linspace(-2, 2, 150)
    X, Y = np.meshgrid(x, y)
    Z = np.exp(-X**2 - Y**2) - 0.5 * np.exp(-(X - 1.5) ** 2 - (Y + 0.5) ** 2)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    filled = ax.contourf(X, Y, Z, levels=15, cmap="RdBu_r")
    lines = ax.contour(X, Y, Z, levels=8, colors="black", linewidths=0.6)
    ax.clabel(lines, inline=True, fontsize=8)
    fig.colorbar(filled, ax=ax, label="Potential")
    ax.set_title("Contour Plot of f(x, y)")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    plt.savefig("contour.png")
    """,
)
_case(
    "imshow_colorbar",
    "heatmap_imshow.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rng = np.random.default_rng(21)
    data = rng.random((10, 12)).cumsum(axis=1)

    fig, ax = plt.subplots(figsize=(7, 5))
    im = ax.imshow(data, cmap="plasma", aspect="auto")
    cbar = fig.colorbar(im, ax=ax)
    cbar.set_label("Cumulative value")
    ax.set_xticks(range(12))
    ax.set_xticklabels([f"W{i + 1}" for i in range(12)])
    ax.set_yticks(range(10))
    ax.set_yticklabels([f"Sensor {i}" for i in range(10)])
    ax.set_title("Sensor Readings by Week")
    plt.tight_layout()
    plt.savefig("heatmap_imshow.png")
    """,
)
_case(
    "seaborn_heatmap_annot",
    "correlation.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
    import seaborn as sns

    rng = np.random.default_rng(8)
    n = 200
    df = pd.DataFrame({"price": rng.normal(100, 20, n), "ads": rng.normal(50, 10, n)})
    df["sales"] = 2 * df["ads"] - 0.5 * df["price"] + rng.normal(0, 10, n)
    df["returns"] = 0.1 * df["sales"] + rng.normal(0, 5, n)
    df["rating"] = rng.normal(4, 0.5, n)
    corr = df.corr()

    plt.figure(figsize=(7, 5.5))
    sns.heatmap(corr, annot=True, fmt=".2f", cmap="coolwarm", vmin=-1, vmax=1, square=True, linewidths=0.5)
    plt.title("Correlation Matrix")
    plt.tight_layout()
    plt.savefig("correlation.png")
    """,
)
_case(
    "boxplot",
    "boxplot.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    rng = np.random.default_rng(13)
    groups = [rng.normal(loc, scale, 80) for loc, scale in [(50, 5), (55, 8), (47, 12), (60, 4)]]

    fig, ax = plt.subplots(figsize=(7, 4.5))
    bp = ax.boxplot(groups, tick_labels=["Control", "Drug A", "Drug B", "Drug C"], patch_artist=True, notch=False)
    for patch, color in zip(bp["boxes"], ["lightblue", "lightgreen", "salmon", "khaki"]):
        patch.set_facecolor(color)
    ax.set_title("Response by Treatment Group")
    ax.set_ylabel("Response")
    ax.yaxis.grid(True, linestyle="--", alpha=0.5)
    plt.tight_layout()
    plt.savefig("boxplot.png")
    """,
)
_case(
    "seaborn_pairplot",
    "pairplot.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
    import seaborn as sns

    rng = np.random.default_rng(1)
    frames = []
    for species, (sl, pl, pw) in {"setosa": (5.0, 1.5, 0.25), "versicolor": (5.9, 4.3, 1.3), "virginica": (6.6, 5.6, 2.0)}.items():
        frames.append(pd.DataFrame({
            "sepal_length": rng.normal(sl, 0.35, 50),
            "petal_length": rng.normal(pl, 0.45, 50),
            "petal_width": rng.normal(pw, 0.2, 50),
            "species": species,
        }))
    iris = pd.concat(frames, ignore_index=True)

    g = sns.pairplot(iris, hue="species", height=2.2)
    g.figure.suptitle("Iris Measurements", y=1.02)
    plt.savefig("pairplot.png", bbox_inches="tight")
    """,
)
_case(
    "seaborn_histplot_kde",
    "income_distribution.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd
    import seaborn as sns

    rng = np.random.default_rng(17)
    income = np.concatenate([rng.lognormal(10.5, 0.4, 700), rng.lognormal(11.3, 0.3, 300)])
    df = pd.DataFrame({"income": income / 1000})

    plt.figure(figsize=(7, 4))
    sns.histplot(data=df, x="income", bins=40, kde=True, color="teal")
    plt.title("Household Income Distribution")
    plt.xlabel("Income (thousands)")
    plt.ylabel("Count")
    plt.tight_layout()
    plt.savefig("income_distribution.png")
    """,
)
_case(
    "mathtext_title",
    "damped_oscillation.png",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    t = np.linspace(0, 10, 400)
    plt.figure(figsize=(6, 4))
    for alpha in (0.2, 0.5, 1.0):
        plt.plot(t, np.exp(-alpha * t) * np.cos(2 * np.pi * t), label=rf"$\\alpha = {alpha}$")
    plt.title(r"Damped oscillation $e^{-\\alpha t}\\cos(2\\pi t)$ for $\\alpha^2 < 1$")
    plt.xlabel(r"$t$ (s)")
    plt.ylabel(r"$x(t) / x_0$")
    plt.legend()
    plt.tight_layout()
    plt.savefig("damped_oscillation.png")
    """,
)
_case(
    "non_ascii_text",
    "temperature.png",
    """
    import matplotlib.pyplot as plt

    villes = ["Zürich", "Málaga", "Kraków", "Reykjavík", "Αθήνα"]
    température = [9.3, 19.1, 8.7, 4.5, 18.5]
    coût = [1.25, 0.95, 0.60, 1.40, 0.85]

    fig, ax = plt.subplots(figsize=(7, 4))
    bars = ax.bar(villes, température, color="coral")
    for bar, c in zip(bars, coût):
        ax.text(bar.get_x() + bar.get_width() / 2, bar.get_height() + 0.3, f"{c:.2f} €", ha="center")
    ax.set_title("Température moyenne annuelle — coût d'un café")
    ax.set_ylabel("Température (°C)")
    ax.set_xlabel("Ville (µ ≈ ±2 °C)")
    plt.tight_layout()
    plt.savefig("temperature.png")
    """,
)
_case(
    "pandas_plot_bar",
    "quarterly.png",
    """
    import matplotlib.pyplot as plt
    import pandas as pd

    df = pd.DataFrame(
        {"Q1": [120, 95, 60], "Q2": [135, 90, 72], "Q3": [150, 110, 80], "Q4": [170, 125, 95]},
        index=["Hardware", "Software", "Services"],
    )
    ax = df.T.plot(kind="bar", figsize=(7, 4), rot=0, title="Quarterly Revenue by Segment")
    ax.set_xlabel("Quarter")
    ax.set_ylabel("Revenue ($k)")
    ax.legend(title="Segment")
    plt.tight_layout()
    plt.savefig("quarterly.png")
    """,
)
_case(
    "savefig_pdf",
    "report_chart.pdf",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    x = np.arange(5)
    plt.figure(figsize=(6, 4))
    plt.bar(x - 0.2, [23, 17, 35, 29, 12], width=0.4, label="2023")
    plt.bar(x + 0.2, [25, 21, 31, 34, 15], width=0.4, label="2024")
    plt.xticks(x, ["Mon", "Tue", "Wed", "Thu", "Fri"])
    plt.title("Orders per Weekday")
    plt.ylabel("Orders")
    plt.legend()
    plt.tight_layout()
    plt.savefig("report_chart.pdf")
    """,
)
_case(
    "savefig_svg",
    "trend.svg",
    """
    import matplotlib.pyplot as plt
    import numpy as np

    x = np.linspace(0, 2 * np.pi, 100)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(x, np.sin(x), label="sin(x)")
    ax.plot(x, np.cos(x), label="cos(x)")
    ax.fill_between(x, np.sin(x), np.cos(x), alpha=0.15)
    ax.set_title("Trigonometric Functions")
    ax.set_xlabel("Angle (rad)")
    ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig("trend.svg")
    """,
)

# The chart kinds the suite must cover (the list, then text and vector output) -> case.
KINDS: dict[str, str] = {
    "line": "line_monthly_sales",
    "bar with labels": "bar_with_labels",
    "scatter with colour map": "scatter_colormap",
    "histogram": "histogram",
    "pie": "pie_market_share",
    "subplots": "subplots_grid",
    "twin axes": "twin_axes",
    "annotations": "annotations",
    "log scale": "log_scale",
    "dates on the x axis": "dates_axis",
    "contour": "contour",
    "imshow with a colour bar": "imshow_colorbar",
    "seaborn heatmap with annotations": "seaborn_heatmap_annot",
    "boxplot": "boxplot",
    "pairplot": "seaborn_pairplot",
    "histplot with KDE": "seaborn_histplot_kde",
    "mathtext": "mathtext_title",
    "non-ASCII text": "non_ascii_text",
    "PDF": "savefig_pdf",
    "SVG": "savefig_svg",
}
