"""scikit-learn 1.6.1 snippets for the differential suite (test_scipy_differential.py): the same
code natively and in the guest, written and validated as scipy_cases.py's are (its docstring
says how: model-style, seeded, rounded where BLAS, libm or an iterative solver's stopping point
moves the last digits, each case's tolerance in a `# tolerance:` comment).

`n_jobs=-1` runs sequentially in the guest (joblib sees one CPU) and natively in threads or
processes; the cases print nothing that depends on the order of the jobs. sk_not_fitted_raises
and sk_fetch_california_housing_offline raise on purpose (the runner records the exception).
"""

from __future__ import annotations

import textwrap

from tests.integration.scientific.cases import Case

CASES: list[Case] = []


def _case(name: str, code: str, tail: str = "") -> None:
    CASES.append(Case(name, textwrap.dedent(code).strip() + "\n" + tail.lstrip("\n")))


# --- scikit-learn: data ------------------------------------------------------------------------

_case(
    "sk_datasets_toy",
    """
    import numpy as np
    from sklearn.datasets import load_iris, load_digits, load_diabetes, load_wine, load_breast_cancer
    for loader in (load_iris, load_digits, load_diabetes, load_wine, load_breast_cancer):
        d = loader()
        print(loader.__name__, d.data.shape, d.target.shape, d.data.dtype, list(d.feature_names)[:3], np.unique(d.target).size)
    iris = load_iris(as_frame=True)
    print(iris.frame.head(3))
    print(iris.target_names.tolist(), iris.frame["target"].value_counts().sort_index().tolist())
    digits = load_digits()
    print(digits.images.shape, np.bincount(digits.target).tolist(), digits.images[0][2].tolist())
    X, y = load_diabetes(return_X_y=True, scaled=False)
    print(X[0].tolist(), y[:5].tolist())
    wine = load_wine(as_frame=True)
    print(wine.data.iloc[:2, :4])
    bc = load_breast_cancer()
    print(bc.target_names.tolist(), np.bincount(bc.target).tolist(), bc.DESCR.splitlines()[2])
    """,
)
_case(
    "sk_datasets_generated",
    """
    # tolerance: 6 decimals (make_classification/make_regression multiply with BLAS)
    import numpy as np
    from sklearn.datasets import make_classification, make_regression, make_blobs, make_moons, make_circles
    X, y = make_classification(n_samples=200, n_features=6, n_informative=3, n_redundant=1, random_state=0)
    print(X.shape, np.bincount(y).tolist(), np.round(X[0], 6))
    Xr, yr, coef = make_regression(n_samples=50, n_features=4, noise=0.5, coef=True, random_state=1)
    print(Xr.shape, np.round(coef, 6), np.round(yr[:3], 6))
    Xb, yb = make_blobs(n_samples=[20, 30, 10], centers=None, random_state=2)
    print(Xb.shape, np.bincount(yb).tolist(), np.round(Xb[:2], 6))
    Xm, ym = make_moons(n_samples=100, noise=0.1, random_state=3)
    Xc, yc = make_circles(n_samples=100, factor=0.5, noise=0.05, random_state=4)
    print(np.round(Xm[:2], 6), np.round(Xc[:2], 6), ym[:10].tolist(), yc[:10].tolist())
    """,
)
_case(
    "sk_sampling_without_replacement",
    """
    # tolerance: 6 decimals (make_classification multiplies with BLAS; tree scores)
    # make_classification's defaults (2 informative features: a hypercube of 4 vertices, drawn
    # without replacement), bagging and IsolationForest all sample through
    # sklearn.utils.random.sample_without_replacement
    import numpy as np
    from sklearn.datasets import make_classification
    from sklearn.ensemble import BaggingClassifier, IsolationForest
    from sklearn.utils.random import sample_without_replacement
    X, y = make_classification(n_samples=300, n_classes=2, random_state=0)
    print(X.shape, np.bincount(y).tolist(), np.round(X[0, :4], 6))
    # the int64 of 64-bit Linux (the "auto" method's permutation is numpy's legacy C long: int32
    # in the guest, docs/packages.md)
    s = sample_without_replacement(100, 90, method="reservoir_sampling", random_state=0)
    print(s[:10].tolist(), s.dtype)
    for method in ("tracking_selection", "reservoir_sampling", "pool", "auto"):
        print(method, sample_without_replacement(50, 8, method=method, random_state=1).tolist())
    bag = BaggingClassifier(n_estimators=10, max_samples=0.5, max_features=0.5, random_state=0).fit(X, y)
    print("bagging", round(bag.score(X, y), 6), bag.estimators_features_[0].tolist())
    iso = IsolationForest(n_estimators=50, random_state=0).fit(X)
    print("iforest", np.round(iso.score_samples(X[:4]), 6).tolist(), int((iso.predict(X) == -1).sum()))
    """,
)
_case(
    "sk_fetch_california_housing_offline",
    """
    # raises on purpose: a download-only dataset; data_home is a fresh empty directory and
    # download_if_missing=False, so natively it does not touch the network either (OSError)
    import os
    from sklearn.datasets import fetch_california_housing
    home = os.path.abspath("sk_fetch_california_housing_home")
    print("cached before:", os.path.exists(os.path.join(home, "cal_housing.pkz")))
    housing = fetch_california_housing(data_home=home, download_if_missing=False)
    print(housing.data.shape)
    """,
)
_case(
    "sk_split_and_preprocessing",
    """
    # tolerance: 8 decimals
    import numpy as np
    import pandas as pd
    from sklearn.datasets import load_iris
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler, MinMaxScaler, OneHotEncoder, LabelEncoder, OrdinalEncoder, RobustScaler
    X, y = load_iris(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=42, stratify=y)
    print(Xtr.shape, Xte.shape, np.bincount(yte).tolist(), Xte[:2].tolist())
    sc = StandardScaler().fit(Xtr)
    print(np.round(sc.mean_, 8), np.round(sc.scale_, 8), np.round(sc.transform(Xte[:2]), 8), sep="\\n")
    mm = MinMaxScaler().fit(Xtr)
    print(np.round(mm.transform(Xte[:2]), 8), mm.data_min_.tolist(), mm.data_max_.tolist())
    print(np.round(RobustScaler().fit_transform(X[:5]), 8))
    df = pd.DataFrame({"color": ["red", "green", "blue", "green"], "size": ["S", "M", "L", "M"]})
    ohe = OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(df)
    print(ohe.get_feature_names_out().tolist(), ohe.categories_)
    print(ohe.transform(pd.DataFrame({"color": ["green", "purple"], "size": ["L", "XL"]})))
    print(OneHotEncoder(drop="first").fit_transform(df).toarray().astype(int).tolist())
    le = LabelEncoder().fit(["paris", "tokyo", "paris", "amsterdam"])
    print(le.classes_.tolist(), le.transform(["tokyo", "amsterdam"]).tolist(), le.inverse_transform([0, 1]).tolist())
    oe = OrdinalEncoder(categories=[["S", "M", "L"]])
    print(oe.fit_transform(df[["size"]]).ravel().tolist())
    a, b = train_test_split(np.arange(10), test_size=0.2, shuffle=False)
    print(a.tolist(), b.tolist())
    """,
)

# --- scikit-learn: supervised models -----------------------------------------------------------

_case(
    "sk_linear_regression_family",
    """
    # tolerance: coefficients 4 decimals, scores 6 (lstsq / coordinate descent on BLAS)
    import numpy as np
    from sklearn.datasets import load_diabetes
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LinearRegression, Ridge, Lasso, ElasticNet, RidgeCV, LassoCV
    from sklearn.metrics import r2_score, mean_squared_error
    X, y = load_diabetes(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=0)
    for model in (LinearRegression(), Ridge(alpha=1.0), Lasso(alpha=0.1), ElasticNet(alpha=0.01, l1_ratio=0.5)):
        model.fit(Xtr, ytr)
        pred = model.predict(Xte)
        print(type(model).__name__, np.round(model.coef_, 2).tolist()[:5], round(float(model.intercept_), 3),
              f"r2={r2_score(yte, pred):.6f} mse={mean_squared_error(yte, pred):.4f} nonzero={int(np.sum(model.coef_ != 0))}")
    rcv = RidgeCV(alphas=[0.01, 0.1, 1.0, 10.0]).fit(Xtr, ytr)
    print("RidgeCV alpha", rcv.alpha_)
    lcv = LassoCV(cv=5, random_state=0, n_alphas=30).fit(Xtr, ytr)
    print(f"LassoCV alpha={lcv.alpha_:.5g}", round(lcv.score(Xte, yte), 5))
    simple = LinearRegression().fit([[1], [2], [3], [4]], [3, 5, 7, 9])
    print(round(float(simple.coef_[0]), 10), round(float(simple.intercept_), 10), simple.predict([[10]]).round(8))
    """,
)
_case(
    "sk_logistic_regression",
    """
    # tolerance: probabilities 4 decimals, coefficients 3 (lbfgs stops at its tolerance)
    import numpy as np
    from sklearn.datasets import load_iris, load_breast_cancer
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import accuracy_score
    X, y = load_iris(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=1, stratify=y)
    sc = StandardScaler().fit(Xtr)
    clf = LogisticRegression(max_iter=1000).fit(sc.transform(Xtr), ytr)
    pred = clf.predict(sc.transform(Xte))
    print("iris accuracy", round(accuracy_score(yte, pred), 6), clf.classes_.tolist(), clf.coef_.shape)
    print(np.round(clf.coef_, 3))
    print(np.round(clf.predict_proba(sc.transform(Xte[:3])), 4))
    Xb, yb = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(Xb, yb, test_size=0.25, random_state=0)
    scb = StandardScaler().fit(Xtr)
    for solver in ("lbfgs", "liblinear", "newton-cg", "saga"):
        m = LogisticRegression(solver=solver, C=0.5, max_iter=5000, random_state=0).fit(scb.transform(Xtr), ytr)
        print(f"{solver:10s} acc={m.score(scb.transform(Xte), yte):.6f} intercept={m.intercept_[0]:.3f}")
    l1 = LogisticRegression(penalty="l1", solver="liblinear", C=0.1).fit(scb.transform(Xtr), ytr)
    print("l1 nonzero coefs:", int(np.sum(l1.coef_ != 0)))
    """,
)
_case(
    "sk_decision_trees",
    """
    # tolerance: importances 6 decimals
    import numpy as np
    from sklearn.datasets import load_iris, load_diabetes
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor, export_text
    from sklearn.model_selection import train_test_split
    iris = load_iris()
    Xtr, Xte, ytr, yte = train_test_split(iris.data, iris.target, test_size=0.3, random_state=0)
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(Xtr, ytr)
    print(export_text(tree, feature_names=list(iris.feature_names)))
    print(tree.get_depth(), tree.get_n_leaves(), round(tree.score(Xte, yte), 6), np.round(tree.feature_importances_, 6))
    print(tree.predict(Xte[:8]).tolist(), np.round(tree.predict_proba(Xte[:2]), 6))
    full = DecisionTreeClassifier(random_state=0, criterion="entropy").fit(Xtr, ytr)
    print(full.get_depth(), full.get_n_leaves(), round(full.score(Xte, yte), 6))
    path = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(Xtr, ytr)
    print(np.round(path.ccp_alphas, 6))
    X, y = load_diabetes(return_X_y=True)
    reg = DecisionTreeRegressor(max_depth=4, min_samples_leaf=5, random_state=0).fit(X[:300], y[:300])
    print(reg.get_n_leaves(), round(reg.score(X[300:], y[300:]), 6), np.round(reg.predict(X[300:303]), 6))
    """,
)
_case(
    "sk_random_forest",
    """
    # tolerance: importances 6 decimals; n_jobs=-1 must work (sequentially in the guest)
    import numpy as np
    from sklearn.datasets import load_breast_cancer, load_diabetes
    from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor, ExtraTreesClassifier
    from sklearn.model_selection import train_test_split
    data = load_breast_cancer()
    Xtr, Xte, ytr, yte = train_test_split(data.data, data.target, test_size=0.25, random_state=42)
    rf = RandomForestClassifier(n_estimators=60, random_state=0, n_jobs=-1, oob_score=True).fit(Xtr, ytr)
    print(f"accuracy={rf.score(Xte, yte):.6f} oob={rf.oob_score_:.6f}")
    top = np.argsort(rf.feature_importances_)[::-1][:5]
    print([(data.feature_names[i], round(float(rf.feature_importances_[i]), 6)) for i in top])
    print(np.round(rf.predict_proba(Xte[:3]), 6))
    et = ExtraTreesClassifier(n_estimators=40, random_state=0).fit(Xtr, ytr)
    print(f"extra trees accuracy={et.score(Xte, yte):.6f}")
    X, y = load_diabetes(return_X_y=True)
    rfr = RandomForestRegressor(n_estimators=40, max_depth=6, random_state=0, n_jobs=-1).fit(X[:350], y[:350])
    print(f"regressor r2={rfr.score(X[350:], y[350:]):.6f}", np.round(rfr.predict(X[350:353]), 6))
    """,
)
_case(
    "sk_gradient_boosting",
    """
    # tolerance: scores 6 decimals, predictions 4
    import numpy as np
    from sklearn.datasets import load_breast_cancer, load_diabetes
    from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor, HistGradientBoostingClassifier, HistGradientBoostingRegressor, AdaBoostClassifier
    from sklearn.model_selection import train_test_split
    X, y = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=0)
    gb = GradientBoostingClassifier(n_estimators=80, learning_rate=0.1, max_depth=3, random_state=0).fit(Xtr, ytr)
    print(f"gbc accuracy={gb.score(Xte, yte):.6f}", np.round(gb.predict_proba(Xte[:2]), 4), round(float(gb.train_score_[-1]), 4))
    hgb = HistGradientBoostingClassifier(max_iter=60, random_state=0).fit(Xtr, ytr)
    print(f"hgb accuracy={hgb.score(Xte, yte):.6f} iterations={hgb.n_iter_}", np.round(hgb.predict_proba(Xte[:2]), 4))
    ada = AdaBoostClassifier(n_estimators=30, random_state=0).fit(Xtr, ytr)
    print(f"adaboost accuracy={ada.score(Xte, yte):.6f}")
    Xd, yd = load_diabetes(return_X_y=True)
    gbr = GradientBoostingRegressor(n_estimators=100, max_depth=2, subsample=0.8, random_state=0).fit(Xd[:350], yd[:350])
    print(f"gbr r2={gbr.score(Xd[350:], yd[350:]):.6f}", np.round(gbr.predict(Xd[350:353]), 4))
    hgr = HistGradientBoostingRegressor(max_iter=50, random_state=0).fit(Xd[:350], yd[:350])
    print(f"hgbr r2={hgr.score(Xd[350:], yd[350:]):.6f}")
    """,
)
_case(
    "sk_svm",
    """
    # tolerance: decision values 4 decimals, scores 6
    import numpy as np
    from sklearn.datasets import load_breast_cancer, load_diabetes
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    from sklearn.pipeline import make_pipeline
    from sklearn.svm import SVC, LinearSVC, SVR
    X, y = load_breast_cancer(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=0)
    svc = make_pipeline(StandardScaler(), SVC(kernel="rbf", C=1.0, gamma="scale")).fit(Xtr, ytr)
    s = svc[-1]
    print(f"rbf accuracy={svc.score(Xte, yte):.6f}", s.n_support_.tolist(), np.round(svc.decision_function(Xte[:3]), 4))
    for kernel in ("linear", "poly", "sigmoid"):
        m = make_pipeline(StandardScaler(), SVC(kernel=kernel)).fit(Xtr, ytr)
        print(f"{kernel:8s} accuracy={m.score(Xte, yte):.6f} support={m[-1].n_support_.tolist()}")
    prob = make_pipeline(StandardScaler(), SVC(probability=True, random_state=0)).fit(Xtr, ytr)
    print(np.round(prob.predict_proba(Xte[:2]), 3))
    lin = make_pipeline(StandardScaler(), LinearSVC(C=0.5, random_state=0, max_iter=5000)).fit(Xtr, ytr)
    print(f"linearsvc accuracy={lin.score(Xte, yte):.6f}")
    Xd, yd = load_diabetes(return_X_y=True)
    svr = make_pipeline(StandardScaler(), SVR(C=50, epsilon=5)).fit(Xd[:350], yd[:350])
    print(f"svr r2={svr.score(Xd[350:], yd[350:]):.6f}", np.round(svr.predict(Xd[350:352]), 4))
    """,
)
_case(
    "sk_kneighbors_naive_bayes",
    """
    # tolerance: distances 6 decimals
    import numpy as np
    from sklearn.datasets import load_wine, load_diabetes
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor, NearestNeighbors
    from sklearn.naive_bayes import GaussianNB, MultinomialNB
    X, y = load_wine(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=3, stratify=y)
    sc = StandardScaler().fit(Xtr)
    for k in (1, 5, 15):
        knn = KNeighborsClassifier(n_neighbors=k).fit(sc.transform(Xtr), ytr)
        print(k, round(knn.score(sc.transform(Xte), yte), 6))
    knn = KNeighborsClassifier(n_neighbors=5, weights="distance").fit(sc.transform(Xtr), ytr)
    print(np.round(knn.predict_proba(sc.transform(Xte[:3])), 6))
    nn = NearestNeighbors(n_neighbors=3).fit(sc.transform(Xtr))
    d, i = nn.kneighbors(sc.transform(Xte[:2]))
    print(np.round(d, 6), i.tolist())
    Xd, yd = load_diabetes(return_X_y=True)
    knr = KNeighborsRegressor(n_neighbors=7).fit(Xd[:350], yd[:350])
    print(round(knr.score(Xd[350:], yd[350:]), 6), np.round(knr.predict(Xd[350:353]), 6))
    gnb = GaussianNB().fit(Xtr, ytr)
    print("gaussian nb", round(gnb.score(Xte, yte), 6), np.round(gnb.predict_proba(Xte[:2]), 4))
    counts = np.array([[3, 0, 1], [2, 1, 0], [0, 4, 2], [0, 3, 3]])
    mnb = MultinomialNB(alpha=1.0).fit(counts, [0, 0, 1, 1])
    print("multinomial nb", mnb.predict([[1, 0, 0], [0, 2, 2]]).tolist(), np.round(mnb.predict_proba([[1, 1, 1]]), 6))
    """,
)
_case(
    "sk_text_tfidf",
    """
    # tolerance: 6 decimals
    import numpy as np
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.pipeline import make_pipeline
    docs = ["the cat sat on the mat", "the dog chased the cat", "stocks rallied as markets rose",
            "markets fell and stocks slid", "a dog and a cat played", "investors sold stocks"]
    labels = ["pets", "pets", "finance", "finance", "pets", "finance"]
    cv = CountVectorizer()
    counts = cv.fit_transform(docs)
    print(counts.shape, cv.get_feature_names_out()[:8].tolist(), counts.sum(axis=0).A1[:8].tolist())
    tf = TfidfVectorizer(stop_words="english", ngram_range=(1, 2), min_df=1)
    m = tf.fit_transform(docs)
    print(m.shape, len(tf.vocabulary_), np.round(m[0].toarray()[m[0].toarray() > 0], 6))
    clf = make_pipeline(TfidfVectorizer(), MultinomialNB()).fit(docs, labels)
    print(clf.predict(["the cat and the dog", "stocks and markets"]).tolist())
    print(np.round(clf.predict_proba(["a cat on the markets"]), 6))
    """,
)

# --- scikit-learn: unsupervised ----------------------------------------------------------------

_case(
    "sk_kmeans",
    """
    # tolerance: inertia 3 decimals, centres 4 (sorted: cluster numbering is arbitrary)
    import numpy as np
    from sklearn.datasets import load_iris, make_blobs
    from sklearn.cluster import KMeans, MiniBatchKMeans
    from sklearn.metrics import silhouette_score, adjusted_rand_score
    X, y = load_iris(return_X_y=True)
    km = KMeans(n_clusters=3, n_init=10, random_state=0).fit(X)
    centres = km.cluster_centers_[np.argsort(km.cluster_centers_[:, 0])]
    print(round(km.inertia_, 3), sorted(np.bincount(km.labels_).tolist()), np.round(centres, 4), sep="\\n")
    print(f"silhouette={silhouette_score(X, km.labels_):.6f} ari={adjusted_rand_score(y, km.labels_):.6f}")
    inertias = [round(KMeans(n_clusters=k, n_init=5, random_state=0).fit(X).inertia_, 2) for k in range(1, 6)]
    print("elbow", inertias)
    Xb, yb = make_blobs(n_samples=300, centers=4, cluster_std=0.6, random_state=0)
    mb = MiniBatchKMeans(n_clusters=4, random_state=0, batch_size=100, n_init=3).fit(Xb)
    print(sorted(np.bincount(mb.labels_).tolist()), round(adjusted_rand_score(yb, mb.labels_), 6))
    km_e = KMeans(n_clusters=4, algorithm="elkan", n_init=3, random_state=0).fit(Xb)
    print(round(km_e.inertia_, 3), round(adjusted_rand_score(yb, km_e.predict(Xb)), 6))
    """,
)
_case(
    "sk_dbscan_agglomerative",
    """
    import numpy as np
    from sklearn.datasets import make_moons, make_blobs
    from sklearn.cluster import DBSCAN, AgglomerativeClustering
    from sklearn.metrics import adjusted_rand_score
    X, y = make_moons(n_samples=200, noise=0.05, random_state=0)
    db = DBSCAN(eps=0.2, min_samples=5).fit(X)
    labels = db.labels_
    print("clusters", len(set(labels.tolist()) - {-1}), "noise", int((labels == -1).sum()), round(adjusted_rand_score(y, labels), 6))
    print(np.bincount(labels[labels >= 0]).tolist(), len(db.core_sample_indices_))
    single = AgglomerativeClustering(n_clusters=2, linkage="single").fit(X)
    ward = AgglomerativeClustering(n_clusters=2, linkage="ward").fit(X)
    print("single ari", round(adjusted_rand_score(y, single.labels_), 6), "ward ari", round(adjusted_rand_score(y, ward.labels_), 6))
    Xb, yb = make_blobs(n_samples=60, centers=3, random_state=5)
    for link in ("ward", "complete", "average"):
        ag = AgglomerativeClustering(n_clusters=3, linkage=link).fit(Xb)
        print(link, sorted(np.bincount(ag.labels_).tolist()), round(adjusted_rand_score(yb, ag.labels_), 6))
    full = AgglomerativeClustering(n_clusters=None, distance_threshold=5.0).fit(Xb)
    print("threshold clusters", full.n_clusters_)
    """,
)
_case(
    "sk_pca_truncated_svd",
    """
    # tolerance: PCA 6 decimals; randomized TruncatedSVD 4
    import numpy as np
    from sklearn.datasets import load_iris, load_digits
    from sklearn.preprocessing import StandardScaler
    from sklearn.decomposition import PCA, TruncatedSVD
    from scipy.sparse import csr_array
    X = StandardScaler().fit_transform(load_iris().data)
    pca = PCA(n_components=2).fit(X)
    print(np.round(pca.explained_variance_ratio_, 6), np.round(pca.explained_variance_, 6))
    print(np.round(pca.components_, 6))
    print(np.round(pca.transform(X[:3]), 5))
    print(np.round(pca.inverse_transform(pca.transform(X[:1])), 5))
    digits = load_digits().data
    p95 = PCA(n_components=0.95, svd_solver="full").fit(digits)
    print("components for 95%:", p95.n_components_, round(float(p95.explained_variance_ratio_.sum()), 6))
    print(np.round(PCA(n_components=3).fit(digits).singular_values_, 4))
    svd = TruncatedSVD(n_components=5, random_state=0).fit(csr_array(digits))
    print(np.round(svd.explained_variance_ratio_, 4), np.round(svd.singular_values_, 2))
    svd_a = TruncatedSVD(n_components=3, algorithm="arpack").fit(digits)
    print(np.round(svd_a.singular_values_, 4))
    """,
)

# --- scikit-learn: pipelines, model selection, metrics ----------------------------------------

_case(
    "sk_pipeline_column_transformer",
    """
    # tolerance: probabilities 4 decimals
    import numpy as np
    import pandas as pd
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.pipeline import Pipeline
    from sklearn.impute import SimpleImputer
    from sklearn.preprocessing import StandardScaler, OneHotEncoder
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    rng = np.random.default_rng(0)
    n = 300
    df = pd.DataFrame({
        "age": rng.integers(18, 70, n).astype(float),
        "income": rng.normal(50_000, 15_000, n).round(0),
        "city": rng.choice(["paris", "lyon", "nice"], n),
        "plan": rng.choice(["basic", "pro"], n),
    })
    df.loc[rng.choice(n, 15, replace=False), "age"] = np.nan
    logit = -3 + 0.04 * df["age"].fillna(40) + (df["plan"] == "pro") * 1.2 - (df["city"] == "nice") * 0.8
    df["churn"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    num = Pipeline([("impute", SimpleImputer(strategy="median")), ("scale", StandardScaler())])
    pre = ColumnTransformer([("num", num, ["age", "income"]), ("cat", OneHotEncoder(handle_unknown="ignore"), ["city", "plan"])])
    pipe = Pipeline([("pre", pre), ("clf", LogisticRegression(max_iter=1000))])
    Xtr, Xte, ytr, yte = train_test_split(df.drop(columns="churn"), df["churn"], test_size=0.25, random_state=0)
    pipe.fit(Xtr, ytr)
    print(pipe)
    print(pre.get_feature_names_out().tolist())
    print(f"accuracy={pipe.score(Xte, yte):.6f}", np.round(pipe.named_steps["clf"].coef_, 3))
    new = pd.DataFrame({"age": [25.0, np.nan], "income": [40_000.0, 80_000.0], "city": ["nice", "berlin"], "plan": ["basic", "pro"]})
    print(np.round(pipe.predict_proba(new), 4), pipe.predict(new).tolist())
    sel = ColumnTransformer([("n", "passthrough", make_column_selector(dtype_include="number"))], remainder="drop")
    print(sel.fit_transform(Xtr).shape, pipe.named_steps["pre"].named_transformers_["num"]["impute"].statistics_.tolist())
    """,
)
_case(
    "sk_cross_validation_grid_search",
    """
    # tolerance: scores 6 decimals; n_jobs=-1 must run (sequentially in the guest)
    import numpy as np
    from sklearn.datasets import load_iris, load_breast_cancer
    from sklearn.model_selection import cross_val_score, cross_validate, GridSearchCV, KFold, StratifiedKFold, RandomizedSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier
    X, y = load_iris(return_X_y=True)
    scores = cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=5, n_jobs=-1)
    print(np.round(scores, 6), round(scores.mean(), 6))
    kf = KFold(n_splits=3, shuffle=True, random_state=0)
    print([test[:5].tolist() for _, test in kf.split(X)])
    skf = StratifiedKFold(n_splits=4)
    print([np.bincount(y[test]).tolist() for _, test in skf.split(X, y)])
    cv = cross_validate(make_pipeline(StandardScaler(), SVC()), X, y, cv=skf, scoring=["accuracy", "f1_macro"], n_jobs=-1)
    print(sorted(cv), np.round(cv["test_accuracy"], 6), np.round(cv["test_f1_macro"], 6))
    Xb, yb = load_breast_cancer(return_X_y=True)
    grid = GridSearchCV(make_pipeline(StandardScaler(), SVC()), {"svc__C": [0.1, 1, 10], "svc__gamma": ["scale", 0.01]}, cv=5, n_jobs=-1)
    grid.fit(Xb, yb)
    print(grid.best_params_, round(grid.best_score_, 6))
    print(np.round(grid.cv_results_["mean_test_score"], 6), grid.cv_results_["rank_test_score"].tolist())
    rs = RandomizedSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [2, 3, 4, 5, None], "min_samples_leaf": [1, 2, 5, 10]},
                            n_iter=6, cv=3, random_state=0, n_jobs=-1).fit(Xb, yb)
    print(rs.best_params_, round(rs.best_score_, 6))
    """,
)
_case(
    "sk_metrics_classification",
    """
    # tolerance: 8 decimals
    import numpy as np
    from sklearn.metrics import (accuracy_score, f1_score, precision_score, recall_score, confusion_matrix,
                                 classification_report, roc_auc_score, roc_curve, log_loss, matthews_corrcoef,
                                 balanced_accuracy_score, precision_recall_curve, average_precision_score, ConfusionMatrixDisplay)
    y_true = [0, 1, 2, 2, 1, 0, 1, 2, 0, 0, 2, 1]
    y_pred = [0, 2, 2, 2, 1, 0, 0, 2, 1, 0, 1, 1]
    print(round(accuracy_score(y_true, y_pred), 8), round(balanced_accuracy_score(y_true, y_pred), 8))
    for avg in ("macro", "micro", "weighted"):
        print(avg, round(f1_score(y_true, y_pred, average=avg), 8), round(precision_score(y_true, y_pred, average=avg), 8), round(recall_score(y_true, y_pred, average=avg), 8))
    print(confusion_matrix(y_true, y_pred).tolist(), confusion_matrix(y_true, y_pred, normalize="true").round(4).tolist())
    print(classification_report(y_true, y_pred, target_names=["cat", "dog", "bird"], digits=4))
    print(classification_report(y_true, y_pred, output_dict=True)["macro avg"])
    yb = np.array([0, 0, 1, 1, 0, 1, 1, 0, 1, 0])
    scores = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.9, 0.55, 0.6, 0.3])
    print("auc", round(roc_auc_score(yb, scores), 8), "ap", round(average_precision_score(yb, scores), 8), "mcc", round(matthews_corrcoef(yb, scores > 0.5), 8))
    fpr, tpr, thr = roc_curve(yb, scores)
    print(fpr.round(4).tolist(), tpr.round(4).tolist(), thr.tolist())
    prec, rec, _ = precision_recall_curve(yb, scores)
    print(prec.round(4).tolist(), rec.round(4).tolist())
    print("log loss", round(log_loss(yb, scores), 8))
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.2, 0.6], [0.1, 0.8, 0.1]])
    print("ovr auc", round(roc_auc_score([0, 2, 2, 1], proba, multi_class="ovr"), 8))
    print(f1_score([0, 0, 1], [0, 0, 0], zero_division=0), ConfusionMatrixDisplay.__name__)
    """,
)
_case(
    "sk_metrics_regression",
    """
    # tolerance: 8 decimals
    import numpy as np
    from sklearn.metrics import (r2_score, mean_squared_error, mean_absolute_error, root_mean_squared_error,
                                 mean_absolute_percentage_error, median_absolute_error, explained_variance_score, max_error)
    y_true = np.array([3.0, -0.5, 2.0, 7.0, 4.2, 5.5])
    y_pred = np.array([2.5, 0.0, 2.1, 7.8, 3.9, 5.0])
    print(round(r2_score(y_true, y_pred), 8), round(mean_squared_error(y_true, y_pred), 8), round(root_mean_squared_error(y_true, y_pred), 8))
    print(round(mean_absolute_error(y_true, y_pred), 8), round(mean_absolute_percentage_error(y_true, y_pred), 8), median_absolute_error(y_true, y_pred))
    print(round(explained_variance_score(y_true, y_pred), 8), round(max_error(y_true, y_pred), 8))
    multi_t = np.array([[0.5, 1], [-1, 1], [7, -6]])
    multi_p = np.array([[0, 2], [-1, 2], [8, -5]])
    print(np.round(r2_score(multi_t, multi_p, multioutput="raw_values"), 8), round(r2_score(multi_t, multi_p, multioutput="variance_weighted"), 8))
    print(r2_score([1, 2, 3], [1, 2, 3]), r2_score([1, 1, 1], [1, 1, 2]), mean_squared_error([[1, 2]], [[2, 4]], multioutput="raw_values").tolist())
    """,
)
_case(
    "sk_feature_selection_and_persistence",
    """
    # tolerance: scores 6 significant digits
    import pickle
    import numpy as np
    import joblib
    from sklearn.datasets import load_breast_cancer, load_diabetes
    from sklearn.feature_selection import SelectKBest, f_classif, RFE, VarianceThreshold
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.preprocessing import StandardScaler, PolynomialFeatures
    from sklearn.impute import SimpleImputer, KNNImputer
    data = load_breast_cancer()
    X = StandardScaler().fit_transform(data.data)
    skb = SelectKBest(f_classif, k=5).fit(X, data.target)
    print(data.feature_names[skb.get_support()].tolist(), [f"{v:.6g}" for v in np.sort(skb.scores_)[-3:]])
    rfe = RFE(LogisticRegression(max_iter=2000), n_features_to_select=4).fit(X, data.target)
    print(data.feature_names[rfe.support_].tolist())
    print(VarianceThreshold(0.1).fit_transform([[0, 2, 0], [0, 1, 4], [0, 1, 1]]).tolist())
    poly = PolynomialFeatures(degree=2, include_bias=False).fit([[1, 2]])
    print(poly.get_feature_names_out(["a", "b"]).tolist(), poly.transform([[2, 3]]).tolist())
    holes = np.array([[1.0, np.nan, 3], [4, 5, np.nan], [7, 8, 9], [np.nan, 2, 6]])
    print(SimpleImputer(strategy="mean").fit_transform(holes).round(6).tolist())
    print(KNNImputer(n_neighbors=2).fit_transform(holes).round(6).tolist())
    Xd, yd = load_diabetes(return_X_y=True)
    model = Ridge(alpha=0.5).fit(Xd, yd)
    joblib.dump(model, "sk_feature_selection_model.joblib")
    with open("sk_feature_selection_model.pkl", "wb") as f:
        pickle.dump(model, f)
    again = joblib.load("sk_feature_selection_model.joblib")
    with open("sk_feature_selection_model.pkl", "rb") as f:
        again2 = pickle.load(f)
    print(type(again).__name__, np.array_equal(again.predict(Xd[:5]), model.predict(Xd[:5])), np.array_equal(again2.coef_, model.coef_))
    """,
)
_case(
    "sk_not_fitted_raises",
    """
    # raises on purpose: predicting with an unfitted estimator (NotFittedError)
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.preprocessing import StandardScaler
    try:
        StandardScaler(with_mean="yes").fit([[1.0], [2.0]])
        print("no parameter validation error")
    except Exception as e:
        print(type(e).__name__, str(e)[:60])
    clf = RandomForestClassifier(n_estimators=5, random_state=0)
    clf.predict([[1.0, 2.0]])
    """,
)
