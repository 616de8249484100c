#!/usr/bin/env python3
"""Reference values of the standard normal CDF, its logarithm and the Mills ratio in 50-digit
mpmath (mp.ncdf and mp.npdf), for the Java StandardNormal (Cody's approximations):

    python3 accounting/src/test/python/normal_reference.py \
        > accounting/src/test/resources/reference/normal_reference.csv

The points straddle the ends of Cody's three ranges (0.67449 and sqrt(32) = 5.65685) and reach
Phi(x) ~ 1e-300.
"""
import mpmath as mp

mp.mp.dps = 50

XS = ["-37", "-30", "-20", "-12", "-8.2924", "-6", "-5.6569", "-5.6568", "-4", "-3", "-2",
      "-1.5", "-1", "-0.6745", "-0.6744", "-0.5", "-0.01", "-1e-9", "0", "1e-9", "0.3", "0.6744",
      "0.6745", "1", "2", "3", "5.6568", "5.6569", "7", "8.2924", "9"]
TS = ["-3", "-1", "-0.5", "0", "0.25", "0.6744", "0.6745", "1", "2.5", "4", "5.6568", "5.6569",
      "8", "15", "30", "1000", "1e6"]

print("key,value")
for x in XS:
    v = mp.ncdf(mp.mpf(x))
    print(f"cdf x={x},{mp.nstr(v, 20)}")
    print(f"logcdf x={x},{mp.nstr(mp.log(v), 20)}")
for t in TS:
    t_ = mp.mpf(t)
    print(f"mills t={t},{mp.nstr(mp.ncdf(-t_) / mp.npdf(t_), 20)}")
