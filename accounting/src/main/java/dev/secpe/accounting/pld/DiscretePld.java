package dev.secpe.accounting.pld;

/**
 * A discrete privacy-loss distribution of one adjacency direction: P-mass {@code pmf[j]} at loss
 * {@code (offset + j) * h}, plus {@code infinityMass} at loss +infinity (P-mass outside the
 * support of Q, truncated tails and rounding-error bounds all go there). Immutable.
 * Package-private.
 *
 * <p>Its hockey-stick divergence is {@code delta(eps) = inf + sum_{l_j > eps} pmf_j (1 -
 * e^{eps - l_j})}.
 */
final class DiscretePld {

  final double h;
  final long offset;
  final double[] pmf;
  final double infinityMass;

  DiscretePld(double h, long offset, double[] pmf, double infinityMass) {
    this.h = h;
    this.offset = offset;
    this.pmf = pmf;
    this.infinityMass = Math.min(1.0, infinityMass);
  }

  /**
   * Connect-the-dots discretisation (Doroshenko et al. 2022): the dominating discrete pair whose
   * delta, as a function of e^eps, is the linear interpolation of the true delta through the
   * grid points eps_i = i h; delta is convex in e^eps, so the interpolation lies above it.
   * Left of the grid the interpolation runs to (e^eps = 0, delta = 1); right of it delta is held
   * at its last grid value, which becomes the infinity mass.
   */
  static DiscretePld connectTheDots(PrivacyProfile profile, double h, int maxBins) {
    double lowLoss = profile.lowLoss();
    double highLoss = profile.highLoss();
    long lo = (long) Math.floor(lowLoss / h);
    long hi = (long) Math.ceil(highLoss / h);
    if (hi <= lo) {
      hi = lo + 1;
    }
    long count = hi - lo + 1;
    if (count > maxBins) {
      throw new IllegalStateException(
          "privacy loss range [" + lowLoss + ", " + highLoss + "] needs " + count
              + " bins at discretisation interval " + h + " (limit " + maxBins
              + "); use a coarser interval");
    }
    int n = (int) count;
    double[] delta = new double[n];
    for (int i = 0; i < n; i++) {
      delta[i] = profile.delta((lo + i) * h);
    }
    // Enforce monotonicity (delta is non-increasing); raising a value is pessimistic.
    for (int i = n - 2; i >= 0; i--) {
      delta[i] = Math.max(delta[i], delta[i + 1]);
    }
    // Slopes of delta against x = e^eps, scaled by e^{eps_i} to stay finite:
    // omega_i = x_i (s_i - s_{i-1}), s_i = (d_{i+1} - d_i) / (x_{i+1} - x_i),
    // x_i s_i = (d_{i+1} - d_i) / (e^h - 1), x_i s_{i-1} = (d_i - d_{i-1}) / (1 - e^{-h}).
    double em1 = Math.expm1(h);
    double e1m = -Math.expm1(-h);
    double[] pmf = new double[n];
    double extra = 0;
    for (int i = 0; i < n; i++) {
      double right = i + 1 < n ? (delta[i + 1] - delta[i]) / em1 : 0.0;
      double left;
      if (i == 0) {
        // chord from (x = 0, delta = 1) to (x_0, delta_0): x_0 * slope = delta_0 - 1
        left = delta[0] - 1.0;
      } else {
        left = (delta[i] - delta[i - 1]) / e1m;
      }
      double w = right - left;
      if (w < 0) {
        extra += -w; // non-convexity from rounding only; keep the total mass, pessimistically
        w = 0;
      }
      pmf[i] = w;
    }
    return new DiscretePld(h, lo, pmf, delta[n - 1] + extra).trimZeros();
  }

  /**
   * Connect-the-dots for a pair with non-decreasing loss, written in interval masses so that no
   * tail-minus-tail cancellation occurs: the P-mass of the x-interval whose loss lies in
   * [eps_j, eps_{j+1}] is split between the two grid nodes, {@code V_j / (e^h - 1)} to node j and
   * {@code U_j / (e^h - 1)} to node j+1, with {@code V_j = e^{eps_{j+1}} dQ_j - dP_j >= 0} and
   * {@code U_j = e^h dP_j - e^{eps_{j+1}} dQ_j >= 0}; this is algebraically the same pair as
   * interpolating delta linearly in e^eps between the nodes. Mass left of the grid goes to node
   * 0; right of the grid, {@code e^{eps_last} Q(tail)} goes to the last node and the rest of the
   * P tail (plus tau) to infinity. A rounding-negative V is clipped to 0 with its mass moved up
   * (pessimistic).
   */
  static DiscretePld connectTheDots(GaussianMixturePair pair, double h, int maxBins) {
    double lowLoss = pair.lowLoss();
    double highLoss = pair.highLoss();
    long lo = (long) Math.floor(lowLoss / h);
    long hi = (long) Math.ceil(highLoss / h);
    if (hi <= lo) {
      hi = lo + 1;
    }
    long count = hi - lo + 1;
    if (count > maxBins) {
      throw new IllegalStateException(
          "privacy loss range [" + lowLoss + ", " + highLoss + "] needs " + count
              + " bins at discretisation interval " + h + " (limit " + maxBins
              + "); use a coarser interval");
    }
    int n = (int) count;
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = pair.inverseLoss((lo + i) * h);
    }
    double em1 = Math.expm1(h);
    double[] pmf = new double[n];
    pmf[0] += pair.pInterval(Double.NEGATIVE_INFINITY, x[0]);
    for (int j = 0; j + 1 < n; j++) {
      double dp = pair.pInterval(x[j], x[j + 1]);
      if (dp == 0) {
        continue;
      }
      double dq = pair.qInterval(x[j], x[j + 1]);
      double epsNext = (lo + j + 1) * h;
      double v = Math.exp(epsNext) * dq - dp;
      if (!(v > 0)) {
        v = 0;
      }
      double total = em1 * dp;
      if (v > total) {
        v = total;
      }
      double u = total - v;
      pmf[j] += v / em1;
      pmf[j + 1] += u / em1;
    }
    double xLast = x[n - 1];
    double pTail = pair.pUpper(xLast);
    double atLast = Math.min(pTail, Math.exp((lo + n - 1) * h) * pair.qUpper(xLast));
    pmf[n - 1] += atLast;
    double inf = pTail - atLast + pair.tau();
    return new DiscretePld(h, lo, pmf, inf).trimZeros();
  }

  double loss(int j) {
    return (offset + j) * h;
  }

  /** The total finite mass. */
  double finiteMass() {
    double s = 0;
    for (double v : pmf) s += v;
    return s;
  }

  /** delta(eps) of this discrete PLD. */
  double delta(double eps) {
    double sum = infinityMass;
    for (int j = pmf.length - 1; j >= 0; j--) {
      double l = loss(j);
      if (l <= eps) {
        break;
      }
      sum += pmf[j] * -Math.expm1(eps - l);
    }
    return Math.min(1.0, sum);
  }

  /** The least eps (any real) with delta(eps) <= target; +infinity if the infinity mass exceeds it. */
  double epsilon(double target) {
    if (infinityMass > target) {
      return Double.POSITIVE_INFINITY;
    }
    // Walk down the grid keeping A = sum_{j>k} pmf_j and C = sum_{j>k} pmf_j e^{l_k - l_j}.
    double a = 0;
    double c = 0;
    double eh = Math.exp(-h);
    int n = pmf.length;
    for (int k = n - 1; k >= 0; k--) {
      // here a, c refer to j > k, with c measured at l_k
      double dk = infinityMass + a - c; // delta(l_k)
      if (dk > target) {
        // answer in (l_k, l_{k+1}]: inf + a - e^{eps - l_k} c = target
        double eps = loss(k) + Math.log((infinityMass + a - target) / c);
        return Math.max(eps, loss(k));
      }
      a += pmf[k];
      c = (c + pmf[k]) * eh; // now sum_{j>=k} pmf_j e^{l_{k-1} - l_j}
    }
    // delta(l_0) <= target: below l_0, delta(eps) = inf + a - e^{eps - l_{-1}} c
    double rest = infinityMass + a - target;
    if (rest <= 0) {
      return Double.NEGATIVE_INFINITY;
    }
    return loss(0) - h + Math.log(rest / c);
  }

  /**
   * B(alpha) = inf_eps (alpha e^eps + delta(eps)), which for a discrete PLD is attained at a
   * grid point (on each segment the function is monotone); capped at 1.
   */
  double blowUp(double alpha) {
    double best = Math.min(1.0, infinityMass + finiteMass());
    double a = 0;
    double c = 0;
    double eh = Math.exp(-h);
    for (int k = pmf.length - 1; k >= 0; k--) {
      double l = loss(k);
      if (l < 700) {
        double v = alpha * Math.exp(l) + infinityMass + a - c;
        if (v < best) {
          best = v;
        }
      }
      a += pmf[k];
      c = (c + pmf[k]) * eh;
    }
    return Math.max(Math.min(1.0, best), alpha);
  }

  DiscretePld trimZeros() {
    int first = 0;
    while (first < pmf.length - 1 && pmf[first] == 0) first++;
    int last = pmf.length - 1;
    while (last > first && pmf[last] == 0) last--;
    if (first == 0 && last == pmf.length - 1) {
      return this;
    }
    double[] out = new double[last - first + 1];
    System.arraycopy(pmf, first, out, 0, out.length);
    return new DiscretePld(h, offset + first, out, infinityMass);
  }

  /**
   * Pessimistic tail truncation: the lowest-loss bins holding at most {@code tail} mass are merged
   * into the first bin kept (moving mass to a higher loss), the highest-loss bins holding at
   * most {@code tail} go to the infinity mass.
   */
  DiscretePld truncate(double tail) {
    int n = pmf.length;
    int first = 0;
    double left = 0;
    while (first < n - 1 && left + pmf[first] <= tail) {
      left += pmf[first];
      first++;
    }
    int last = n - 1;
    double right = 0;
    while (last > first && right + pmf[last] <= tail) {
      right += pmf[last];
      last--;
    }
    double[] out = new double[last - first + 1];
    System.arraycopy(pmf, first, out, 0, out.length);
    out[0] += left;
    return new DiscretePld(h, offset + first, out, infinityMass + right);
  }

  /** The PLD of the composition (independent losses add; infinity absorbs). */
  DiscretePld compose(DiscretePld other, double tail) {
    if (Double.compare(h, other.h) != 0) {
      throw new IllegalArgumentException(
          "discretisation intervals differ, got h=" + h + " and h=" + other.h);
    }
    Convolution.Result r = Convolution.convolve(pmf, other.pmf);
    double[] v = r.values();
    for (int i = 0; i < v.length; i++) {
      if (v[i] < 0) {
        v[i] = 0;
      }
    }
    double finA = finiteMass();
    double finB = other.finiteMass();
    double inf = infinityMass + other.infinityMass - infinityMass * other.infinityMass;
    inf = Math.max(inf, 1.0 - finA * finB);
    // the convolution's finite mass is finA * finB; anything else is infinite loss
    return new DiscretePld(h, offset + other.offset, v, inf + r.errorL1()).truncate(tail);
  }

  DiscretePld selfCompose(int times, double tail) {
    DiscretePld result = null;
    DiscretePld base = this;
    int t = times;
    while (t > 0) {
      if ((t & 1) == 1) {
        result = result == null ? base : result.compose(base, tail);
      }
      t >>= 1;
      if (t > 0) {
        base = base.compose(base, tail);
      }
    }
    return result;
  }
}
