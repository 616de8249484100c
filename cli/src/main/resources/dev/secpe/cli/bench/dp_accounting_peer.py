"""The peer side of `secpe bench accounting --peer PATH`: Google's dp_accounting PLD accountant,
imported from a local checkout of google/differential-privacy (PATH is the checkout, its
python/dp_accounting directory, or a directory holding the dp_accounting package), answers the
same DP-SGD queries as the Java accountant, one JSON line in, one JSON line out, timed here after
the imports (so the times compare with the Java side's in-process times).

Queries (one JSON object per line on stdin):
  {"kind": "epsilon", "q": .., "steps": .., "sigma": .., "delta": ..}
      PLDAccountant() (its defaults: value_discretization_interval 1e-4, add-or-remove) on
      SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps), get_epsilon.
  {"kind": "sigma", "q": .., "steps": .., "epsilon": .., "delta": .., "histogram": h}
      calibrate_dp_mechanism(PLDAccountant, ...) at its defaults (bracket from [0, 1], tol 1e-6
      of the bracket), the event composed with GaussianDpEvent(h) first where h > 0 (CTCL's topic
      histogram).
Answer: {"value": .., "seconds": ..} or {"error": ".."}.

dp_accounting imports absl only for logging in its RDP accountant; where absl is not installed a
stand-in module whose `logging` is Python's own is put in sys.modules (nothing else of absl is used
by the PLD accountant).
"""
import json
import logging
import os
import sys
import time
import types


def _import(path):
    for candidate in (path, os.path.join(path, "python", "dp_accounting"), os.path.join(path, "dp_accounting")):
        if os.path.isdir(os.path.join(candidate, "dp_accounting")):
            sys.path.insert(0, candidate)
            break
    else:
        raise SystemExit(f"no dp_accounting package under {path}")
    try:
        import absl  # noqa: F401
    except ImportError:
        shim = types.ModuleType("absl")
        shim.logging = logging
        sys.modules["absl"] = shim
        sys.modules["absl.logging"] = logging
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant
    return dp_accounting, pld_privacy_accountant


def main():
    dp, pld = _import(sys.argv[1])

    def event(q, steps, sigma, histogram):
        step = dp.PoissonSampledDpEvent(q, dp.GaussianDpEvent(sigma)) if q < 1 else dp.GaussianDpEvent(sigma)
        sgd = dp.SelfComposedDpEvent(step, steps)
        if histogram and histogram > 0:
            return dp.ComposedDpEvent([dp.GaussianDpEvent(histogram), sgd])
        return sgd

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        query = json.loads(line)
        try:
            t0 = time.perf_counter()
            if query["kind"] == "epsilon":
                accountant = pld.PLDAccountant()
                accountant.compose(event(query["q"], query["steps"], query["sigma"], query.get("histogram", 0)))
                value = accountant.get_epsilon(query["delta"])
            elif query["kind"] == "sigma":
                value = dp.calibrate_dp_mechanism(
                    pld.PLDAccountant,
                    lambda s: event(query["q"], query["steps"], s, query.get("histogram", 0)),
                    query["epsilon"], query["delta"])
            else:
                raise ValueError(f"unknown kind {query['kind']}")
            answer = {"value": float(value), "seconds": time.perf_counter() - t0}
        except Exception as e:  # the Java side reports it against the query
            answer = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
