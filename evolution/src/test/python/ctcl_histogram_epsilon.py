"""Reference epsilons of CTCL's DP topic histogram (Gaussian mechanism, sensitivity 1, std sigma)
at delta = 1/(N ln N), from the exact Gaussian privacy profile (Balle & Wang 2018):
delta(eps) = Phi(-eps*sigma + 1/(2 sigma)) - e^eps Phi(-eps*sigma - 1/(2 sigma)), solved for eps
by bisection with mpmath at 50 digits. Run: python3 evolution/src/test/python/ctcl_histogram_epsilon.py >
evolution/src/test/resources/dev/secpe/evolution/ctcl_histogram_epsilon.csv"""
import mpmath as mp

mp.mp.dps = 50


def delta_of(eps, sigma):
    a = 1 / (2 * sigma)
    return mp.ncdf(-eps * sigma + a) - mp.e ** eps * mp.ncdf(-eps * sigma - a)


def eps_of(delta, sigma):
    lo, hi = mp.mpf(0), mp.mpf(20)  # delta_of is decreasing in eps: bisect
    for _ in range(200):
        mid = (lo + hi) / 2
        if delta_of(mid, sigma) > delta:
            lo = mid
        else:
            hi = mid
    return hi


print("n,sigma,delta,epsilon")
for n in (75316, 10000, 1000):
    delta = 1 / (n * mp.log(n))
    for sigma in (10, 20):
        print(f"{n},{sigma},{mp.nstr(delta, 17)},{mp.nstr(eps_of(delta, mp.mpf(sigma)), 17)}")
