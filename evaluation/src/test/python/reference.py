"""Independent reference values for the secpe-evaluation tests.

Run from the repository root (numpy 2.4, scipy 1.17; takes a few seconds):

    python3 evaluation/src/test/python/reference.py \
        > evaluation/src/test/resources/dev/secpe/evaluation/reference.json

Every input is generated here from a fixed numpy seed, rounded to float32 (the Java side stores
embeddings as floats) and written into the JSON next to the expected values, so the Java tests
feed exactly the same numbers to the code under test.

- FID: scipy.linalg.sqrtm(C1 @ C2) (a general, non-symmetric square root: a different route
  from the Java code's symmetric eigen-decomposition of sqrt(C1) C2 sqrt(C1)), cross-checked
  with the sum of sqrt of the eigenvalues of C1 @ C2 (numpy.linalg.eigvals). Covariances with
  numpy.cov (divisor n - 1).
- MAUVE: the divergence frontier written from the paper (Pillutla et al. 2021, Sec. 3) on FIXED
  cluster assignments / histograms: R = lam P + (1 - lam) Q for lam = linspace(1e-6, 1 - 1e-6, m),
  points (exp(-c KL(Q||R)), exp(-c KL(P||R))) in lambda order with the end points (0, 1) and
  (1, 0), area by numpy.trapezoid along the parametric order; cross-checked against the
  reference implementation's formula (average of the areas with the points sorted by x and by y).
- Length distances: scipy.stats.wasserstein_distance and scipy.stats.ks_2samp(...).statistic.
- Self-similarity: the full n x n cosine matrix, mean of the off-diagonal entries.
- Binomial band for the label-independent classifier test: scipy.stats.binom.ppf.
- FID sampling spread for the large-sample Gaussian test: 200 numpy replications.
"""
import json
import sys

import numpy as np
import scipy
import scipy.linalg
import scipy.stats

rng = np.random.default_rng(20261121)


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def fid(x, y):
    m1, m2 = x.mean(0), y.mean(0)
    c1, c2 = np.cov(x, rowvar=False, ddof=1), np.cov(y, rowvar=False, ddof=1)
    s = scipy.linalg.sqrtm(c1 @ c2)
    tr_sqrtm = float(np.real(np.trace(s)))
    ev = np.linalg.eigvals(c1 @ c2)
    tr_eig = float(np.sum(np.sqrt(np.clip(np.real(ev), 0, None))))
    base = float(np.sum((m1 - m2) ** 2) + np.trace(c1) + np.trace(c2))
    return base - 2 * tr_sqrtm, base - 2 * tr_eig


def fid_cases():
    cases = []
    specs = [("small-4d", 50, 60, 4), ("correlated-16d", 40, 35, 16), ("wide-n-gt-d-32d", 200, 150, 32)]
    for name, n1, n2, d in specs:
        a = rng.normal(size=(d, d))
        b = rng.normal(size=(d, d)) * 0.5
        x = f32(rng.normal(size=(n1, d)) @ a + rng.normal(size=d))
        y = f32(rng.normal(size=(n2, d)) @ b + 0.3 * rng.normal(size=d))
        v1, v2 = fid(x, y)
        assert abs(v1 - v2) <= 1e-8 * max(1.0, abs(v1)), (name, v1, v2)
        cases.append({"name": name, "a": x.tolist(), "b": y.tolist(), "fid": v1, "fid_eig": v2})
    # Rank-deficient covariances (n <= d): both covariance matrices singular.
    x = f32(rng.normal(size=(5, 8)))
    y = f32(rng.normal(size=(6, 8)) + 0.5)
    v1, v2 = fid(x, y)
    cases.append({"name": "singular-n-lt-d", "a": x.tolist(), "b": y.tolist(), "fid": v1, "fid_eig": v2})
    return cases


def kl(a, b):
    mask = a > 0
    return float(np.sum(a[mask] * np.log(a[mask] / b[mask])))


def mauve_from_hist(p, q, m, c):
    p = np.asarray(p, float) / np.sum(p)
    q = np.asarray(q, float) / np.sum(q)
    lams = np.linspace(1e-6, 1 - 1e-6, m)
    pts = [(0.0, 1.0)]
    for lam in lams[::-1]:  # lambda decreasing: x = exp(-c KL(Q||R)) increasing
        r = lam * p + (1 - lam) * q
        pts.append((np.exp(-c * kl(q, r)), np.exp(-c * kl(p, r))))
    pts.append((1.0, 0.0))
    pts = np.array(pts)
    area = float(np.trapezoid(pts[:, 1], pts[:, 0]))
    # the reference implementation's formula: sort by x, sort by y, average the two areas
    x, y = pts[:, 0], pts[:, 1]
    i1 = np.lexsort((-y, x))
    i2 = np.lexsort((-x, y))
    ref = 0.5 * (np.trapezoid(y[i1], x[i1]) + np.trapezoid(x[i2], y[i2]))
    return area, float(ref), pts


def mauve_cases():
    cases = []
    k = 12
    p_labels = rng.integers(0, k, size=300)
    q_labels = np.minimum(rng.geometric(0.25, size=250) - 1, k - 1)
    specs = [
        ("assignments-default", None, None, 25, 5.0),
        ("assignments-grid-50-c-2", None, None, 50, 2.0),
    ]
    for name, _, _, m, c in specs:
        p = np.bincount(p_labels, minlength=k)
        q = np.bincount(q_labels, minlength=k)
        area, ref, pts = mauve_from_hist(p, q, m, c)
        assert abs(area - ref) < 1e-9, (name, area, ref)
        cases.append({"name": name, "clusters": k, "p_labels": p_labels.tolist(),
                      "q_labels": q_labels.tolist(), "grid": m, "c": c, "mauve": area,
                      "curve": pts.tolist()})
    hists = [
        ("zeros-in-both", [5, 0, 3, 2, 0, 7], [1, 4, 0, 2, 0, 9]),
        ("close", [10, 11, 9, 10], [11, 10, 10, 9]),
        ("disjoint", [1, 2, 0, 0], [0, 0, 3, 1]),
    ]
    for name, p, q in hists:
        area, ref, pts = mauve_from_hist(p, q, 25, 5.0)
        assert abs(area - ref) < 1e-9, (name, area, ref)
        cases.append({"name": name, "p": p, "q": q, "grid": 25, "c": 5.0, "mauve": area,
                      "curve": pts.tolist()})
    return cases


def length_cases():
    cases = []
    a = rng.poisson(30, size=80)
    b = rng.poisson(22, size=55) + rng.integers(0, 3, size=55)
    cases.append({"name": "poisson", "real": a.tolist(), "synthetic": b.tolist()})
    cases.append({"name": "ties-and-one-point", "real": [3, 3, 3, 7], "synthetic": [5]})
    for cse in cases:
        cse["wasserstein1"] = float(scipy.stats.wasserstein_distance(cse["real"], cse["synthetic"]))
        cse["ks"] = float(scipy.stats.ks_2samp(cse["real"], cse["synthetic"]).statistic)
    return cases


def self_similarity_cases():
    cases = []
    for name, n, d, shift in [("isotropic", 30, 8, 0.0), ("clustered", 25, 16, 2.0)]:
        x = f32(rng.normal(size=(n, d)) + shift)
        u = x / np.linalg.norm(x, axis=1, keepdims=True)
        g = u @ u.T
        off = (g.sum() - np.trace(g)) / (n * (n - 1))
        cases.append({"name": name, "x": x.tolist(), "mean_cosine": float(off)})
    return cases


def binomial_band():
    n, alpha = 2000, 1e-6
    lo = int(scipy.stats.binom.ppf(alpha / 2, n, 0.5))
    hi = int(scipy.stats.binom.isf(alpha / 2, n, 0.5))
    return {"n": n, "p": 0.5, "two_sided_false_failure_rate": alpha, "low": lo, "high": hi}


def gaussian_fid_spread():
    """Spread of the sample FID for the Java large-sample test (same parameters)."""
    d, n = 3, 20000
    m1 = np.array([0.0, 0.0, 0.0]); m2 = np.array([1.0, -0.5, 0.25])
    c1 = np.array([[1.0, 0.3, 0.0], [0.3, 2.0, 0.2], [0.0, 0.2, 0.5]])
    c2 = np.array([[0.5, 0.0, 0.1], [0.0, 1.0, -0.2], [0.1, -0.2, 1.5]])
    exact = float(np.sum((m1 - m2) ** 2) + np.trace(c1) + np.trace(c2)
                  - 2 * np.real(np.trace(scipy.linalg.sqrtm(c1 @ c2))))
    r = np.random.default_rng(7)
    vals = []
    for _ in range(200):
        x = r.multivariate_normal(m1, c1, size=n)
        y = r.multivariate_normal(m2, c2, size=n)
        vals.append(fid(x, y)[0])
    vals = np.array(vals)
    return {"d": d, "n": n, "mean1": m1.tolist(), "cov1": c1.tolist(), "mean2": m2.tolist(),
            "cov2": c2.tolist(), "fid": exact, "sample_mean": float(vals.mean()),
            "sample_sd": float(vals.std(ddof=1)), "replications": 200}


out = {
    "generated_by": "evaluation/src/test/python/reference.py",
    "numpy": np.__version__,
    "scipy": scipy.__version__,
    "fid": fid_cases(),
    "mauve": mauve_cases(),
    "length": length_cases(),
    "self_similarity": self_similarity_cases(),
    "binomial_band": binomial_band(),
    "gaussian_fid": gaussian_fid_spread(),
}
json.dump(out, sys.stdout, indent=None)
sys.stdout.write("\n")
