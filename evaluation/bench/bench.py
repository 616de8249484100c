"""Times the evaluation metrics in Java against numpy/scipy on the same data, in one run.

Usage (from the repository root, after `./mvnw -q -pl evaluation -am test-compile`):

    python3 evaluation/bench/bench.py [n_real] [n_synthetic] [dim]

Data: a seeded mixture of 20 Gaussian clusters in `dim` dimensions, rows scaled to unit norm
(like sentence embeddings), "synthetic" drawn with shifted cluster weights. The script times
numpy/scipy FID (scipy.linalg.sqrtm), Kynkaenniemi precision/recall (blocked numpy distances)
and self-similarity, runs the Java harness (dev.secpe.evaluation.EvaluationBenchmark) on the
same float32 file, and prints values side by side and the time ratios Java / numpy. MAUVE has no
numpy counterpart here (its k-means differs); its Java time is printed alone.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.linalg

n1 = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
n2 = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
d = int(sys.argv[3]) if len(sys.argv) > 3 else 384
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

rng = np.random.default_rng(1)
centres = rng.normal(size=(20, d))


def draw(n, weights):
    c = rng.choice(20, size=n, p=weights)
    x = centres[c] + 0.8 * rng.normal(size=(n, d))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


w1 = np.full(20, 1 / 20)
w2 = rng.dirichlet(np.full(20, 2.0))
a, b = draw(n1, w1), draw(n2, w2)


def best(f, reps=3):
    f()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        v = f()
        ts.append(time.perf_counter() - t0)
    return v, min(ts)


def fid():
    x, y = a.astype(np.float64), b.astype(np.float64)
    c1, c2 = np.cov(x, rowvar=False), np.cov(y, rowvar=False)
    s = scipy.linalg.sqrtm(c1 @ c2)
    return float(np.sum((x.mean(0) - y.mean(0)) ** 2) + np.trace(c1) + np.trace(c2)
                 - 2 * np.real(np.trace(s)))


def sqdist(p, q):
    return np.maximum((p * p).sum(1)[:, None] + (q * q).sum(1)[None, :] - 2 * p @ q.T, 0)


def kth(x, k=3):
    out = np.empty(len(x))
    for i in range(0, len(x), 1024):
        dd = sqdist(x[i:i + 1024], x)
        out[i:i + 1024] = np.partition(dd, k, axis=1)[:, k]  # index 0 is the point itself
    return out


def covered(p, c, r):
    hit = 0
    for i in range(0, len(p), 1024):
        hit += int(np.sum(np.any(sqdist(p[i:i + 1024], c) <= r[None, :], axis=1)))
    return hit / len(p)


def pr():
    x, y = a.astype(np.float64), b.astype(np.float64)
    return covered(y, x, kth(x)), covered(x, y, kth(y))


def selfsim():
    u = b.astype(np.float64)
    u = u / np.linalg.norm(u, axis=1, keepdims=True)
    g = u @ u.T
    return float((g.sum() - np.trace(g)) / (len(u) * (len(u) - 1)))


f_v, f_t = best(fid)
p_v, p_t = best(pr, reps=1)
s_v, s_t = best(selfsim)

with tempfile.NamedTemporaryFile(suffix=".f32", delete=False) as fh:
    fh.write(a.astype("<f4").tobytes())
    fh.write(b.astype("<f4").tobytes())
    path = fh.name
cp = subprocess.run(
    [os.path.join(root, "mvnw"), "-q", "-B", "-ntp", "-pl", "evaluation",
     "dependency:build-classpath", "-Dmdep.outputFile=/dev/stdout", "-Dmdep.includeScope=test"],
    cwd=root, capture_output=True, text=True, check=True).stdout.strip()
classpath = os.pathsep.join([os.path.join(root, "evaluation/target/test-classes"),
                             os.path.join(root, "evaluation/target/classes"), cp])
out = subprocess.run(["java", "-cp", classpath, "dev.secpe.evaluation.EvaluationBenchmark",
                      path, str(n1), str(n2), str(d), "3"],
                     capture_output=True, text=True, check=True).stdout
os.unlink(path)
j = json.loads(out)

print(f"data: n_real={n1} n_synthetic={n2} d={d} (float32, unit rows)")
print(f"{'metric':<16}{'java value':>18}{'numpy value':>18}{'java s':>10}{'numpy s':>10}{'ratio':>8}")
rows = [("FID", j["fid"], f_v, j["t_fid"], f_t),
        ("precision", j["precision"], p_v[0], j["t_pr"], p_t),
        ("recall", j["recall"], p_v[1], float("nan"), float("nan")),
        ("self-similarity", j["self_similarity"], s_v, j["t_self_similarity"], s_t)]
for name, jv, nv, jt, nt in rows:
    print(f"{name:<16}{jv:>18.10g}{nv:>18.10g}{jt:>10.4f}{nt:>10.4f}{jt / nt:>8.2f}")
print(f"{'MAUVE':<16}{j['mauve']:>18.6f}{'(java only)':>18}{j['t_mauve']:>10.3f}"
      f"   clusters={j['mauve_clusters']}")
