#!/usr/bin/env python3
"""Independent reference values for the PLD accountant, the mixture blow-up and the RDP
accountant of dev.secpe.accounting.pld / .secret.

Run from the repository root (Python 3.11, mpmath 1.3, scipy 1.17; takes about a minute):

    python3 accounting/src/test/python/pld_reference.py \
        > accounting/src/test/resources/reference/pld_reference.csv

Every value comes from a route that does not share code or formulas with the Java:
  * Gaussian: the closed form delta(eps; mu) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
    (Balle & Wang 2018, Dong et al. 2019) in 50-digit mpmath; T-fold composition is mu*sqrt(T).
  * Laplace, mixtures, subsampled Gaussian: direct numerical quadrature of the hockey-stick
    integral  delta(eps) = int (p(x) - e^eps q(x))_+ dx  with mpmath.quad, the integrand's kink
    located by root finding so the quadrature only sees smooth pieces.
  * Two-fold mixture composition: delta_2(eps) = int p(x) P(Y > y*(x)) - e^eps q(x) Q(Y > y*(x)) dx
    where L(y*(x)) = eps - L(x) (the loss is monotone), by mpmath.quad with an inner root find.
  * Blow-up: for one release, the Neyman-Pearson threshold test evaluated in mpmath; for two
    releases, inf over eps of alpha e^eps + delta_2(eps) (scipy minimize_scalar on the quadrature).
  * RDP of the Poisson-subsampled Gaussian: A_alpha = int q(x) (p(x)/q(x))^alpha dx by quadrature
    (integer and fractional orders), the Mironov et al. 2019 integral definition.
Output: CSV "key,value" with 15 significant digits.
"""
import mpmath as mp
import numpy as np
from scipy import integrate, optimize, special, stats

mp.mp.dps = 40
SQ2PI = mp.sqrt(2 * mp.pi)


def npdf(x, m, s):
    return mp.exp(-((x - m) ** 2) / (2 * s * s)) / (s * SQ2PI)


def nsf(x, m, s):
    return mp.ncdf(-(x - m) / s)


def out(key, value):
    print(f"{key},{mp.nstr(value, 15)}")


def gauss_delta(eps, mu):
    return mp.ncdf(-eps / mu + mu / 2) - mp.e ** eps * mp.ncdf(-eps / mu - mu / 2)


def gauss_eps(delta, mu):
    f = lambda e: gauss_delta(e, mu) - delta
    lo, hi = mp.mpf(0), mp.mpf(1)
    while f(hi) > 0:
        hi *= 2
    return bisect(f, lo, hi)


def bisect(f, lo, hi, iters=None):
    """Root of a monotone f on [lo, hi] with f(lo), f(hi) of opposite signs, by bisection."""
    flo = f(lo)
    if iters is None:
        iters = int(mp.mp.prec) + 10
    for _ in range(iters):
        mid = (lo + hi) / 2
        fm = f(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return (lo + hi) / 2


def pb_pmf(probs):
    p = [mp.mpf(1)]
    for r in probs:
        r = mp.mpf(r)
        q = [mp.mpf(0)] * (len(p) + 1)
        for k, v in enumerate(p):
            q[k] += v * (1 - r)
            q[k + 1] += v * r
        p = q
    return p


class Mixture:
    """P = sum_k w_k N(c k, s^2) vs Q = N(0, s^2)."""

    def __init__(self, probs, c, s):
        self.w = pb_pmf(probs)
        self.m = [mp.mpf(c) * k for k in range(len(self.w))]
        self.s = mp.mpf(s)

    def p(self, x):
        return sum(w * npdf(x, m, self.s) for w, m in zip(self.w, self.m))

    def q(self, x):
        return npdf(x, 0, self.s)

    def psf(self, x):
        return sum(w * nsf(x, m, self.s) for w, m in zip(self.w, self.m))

    def qsf(self, x):
        return nsf(x, 0, self.s)

    def loss(self, x):
        return mp.log(self.p(x)) - mp.log(self.q(x))

    def inv(self, eps):
        lo, hi = mp.mpf(-60), mp.mpf(60)
        if self.loss(hi) < eps:
            return mp.inf
        if self.loss(lo) > eps:
            return -mp.inf
        return bisect(lambda x: self.loss(x) - eps, lo, hi)

    def delta_quad(self, eps):
        # integrate (p - e^eps q)_+ over x > x_eps, splitting at the kink
        x0 = self.inv(eps)
        f = lambda x: self.p(x) - mp.e ** eps * self.q(x)
        top = max(self.m) + 40 * self.s
        return mp.quad(f, [x0, x0 + self.s, top])

    def delta2(self, eps):
        # two-fold composition by the monotone-loss inner threshold
        s = self.s
        lo = min(self.m) - 12 * s
        hi = max(self.m) + 12 * s

        def g(x):
            ystar = self.inv(eps - self.loss(x))
            if ystar == mp.inf:
                return mp.mpf(0)
            if ystar == -mp.inf:
                return self.p(x) - mp.e ** eps * self.q(x)
            return self.p(x) * self.psf(ystar) - mp.e ** eps * self.q(x) * self.qsf(ystar)

        pts = [lo + (hi - lo) * i / 16 for i in range(17)]
        return mp.quad(g, pts)

    def delta2_fast(self, eps):
        """Two-fold composition in float64: the same monotone-threshold integral, vectorised
        (bisection for y*(x) on the whole grid at once, Simpson's rule on 100,001 points)."""
        w = np.array([float(v) for v in self.w])
        m = np.array([float(v) for v in self.m])
        s = float(self.s)

        def loss(x):
            x = np.asarray(x)[..., None]
            return special.logsumexp(np.log(w) + (m * x - m * m / 2) / (s * s), axis=-1)

        x = np.linspace(m.min() - 14 * s, m.max() + 14 * s, 100001)
        target = eps - loss(x)
        lo = np.full_like(x, -80.0 * s - 10)
        hi = np.full_like(x, 80.0 * s + 10)
        for _ in range(64):
            mid = (lo + hi) / 2
            up = loss(mid) >= target
            hi = np.where(up, mid, hi)
            lo = np.where(up, lo, mid)
        y = hi
        px = (w[None, :] * stats.norm.pdf(x[:, None], m[None, :], s)).sum(axis=1)
        qx = stats.norm.pdf(x, 0, s)
        psf = (w[None, :] * stats.norm.sf(y[:, None], m[None, :], s)).sum(axis=1)
        qsf = stats.norm.sf(y, 0, s)
        g = px * psf - np.exp(eps) * qx * qsf
        return integrate.simpson(g, x=x)

    def blowup_np(self, alpha):
        t = self.s * mp.sqrt(2) * mp.erfinv(1 - 2 * mp.mpf(alpha))  # Q(X > t) = alpha
        return sum(w * nsf(t, m, self.s) for w, m in zip(self.w, self.m))


def laplace_delta_quad(eps, b, sens):
    b, sens = mp.mpf(b), mp.mpf(sens)
    p = lambda x: mp.exp(-abs(x - sens) / b) / (2 * b)
    q = lambda x: mp.exp(-abs(x) / b) / (2 * b)
    x0 = (eps * b + sens) / 2
    f = lambda x: p(x) - mp.e ** eps * q(x)
    return mp.quad(f, [x0, sens, sens + 60 * b])


def subsampled_delta_quad(eps, sigma, q, direction):
    s = mp.mpf(sigma)
    q = mp.mpf(q)
    mix = lambda x: (1 - q) * npdf(x, 0, s) + q * npdf(x, 1, s)
    c = lambda x: npdf(x, 0, s)
    if direction == "remove":
        p, qq = mix, c
    else:
        p, qq = c, mix
    f = lambda x: max(p(x) - mp.e ** eps * qq(x), 0)
    loss = lambda x: mp.log(p(x)) - mp.log(qq(x))
    # locate the kink: the loss is monotone
    lo, hi = mp.mpf(-50) * s, mp.mpf(50) * s
    if (loss(lo) - eps) * (loss(hi) - eps) < 0:
        pts = [-40 * s, bisect(lambda x: loss(x) - eps, lo, hi), 1 + 40 * s]
    else:
        pts = [-40 * s, 1 + 40 * s]
    return mp.quad(f, pts)


def rdp_quad(alpha, sigma, q):
    s = mp.mpf(sigma)
    q = mp.mpf(q)
    a = mp.mpf(alpha)
    g = lambda x: npdf(x, 0, s) * ((1 - q) + q * mp.exp((2 * x - 1) / (2 * s * s))) ** a
    # the integrand peaks near x = alpha-ish; split generously
    pts = [-60 * s + i * (120 * s + 2 * a) / 24 for i in range(25)]
    return mp.log(mp.quad(g, pts)) / (a - 1)


# Mixture.delta2 (mpmath, 40 digits) for case B, computed once by an earlier run of this
# script; it takes minutes per value, so it is kept as a cross-check of delta2_fast.
MPMATH_DELTA2_B = {"0": 0.751720793228929, "1": 0.622687976670207, "2": 0.479566670630389}


def main():
    print("key,value")
    # Gaussian closed form
    for mu in ["0.5", "1", "2"]:
        for T in [1, 10, 100]:
            m = mp.mpf(mu) * mp.sqrt(T)
            for eps in ["0", "0.5", "1", "2", "4"]:
                out(f"gaussian_delta mu={mu} T={T} eps={eps}", gauss_delta(mp.mpf(eps), m))
            for d in ["1e-5", "1e-8"]:
                out(f"gaussian_eps mu={mu} T={T} delta={d}", gauss_eps(mp.mpf(d), m))
    # Laplace by quadrature
    for eps in ["0.1", "0.5", "0.9"]:
        out(f"laplace_delta b=1 sens=1 eps={eps}", laplace_delta_quad(mp.mpf(eps), 1, 1))
    # Mixtures by quadrature
    cases = {
        "A": ([0.1, 0.5, 0.9], 1, 0.7),  # DESIGN §3: shifts 0-3, sigma 0.7, delta(2) = 0.38143
        "B": ([0.5, 0.9, 1.0], mp.sqrt(2), 2.0),
        "C": ([0.2] * 8, 1, 1.5),
    }
    for name, (probs, c, s) in cases.items():
        mix = Mixture(probs, c, s)
        for eps in ["-0.5", "0", "0.5", "1", "2"]:
            out(f"mixture_delta case={name} T=1 eps={eps}", mix.delta_quad(mp.mpf(eps)))
        for alpha in ["0.001", "0.01", "0.1", "0.5"]:
            out(f"mixture_blowup case={name} T=1 alpha={alpha}", mix.blowup_np(mp.mpf(alpha)))
    for name in ["B", "C"]:
        probs, c, s = cases[name]
        mix = Mixture(probs, c, s)
        for eps in ["0", "1", "2"]:
            d = mix.delta2_fast(float(eps))
            if name == "B":  # the float64 route agrees with the 40-digit mpmath one (Mixture.delta2)
                assert abs(d - MPMATH_DELTA2_B[eps]) < 1e-9, (eps, d, MPMATH_DELTA2_B[eps])
            out(f"mixture_delta case={name} T=2 eps={eps}", mp.mpf(d))
        for alpha in ["0.01", "0.1"]:
            a = float(alpha)
            fun = lambda e: a * np.exp(e) + mix.delta2_fast(e)
            res = optimize.minimize_scalar(fun, bounds=(-3, 8), method="bounded",
                                           options={"xatol": 1e-6})
            out(f"mixture_blowup case={name} T=2 alpha={alpha}", mp.mpf(res.fun))
    mp.mp.dps = 40
    # Poisson-subsampled Gaussian, one step
    for direction in ["remove", "add"]:
        for eps in ["0.01", "0.05", "0.1"]:
            out(f"subsampled_delta sigma=1 q=0.05 dir={direction} eps={eps}",
                subsampled_delta_quad(mp.mpf(eps), 1, 0.05, direction))
    # RDP by quadrature
    for sigma, q in [("1", "0.01"), ("3.01", "0.0543841")]:
        for alpha in ["2", "2.5", "8", "32"]:
            out(f"rdp sigma={sigma} q={q} alpha={alpha}", rdp_quad(mp.mpf(alpha), sigma, q))


if __name__ == "__main__":
    main()
