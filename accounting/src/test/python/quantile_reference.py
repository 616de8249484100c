#!/usr/bin/env python3
"""Reference values of the standard normal upper quantile PhiInv(1 - p) for tiny p, in 50-digit
mpmath (bisection on the upper tail erfc(z / sqrt 2) / 2), for the Java tail quantile.

    python3 accounting/src/test/python/quantile_reference.py \
        > accounting/src/test/resources/reference/quantile_reference.csv
"""
import mpmath as mp

mp.mp.dps = 50


def upper_quantile(p):
    p = mp.mpf(p)
    lo, hi = mp.mpf(-40), mp.mpf(40)
    for _ in range(400):
        mid = (lo + hi) / 2
        if mp.erfc(mid / mp.sqrt(2)) / 2 > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


print("key,value")
for p in ["0.3", "0.05", "0.01", "1e-5", "1e-10", "1e-15", "1e-16", "1e-17", "1e-20", "1e-50",
          "1e-100", "1e-200", "1e-300"]:
    print(f"upper_quantile p={p},{mp.nstr(upper_quantile(p), 17)}")
