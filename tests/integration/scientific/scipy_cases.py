"""scipy 1.17.1 snippets for the differential suite (test_scipy_differential.py): the same code
natively and in the guest.

Each case is the kind of code a model writes in a data-analysis tool call: its own imports,
seeded randomness, results printed. Outputs are deterministic (no times, addresses, "now", set
order); files go in the current directory under a name unique to the case. Results that go
through BLAS/LAPACK (OpenBLAS in both, with the host's kernels natively and the guest's generic
C and SIMD128 ones), through transcendental functions (libm) or through iterative solvers whose
stopping point depends on those last bits are rounded; each such case states its tolerance in a
`# tolerance:` comment. The precision was chosen natively: each case printed the same in two
single-threaded runs, with two threads, and with two other OpenBLAS kernel sets, and no printed
number sits near a rounding boundary (a rerun without rounding showed which values move). Values
that may come out as a tiny +-1e-17 are rounded and then `+ 0.0` is added, so that a -0.0 does
not print as "-0.". Integer index arrays are printed with `.tolist()` (wasm32's intp is int32: a
repr would show the dtype). sp_linalg_singular_raises raises on purpose (the runner records the
exception).
"""

from __future__ import annotations

import textwrap

from tests.integration.scientific.cases import Case

CASES: list[Case] = []


def _case(name: str, code: str, tail: str = "") -> None:
    CASES.append(Case(name, textwrap.dedent(code).strip() + "\n" + tail.lstrip("\n")))


# --- scipy.stats: tests -------------------------------------------------------------------------

_case(
    "sp_stats_ttests",
    """
    # tolerance: statistics 8 significant digits, p-values 6 (special functions)
    import numpy as np
    from scipy import stats
    rng = np.random.default_rng(42)
    a = rng.normal(10, 2, 40).round(3)
    b = rng.normal(11, 2.5, 35).round(3)
    for label, res in [("welch", stats.ttest_ind(a, b, equal_var=False)),
                       ("pooled", stats.ttest_ind(a, b)),
                       ("one-sample", stats.ttest_1samp(a, 10.0))]:
        print(f"{label}: t={res.statistic:.8g} p={res.pvalue:.6g} df={res.df:.6g}")
    before = rng.normal(120, 10, 20).round(1)
    after = (before - rng.normal(3, 4, 20)).round(1)
    r = stats.ttest_rel(before, after, alternative="greater")
    ci = r.confidence_interval(0.95)
    print(f"paired: t={r.statistic:.8g} p={r.pvalue:.6g} ci=({ci.low:.6g}, {ci.high})")
    print("significant at 5%:", r.pvalue < 0.05)
    """,
)
_case(
    "sp_stats_chi2_fisher",
    """
    # tolerance: 8 significant digits (chi2 / hypergeometric tails)
    import numpy as np
    from scipy import stats
    table = np.array([[30, 10, 15], [20, 25, 20]])
    chi2, p, dof, expected = stats.chi2_contingency(table)
    print(f"chi2={chi2:.8g} p={p:.8g} dof={dof}")
    print(expected.round(4))
    print("cramer's V:", round(stats.contingency.association(table, method="cramer"), 8))
    gof = stats.chisquare([18, 22, 20, 40], f_exp=[25, 25, 25, 25])
    print(f"goodness of fit: stat={gof.statistic:.8g} p={gof.pvalue:.8g}")
    res = stats.fisher_exact([[8, 2], [1, 5]])
    print(f"fisher: odds={res.statistic:.8g} p={res.pvalue:.8g}")
    c2 = stats.chi2_contingency([[12, 5], [7, 9]], correction=True)
    print(f"2x2 yates: {c2.statistic:.8g} {c2.pvalue:.8g}")
    """,
)
_case(
    "sp_stats_nonparametric",
    """
    # tolerance: 8 significant digits
    import numpy as np
    from scipy import stats
    rng = np.random.default_rng(1)
    g1 = rng.exponential(2.0, 25).round(2)
    g2 = rng.exponential(3.0, 30).round(2)
    g3 = rng.exponential(2.5, 20).round(2)
    mw = stats.mannwhitneyu(g1, g2, alternative="two-sided")
    print(f"mann-whitney U={mw.statistic} p={mw.pvalue:.8g}")
    mw_exact = stats.mannwhitneyu([1.2, 3.4, 2.2, 5.1], [4.4, 6.1, 5.5, 7.0, 3.9], method="exact")
    print(f"exact U={mw_exact.statistic} p={mw_exact.pvalue:.8g}")
    kw = stats.kruskal(g1, g2, g3)
    print(f"kruskal H={kw.statistic:.8g} p={kw.pvalue:.8g}")
    d = rng.normal(0.4, 1, 18).round(3)
    w = stats.wilcoxon(d)
    print(f"wilcoxon W={w.statistic} p={w.pvalue:.8g}")
    ks = stats.ks_2samp(g1, g2)
    print(f"ks_2samp D={ks.statistic:.8g} p={ks.pvalue:.8g}")
    """,
)
_case(
    "sp_stats_correlations",
    """
    # tolerance: 8 significant digits
    import numpy as np
    from scipy import stats
    rng = np.random.default_rng(7)
    x = rng.normal(0, 1, 50).round(4)
    y = (0.6 * x + rng.normal(0, 0.8, 50)).round(4)
    r = stats.pearsonr(x, y)
    ci = r.confidence_interval(0.95)
    print(f"pearson r={r.statistic:.8g} p={r.pvalue:.8g} ci=({ci.low:.8g}, {ci.high:.8g})")
    s = stats.spearmanr(x, y)
    print(f"spearman rho={s.statistic:.8g} p={s.pvalue:.8g}")
    k = stats.kendalltau(x, y)
    print(f"kendall tau={k.statistic:.8g} p={k.pvalue:.8g}")
    rho = stats.spearmanr(np.column_stack([x, y, x ** 2])).statistic
    print(np.round(rho, 8))
    print(np.round(np.corrcoef(x, y)[0, 1], 8), round(stats.pointbiserialr(x > 0, y).statistic, 8))
    """,
)
_case(
    "sp_stats_normality",
    """
    # tolerance: 6 significant digits (Shapiro-Wilk polynomial approximations, special functions)
    import numpy as np
    from scipy import stats
    rng = np.random.default_rng(3)
    normal = rng.normal(5, 2, 120).round(4)
    skewed = rng.lognormal(0, 0.8, 120).round(4)
    for name, data in (("normal", normal), ("skewed", skewed)):
        sw = stats.shapiro(data)
        nt = stats.normaltest(data)
        jb = stats.jarque_bera(data)
        ks = stats.kstest(data, "norm", args=(data.mean(), data.std(ddof=1)))
        print(f"{name}: shapiro W={sw.statistic:.6g} p={sw.pvalue:.6g} | normaltest p={nt.pvalue:.6g}"
              f" | jb p={jb.pvalue:.6g} | ks p={ks.pvalue:.6g}")
    ad = stats.anderson(normal)
    print(f"anderson A2={ad.statistic:.6g}", ad.critical_values.tolist(), ad.significance_level.tolist())
    print(f"skew={stats.skew(skewed):.8g} kurtosis={stats.kurtosis(skewed):.8g}")
    """,
)
_case(
    "sp_stats_anova",
    """
    # tolerance: 6 significant digits (F / studentized-range distributions)
    import numpy as np
    from scipy import stats
    rng = np.random.default_rng(11)
    a = rng.normal(20, 3, 15).round(2)
    b = rng.normal(22, 3, 15).round(2)
    c = rng.normal(25, 3, 15).round(2)
    f = stats.f_oneway(a, b, c)
    print(f"anova F={f.statistic:.8g} p={f.pvalue:.6g}")
    lev = stats.levene(a, b, c)
    bart = stats.bartlett(a, b, c)
    print(f"levene W={lev.statistic:.8g} p={lev.pvalue:.6g}; bartlett T={bart.statistic:.8g} p={bart.pvalue:.6g}")
    res = stats.tukey_hsd(a, b, c)
    print("tukey p-values:")
    print(np.round(res.pvalue, 5))
    ci = res.confidence_interval(0.95)
    print(np.round(ci.low[0], 5), np.round(ci.high[0], 5))
    """,
)
_case(
    "sp_stats_distributions",
    """
    # tolerance: 9 decimals (pdf/cdf/ppf are special functions on libm)
    import numpy as np
    from scipy import stats
    print(np.round(stats.norm.pdf([-1, 0, 1.5]), 9), round(stats.norm.cdf(1.96), 9),
          np.round(stats.norm.ppf([0.025, 0.975]), 9))
    print(np.round(stats.t.ppf(0.975, df=[5, 30]), 8), round(stats.chi2.sf(7.81, 3), 9),
          round(stats.f.ppf(0.95, 2, 20), 8))
    print(round(stats.binom.pmf(3, 10, 0.3), 9), round(stats.binom.cdf(3, 10, 0.3), 9),
          np.round(stats.poisson.pmf(np.arange(5), 2.5), 9))
    g = stats.gamma(a=2, scale=3)
    print([round(float(m), 9) for m in g.stats(moments="mvsk")], round(g.ppf(0.5), 8))
    print([round(v, 8) for v in stats.beta(2, 5).interval(0.9)], stats.expon(scale=2).mean(),
          round(stats.lognorm(s=0.5).median(), 9), stats.uniform(1, 4).var())
    sample = stats.norm.rvs(loc=10, scale=2, size=5, random_state=np.random.default_rng(0))
    print(np.round(sample, 8), stats.randint(1, 7).rvs(size=8, random_state=5).tolist())
    print(round(stats.norm.logpdf(3.0), 9), round(stats.t.cdf(-2.1, 12), 9), round(stats.norm.isf(0.01), 9))
    """,
)
_case(
    "sp_stats_fit_describe",
    """
    # tolerance: closed-form fits 8 significant digits; the numerical gamma MLE 5
    import numpy as np
    from scipy import stats
    rng = np.random.default_rng(21)
    x = rng.gamma(2.5, 1.8, 400)
    mu, sigma = stats.norm.fit(x)
    print(f"norm fit: mu={mu:.8g} sigma={sigma:.8g}")
    a, loc, scale = stats.gamma.fit(x, floc=0)
    print(f"gamma fit: a={a:.5g} loc={loc} scale={scale:.5g}")
    s, loc, scale = stats.lognorm.fit(x, floc=0)
    print(f"lognorm fit: s={s:.8g} scale={scale:.8g}")
    loc, scale = stats.expon.fit(x)
    print(f"expon fit: loc={loc:.8g} scale={scale:.8g}")
    d = stats.describe(x)
    print(d.nobs, f"{d.minmax[0]:.6f} {d.minmax[1]:.6f} mean={d.mean:.8g} var={d.variance:.8g} skew={d.skewness:.6g}")
    xs = np.arange(10.0)
    ys = 2.0 * xs + 1 + np.array([0.1, -0.2, 0.05, 0.0, 0.3, -0.1, -0.25, 0.15, 0.0, 0.05])
    lr = stats.linregress(xs, ys)
    print(f"linregress slope={lr.slope:.8f} intercept={lr.intercept:.8f} r={lr.rvalue:.8f} p={lr.pvalue:.6g} se={lr.stderr:.8g}")
    print(np.round(stats.zscore([2.0, 4, 4, 4, 5, 5, 7, 9]), 8), stats.iqr(x).round(8), stats.sem(xs).round(8))
    print(stats.mode([1, 2, 2, 3, 3, 3, 4]), np.round(stats.trim_mean(x, 0.1), 8), stats.rankdata([3, 1, 4, 1, 5]).tolist())
    """,
)
_case(
    "sp_stats_kde_bootstrap",
    """
    # tolerance: 6 significant digits (kde's Cholesky; bootstrap quantiles)
    import numpy as np
    from scipy import stats
    rng = np.random.default_rng(5)
    data = np.concatenate([rng.normal(0, 1, 150), rng.normal(4, 0.7, 100)])
    kde = stats.gaussian_kde(data)
    grid = np.array([-2.0, 0.0, 2.0, 4.0, 6.0])
    print(f"bw factor={kde.factor:.8g}", np.round(kde(grid), 6))
    print(f"mass in [-1, 1]: {kde.integrate_box_1d(-1, 1):.6f}")
    kde2 = stats.gaussian_kde(data, bw_method="silverman")
    print(np.round(kde2.evaluate(grid), 6))
    sample = rng.exponential(3.0, 60)
    res = stats.bootstrap((sample,), np.mean, n_resamples=2000, rng=np.random.default_rng(9), method="percentile")
    ci = res.confidence_interval
    print(f"mean={sample.mean():.6f} ci=({ci.low:.6f}, {ci.high:.6f}) se={res.standard_error:.6f}")
    bca = stats.bootstrap((sample,), np.median, n_resamples=2000, rng=np.random.default_rng(9))
    print(f"median BCa ci=({bca.confidence_interval.low:.6f}, {bca.confidence_interval.high:.6f})")
    """,
)

# --- scipy.optimize --------------------------------------------------------------------------------

_case(
    "sp_opt_minimize_methods",
    """
    # tolerance: minimizers 3 decimals: the solvers stop up to ~2e-4 from (1, 1, 1), and their
    # iterates move by up to ~3e-6 between OpenBLAS kernels (CG, Newton-CG: measured natively)
    import numpy as np
    from scipy.optimize import minimize, rosen, rosen_der, rosen_hess
    x0 = np.array([-1.2, 1.0, 0.8])
    for method in ["Nelder-Mead", "Powell", "CG", "BFGS", "L-BFGS-B", "Newton-CG", "trust-ncg", "trust-exact", "TNC", "SLSQP"]:
        kw = {}
        if method not in ("Nelder-Mead", "Powell"):
            kw["jac"] = rosen_der
        if method in ("Newton-CG", "trust-ncg", "trust-exact"):
            kw["hess"] = rosen_hess
        opts = {"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000} if method == "Nelder-Mead" else {}
        if method == "TNC":
            opts = {"maxfun": 2000}
        res = minimize(rosen, x0, method=method, options=opts, **kw)
        print(f"{method:12s} success={res.success} x={np.round(res.x, 3).tolist()} f<1e-7={res.fun < 1e-7}")
    """,
)
_case(
    "sp_opt_minimize_constraints",
    """
    # tolerance: 4-5 decimals (constrained solvers stop at their tolerances; SLSQP on the circle
    # moves by ~4e-9 between OpenBLAS kernels)
    import numpy as np
    from scipy.optimize import minimize, Bounds, LinearConstraint, NonlinearConstraint
    fun = lambda x: (x[0] - 1) ** 2 + (x[1] - 2.5) ** 2
    cons = [{"type": "ineq", "fun": lambda x: x[0] - 2 * x[1] + 2},
            {"type": "ineq", "fun": lambda x: -x[0] - 2 * x[1] + 6},
            {"type": "ineq", "fun": lambda x: -x[0] + 2 * x[1] + 2}]
    res = minimize(fun, (2, 0), method="SLSQP", bounds=((0, None), (0, None)), constraints=cons)
    print("SLSQP", np.round(res.x, 5).tolist(), round(res.fun, 6), res.success, res.message)
    lin = LinearConstraint([[1, -2], [-1, -2], [-1, 2]], [-2, -6, -2], [np.inf] * 3)
    res2 = minimize(fun, (2, 0), method="trust-constr", constraints=[lin], bounds=Bounds([0, 0], [np.inf, np.inf]))
    print("trust-constr", np.round(res2.x, 4).tolist(), res2.success)
    res3 = minimize(fun, (2, 0), method="COBYLA", constraints=cons, options={"tol": 1e-8})
    print("COBYLA", np.round(res3.x, 4).tolist(), res3.success)
    circle = NonlinearConstraint(lambda x: x[0] ** 2 + x[1] ** 2, 0, 1)
    res4 = minimize(lambda x: -x[0] - 2 * x[1], [0.1, 0.1], method="SLSQP", constraints=[circle])
    print("on the unit circle", np.round(res4.x, 4).tolist(), round(res4.fun, 5))
    res5 = minimize(lambda x: np.sum((x - np.array([3.0, -1.0, 0.5])) ** 2), np.zeros(3), method="L-BFGS-B",
                    bounds=[(0, 2), (-0.5, 0.5), (None, None)])
    print("L-BFGS-B bounds", np.round(res5.x, 5).tolist() + [0.0], res5.success)
    """,
)
_case(
    "sp_opt_curve_fit",
    """
    # tolerance: parameters 6 significant digits (lm, MINPACK) / 5 (trf, on LAPACK: moves ~1e-9
    # between OpenBLAS kernels), standard errors 4
    import numpy as np
    from scipy.optimize import curve_fit
    rng = np.random.default_rng(3)
    def model(t, a, k, c):
        return a * np.exp(-k * t) + c
    t = np.linspace(0, 4, 50)
    y = model(t, 2.5, 1.3, 0.5) + rng.normal(0, 0.05, t.size)
    popt, pcov = curve_fit(model, t, y, p0=(1, 1, 0))
    perr = np.sqrt(np.diag(pcov))
    print("lm popt", [f"{v:.6g}" for v in popt], "perr", [f"{v:.4g}" for v in perr])
    popt2, _ = curve_fit(model, t, y, bounds=([0, 0, -1], [10, 5, 1]))
    print("trf popt", [f"{v:.5g}" for v in popt2])
    sigma = np.full(t.size, 0.05)
    popt3, pcov3 = curve_fit(model, t, y, p0=(1, 1, 0), sigma=sigma, absolute_sigma=True)
    print("abs sigma perr", [f"{v:.4g}" for v in np.sqrt(np.diag(pcov3))])
    resid = y - model(t, *popt)
    r2 = 1 - np.sum(resid ** 2) / np.sum((y - y.mean()) ** 2)
    print(f"R^2={r2:.6f}")
    line, _ = curve_fit(lambda x, m, b: m * x + b, [0, 1, 2, 3], [1.0, 3.1, 4.9, 7.2])
    print(np.round(line, 8))
    """,
)
_case(
    "sp_opt_root_finding",
    """
    # tolerance: 9 decimals (brentq's default xtol is 2e-12; the true root 2.0945514815423265
    # sits near a 12-decimal rounding boundary)
    import numpy as np
    from scipy.optimize import brentq, bisect, newton, root_scalar, fsolve, root
    f = lambda x: x ** 3 - 2 * x - 5
    print(f"{brentq(f, 2, 3):.9f} {bisect(f, 2, 3, xtol=1e-12):.9f} {newton(f, 2.0, fprime=lambda x: 3 * x ** 2 - 2):.9f}")
    r = root_scalar(f, bracket=[2, 3], method="brentq")
    print(r.converged, r.iterations, r.function_calls, f"{r.root:.9f}", r.flag)
    r2 = root_scalar(f, x0=2.0, x1=3.0, method="secant")
    print(r2.converged, f"{r2.root:.9f}")
    print(f"{newton(lambda x: np.cos(x) - x, 1.0):.9f}")
    system = lambda v: [v[0] ** 2 + v[1] ** 2 - 4, v[0] - v[1] ** 2 + 1]
    sol = fsolve(system, [1, 1])
    print("fsolve", np.round(sol, 9).tolist(), np.allclose(system(sol), 0))
    for method in ("hybr", "lm", "krylov"):
        res = root(system, [1, 1], method=method)
        print(method, res.success, np.round(res.x, 6).tolist())
    """,
)
_case(
    "sp_opt_linprog_milp",
    """
    # tolerance: exact at 8 decimals (HiGHS's simplex on small integral data)
    import numpy as np
    from scipy.optimize import linprog, milp, LinearConstraint, Bounds
    c = [-3, -5]
    A_ub = [[1, 0], [0, 2], [3, 2]]
    b_ub = [4, 12, 18]
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=[(0, None), (0, None)], method="highs")
    print(res.status, res.message)
    print(np.round(res.x, 8) + 0.0, round(res.fun, 8), np.round(res.ineqlin.marginals, 8) + 0.0, np.round(res.slack, 8) + 0.0)
    # a transportation problem: 2 plants, 3 markets
    cost = np.array([[4, 6, 9], [5, 3, 8]]).ravel()
    A_eq = np.zeros((3, 6)); A_eq[0, [0, 3]] = 1; A_eq[1, [1, 4]] = 1; A_eq[2, [2, 5]] = 1
    A_sup = np.zeros((2, 6)); A_sup[0, :3] = 1; A_sup[1, 3:] = 1
    t = linprog(cost, A_ub=A_sup, b_ub=[60, 50], A_eq=A_eq, b_eq=[30, 40, 25], method="highs")
    print(t.status, round(t.fun, 6), (np.round(t.x, 6) + 0.0).reshape(2, 3).tolist())
    inf = linprog([1, 1], A_ub=[[1, 1]], b_ub=[-1], bounds=[(0, None)] * 2, method="highs")
    print("infeasible:", inf.status, inf.success)
    values = np.array([10, 13, 7, 8, 4]); weights = np.array([5, 6, 3, 4, 2])
    k = milp(-values, constraints=LinearConstraint(weights[None, :], 0, 12), integrality=np.ones(5), bounds=Bounds(0, 1))
    print("knapsack", k.status, (np.round(k.x) + 0.0).tolist(), -round(k.fun, 6))
    """,
)
_case(
    "sp_opt_least_squares",
    """
    # tolerance: 3 decimals: the stopping point moves by ~2e-8 (relative) between OpenBLAS kernels
    # (trust-region steps use LAPACK; tighter ftol/xtol/gtol made it move more, ~2e-7)
    import numpy as np
    from scipy.optimize import least_squares
    rng = np.random.default_rng(5)
    x = np.linspace(0, 10, 60)
    y = 3.0 * np.sin(0.8 * x + 0.3) + rng.normal(0, 0.2, x.size)
    y[[5, 17, 40]] += [4, -5, 6]
    def resid(p):
        return p[0] * np.sin(p[1] * x + p[2]) - y
    for loss in ["linear", "soft_l1", "huber", "cauchy"]:
        r = least_squares(resid, [2.5, 0.75, 0.0], loss=loss, f_scale=0.5)
        print(f"{loss:8s}", np.round(r.x, 3).tolist(), r.success, round(r.cost, 3))
    rb = least_squares(resid, [2.5, 0.75, 0.0], bounds=([0, 0, -1], [5, 2, 1]), method="dogbox")
    print("dogbox", np.round(rb.x, 3).tolist(), rb.status > 0)
    rl = least_squares(resid, [2.5, 0.75, 0.0], method="lm")
    print("lm", np.round(rl.x, 3).tolist(), np.round(rl.jac.shape, 0).tolist())
    """,
)
_case(
    "sp_opt_scalar_and_global",
    """
    # tolerance: 6 decimals for the scalar minimizers, 4 for differential evolution and basinhopping
    import numpy as np
    from scipy.optimize import minimize_scalar, differential_evolution, basinhopping, brute
    r = minimize_scalar(lambda x: (x - 2) ** 2 * (x + 1) ** 2 + x, bounds=(0, 3), method="bounded")
    print("bounded", round(r.x, 6), round(r.fun, 6), r.success)
    r2 = minimize_scalar(lambda x: x ** 4 - 3 * x ** 3 + 2)
    print("brent", round(r2.x, 6), round(r2.fun, 6))
    r3 = minimize_scalar(lambda x: (x - 1.5) ** 2, method="golden")
    print("golden", round(r3.x, 6))
    booth = lambda v: (v[0] + 2 * v[1] - 7) ** 2 + (2 * v[0] + v[1] - 5) ** 2
    de = differential_evolution(booth, bounds=[(-10, 10), (-10, 10)], rng=1, tol=1e-10)
    print("differential_evolution", np.round(de.x, 4).tolist(), de.fun < 1e-8, de.success)
    bh = basinhopping(booth, [0.0, 0.0], niter=20, rng=np.random.default_rng(2))
    print("basinhopping", np.round(bh.x, 4).tolist(), bh.fun < 1e-8)
    g = brute(booth, ((-5, 5, 0.5), (-5, 5, 0.5)), finish=None)
    print("brute grid", g.tolist())
    """,
)

# --- scipy.interpolate -------------------------------------------------------------------------

_case(
    "sp_interp_1d",
    """
    # tolerance: 8 decimals
    import numpy as np
    from scipy.interpolate import interp1d, CubicSpline, PchipInterpolator, Akima1DInterpolator
    x = np.arange(10.0)
    y = np.array([0.0, 0.8, 0.9, 0.1, -0.8, -1.0, -0.3, 0.7, 1.0, 0.4])
    xq = np.array([0.5, 2.25, 4.75, 8.9])
    for kind in ["linear", "nearest", "previous", "quadratic", "cubic"]:
        print(f"{kind:9s}", np.round(interp1d(x, y, kind=kind)(xq), 8))
    f = interp1d(x, y, bounds_error=False, fill_value="extrapolate")
    print("extrapolate", np.round(f([-1, 10.5]), 8))
    try:
        interp1d(x, y)(12)
    except ValueError as e:
        print("ValueError:", e)
    cs = CubicSpline(x, y, bc_type="natural")
    print("natural", np.round(cs(xq), 8), np.round(cs(xq, 1), 8))
    print("integral", round(float(cs.integrate(0, 9)), 8), "roots", np.round(cs.roots(extrapolate=False), 6))
    print("not-a-knot", np.round(CubicSpline(x, y)(xq), 8), "clamped", np.round(CubicSpline(x, y, bc_type="clamped")(xq), 8))
    print("pchip", np.round(PchipInterpolator(x, y)(xq), 8), "akima", np.round(Akima1DInterpolator(x, y)(xq), 8))
    print("np.interp", np.interp(xq, x, y).round(8))
    """,
)
_case(
    "sp_interp_fitpack",
    """
    # tolerance: 8 decimals for interpolating splines, 6 for smoothing splines (FITPACK)
    import numpy as np
    from scipy.interpolate import splrep, splev, splint, sproot, splder, UnivariateSpline, LSQUnivariateSpline, splprep
    x = np.linspace(0, 2 * np.pi, 40)
    y = np.sin(x)
    tck = splrep(x, y, s=0)
    t, c, k = tck
    print(len(t), k, np.round(splev([1.0, 2.5, 5.0], tck), 8), round(float(splev(1.0, tck, der=1)), 6))
    print("integral 0..pi", round(float(splint(0, np.pi, tck)), 8), "roots", np.round(sproot(tck), 6))
    print("derivative spline", np.round(splev(0.0, splder(tck)), 6))
    rng = np.random.default_rng(4)
    noisy = y + rng.normal(0, 0.1, x.size)
    spl = UnivariateSpline(x, noisy, s=0.4)
    print("smoothing knots", len(spl.get_knots()), np.round(spl([1.0, 3.0, 5.0]), 6), round(float(spl.get_residual()), 6))
    spl.set_smoothing_factor(0.2)
    print("s=0.2 knots", len(spl.get_knots()), np.round(spl(3.0), 6))
    tck_s = splrep(x, noisy, s=0.5)
    print("splrep s=0.5:", len(tck_s[0]), np.round(splev(2.0, tck_s), 6))
    lsq = LSQUnivariateSpline(x, noisy, [np.pi / 2, np.pi, 3 * np.pi / 2])
    print("lsq", np.round(lsq(np.pi / 4), 6), np.round(lsq.get_coeffs(), 6))
    theta = np.linspace(0, np.pi, 12)
    (tck_p, u) = splprep([np.cos(theta), np.sin(theta)], s=0)
    print("parametric", np.round(np.array(splev(0.5, tck_p)), 6), np.round(u[:3], 6))
    """,
)
_case(
    "sp_interp_griddata_nd",
    """
    # tolerance: 6 decimals (the RBF solve is LAPACK's)
    import numpy as np
    from scipy.interpolate import griddata, RegularGridInterpolator, RBFInterpolator, LinearNDInterpolator, NearestNDInterpolator
    rng = np.random.default_rng(0)
    pts = rng.random((60, 2))
    vals = pts[:, 0] ** 2 + pts[:, 1]
    gx, gy = np.mgrid[0.2:0.8:3j, 0.2:0.8:3j]
    for method in ["nearest", "linear", "cubic"]:
        print(method, np.round(griddata(pts, vals, (gx, gy), method=method), 6).tolist())
    print("outside:", griddata(pts, vals, [(1.5, 1.5)], method="linear"), griddata(pts, vals, [(1.5, 1.5)], method="linear", fill_value=-1))
    lin = LinearNDInterpolator(pts, vals)
    near = NearestNDInterpolator(pts, vals)
    print(np.round(lin([[0.5, 0.5]]), 6), np.round(near([[0.5, 0.5]]), 6))
    xs = np.linspace(0, 4, 5); ys = np.linspace(0, 3, 4)
    z = np.add.outer(xs ** 2, 3 * ys)
    rgi = RegularGridInterpolator((xs, ys), z)
    print("grid linear", np.round(rgi([[1.5, 0.5], [3.2, 1.7]]), 8))
    rgi_c = RegularGridInterpolator((xs, ys), z, method="cubic")
    print("grid cubic", np.round(rgi_c([[1.5, 0.5]]), 6))
    rbf = RBFInterpolator(pts, vals, kernel="thin_plate_spline")
    print("rbf", np.round(rbf(np.array([[0.3, 0.4], [0.7, 0.2]])), 6))
    smooth = RBFInterpolator(pts, vals, kernel="gaussian", epsilon=3.0, smoothing=1e-3)
    print("rbf gaussian", np.round(smooth(np.array([[0.5, 0.5]])), 5))
    """,
)
_case(
    "sp_interp_bspline",
    """
    # tolerance: 8 decimals (banded LAPACK solves)
    import numpy as np
    from scipy.interpolate import make_interp_spline, make_lsq_spline, make_smoothing_spline, BSpline
    x = np.linspace(0, 3, 13)
    y = x ** 3 - 2 * x
    spl = make_interp_spline(x, y, k=3)
    print(spl.k, len(spl.t), np.round(spl([0.4, 1.7, 2.95]), 8))
    d = spl.derivative()
    print("derivative", np.round(d([0.4, 1.7]), 6), "antiderivative", np.round(spl.antiderivative()(3.0), 6))
    t = np.r_[[0] * 4, [1.0, 2.0], [3] * 4]
    lsq = make_lsq_spline(x, y, t, k=3)
    print("lsq", np.round(lsq(1.25), 8), np.round(lsq.c, 6) + 0.0)
    rng = np.random.default_rng(2)
    xn = np.linspace(0, 1, 30)
    yn = np.cos(3 * xn) + rng.normal(0, 0.05, xn.size)
    sm = make_smoothing_spline(xn, yn, lam=1e-3)
    print("smoothing", np.round(sm([0.25, 0.5, 0.75]), 6))
    basis = BSpline.basis_element([0, 1, 2, 3])
    print("basis", np.round(basis([0.5, 1.5, 2.5]), 10))
    lin = BSpline(np.array([0, 0, 1, 2, 2.0]), np.array([1.0, 3.0, 2.0]), 1)
    print("linear bspline", lin([0.5, 1.0, 1.5]))
    """,
)

# --- scipy.integrate ---------------------------------------------------------------------------

_case(
    "sp_integrate_quad",
    """
    # tolerance: 10 decimals (adaptive quadrature; error estimates only compared with a bound)
    import numpy as np
    from scipy import integrate
    val, err = integrate.quad(lambda x: np.exp(-x ** 2), -np.inf, np.inf)
    print(f"{val:.10f} {np.sqrt(np.pi):.10f} err<1e-6={err < 1e-6}")
    val, err = integrate.quad(lambda x: 1 / np.sqrt(x), 0, 1)
    print(f"{val:.10f}", err < 1e-8)
    val, err = integrate.quad(lambda x: abs(x - 0.3), 0, 1, points=[0.3])
    print(f"{val:.10f}")
    val, err = integrate.quad(lambda x, a: x ** a, 0, 2, args=(3,))
    print(f"{val:.10f}")
    val, err = integrate.quad(lambda x: np.sin(x) / x, 1, 50, limit=200)
    print(f"{val:.10f}")
    d, _ = integrate.dblquad(lambda y, x: x * y ** 2, 0, 2, 0, 1)
    print(f"dblquad {d:.10f}")
    d2, _ = integrate.dblquad(lambda y, x: 1.0, 0, 1, lambda x: 0, lambda x: np.sqrt(1 - x ** 2))
    print(f"quarter disc {d2:.10f} {np.pi / 4:.10f}")
    t, _ = integrate.tplquad(lambda z, y, x: x + y + z, 0, 1, 0, 1, 0, 1)
    print(f"tplquad {t:.10f}")
    n, _ = integrate.nquad(lambda x, y: x * y, [[0, 1], [0, 2]])
    print(f"nquad {n:.10f}")
    v, _ = integrate.quad_vec(lambda x: np.array([x, x ** 2, np.cos(x)]), 0, 1)
    print("quad_vec", np.round(v, 10))
    """,
)
_case(
    "sp_integrate_solve_ivp",
    """
    # tolerance: 6 significant digits for the explicit solvers, 5 for the implicit ones (their LU)
    import numpy as np
    from scipy.integrate import solve_ivp
    sol = solve_ivp(lambda t, y: -0.5 * y, (0, 10), [2.0], t_eval=[0, 1, 5, 10], rtol=1e-9, atol=1e-12)
    print(sol.status, sol.message, sol.t.tolist(), [f"{v:.6g}" for v in sol.y[0]], f"{2 * np.exp(-5):.6g}")
    def lotka(t, z, a=1.5, b=1.0, c=3.0, d=1.0):
        x, y = z
        return [a * x - b * x * y, -c * y + d * x * y]
    for method in ["RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA"]:
        s = solve_ivp(lotka, (0, 15), [10, 5], method=method, rtol=1e-9, atol=1e-11, t_eval=[5, 15])
        print(f"{method:6s}", s.success, [f"{v:.5g}" for v in s.y[:, -1]])
    def hit(t, y):
        return y[0] - 1.0
    hit.terminal = True
    ev = solve_ivp(lambda t, y: [-y[0]], (0, 10), [5.0], events=hit, dense_output=True, rtol=1e-10, atol=1e-12)
    print("event at", f"{ev.t_events[0][0]:.6g}", f"{np.log(5):.6g}", ev.status, f"{ev.sol(0.5)[0]:.6g}")
    stiff = solve_ivp(lambda t, y: [-1000 * (y[0] - np.cos(t))], (0, 1), [0.0], method="Radau", rtol=1e-8, atol=1e-10)
    print("stiff", stiff.success, f"{stiff.y[0, -1]:.5g}")
    """,
)
_case(
    "sp_integrate_samples_odeint",
    """
    # tolerance: 8-10 decimals for the sample rules, 6 for odeint (LSODA)
    import numpy as np
    from scipy import integrate
    x = np.linspace(0, np.pi, 101)
    y = np.sin(x)
    print(round(integrate.trapezoid(y, x), 8), round(integrate.simpson(y, x=x), 8))
    print(np.round(integrate.cumulative_trapezoid(y, x, initial=0)[[0, 50, 100]], 8))
    print(np.round(integrate.cumulative_simpson(y, x=x)[[49, 99]], 8))
    print(round(integrate.romb(np.exp(-np.linspace(0, 1, 17)), dx=1 / 16), 10), round(1 - np.exp(-1), 10))
    val, _ = integrate.fixed_quad(lambda t: t ** 5, 0, 1, n=3)
    print(round(val, 10))
    print(integrate.trapezoid([[1, 2, 3], [4, 5, 6]], axis=1), integrate.trapezoid([1, 4, 9, 16], dx=0.5))
    def damped(state, t, zeta, omega):
        pos, vel = state
        return [vel, -2 * zeta * omega * vel - omega ** 2 * pos]
    ts = np.linspace(0, 10, 6)
    traj = integrate.odeint(damped, [1.0, 0.0], ts, args=(0.1, 2.0), rtol=1e-10, atol=1e-12)
    print(np.round(traj, 6) + 0.0)
    """,
)

# --- scipy.signal ------------------------------------------------------------------------------

_case(
    "sp_signal_filters",
    """
    # tolerance: 8 decimals for coefficients, 6 for filtered samples
    import numpy as np
    from scipy import signal
    b, a = signal.butter(4, 0.2)
    print(np.round(b, 8), np.round(a, 8), sep="\\n")
    sos = signal.butter(4, [0.1, 0.3], btype="bandpass", output="sos")
    print(sos.shape, np.round(sos[0], 6))
    fs = 500
    t = np.arange(0, 1, 1 / fs)
    x = np.sin(2 * np.pi * 5 * t) + 0.5 * np.sin(2 * np.pi * 80 * t)
    y = signal.filtfilt(b, a, x)
    y_sos = signal.sosfiltfilt(signal.butter(4, 20, fs=fs, output="sos"), x)
    y_lf = signal.lfilter(b, a, x)
    print(np.round(y[101:105], 6), np.round(y_sos[101:105], 6), np.round(y_lf[101:105], 6))
    w, h = signal.freqz(b, a, worN=6)
    print(np.round(w, 6), np.round(np.abs(h), 6))
    bc, ac = signal.cheby1(3, 1, 0.25)
    print("cheby1", np.round(bc, 8), np.round(ac, 6))
    taps = signal.firwin(11, 0.3)
    print("firwin", np.round(taps, 8))
    bn, an = signal.iirnotch(60, 30, fs=fs)
    print("notch", np.round(bn, 8), np.round(an, 8))
    zi = signal.lfilter_zi(b, a)
    print("zi", np.round(zi, 8))
    """,
)
_case(
    "sp_signal_find_peaks",
    """
    # tolerance: 6 decimals on peak properties; the indices are exact
    import numpy as np
    from scipy import signal
    rng = np.random.default_rng(11)
    t = np.linspace(0, 6 * np.pi, 400)
    x = np.sin(t) + 0.3 * np.sin(5 * t) + rng.normal(0, 0.05, t.size)
    peaks, props = signal.find_peaks(x, height=0.5, distance=20, prominence=0.3)
    print(peaks.tolist())
    print(np.round(props["peak_heights"], 6).tolist())
    print(np.round(props["prominences"], 6).tolist(), props["left_bases"].tolist())
    widths, heights, left, right = signal.peak_widths(x, peaks, rel_height=0.5)
    print(np.round(widths, 4).tolist())
    troughs, _ = signal.find_peaks(-x, prominence=0.5)
    print("troughs", troughs.tolist())
    print("argrelextrema", signal.argrelextrema(x, np.greater, order=30)[0].tolist())
    plateau = np.array([0, 1, 3, 3, 3, 1, 0, 2, 5, 2, 0, 4, 4, 1])
    p2, pr2 = signal.find_peaks(plateau, plateau_size=1)
    print(p2.tolist(), pr2["plateau_sizes"].tolist(), signal.find_peaks(plateau, threshold=1)[0].tolist())
    """,
)
_case(
    "sp_signal_spectral",
    """
    # tolerance: 6 significant digits (FFT-based estimates)
    import numpy as np
    from scipy import signal
    fs = 1000.0
    rng = np.random.default_rng(8)
    t = np.arange(4096) / fs
    x = np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 120 * t) + rng.normal(0, 0.3, t.size)
    f, pxx = signal.welch(x, fs=fs, nperseg=512)
    top = np.argsort(pxx)[-2:][::-1]
    print(len(f), f[top].tolist(), [f"{v:.6g}" for v in pxx[top]])
    fp, pp = signal.periodogram(x, fs=fs, window="hann")
    print(len(fp), fp[np.argmax(pp)], f"{pp.max():.6g}")
    fs_, ts_, sxx = signal.spectrogram(x, fs=fs, nperseg=256)
    print(sxx.shape, len(ts_), f"{ts_[0]:.6g}")
    y = np.sin(2 * np.pi * 50 * t + 0.5) + rng.normal(0, 0.3, t.size)
    fc, coh = signal.coherence(x, y, fs=fs, nperseg=256)
    print(f"coherence at 50 Hz: {coh[np.argmin(np.abs(fc - 50))]:.4f}")
    fz, tz, zxx = signal.stft(x, fs=fs, nperseg=128)
    print(zxx.shape, zxx.dtype)
    win = signal.get_window("hamming", 8)
    print(np.round(win, 8))
    """,
)
_case(
    "sp_signal_convolve_smooth",
    """
    # tolerance: 8 decimals (FFT convolution adds rounding noise)
    import numpy as np
    from scipy import signal
    a = np.array([1.0, 2, 3, 4, 5])
    k = np.array([0.25, 0.5, 0.25])
    print(signal.convolve(a, k), signal.convolve(a, k, mode="same"), np.convolve(a, k, mode="valid"))
    print(np.round(signal.fftconvolve(a, k), 8) + 0.0, np.round(signal.oaconvolve(a, k, mode="same"), 8) + 0.0)
    print(signal.correlate(a, [1, 0, -1], mode="valid"), signal.correlation_lags(5, 3, mode="valid").tolist())
    img = np.arange(16.0).reshape(4, 4)
    print(signal.convolve2d(img, np.ones((2, 2)) / 4, mode="valid"))
    print(signal.convolve2d(img, [[0, 1, 0], [1, -4, 1], [0, 1, 0]], mode="same", boundary="symm"))
    rng = np.random.default_rng(6)
    noisy = np.linspace(0, 2, 30) ** 2 + rng.normal(0, 0.1, 30)
    print(np.round(signal.savgol_filter(noisy, 7, 2)[:6], 6))
    print(np.round(signal.medfilt(noisy, 5)[:6], 6))
    print(np.round(signal.detrend(noisy)[:4], 6), np.round(signal.detrend(noisy, type="constant")[:2], 6))
    env = np.abs(signal.hilbert(np.cos(np.linspace(0, 8 * np.pi, 64, endpoint=False))))
    print("envelope", np.round(env[:4], 6))
    print("resample", np.round(signal.resample(np.arange(8.0), 4), 6) + 0.0, signal.decimate(np.arange(40.0), 4).shape)
    """,
)

# --- scipy.linalg ------------------------------------------------------------------------------

_case(
    "sp_linalg_solve_factorizations",
    """
    # tolerance: 8 decimals (LAPACK; QR signs are fixed by Householder's convention)
    import numpy as np
    from scipy import linalg
    A = np.array([[4.0, 2, 0.6], [2, 5, 1], [0.6, 1, 3]])
    b = np.array([1.0, 2, 3])
    print(np.round(linalg.solve(A, b), 10), np.round(linalg.solve(A, b, assume_a="pos"), 10))
    P, L, U = linalg.lu(A)
    print(P, np.round(L, 8), np.round(U, 8), sep="\\n")
    lu, piv = linalg.lu_factor(A)
    print(piv.tolist(), np.round(linalg.lu_solve((lu, piv), b), 10))
    Q, R = linalg.qr(A)
    print(np.round(np.abs(R), 8))
    print(np.allclose(Q @ R, A), np.allclose(Q.T @ Q, np.eye(3)))
    C = linalg.cholesky(A, lower=True)
    print(np.round(C, 8))
    print(np.round(linalg.cho_solve(linalg.cho_factor(A), b), 10))
    print(round(linalg.det(A), 8), np.round(linalg.inv(A), 8), sep="\\n")
    T = np.array([[2.0, 0, 0], [1, 3, 0], [4, 5, 6]])
    print(np.round(linalg.solve_triangular(T, b, lower=True), 10))
    band = np.array([[0, -1, -1, -1], [2, 2, 2, 2], [-1, -1, -1, 0.0]])
    print(np.round(linalg.solve_banded((1, 1), band, np.ones(4)), 10))
    """,
)
_case(
    "sp_linalg_eig_svd_expm",
    """
    # tolerance: 8 decimals; eigenvector and singular-vector signs normalised before printing
    import numpy as np
    from scipy import linalg
    S = np.array([[4.0, 1, 2], [1, 3, 0], [2, 0, 5]])
    w, v = linalg.eigh(S)
    v = v * np.sign(v[np.argmax(np.abs(v), axis=0), range(3)])
    print(np.round(w, 8), np.round(v, 6), sep="\\n")
    M = np.array([[0.0, 1], [-2, -3]])
    ev = linalg.eigvals(M)
    print(np.round(np.sort_complex(ev), 8) + 0.0)
    R = np.array([[1.0, -2], [2, 1]])
    print(np.round(np.sort_complex(linalg.eigvals(R)), 8) + 0.0)
    B = np.arange(12.0).reshape(4, 3) + np.eye(4, 3)
    U, s, Vt = linalg.svd(B, full_matrices=False)
    print(np.round(s, 8), np.allclose((U * s) @ Vt, B), U.shape, Vt.shape)
    print(np.round(linalg.svdvals(B), 8), np.linalg.matrix_rank(B))
    print(np.round(linalg.expm(np.array([[0.0, 1], [-1, 0]]) * np.pi / 2), 10) + 0.0)
    print(np.round(linalg.expm(np.array([[1.0, 2], [0, 1]])), 8))
    X = np.column_stack([np.ones(6), np.arange(6.0)])
    yv = np.array([1.1, 2.9, 5.2, 7.1, 8.8, 11.2])
    coef, res, rank, sv = linalg.lstsq(X, yv)
    print(np.round(coef, 8), round(float(res), 8), rank, np.round(sv, 8))
    print(np.round(linalg.pinv(X)[:, :2], 8))
    print(round(linalg.norm(B), 8), round(linalg.norm(B, 1), 8), round(linalg.norm(B, 2), 8))
    print(np.round(linalg.sqrtm(S) @ linalg.sqrtm(S), 8) + 0.0)
    ns = linalg.null_space(np.array([[1.0, 1, 1], [1, 2, 3]]))
    print(np.round(ns * np.sign(ns[0, 0]), 8))
    """,
)
_case(
    "sp_linalg_singular_raises",
    """
    # raises on purpose: scipy.linalg.LinAlgError for a singular matrix
    import numpy as np
    from scipy import linalg
    A = np.array([[1.0, 2], [2, 4]])
    print("det:", linalg.det(A))
    try:
        linalg.cholesky(np.array([[1.0, 2], [2, 1]]))
    except linalg.LinAlgError as e:
        print("cholesky:", e)
    linalg.solve(A, [1.0, 2.0])
    """,
)

# --- scipy.sparse ------------------------------------------------------------------------------

_case(
    "sp_sparse_construction_arithmetic",
    """
    import numpy as np
    import scipy.sparse as sp
    rows = [0, 0, 1, 2, 2, 3]
    cols = [0, 2, 1, 0, 3, 3]
    data = [1.0, 2, 3, 4, 5, 6]
    A = sp.csr_array((data, (rows, cols)), shape=(4, 4))
    print(A.nnz, A.shape, A.format, A.indptr.tolist(), A.indices.tolist(), A.data.tolist())
    print(A.toarray())
    print(A)
    B = sp.identity(4, format="csr") * 2
    print((A + B).toarray(), (A @ A.T).toarray(), sep="\\n")
    print(A.multiply(A).sum(), A.sum(axis=0), A.sum(axis=1), A.max(), A.diagonal())
    print((A @ np.ones(4)).tolist(), (A * 3).data.tolist(), (A.T).format)
    M = sp.csr_matrix(np.array([[0, 0, 1], [2, 0, 0]]))
    print(type(M).__name__, M.todense(), (M @ M.T).toarray().tolist(), sp.issparse(M))
    lil = sp.lil_array((3, 3))
    lil[0, 1] = 5; lil[2, 2] = 7
    csc = lil.tocsc()
    print(csc.format, csc.nnz, csc.toarray().tolist())
    D = sp.diags([[-1] * 4, [2] * 5, [-1] * 4], [-1, 0, 1], format="csr")
    print(D.toarray())
    print(sp.kron(sp.eye(2), sp.csr_array([[1, 2]])).toarray(), sp.vstack([A[:1], A[3:]]).toarray(), sep="\\n")
    R = sp.random_array((6, 5), density=0.3, rng=np.random.default_rng(0), format="csr")
    print(R.nnz, np.round(R.toarray(), 6))
    print(A[1:3, :].toarray(), A[[0, 3]].toarray(), A[2, 3], sep="\\n")
    A2 = A.copy(); A2[0, 0] = 0; A2.eliminate_zeros()
    print(A2.nnz, sp.find(A2)[0].tolist())
    """,
)
_case(
    "sp_sparse_linalg",
    """
    # tolerance: 8 decimals for direct solves, 6 for ARPACK eigenvalues and iterative solvers
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
    n = 50
    L = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csc")
    b = np.ones(n)
    x = spla.spsolve(L, b)
    print(np.round(x[:3], 8), round(x.max(), 8), np.allclose(L @ x, b))
    lu = spla.splu(L)
    print(np.round(lu.solve(b)[-3:], 8), lu.shape)
    exact = 2 - 2 * np.cos(np.arange(1, n + 1) * np.pi / (n + 1))
    vals = spla.eigsh(L, k=3, which="LM", v0=np.ones(n) / np.sqrt(n), return_eigenvectors=False)
    print(np.round(np.sort(vals), 6), np.round(exact[-3:], 6))
    small = spla.eigsh(L, k=2, sigma=0, which="LM", v0=np.ones(n), return_eigenvectors=False)
    print(np.round(np.sort(small), 6), np.round(exact[:2], 6))
    xc, info = spla.cg(L, b, rtol=1e-10, maxiter=500)
    print("cg", info, np.round(xc[:3], 6), np.linalg.norm(L @ xc - b) < 1e-6)
    xg, info = spla.gmres(L, b, rtol=1e-10, restart=60)
    print("gmres", info, np.round(xg[:3], 6))
    res = spla.lsqr(L, b, atol=1e-12, btol=1e-12)
    print("lsqr", res[1], np.round(res[0][:3], 6))
    print(round(spla.norm(L), 8), round(spla.norm(L, 1), 8), spla.onenormest(L))
    vals_s = spla.svds(sp.csr_array(np.arange(20.0).reshape(5, 4) + np.eye(5, 4)), k=2, v0=np.ones(4), return_singular_vectors=False)
    print(np.round(np.sort(vals_s), 6))
    print(np.round(spla.expm_multiply(-L[:5, :5], np.ones(5)), 8))
    """,
)
_case(
    "sp_sparse_csgraph",
    """
    import numpy as np
    import scipy.sparse as sp
    from scipy.sparse import csgraph
    edges = [(0, 1, 4.0), (0, 2, 1.0), (2, 1, 2.0), (1, 3, 1.0), (2, 3, 5.0), (3, 4, 3.0), (5, 6, 1.0)]
    r, c, w = zip(*edges)
    G = sp.csr_array((w, (r, c)), shape=(7, 7))
    dist, pred = csgraph.shortest_path(G, method="D", directed=False, return_predecessors=True)
    print(dist[0].tolist())
    path, node = [], 4
    while node != -9999:
        path.append(int(node)); node = pred[0, node]
    print("path 0->4:", path[::-1])
    n, labels = csgraph.connected_components(G, directed=False)
    print(n, labels.tolist())
    mst = csgraph.minimum_spanning_tree(G)
    print("mst weight", mst.sum(), mst.nnz)
    print(csgraph.breadth_first_order(G, 0, directed=False, return_predecessors=False).tolist())
    print(csgraph.dijkstra(G, indices=[0, 5], directed=True)[:, :5].tolist())
    lap = csgraph.laplacian(G.toarray() + G.toarray().T)
    print(lap.diagonal().tolist())
    order = csgraph.reverse_cuthill_mckee(sp.csr_array(G + G.T), symmetric_mode=True)
    print(order.tolist())
    """,
)

# --- scipy.spatial -----------------------------------------------------------------------------

_case(
    "sp_spatial_kdtree",
    """
    # tolerance: distances 8 decimals
    import numpy as np
    from scipy.spatial import KDTree, cKDTree
    rng = np.random.default_rng(2)
    pts = rng.random((200, 3))
    q = rng.random((4, 3))
    tree = KDTree(pts, leafsize=10)
    d, i = tree.query(q, k=3)
    print(np.round(d, 8), i.tolist(), sep="\\n")
    print(sorted(tree.query_ball_point(q[0], r=0.2)))
    pairs = tree.query_pairs(0.05)
    print(len(pairs), sorted(pairs)[:5])
    other = cKDTree(rng.random((50, 3)))
    print(tree.count_neighbors(other, [0.1, 0.2, 0.3]).tolist())
    sdm = tree.sparse_distance_matrix(other, 0.1)
    print(sdm.nnz, round(sum(sdm.values()), 8))
    d1, i1 = cKDTree(pts).query([0.5, 0.5, 0.5], k=1, p=1)
    print(round(float(d1), 8), int(i1))
    d_inf, i_inf = tree.query(q[:2], k=2, distance_upper_bound=0.1)
    print(np.round(d_inf, 8).tolist(), i_inf.tolist())
    """,
)
_case(
    "sp_spatial_distance",
    """
    # tolerance: 6 decimals (sqrt(20) = 4.4721359549995..., next to an 8-decimal boundary)
    import numpy as np
    from scipy.spatial import distance
    X = np.array([[0.0, 0], [3, 4], [6, 8], [1, 7]])
    for metric in ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "cosine", "correlation", "minkowski"]:
        kw = {"p": 3} if metric == "minkowski" else {}
        print(f"{metric:12s}", np.round(distance.pdist(X, metric, **kw), 6) + 0.0)
    D = distance.squareform(distance.pdist(X))
    print(np.round(D, 6), distance.squareform(D).shape, sep="\\n")
    Y = np.array([[1.0, 1], [5, 5]])
    print(np.round(distance.cdist(X, Y), 6))
    print(np.round(distance.cdist(X, Y, "mahalanobis", VI=np.eye(2) * 0.5), 6))
    B = np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 1, 1]], dtype=bool)
    print(np.round(distance.pdist(B, "jaccard"), 6), np.round(distance.pdist(B, "hamming"), 6))
    print(distance.euclidean([1, 2], [4, 6]), round(distance.cosine([1, 0], [1, 1]), 6), distance.cityblock([1, 2], [4, 6]))
    i, j = np.unravel_index(np.argmax(D), D.shape)
    print("farthest pair", int(i), int(j))
    """,
)
_case(
    "sp_spatial_hull_delaunay_voronoi",
    """
    # tolerance: areas 8 decimals; simplices printed sorted (Qhull's order is its own)
    import numpy as np
    from scipy.spatial import ConvexHull, Delaunay, Voronoi, HalfspaceIntersection
    rng = np.random.default_rng(4)
    pts = rng.random((30, 2))
    hull = ConvexHull(pts)
    print(sorted(hull.vertices.tolist()), round(hull.volume, 8), round(hull.area, 8), hull.simplices.shape)
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=float)
    h3 = ConvexHull(np.vstack([cube, [[0.5, 0.5, 0.5]]]))
    print(round(h3.volume, 8), round(h3.area, 8), sorted(h3.vertices.tolist()), len(h3.simplices))
    tri = Delaunay(pts)
    print(tri.simplices.shape, sorted(sorted(s) for s in tri.simplices.tolist())[:4])
    print((tri.find_simplex(np.array([[0.5, 0.5], [2.0, 2.0]])) >= 0).tolist())
    sq = Delaunay(np.array([[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.5]]))
    print(len(sq.simplices), sorted(sorted(s) for s in sq.simplices.tolist()))
    grid = np.array([[x, y] for x in range(3) for y in range(3)], dtype=float)
    vor = Voronoi(grid)
    print(len(vor.vertices), sorted(map(tuple, np.round(vor.vertices, 8).tolist())), len(vor.ridge_points))
    halfspaces = np.array([[-1, 0, 0], [0, -1, 0], [1, 1, -2.0]])
    hs = HalfspaceIntersection(halfspaces, np.array([0.5, 0.5]))
    print(sorted(map(tuple, (np.round(hs.intersections, 8) + 0.0).tolist())))
    """,
)

# --- scipy.special, scipy.fft ---------------------------------------------------------------------

_case(
    "sp_special_functions",
    """
    # tolerance: 9 significant digits (special functions use libm; erf(1) = 0.84270079294971...
    # is next to a 10-digit boundary)
    import numpy as np
    from scipy import special
    fmt = lambda a: [f"{v:.9g}" for v in np.atleast_1d(a)]
    print(fmt(special.gamma([0.5, 5, 7.5])), fmt(special.gammaln(100)), fmt(special.beta(2.5, 3.5)))
    print(fmt(special.erf([0.5, 1, 2])), fmt(special.erfc(3)), fmt(special.erfinv(0.5)))
    print(special.comb(10, 3), special.comb(50, 25, exact=True), special.perm(6, 2), special.factorial(10, exact=True), special.binom(7.5, 2))
    print(fmt(special.jv(0, [1, 2.5])), fmt(special.yv(1, 2)), fmt(special.iv(1, 1.5)), fmt(special.kv(0, 2)))
    print(fmt(special.expit([-2, 0, 3])), fmt(special.logit(0.8)), fmt(special.logsumexp([1000, 1000.5])), fmt(special.softmax([1, 2, 3])))
    print(fmt(special.zeta(2)), fmt(special.ellipk(0.5)), fmt(special.lambertw(1).real), fmt(special.eval_legendre(3, 0.5)))
    print(fmt(special.gammainc(2, 1.5)), fmt(special.gammaincinv(2, 0.5)), fmt(special.betainc(2, 3, 0.4)), fmt(special.digamma(1)))
    print(fmt(special.ndtr(1.0)), fmt(special.ndtri(0.9)), fmt(special.xlogy([0, 2], [0, 3])), fmt(special.sinc(0.5)))
    print((np.round(special.legendre(3).coeffs, 9) + 0.0).tolist(), fmt(special.sph_harm_y(1, 0, 0.5, 0.0).real), fmt(special.airy(1.0)[0]))
    print(special.gamma(0), special.gamma(-1), special.log_ndtr(-40) < -800)
    """,
)
_case(
    "sp_special_integer_orders",
    """
    # tolerance: 9 significant digits (special functions use libm)
    # The functions whose order or count is an integer, called with Python ints and int64 arrays
    # as model code does: their integer loops, with no warning (wasm32's C long is 32 bits).
    import warnings
    import numpy as np
    from scipy import special
    fmt = lambda a: [f"{v:.9g}" for v in np.atleast_1d(a)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        print(fmt(special.eval_hermite(3, 0.5)), fmt(special.eval_hermitenorm(4, 1.5)))
        print(fmt(special.eval_hermite(np.arange(6), 0.7)), special.eval_hermite(np.arange(3), 0.7).dtype)
        print(fmt(special.eval_legendre(7, 0.3)), fmt(special.eval_laguerre(4, 1.2)), fmt(special.eval_chebyt(5, 0.3)))
        print(fmt(special.eval_genlaguerre(3, 0.5, 2.0)), fmt(special.eval_jacobi(3, 0.5, 1.5, 0.2)), fmt(special.eval_gegenbauer(4, 0.75, 0.4)))
        print(fmt(special.kn(2, 1.5)), fmt(special.yn(3, 2.0)), fmt(special.expn(2, 1.0)))
        print(fmt(special.bdtr(3, 10, 0.5)), fmt(special.bdtrc(3, 10, 0.5)), fmt(special.bdtri(3, 10, 0.4)))
        print(fmt(special.nbdtr(2, 5, 0.4)), fmt(special.pdtri(3, 0.5)), fmt(special.smirnov(5, 0.3)), fmt(special.smirnovi(5, 0.2)))
        print(fmt(special.bdtr(np.array([1, 2, 3]), np.array([10, 10, 10]), 0.3)))
    print(fmt(special.eval_hermite(-1, 0.5)), fmt(special.kn(np.int32(2), 1.5)))
    # an explicit loop by type codes: intp's, as scipy's own tests ask for it
    n = np.arange(4).astype(np.intp)
    print(fmt(special.eval_chebyt(n, 0.3, sig=n.dtype.char + "d->d")), fmt(special.eval_chebyt(n, 0.3, sig="dd->d")))
    """,
)
_case(
    "sp_signal_peak_widths_of_given_peaks",
    """
    # tolerance: 6 decimals on widths and prominences
    # peaks the caller lists (Python ints: int64), not find_peaks' output (intp)
    import numpy as np
    from scipy import signal
    x = np.sin(np.linspace(0, 4 * np.pi, 200)) + np.linspace(0, 1, 200)
    peaks = [26, 126, 60]  # two maxima and a point on a slope (prominence 0, and a warning)
    prom, left, right = signal.peak_prominences(x, peaks)
    print(np.round(prom, 6).tolist(), left.tolist(), right.tolist())
    print(np.round(signal.peak_widths(x, np.array(peaks), rel_height=0.5)[0], 6).tolist())
    for bad in ([500], [10**12], [-3]):
        try:
            signal.peak_widths(x, bad)
        except ValueError as e:
            print("ValueError:", e)
    """,
)
_case(
    "sp_fft_set_backend",
    """
    # tolerance: 8 decimals (pocketfft)
    # scipy.fft's backend control keys its cache by threading.get_native_id()
    import os, threading
    import numpy as np
    from scipy import fft
    with fft.set_backend("scipy", only=True):
        print(np.round(fft.fft([1.0, 2, 3, 4]), 8) + 0.0)
    with fft.set_backend("scipy"):
        print(np.round(fft.irfft([10.0, -2 + 2j, -2]), 8) + 0.0)
    print(threading.get_native_id() == os.getpid(), threading.main_thread().native_id == threading.get_native_id())
    """,
)
_case(
    "sp_fft_transforms",
    """
    # tolerance: 8 decimals (pocketfft; -0.0 normalised)
    import numpy as np
    from scipy import fft
    x = np.array([1.0, 2, 0, -1, 1.5, 0.5, -2, 3])
    X = fft.fft(x)
    print(np.round(X, 8) + 0.0)
    print(np.round(fft.rfft(x), 8) + 0.0)
    print(np.allclose(fft.irfft(fft.rfft(x), n=8), x), np.allclose(fft.ifft(X).real, x))
    print(fft.fftfreq(8, d=0.1), fft.rfftfreq(8, d=0.1), fft.fftshift(np.arange(6)).tolist())
    c = fft.dct(x, norm="ortho")
    print(np.round(c, 8) + 0.0, np.allclose(fft.idct(c, norm="ortho"), x))
    print(np.round(fft.dst(x[:4], type=2), 8) + 0.0)
    img = np.arange(9.0).reshape(3, 3)
    print(np.round(fft.fft2(img), 8) + 0.0)
    print(fft.next_fast_len(1000), fft.next_fast_len(1021, real=True))
    t = np.arange(256) / 256
    sig = np.sin(2 * np.pi * 12 * t) + 0.25 * np.cos(2 * np.pi * 40 * t)
    spec = np.abs(fft.rfft(sig)) / 128
    print(np.argsort(spec)[-2:].tolist(), np.round(np.sort(spec)[-2:], 8))
    """,
)

# --- scipy.ndimage -----------------------------------------------------------------------------

_case(
    "sp_ndimage_filters_zoom",
    """
    # tolerance: 6 decimals
    import numpy as np
    from scipy import ndimage
    rng = np.random.default_rng(9)
    img = rng.integers(0, 10, (6, 6)).astype(float)
    print(img)
    print(np.round(ndimage.gaussian_filter(img, sigma=1), 6))
    print(ndimage.median_filter(img, size=3), ndimage.maximum_filter(img, size=2)[0], sep="\\n")
    print(np.round(ndimage.uniform_filter(img, size=3)[2], 6), ndimage.minimum_filter1d(img[0], 3))
    print(ndimage.sobel(img, axis=0)[2], ndimage.laplace(img)[3], ndimage.convolve(img, np.ones((3, 3)), mode="constant")[1])
    small = np.arange(9.0).reshape(3, 3)
    print(np.round(ndimage.zoom(small, 2, order=1), 6))
    print(np.round(ndimage.zoom(small, 1.5, order=3), 6))
    print(np.round(ndimage.rotate(small, 90), 6) + 0.0, ndimage.shift(small, (0, 1), order=0), sep="\\n")
    print(np.round(ndimage.map_coordinates(small, [[0.5, 1.5], [0.5, 1.0]], order=1), 8))
    print(np.round(ndimage.gaussian_filter1d(np.r_[np.zeros(5), 1.0, np.zeros(5)], 1.5), 6))
    """,
)
_case(
    "sp_ndimage_label_measure_morphology",
    """
    # tolerance: 8 decimals for centres of mass and distances
    import numpy as np
    from scipy import ndimage
    img = np.zeros((8, 8))
    img[1:3, 1:4] = 1
    img[5:7, 5:7] = 2
    img[4, 0] = 3
    img[6, 1:3] = 1.5
    lab, n = ndimage.label(img > 0)
    print(n, lab, sep="\\n")
    print(ndimage.find_objects(lab))
    idx = np.arange(1, n + 1)
    print(ndimage.sum_labels(img, lab, idx).tolist(), ndimage.mean(img, lab, idx).tolist())
    print([tuple(round(float(c), 8) for c in com) for com in ndimage.center_of_mass(img, lab, idx)])
    print(np.bincount(lab.ravel()).tolist(), [tuple(int(i) for i in pos) for pos in ndimage.maximum_position(img, lab, idx)])
    lab8, n8 = ndimage.label(img > 0, structure=np.ones((3, 3)))
    print("8-connected:", n8)
    mask = img > 0
    print(ndimage.binary_dilation(mask).sum(), ndimage.binary_erosion(mask).sum(), ndimage.binary_opening(mask).sum(), ndimage.binary_closing(mask).sum())
    ring = np.ones((5, 5), bool); ring[2, 2] = False
    print(ndimage.binary_fill_holes(ring).all())
    edt = ndimage.distance_transform_edt(np.pad(np.ones((3, 5)), 1))
    print(np.round(edt, 8))
    print(ndimage.distance_transform_cdt(np.pad(np.ones((3, 3)), 1), metric="taxicab")[2].tolist())
    print(ndimage.grey_dilation(np.eye(4), size=(2, 2)).astype(int).tolist())
    """,
)

# --- scipy.cluster -----------------------------------------------------------------------------

_case(
    "sp_cluster_kmeans2_vq",
    """
    # tolerance: centroids 4 decimals, sorted (cluster numbering is arbitrary)
    import numpy as np
    from scipy.cluster.vq import kmeans2, kmeans, vq, whiten
    rng = np.random.default_rng(8)
    data = np.vstack([rng.normal(c, 0.3, (30, 2)) for c in ([0, 0], [3, 3], [0, 4])])
    centroids, labels = kmeans2(data, 3, minit="++", rng=np.random.default_rng(1))
    order = np.lexsort((centroids[:, 1], centroids[:, 0]))
    print(np.round(centroids[order], 4) + 0.0)
    print(sorted(np.bincount(labels).tolist()))
    code, dist = vq(data[[0, 30, 60]], centroids)
    print(len(set(code.tolist())), np.round(dist, 6))
    w = whiten(data)
    print(np.round(w.std(axis=0), 8))
    cb, distortion = kmeans(w, 3, rng=np.random.default_rng(3))
    print(cb.shape, round(float(distortion), 4))
    pts = np.array([[0.0], [0.1], [0.2], [5.0], [5.1]])
    c2, l2 = kmeans2(pts, np.array([[0.0], [5.0]]), minit="matrix")
    print(np.round(c2.ravel(), 8).tolist(), l2.tolist())
    """,
)
_case(
    "sp_cluster_hierarchy",
    """
    # tolerance: merge heights 6 decimals
    import numpy as np
    from scipy.cluster.hierarchy import linkage, fcluster, dendrogram, cophenet, leaves_list, cut_tree, is_valid_linkage
    from scipy.spatial.distance import pdist
    rng = np.random.default_rng(12)
    X = np.vstack([rng.normal(c, 0.4, (5, 2)) for c in ([0, 0], [4, 0], [2, 4])])
    Z = linkage(X, method="ward")
    print(np.round(Z, 6))
    print(is_valid_linkage(Z), fcluster(Z, 3, criterion="maxclust").tolist())
    print(fcluster(Z, t=2.0, criterion="distance").tolist())
    d = dendrogram(Z, no_plot=True)
    print(d["ivl"], leaves_list(Z).tolist())
    c, coph = cophenet(Z, pdist(X))
    print(round(float(c), 8), np.round(coph[:5], 6))
    for method in ("single", "complete", "average", "centroid"):
        Zm = linkage(X, method=method)
        print(method, np.round(Zm[-3:, 2], 6), fcluster(Zm, 3, "maxclust").tolist())
    print(cut_tree(Z, n_clusters=[2, 4])[:6].tolist())
    """,
)

# --- scipy.io, scipy.odr -----------------------------------------------------------------------

_case(
    "sp_io_matlab",
    """
    import os
    import numpy as np
    from scipy.io import savemat, loadmat, whosmat
    fname = "sp_io_matlab_data.mat"
    savemat(fname, {"A": np.arange(6.0).reshape(2, 3), "name": "cove", "v": np.array([1, 2, 3], dtype=np.int32),
                    "s": {"x": 1.5, "tags": ["ab", "cd"]}, "flag": True})
    print(whosmat(fname))
    m = loadmat(fname)
    print(sorted(k for k in m if not k.startswith("__")), m["__version__"], m["A"], m["A"].dtype, m["name"], m["v"], m["v"].dtype)
    s = loadmat(fname, simplify_cells=True)
    print(s["s"], s["flag"], s["v"].tolist())
    savemat("sp_io_matlab_compressed.mat", {"big": np.zeros((50, 50))}, do_compression=True)
    print(loadmat("sp_io_matlab_compressed.mat")["big"].shape, os.path.getsize("sp_io_matlab_compressed.mat") < 2000)
    savemat("sp_io_matlab_v4.mat", {"M": np.eye(2)}, format="4")
    print(loadmat("sp_io_matlab_v4.mat")["M"])
    """,
)
_case(
    "sp_io_mmio_wavfile",
    """
    import os
    import numpy as np
    import scipy.sparse as sp
    from scipy.io import mmwrite, mmread, mminfo, wavfile
    A = sp.coo_array(([1.5, -2.0, 3.25, 4.0], ([0, 1, 2, 2], [0, 2, 1, 3])), shape=(3, 4))
    mmwrite("sp_io_mmio_matrix.mtx", A, comment="written by a test")
    print(open("sp_io_mmio_matrix.mtx").read())
    print(mminfo("sp_io_mmio_matrix.mtx"))
    B = mmread("sp_io_mmio_matrix.mtx")
    print(type(B).__name__, B.toarray().tolist())
    mmwrite("sp_io_mmio_dense.mtx", np.array([[1, 2], [3, 4]]))
    print(open("sp_io_mmio_dense.mtx").read().splitlines()[0], mmread("sp_io_mmio_dense.mtx").tolist())
    mmwrite("sp_io_mmio_sym.mtx", sp.coo_array(np.array([[2.0, 1], [1, 3]])), symmetry="symmetric")
    print(mminfo("sp_io_mmio_sym.mtx"), mmread("sp_io_mmio_sym.mtx").toarray().tolist())
    fs = 8000
    n = np.arange(800)
    tone = np.round(0.5 * 32767 * np.sin(2 * np.pi * 440 * n / fs)).astype(np.int16)
    wavfile.write("sp_io_wavfile_tone.wav", fs, tone)
    rate, data = wavfile.read("sp_io_wavfile_tone.wav")
    print(rate, data.dtype, data.shape, np.array_equal(data, tone), os.path.getsize("sp_io_wavfile_tone.wav"))
    stereo = np.column_stack([np.linspace(-1, 1, 100), np.linspace(1, -1, 100)]).astype(np.float32)
    wavfile.write("sp_io_wavfile_stereo.wav", 22050, stereo)
    rate2, data2 = wavfile.read("sp_io_wavfile_stereo.wav")
    print(rate2, data2.dtype, data2.shape, np.array_equal(data2, stereo))
    """,
)
_case(
    "sp_odr_orthogonal_fit",
    """
    # tolerance: 4 significant digits (3 for the standard errors): even with tight sstol/partol the
    # fit moves by up to ~4e-7 (relative) between OpenBLAS kernels; scipy.odr is deprecated in 1.17
    # (its DeprecationWarning is attributed to scipy's lazy loader, so the default filters hide it)
    import numpy as np
    from scipy import odr
    rng = np.random.default_rng(13)
    x_true = np.linspace(0, 10, 25)
    x = x_true + rng.normal(0, 0.2, x_true.size)
    y = 1.7 * x_true - 2.0 + rng.normal(0, 0.3, x_true.size)
    linear = odr.Model(lambda beta, x: beta[0] * x + beta[1])
    out = odr.ODR(odr.RealData(x, y, sx=0.2, sy=0.3), linear, beta0=[1.0, 0.0], sstol=1e-14, partol=1e-14).run()
    print([f"{v:.4g}" for v in out.beta], [f"{v:.3g}" for v in out.sd_beta], out.info <= 3)
    quad = odr.ODR(odr.Data(x, 0.1 * x ** 2 + y), odr.quadratic, beta0=[0.1, 1.0, 0.0], sstol=1e-14, partol=1e-14).run()
    print([f"{v:.4g}" for v in quad.beta])
    """,
)
