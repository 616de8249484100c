#!/usr/bin/env python3
"""Is the discrete Gaussian N_Z(0, s^2) with integer sensitivity D accounted safely by the
continuous Gaussian's delta(eps; mu = D/s)?

Computes the exact hockey-stick divergence of N_Z(D, s^2) vs N_Z(0, s^2) by summation over the
integers (numpy, log-space normalisation, +-40 s support) and compares it with the continuous
closed form. Prints the largest relative excess (disc - cont)/cont over eps in {0.1, 0.5, 1, 2, 4}.

    python3 accounting/src/test/python/discrete_vs_continuous_gaussian.py
"""
import numpy as np
from scipy.stats import norm

print("s, D, max over eps of (delta_discrete - delta_continuous) / delta_continuous")
for s in [1.0, 2.0, 5.0, 10.0, 20.0, 100.0, 1000.0]:
    for mu in [0.5, 1.0, 2.0]:
        D = max(1, round(mu * s))
        x = np.arange(-int(40 * s) - D, int(40 * s) + 2 * D + 1)
        lq = -x.astype(float) ** 2 / (2 * s * s)
        lp = -(x - D).astype(float) ** 2 / (2 * s * s)
        Q = np.exp(lq - np.logaddexp.reduce(lq))
        P = np.exp(lp - np.logaddexp.reduce(lp))
        m = D / s
        worst = -np.inf
        for eps in [0.1, 0.5, 1, 2, 4]:
            dd = np.sum(np.maximum(0, P - np.exp(eps) * Q))
            dc = norm.cdf(-eps / m + m / 2) - np.exp(eps) * norm.cdf(-eps / m - m / 2)
            if dc > 1e-300:
                worst = max(worst, (dd - dc) / dc)
        print(f"{s:g}, {D}, {worst:.3g}")
