package dev.secpe.accounting.pld;

import java.util.Arrays;

/**
 * A discrete privacy-loss distribution of one adjacency direction: P-mass {@code pmf[j]} at loss
 * {@code (offset + j) * h}, plus {@code infinityMass} at loss +infinity. Immutable.
 * Package-private.
 *
 * <p>Its hockey-stick divergence is {@code delta(eps) = inf + sum_{l_j > eps} pmf_j (1 -
 * e^{eps - l_j})}.
 *
 * <p>Pessimistic (the default): P-mass outside the support of Q, truncated tails and rounding-error
 * bounds all go to infinity, so every delta is an upper bound. Optimistic: every loss is rounded
 * down, mass that cannot be placed is dropped, and the FFT's rounding-error bound is kept as
 * {@code slack} and subtracted from every delta, so every delta is a lower bound (the hockey-stick
 * divergence {@code E_P[(1 - e^{eps - L})_+]} is non-decreasing in the loss, and composition adds
 * losses).
 */
final class DiscretePld {

  final double h;
  final long offset;
  final double[] pmf;
  final double infinityMass;
  /** Optimistic only: an L1 bound on rounding error that may have raised the mass; 0 otherwise. */
  final double slack;
  final boolean optimistic;
  /**
   * How many of the composed losses were put on the grid by {@link #connectTheDots(
   * GaussianMixturePair, double, int)}'s split, a rounding of each loss to one of the two nodes of
   * its own segment: 0 for the other discretisations. In an optimistic PLD (the {@linkplain
   * PldOptions.Estimate#ROUNDED rounded} estimate) every query is shifted by a Hoeffding bound on
   * their accumulated rounding ({@link #roundingShift(double)}); in a pessimistic one it is only a
   * count.
   */
  final long roundings;

  DiscretePld(double h, long offset, double[] pmf, double infinityMass) {
    this(h, offset, pmf, infinityMass, 0.0, false);
  }

  DiscretePld(double h, long offset, double[] pmf, double infinityMass, double slack, boolean optimistic) {
    this(h, offset, pmf, infinityMass, slack, optimistic, 0);
  }

  DiscretePld(
      double h, long offset, double[] pmf, double infinityMass, double slack, boolean optimistic,
      long roundings) {
    this.h = h;
    this.offset = offset;
    this.pmf = pmf;
    this.infinityMass = Math.min(1.0, infinityMass);
    this.slack = slack;
    this.optimistic = optimistic;
    this.roundings = roundings;
  }

  private DiscretePld with(long newOffset, double[] newPmf, double newInfinity, double newSlack) {
    return with(newOffset, newPmf, newInfinity, newSlack, roundings);
  }

  private DiscretePld with(
      long newOffset, double[] newPmf, double newInfinity, double newSlack, long newRoundings) {
    return new DiscretePld(h, newOffset, newPmf, newInfinity, newSlack, optimistic, newRoundings);
  }

  /** The number of grid nodes from {@code lowLoss} to {@code highLoss} at interval h. */
  static long nodes(double lowLoss, double highLoss, double h) {
    long lo = (long) Math.floor(lowLoss / h);
    long hi = (long) Math.ceil(highLoss / h);
    return Math.max(hi, lo + 1) - lo + 1;
  }

  /** The number of grid nodes from {@code lowLoss} to {@code highLoss} at interval h, checked. */
  private static long[] grid(double lowLoss, double highLoss, double h, int maxBins) {
    long lo = (long) Math.floor(lowLoss / h);
    long count = nodes(lowLoss, highLoss, h);
    if (count > maxBins) {
      throw new IllegalStateException(
          "privacy loss range [" + lowLoss + ", " + highLoss + "] needs " + count
              + " bins at discretisation interval " + h + " (limit " + maxBins
              + "); use a coarser interval");
    }
    return new long[] {lo, count};
  }

  /**
   * The optimistic counterpart of {@link #connectTheDots(GaussianMixturePair, double, int)} for a
   * pair with non-decreasing loss: a discrete PLD whose delta lies below the true one at every
   * eps, so that every composition of such PLDs stays below the true composition:
   *
   * <ol>
   *   <li>Restrict P and Q to the grid's x-range (x_0, x_last]: a pair with less mass has no larger
   *       hockey-stick divergence. Its delta is convex in e^eps, exactly linear left of x_0, and 0
   *       at the last node.
   *   <li>Its connect-the-dots masses (the same interval-mass split as the pessimistic side, so no
   *       tail cancellation) describe the chord through its delta at the nodes, which lies above
   *       it by at most the sag of each segment: on [x_i, x_{i+1}] a convex function's chord
   *       exceeds it by at most {@code (x_{i+1} - x_i)(f'(x_{i+1}) - f'(x_i)) / 4}, here at most
   *       {@code (e^h - 1) e^{eps_i} Q(segment) / 4 <= (e^h - 1) dp_i / 4}.
   *   <li>Lower the nodes, from the top, so that each segment's chord lies below the true curve:
   *       both ends by the segment's sag below the true delta at the nodes, or the left end to the
   *       true curve's tangent at the right end (rules A and B in the code); node j is lowered for
   *       the segment below it only where that is possible and worth it. The masses change by the
   *       second difference of the lowering; the first node's left line moves down parallel to
   *       itself, which keeps it on the restricted pair's linear delta.
   *   <li>The lowered curve is replaced by its lower convex hull (lower again, so still valid, and
   *       convex, so no mass is negative); between hull vertices the masses are exactly 0. What
   *       rounding still leaves negative is lowered away node by node, and the rest is set to 0
   *       and added to the slack.
   *   <li>A segment whose mass sits near its lower node (a near-atom, as at the ends of a
   *       subsampled mechanism's loss range, or a true atom, where no chord is close), and the
   *       top segment, have their losses rounded down to the lower node instead, which lowers
   *       each one's contribution {@code (1 - e^{eps - l})_+}. The two parts add.
   * </ol>
   *
   * <p>Why a single-step lower bound is enough: the composed divergence is {@code
   * delta_{1+2}(eps) = E_{L_2}[delta_1(eps - L_2)]} over the P-distribution of the second loss, so
   * lowering delta_1 everywhere lowers the composition, and likewise for the second factor;
   * this needs the discrete P-masses to be non-negative, nothing more.
   *
   * <p>The error is second order in h where the loss distribution is smooth on the scale of h.
   * Where it is not (a subsampled mechanism's bulk of losses within q of 0 at an interval h much
   * larger than q) every node near the bulk must sit below the true curve by about the segment's
   * sag, and over T steps that costs the lower bound a shift of order T h: q = 1e-4, sigma 0.5,
   * 100 steps, delta 1e-6 give [0.448, 0.5406] at h = 1e-3 and [0.5385, 0.5409] at h = 6.25e-5.
   */
  static DiscretePld lowerDots(GaussianMixturePair pair, double h, int maxBins) {
    long[] g = grid(pair.lowLoss(), pair.highLoss(), h, maxBins);
    long lo = g[0];
    int n = (int) g[1];
    double[] x = inverseLosses(pair, lo, n, h);
    GaussianMixturePair.Tails tails = pair.tails(x);
    return lowerDots(h, lo, n, new Segments() {
      @Override
      public double dp(int j) {
        if (!(x[j] < x[j + 1])) {
          return 0.0;
        }
        return x[j + 1] == Double.POSITIVE_INFINITY ? tails.pUpper(j) : tails.pInterval(j);
      }

      @Override
      public double dq(int j) {
        if (!(x[j] < x[j + 1])) {
          return 0.0;
        }
        return x[j + 1] == Double.POSITIVE_INFINITY ? tails.qUpper(j) : tails.qInterval(j);
      }

      @Override
      public double midpointSag(int j) {
        return midpointSagBound(pair, (lo + j) * h, h, x[j], x[j + 1]);
      }

      @Override
      public double trueDelta(int i) {
        return x[i] == Double.POSITIVE_INFINITY ? 0.0
            : Math.max(0.0, tails.pUpper(i) - pair.scaledQUpper(x[i], (lo + i) * h));
      }

      @Override
      public double qAbove(int i) {
        return x[i] == Double.POSITIVE_INFINITY ? 0.0 : tails.qUpper(i);
      }
    });
  }

  /** The P- and Q-mass of the losses in each segment (eps_j, eps_{j+1}] of a grid, and a sag bound. */
  private interface Segments {
    double dp(int j);

    double dq(int j);

    /** An upper bound on the segment's sag from a midpoint evaluation, or +infinity. */
    double midpointSag(int j);

    /** The true pair's delta at node i (at least the curve there: the curve may sit below it). */
    double trueDelta(int i);

    /**
     * The true pair's Q(L > eps_i) at node i: minus the slope, in x = e^eps, of its delta just
     * right of the node, the slope of its tangent there.
     */
    double qAbove(int i);

    /** Adds the pair's atoms (P-mass at one loss, not counted in any segment), rounded down. */
    default void addAtoms(double[] pmf) {}
  }

  /** The point x of each grid node where the pair's loss reaches the node's eps. */
  private static double[] inverseLosses(GaussianMixturePair pair, long lo, int n, double h) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = pair.inverseLoss((lo + i) * h);
    }
    return x;
  }

  /** {@code e^eps m} without overflow where m is tiny and eps large (0 for m = 0). */
  /**
   * Connect the dots over one segment: its mass {@code dp} (with q-mass {@code dq}) between nodes j
   * and j + 1 becomes masses on the two nodes whose total contribution at both ends is exact:
   * {@code v / em1} on node j and {@code (em1 dp - v) / em1} on node j + 1, with {@code v =
   * e^{eps_{j+1}} dq - dp} clamped to {@code [0, em1 dp]} ({@code em1 = e^h - 1}).
   */
  private static void splitOverNodes(double[] pmf, int j, double epsNext, double dp, double dq, double em1) {
    double v = scaled(epsNext, dq) - dp;
    if (!(v > 0)) {
      v = 0;
    }
    double total = em1 * dp;
    if (v > total) {
      v = total;
    }
    pmf[j] += v / em1;
    pmf[j + 1] += (total - v) / em1;
  }

  private static double scaled(double eps, double m) {
    if (m == 0) {
      return 0.0;
    }
    return eps < 700 ? Math.exp(eps) * m : Math.exp(eps + Math.log(m));
  }

  /** The largest grid node {@code k} (index from {@code lo}) with {@code (lo + k) h <= loss}. */
  private static int nodeAtOrBelow(double loss, double h, long lo) {
    long k = (long) Math.floor(loss / h);
    while ((k + 1) * h <= loss) {
      k++;
    }
    while (k * h > loss) {
      k--;
    }
    return (int) (k - lo);
  }

  /** {@link #lowerDots(GaussianMixturePair, double, int)} for any pair given by its segments. */
  private static DiscretePld lowerDots(double h, long lo, int n, Segments segments) {
    double em1 = Math.expm1(h);
    double e1m = -Math.expm1(-h);
    double[] pmf = new double[n]; // connect-the-dots masses of the segments kept as a curve
    double[] atoms = new double[n]; // segments merged into one atom on their lower node
    double[] sags = new double[n];
    double slack = 0;
    for (int j = 0; j + 1 < n; j++) {
      double dp = segments.dp(j);
      if (!(dp > 0)) {
        continue;
      }
      double dq = segments.dq(j);
      double eps = (lo + j) * h;
      // Rounding the segment's losses down to node j lowers each one's contribution (1 -
      // e^{eps - l})_+; its cost, about dp - e^{eps_j} dq, is less than the sag where the mass
      // sits near the lower node (a near-atom, as at the ends of a subsampled mechanism's loss
      // range, or a true atom such as the Laplace mechanism's). The top segment is always
      // rounded down: no chord can end at the zero there.
      double rounding = dp - Math.min(dp, scaled(eps, dq));
      double sagBound = em1 * dp / 4;
      if (j + 2 == n || rounding <= sagBound) {
        atoms[j] += dp;
        continue;
      }
      double midSag = segments.midpointSag(j);
      double sag = midSag < sagBound ? midSag : sagBound; // a NaN bound is not used
      if (rounding <= sag) {
        atoms[j] += dp;
        continue;
      }
      splitOverNodes(pmf, j, eps + h, dp, dq, em1);
      sags[j] = sag;
    }
    segments.addAtoms(atoms);
    double[] m = new double[n];
    for (int i = 0; i < n; i++) {
      m[i] = pmf[i] + atoms[i];
    }
    // The curve at the nodes, c_j = sum_{k > j} m_k (1 - e^{eps_j - l_k}) = total_j - scaled_j,
    // where scaled_j = sum_{k > j} m_k e^{eps_j - l_k} = e^{eps_j} Q(L > eps_j) of the pair.
    double[] c = new double[n];
    double[] scaled = new double[n];
    double tot = 0;
    double sc = 0;
    double eh = Math.exp(-h);
    for (int k = n - 1; k >= 0; k--) {
      c[k] = Math.max(0.0, tot - sc);
      scaled[k] = sc;
      tot += m[k];
      sc = (sc + m[k]) * eh;
    }
    // Lowering, from the top, to values y_j = c_j - lower_j (0 <= y_j <= c_j) whose chords lie
    // below the true curve f on every segment. With f_j the true delta at node j (c_j <= f_j: the
    // curve is exact at a chord segment's nodes, lower where a segment above was rounded down to
    // the node):
    //   A: y_j <= f_j - sag_j and y_{j+1} <= f_{j+1} - sag_j: the chord is then below f's own
    //      chord over the segment less the sag, which is below f (every other segment's
    //      contribution is linear there, so f's chord exceeds f by at most the sag); for a segment
    //      rounded down to its node (sag 0) y <= c is all it needs;
    //   B: y_j <= f_{j+1} + (e^h - 1) e^{eps_j} Q(L > eps_{j+1}) (f's tangent at the right end,
    //      a line below the convex f) and y_{j+1} <= f_{j+1}, which always holds.
    // Each node takes the higher of what its segment allows; node j is lowered further, so that
    // the segment below it may take A, only where that gains the node below more than it costs
    // node j. (Before, node j was always lowered by the sag below it, even where that sag
    // exceeded the whole curve at node j: a subsampled mechanism's bulk, straddling a node at a
    // coarse interval, sent node j to 0, every node above followed, and q = 1e-4, sigma 0.5,
    // h = 1e-3 had a lower bound of 0 at every epsilon.)
    double[] f = new double[n];
    double[] qAbove = new double[n];
    for (int i = 0; i < n; i++) {
      f[i] = segments.trueDelta(i);
      qAbove[i] = segments.qAbove(i);
    }
    double[] lower = new double[n];
    for (int j = n - 2; j >= 0; j--) {
      double yRight = c[j + 1] - lower[j + 1];
      double y = tangentAtRight(f, qAbove, j, lo, h, em1);
      if (yRight <= f[j + 1] - sags[j]) {
        y = Math.max(y, f[j] - sags[j]);
      }
      y = Math.min(c[j], y);
      if (j > 0 && sags[j - 1] > 0) {
        double capForA = f[j] - sags[j - 1];
        double gainBelow = (f[j - 1] - sags[j - 1]) - tangentAtRight(f, qAbove, j - 1, lo, h, em1);
        // never to 0 or below: a node at 0 sends every node above it to 0 (the hull below)
        if (capForA > 0 && capForA < y && gainBelow > y - capForA) {
          y = capForA;
        }
      }
      lower[j] = c[j] - Math.max(0.0, y);
    }
    // The lowered curve need not be convex: its lower convex hull (in x = e^eps) is below it,
    // hence still below f, and convex, so every mass it implies is non-negative. (Repairing
    // negative masses node by node instead could leave them unrepaired, as slack against every
    // delta.)
    boolean[] vertex = hullLowering(c, lower, h);
    // masses change by minus the second difference of the lowering
    double[] out = m;
    for (int i = 0; i < n; i++) {
      double right = i + 1 < n ? (lower[i + 1] - lower[i]) / em1 : 0.0;
      double left = i == 0 ? 0.0 : (lower[i] - lower[i - 1]) / e1m;
      out[i] -= i == 0 ? right : right - left;
    }
    // between two vertices of the hull the curve is one line: no mass (what the subtraction leaves
    // there is rounding, up to 1e-12 a node, which summed over the nodes would be slack)
    for (int i = 1; i + 1 < n; i++) {
      if (!vertex[i]) {
        out[i] = 0.0;
      }
    }
    slack += convexify(out, em1, e1m);
    return new DiscretePld(h, lo, out, 0.0, slack, true).trimZeros();
  }

  /** Rule B's bound on node j: f's tangent at node j + 1, evaluated at node j. */
  private static double tangentAtRight(double[] f, double[] qAbove, int j, long lo, double h, double em1) {
    return f[j + 1] + em1 * scaled((lo + j) * h, qAbove[j + 1]);
  }

  /**
   * Raises {@code lower} so that {@code c - lower} is the lower convex hull, in x = e^eps on the
   * grid's nodes, of the points {@code (x_j, c_j - lower_j)} (Andrew's monotone chain on the
   * nodes in order; slopes are compared through ratios of {@code e^{kh} - 1}, so no x overflows).
   *
   * @return which nodes are vertices of the hull
   */
  static boolean[] hullLowering(double[] c, double[] lower, double h) {
    int n = c.length;
    int[] hull = new int[n];
    int top = 0;
    for (int k = 0; k < n; k++) {
      double yk = c[k] - lower[k];
      while (top >= 2) {
        int a = hull[top - 2];
        int b = hull[top - 1];
        double ya = c[a] - lower[a];
        // b stays on the lower hull iff it lies strictly below the chord from a to k
        if (c[b] - lower[b] < ya + (yk - ya) * expm1Ratio(b - a, k - a, h)) {
          break;
        }
        top--;
      }
      hull[top++] = k;
    }
    boolean[] vertex = new boolean[n];
    for (int v = 0; v < top; v++) {
      vertex[hull[v]] = true;
    }
    for (int v = 0; v + 1 < top; v++) {
      int a = hull[v];
      int b = hull[v + 1];
      double ya = c[a] - lower[a];
      double yb = c[b] - lower[b];
      for (int j = a + 1; j < b; j++) {
        lower[j] = Math.max(lower[j], c[j] - (ya + (yb - ya) * expm1Ratio(j - a, b - a, h)));
      }
    }
    return vertex;
  }

  /** {@code (e^{p h} - 1) / (e^{q h} - 1)} for {@code 0 < p <= q}, without overflow. */
  private static double expm1Ratio(int p, int q, double h) {
    if (q * h < 700) {
      return Math.expm1(p * h) / Math.expm1(q * h);
    }
    return Math.exp((p - q) * h) * (-Math.expm1(-p * h)) / (-Math.expm1(-q * h));
  }

  /**
   * A second bound on the sag of the segment [eps, eps + h]: the chord minus a convex function is
   * concave and 0 at both ends, so its maximum is at most twice its value at the midpoint (in x =
   * e^eps). Plus a margin for the rounding of the three delta values.
   */
  private static double midpointSagBound(GaussianMixturePair pair, double eps, double h, double xa, double xb) {
    if (!Double.isFinite(xa) || !Double.isFinite(xb)) {
      return Double.POSITIVE_INFINITY;
    }
    double da = restrictedDelta(pair, xa, eps);
    double db = restrictedDelta(pair, xb, eps + h);
    double epsMid = eps + Math.log(0.5 * (1 + Math.exp(h)));
    double xm = pair.inverseLoss(epsMid);
    if (!Double.isFinite(xm)) {
      return Double.POSITIVE_INFINITY;
    }
    double dm = restrictedDelta(pair, xm, epsMid);
    double g = 0.5 * (da + db) - dm;
    return 2 * Math.max(0.0, g) + 4e-16 * Math.max(da, dm) + Double.MIN_NORMAL;
  }

  private static double restrictedDelta(GaussianMixturePair pair, double x, double eps) {
    return pair.pUpper(x) - pair.scaledQUpper(x, eps);
  }

  /**
   * Lowers the curve at nodes with negative mass until their mass is 0 (lowering node i by d
   * raises its mass by d (1/(e^h - 1) + 1/(1 - e^{-h})) and lowers its neighbours' by d/(e^h - 1)
   * and d/(1 - e^{-h}); the first node's left line moves with it, so it gains d/(e^h - 1) and only
   * its right neighbour loses; the last node stays at 0), for a bounded number of passes; then
   * sets what is left negative to 0, taking as much mass from the nodes above; returns what could
   * not be taken (slack).
   */
  private static double convexify(double[] m, double em1, double e1m) {
    int n = m.length;
    double gain = 1 / em1 + 1 / e1m;
    for (int pass = 0; pass < 64; pass++) {
      boolean changed = false;
      if (n > 1 && m[0] < 0) {
        // the first node: its left line moves down with it (parallel), so only its right
        // neighbour gives mass
        double d = -m[0] * em1;
        m[0] = 0;
        m[1] -= d / e1m;
        changed = true;
      }
      for (int i = 1; i + 1 < n; i++) {
        if (m[i] < 0) {
          double d = -m[i] / gain;
          m[i] = 0;
          m[i - 1] -= d / em1;
          m[i + 1] -= d / e1m;
          changed = true;
        }
      }
      if (!changed) {
        break;
      }
    }
    // What is still negative (rounding: the masses are second differences divided by e^h - 1) is
    // set to 0 and the same mass taken from the nodes above it: zeroing mass m at loss l_i raises
    // delta(eps) by m (1 - e^{eps - l_i})_+, removing it at l_j > l_i lowers it by m (1 - e^{eps -
    // l_j})_+, which is at least as much at every eps. Only a debt left at the top is slack.
    double debt = 0;
    for (int i = 0; i < n; i++) {
      if (m[i] < 0) {
        debt += -m[i];
        m[i] = 0;
      } else if (debt > 0 && m[i] > 0) {
        double paid = Math.min(debt, m[i]);
        m[i] -= paid;
        debt -= paid;
      }
    }
    return debt;
  }

  /**
   * The optimistic discretisation of the Laplace mechanism (P = Lap(Delta, b), Q = Lap(0, b),
   * eps0 = Delta/b, loss in [-eps0, eps0]), by {@link #lowerDots(GaussianMixturePair, double,
   * int)}'s construction: atoms of P-mass e^{-eps0}/2 (Q-mass 1/2) at -eps0 and 1/2 (Q-mass
   * e^{-eps0}/2) at +eps0, and between them P(L in (a, c]) = (e^{(c - eps0)/2} - e^{(a -
   * eps0)/2}) / 2, Q(L in (a, c]) = (e^{-(a + eps0)/2} - e^{-(c + eps0)/2}) / 2.
   */
  static DiscretePld lowerDotsLaplace(double eps0, double h, int maxBins) {
    LaplaceProfile profile = new LaplaceProfile(eps0);
    long[] g = grid(-eps0, eps0, h, maxBins);
    long lo = g[0];
    int n = (int) g[1];
    return lowerDots(h, lo, n, new Segments() {
      /** The continuous part (the atoms at -eps0 and +eps0 are added apart). */
      private double mass(int j, boolean p) {
        double a = (lo + j) * h;
        double c = (lo + j + 1) * h;
        double from = Math.max(-eps0, a);
        double to = Math.min(eps0, c);
        if (!(to > from)) {
          return 0.0;
        }
        return p
            ? 0.5 * (Math.exp(0.5 * (to - eps0)) - Math.exp(0.5 * (from - eps0)))
            : 0.5 * (Math.exp(-0.5 * (from + eps0)) - Math.exp(-0.5 * (to + eps0)));
      }

      @Override
      public void addAtoms(double[] pmf) {
        pmf[Math.max(0, nodeAtOrBelow(-eps0, h, lo))] += 0.5 * Math.exp(-eps0);
        pmf[Math.min(n - 1, nodeAtOrBelow(eps0, h, lo))] += 0.5;
      }

      @Override
      public double dp(int j) {
        return mass(j, true);
      }

      @Override
      public double dq(int j) {
        return mass(j, false);
      }

      @Override
      public double trueDelta(int i) {
        return profile.delta((lo + i) * h);
      }

      @Override
      public double qAbove(int i) {
        // Q = Lap(0, b): Q(L > eps) is 1 below -eps0, e^{-(eps + eps0)/2} / 2 up to eps0 (the
        // continuous part and the atom at +eps0), 0 from there
        double eps = (lo + i) * h;
        return eps < -eps0 ? 1.0 : eps < eps0 ? 0.5 * Math.exp(-0.5 * (eps + eps0)) : 0.0;
      }

      @Override
      public double midpointSag(int j) {
        double eps = (lo + j) * h;
        double mid = eps + Math.log(0.5 * (1 + Math.exp(h)));
        double g0 = 0.5 * (profile.delta(eps) + profile.delta(eps + h)) - profile.delta(mid);
        return 2 * Math.max(0.0, g0) + 4e-16 + Double.MIN_NORMAL;
      }
    });
  }

  /**
   * Connect-the-dots discretisation (Doroshenko et al. 2022): the dominating discrete pair whose
   * delta, as a function of e^eps, is the linear interpolation of the true delta through the
   * grid points eps_i = i h; delta is convex in e^eps, so the interpolation lies above it.
   * Left of the grid the interpolation runs to (e^eps = 0, delta = 1); right of it delta is held
   * at its last grid value, which becomes the infinity mass.
   */
  static DiscretePld connectTheDots(PrivacyProfile profile, double h, int maxBins) {
    long[] g = grid(profile.lowLoss(), profile.highLoss(), h, maxBins);
    long lo = g[0];
    int n = (int) g[1];
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
    return new DiscretePld(h, lo, pmf, delta[n - 1] + extra, 0.0, false, 1).trimZeros();
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
    return connectTheDots(pair, h, maxBins, false);
  }

  /**
   * The {@linkplain PldOptions.Estimate#ROUNDED rounded} estimate of one mechanism: {@link
   * #connectTheDots(GaussianMixturePair, double, int)}'s masses inside the grid, everything else
   * dropped (the mass left of the grid, the P tail right of it less what goes to the last node,
   * and tau), as an optimistic PLD with one rounding.
   *
   * <p>Why its losses are a rounding whose error is small on average: the split of a segment
   * [a, a + h] keeps both its P-mass and its Q-mass, i.e. {@code E_P[e^{-L}]} over the segment,
   * so each loss L of the segment can be coupled with a node value {@code L'} in {a, a + h}, and
   * {@code L' - L} lies in [-h, h]. The mean of {@code L' - L} is at least 0 ({@code phi} lies below
   * its chord) and at most {@code h^2 / 4}: with
   * {@code phi(l) = e^{-l}} and its chord c over the segment, {@code c(E L') = E phi(L') = E
   * phi(L) >= phi(E L) >= c(E L) - sag}, the sag of a convex function's chord is at most {@code h
   * (phi'(a + h) - phi'(a)) / 4 = h e^{-a} (1 - e^{-h}) / 4}, and c falls with slope {@code e^{-a}
   * (1 - e^{-h}) / h}. At the last node the tail's losses are rounded down, and dropped mass is
   * not rounded at all, so neither adds to the mean. Clipping V (rounding) moves the split by
   * rounding only.
   */
  static DiscretePld roundedDots(GaussianMixturePair pair, double h, int maxBins) {
    return connectTheDots(pair, h, maxBins, true);
  }

  private static DiscretePld connectTheDots(
      GaussianMixturePair pair, double h, int maxBins, boolean rounded) {
    long[] g = grid(pair.lowLoss(), pair.highLoss(), h, maxBins);
    long lo = g[0];
    int n = (int) g[1];
    double[] x = inverseLosses(pair, lo, n, h);
    double em1 = Math.expm1(h);
    double[] pmf = new double[n];
    if (!rounded) {
      pmf[0] += pair.pInterval(Double.NEGATIVE_INFINITY, x[0]);
    }
    GaussianMixturePair.Tails tails = pair.tails(x);
    for (int j = 0; j + 1 < n; j++) {
      double dp = tails.pInterval(j);
      if (dp == 0) {
        continue;
      }
      double dq = tails.qInterval(j);
      splitOverNodes(pmf, j, (lo + j + 1) * h, dp, dq, em1);
    }
    double xLast = x[n - 1];
    double pTail = pair.pUpper(xLast);
    double atLast = Math.min(pTail, scaled((lo + n - 1) * h, pair.qUpper(xLast)));
    pmf[n - 1] += atLast;
    if (rounded) {
      return new DiscretePld(h, lo, pmf, 0.0, 0.0, true, 1).trimZeros();
    }
    double inf = pTail - atLast + pair.tau();
    return new DiscretePld(h, lo, pmf, inf, 0.0, false, 1).trimZeros();
  }

  double loss(int j) {
    return (offset + j) * h;
  }

  /**
   * The total finite mass, by compensated (Neumaier) summation: summed naively, a grid of 10^4 to
   * 10^5 bins loses 1e-15 to 2e-13 of its mass to rounding, which composition's {@code 1 - finA
   * finB} then put at infinity every step (1e5 steps: 1e-10, a whole delta of 1e-10).
   */
  double finiteMass() {
    double s = 0;
    double c = 0;
    for (double v : pmf) {
      double t = s + v;
      c += Math.abs(s) >= Math.abs(v) ? (s - t) + v : (v - t) + s;
      s = t;
    }
    return s + c;
  }

  /**
   * Whether queries are shifted for accumulated rounding: an optimistic PLD with {@link
   * #roundings}.
   */
  private boolean shifted() {
    return optimistic && roundings > 0;
  }

  /**
   * The shift, in nats, that the accumulated rounding of {@link #roundings} losses exceeds with
   * probability at most {@code eta}: {@code h sqrt(n ln(1/eta)) + n h^2 / 4}.
   *
   * <p>A rounding error {@code E = L' - L} (see {@link #roundedDots}): given L in the segment [a, a
   * + h], L' is a + h with probability {@code w(L) = min(1, (L - a) / h + c)}, a otherwise, with
   * {@code c >= 0} such that the mean of w is the split's (possible because the split's mean loss is
   * at least the true one). Given L, E takes two values h apart, with mean {@code m(L) = min(a + h
   * - L, c h)} in [0, h], whose own mean is at most {@code h^2 / 4}. At the last node (losses
   * rounded down) and for dropped mass take E = 0: it is at least the true error, which is all the
   * bound needs. By Hoeffding's lemma, once given L and once for m(L), {@code E[e^{lambda (E -
   * E[E])}] <= e^{lambda^2 h^2 / 4}}; the losses of a composition are independent, so the sum of n
   * errors exceeds {@code n h^2 / 4 + t} with probability at most {@code exp(-t^2 / (n h^2))}. On
   * the other event the true composed loss S is at least the rounded one S' less the shift s, and
   * {@code (1 - e^{eps - l})_+} is non-decreasing in l and at most 1, so {@code delta(eps) >=
   * delta'(eps + s) - eta} for the true delta and the rounded one (mass dropped from S' only
   * lowers delta'). Hence {@code epsilon(delta) >= epsilon'(delta + eta) - s} and {@code B(alpha)
   * >= B'(alpha e^{-s}) - eta}. The shift grows as {@code h sqrt(n)}, where a pair dominated by the
   * true one can cost {@code n h} (see {@link #lowerDots}).
   */
  double roundingShift(double eta) {
    double n = roundings;
    return h * Math.sqrt(n * Math.log(1 / eta)) + n * h * h / 4;
  }

  /** The tail probabilities tried for the Hoeffding shift in {@link #delta} and {@link #blowUp}. */
  private static final double[] ETAS = etas();

  private static double[] etas() {
    double[] out = new double[39];
    for (int k = 0; k < out.length; k++) {
      out[k] = Math.pow(10, -0.5 * (k + 2)); // 1e-1 down to 1e-20
    }
    return out;
  }

  /**
   * delta(eps) of this discrete PLD (optimistic: less the slack, at least 0; with {@link
   * #roundings}, the best of {@code delta(eps + s(eta)) - eta} over a range of eta).
   */
  double delta(double eps) {
    if (!shifted()) {
      return plainDelta(eps);
    }
    double best = 0.0;
    for (double eta : ETAS) {
      best = Math.max(best, plainDelta(eps + roundingShift(eta)) - eta);
    }
    return best;
  }

  private double plainDelta(double eps) {
    double sum = infinityMass;
    for (int j = pmf.length - 1; j >= 0; j--) {
      double l = loss(j);
      if (l <= eps) {
        break;
      }
      sum += pmf[j] * -Math.expm1(eps - l);
    }
    return Math.max(0.0, Math.min(1.0, sum) - slack);
  }

  /**
   * The least eps (any real) with delta(eps) <= target; +infinity if the infinity mass exceeds it.
   * With {@link #roundings} (optimistic), the best of {@code epsilon(target + eta) - s(eta)} for
   * eta from the target down to 1e-8 of it.
   */
  double epsilon(double requested) {
    if (!shifted()) {
      return epsilon(requested + slack, infinityMass); // optimistic: delta - slack <= requested
    }
    double base = requested > 0 ? requested : 1e-12;
    double best = Double.NEGATIVE_INFINITY;
    for (int k = 0; k <= 16; k++) {
      double eta = base * Math.pow(10, -0.5 * k);
      best = Math.max(best, epsilon(requested + eta + slack, infinityMass) - roundingShift(eta));
    }
    return best;
  }

  /**
   * Where the finite losses alone reach {@code requested}: the epsilon of this PLD with neither
   * infinity mass nor slack (an estimate of where its epsilon is decided, not a bound).
   */
  double finiteEpsilon(double requested) {
    return epsilon(requested, 0.0);
  }

  private double epsilon(double target, double infinityMass) {
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
   * grid point (on each segment the function is monotone); capped at 1. With {@link #roundings}
   * (optimistic), the best of {@code B(alpha e^{-s(eta)}) - eta} over a range of eta, and at least
   * alpha.
   */
  double blowUp(double alpha) {
    if (!shifted()) {
      return plainBlowUp(alpha);
    }
    double best = alpha;
    for (int k = 0; k < ETAS.length; k += 2) {
      double eta = ETAS[k];
      best = Math.max(best, plainBlowUp(alpha * Math.exp(-roundingShift(eta))) - eta);
    }
    return best;
  }

  private double plainBlowUp(double alpha) {
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
    return Math.max(Math.min(1.0, best) - slack, alpha);
  }

  /**
   * This pessimistic PLD's masses read as a {@linkplain PldOptions.Estimate#ROUNDED rounded} one:
   * not a bound, an estimate of what the rounded composition gives, which costs no convolution.
   * Its infinity mass becomes slack (untilted, it holds the convolutions' rounding-error bounds,
   * which the rounded composition subtracts as slack). The array is shared.
   */
  DiscretePld asRounded() {
    return new DiscretePld(h, offset, pmf, 0.0, infinityMass, true, roundings);
  }

  /**
   * This PLD without what the convolutions' rounding and truncation may have put in it: a
   * pessimistic one without its infinity mass (where that holds the rounding-error bounds and the
   * truncated tails, and also any true infinite loss), an optimistic one without its slack. Not a
   * bound: a measure, against this PLD's own value, of how far the rounding moved it. The array is
   * shared.
   */
  DiscretePld withoutRoundingError() {
    return optimistic
        ? new DiscretePld(h, offset, pmf, infinityMass, 0.0, true, roundings)
        : new DiscretePld(h, offset, pmf, 0.0, 0.0, false, roundings);
  }

  DiscretePld trimZeros() {
    int first = 0;
    while (first < pmf.length - 1 && pmf[first] == 0) first++;
    int last = pmf.length - 1;
    while (last > first && pmf[last] == 0) last--;
    return cut(first, last, 0.0, 0.0);
  }

  /**
   * The bins {@code first} to {@code last} kept, {@code below} and {@code above} the mass of the
   * bins cut at either end: pessimistic, the mass below goes onto the first bin kept (moved up, so
   * delta only rises) and the mass above to infinity; optimistic, both are dropped.
   */
  private DiscretePld cut(int first, int last, double below, double above) {
    if (first == 0 && last == pmf.length - 1) {
      return this;
    }
    double[] out = Arrays.copyOfRange(pmf, first, last + 1);
    if (optimistic) {
      return with(offset + first, out, infinityMass, slack);
    }
    out[0] += below;
    return with(offset + first, out, infinityMass + above, slack);
  }

  /**
   * Tail truncation. Pessimistic: the lowest-loss bins holding at most {@code tail} mass are merged
   * into the first bin kept (moving mass to a higher loss), the highest-loss bins holding at
   * most {@code tail} go to the infinity mass. Optimistic: both are dropped.
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
    return cut(first, last, left, right);
  }

  /** The PLD of the composition (independent losses add; infinity absorbs). */
  DiscretePld compose(DiscretePld other, double tail) {
    checkComposable(other);
    Convolution.Result r = Convolution.convolve(pmf, other.pmf);
    double[] v = r.values();
    for (int i = 0; i < v.length; i++) {
      if (v[i] < 0) {
        v[i] = 0;
      }
    }
    double inf = infinityMass + other.infinityMass - infinityMass * other.infinityMass;
    if (optimistic) {
      // the losses add; mass dropped before stays dropped; the rounding error may have raised
      // the mass, so its bound is subtracted from every delta (slack)
      return with(offset + other.offset, v, inf, slack + other.slack + r.errorL1(),
          roundings + other.roundings).trimNoise(r).truncate(tail);
    }
    double finA = finiteMass();
    double finB = other.finiteMass();
    inf = Math.max(inf, 1.0 - finA * finB);
    // the convolution's finite mass is finA * finB; anything else is infinite loss
    return with(offset + other.offset, v, inf + r.errorL1(), 0.0, roundings + other.roundings)
        .trimNoise(r).truncate(tail);
  }

  /**
   * Cuts the ends of an untilted convolution where every value is within the convolution's
   * rounding-error bound: there the values are the FFT's noise (about 1e-17 of the bulk on every
   * bin), not mass, and a tail cut of {@code tailMass} removes only a few of them, so without this
   * the grid doubled with every squaring (q = 1e-4, sigma 0.5, 10^4 steps at h = 1e-3: 79 million
   * bins, 152 s, where the tilted composition has 9,000). Pessimistic: the low end is merged into
   * the first value kept (moved up), the high end goes to infinity; optimistic: both are dropped.
   * Nothing is cut where no value exceeds the bound.
   */
  private DiscretePld trimNoise(Convolution.Result r) {
    double bound = r.errorMax();
    double keep = 1 - r.errorRelative();
    int n = pmf.length;
    int first = 0;
    while (first < n && !(pmf[first] * keep > bound)) {
      first++;
    }
    if (first == n) {
      return this;
    }
    int last = n - 1;
    while (!(pmf[last] * keep > bound)) {
      last--;
    }
    double low = 0;
    for (int k = 0; k < first; k++) {
      low += pmf[k];
    }
    double high = 0;
    for (int k = last + 1; k < n; k++) {
      high += pmf[k];
    }
    return cut(first, last, low, high);
  }

  DiscretePld selfCompose(int times, double tail) {
    return selfCompose(times, tail, 0.0);
  }

  private void checkComposable(DiscretePld other) {
    if (Double.compare(h, other.h) != 0) {
      throw new IllegalArgumentException(
          "discretisation intervals differ, got h=" + h + " and h=" + other.h);
    }
    if (optimistic != other.optimistic) {
      throw new IllegalArgumentException("cannot compose an optimistic with a pessimistic estimate");
    }
  }

  /**
   * The T-fold self-composition, every convolution tilted by {@code tilt}: untilted as one transform
   * raised to the T-th power ({@link #selfComposeByPower}) where the step's grid is too large for
   * direct convolution, else by repeated squaring.
   * What a squaring truncates is doubled by every squaring after it. Tilted, the squaring that
   * makes the 2^(j+1)-fold composition truncates at most {@code tail 2^(j+1) / T}, so that each
   * level adds about {@code tail} at infinity, about {@code tail log2(T)} in all; at {@code tail}
   * every squaring it is about {@code T tail} (1e-10 after 1e5 steps at 1e-15, the whole of a delta
   * of 1e-10). Untilted, every squaring truncates {@code tail}: there the FFT's rounding noise
   * (about 1e-17 a bin, everywhere) must be cut off at the ends of the grid, and a smaller cut lets
   * the grid double with every squaring (10^8 bins after 10^5 steps of q = 0.1, sigma 1, against
   * 1.2 million); tilted, the grid stays the same size.
   */
  DiscretePld selfCompose(int times, double tail, double tilt) {
    return selfCompose(times, tail, tilt, false);
  }

  /**
   * {@link #selfCompose(int, double, double)}, the tilted convolutions in double-double arithmetic
   * where {@code extended} (see {@link #compose(DiscretePld, double, double, boolean)}).
   */
  DiscretePld selfCompose(int times, double tail, double tilt, boolean extended) {
    if (times >= 2 && !(tilt > 0) && (long) pmf.length * pmf.length > Convolution.DIRECT_LIMIT) {
      return selfComposeByPower(times, tail);
    }
    DiscretePld result = null;
    DiscretePld base = this;
    int t = times;
    double fold = 1;
    while (t > 0) {
      if ((t & 1) == 1) {
        result = result == null ? base : result.compose(base, tail, tilt, extended);
      }
      t >>= 1;
      if (t > 0) {
        fold *= 2;
        base = base.compose(
            base, tilt > 0 ? tail * Math.min(1.0, fold / times) : tail, tilt, extended);
      }
    }
    return result;
  }

  /**
   * The tilt lambda >= 0 at which the tilted mean of the composition of {@code parts} (each
   * {@code times[i]} times) reaches {@code target}: {@code sum_i times_i m_i(lambda) = target},
   * with {@code m_i(lambda) = sum_j p_j l_j e^{lambda l_j} / sum_j p_j e^{lambda l_j}} the tilted
   * mean of part i's finite losses (increasing in lambda; the cumulant generating function of a
   * composition is the sum of its parts'). 0 where the untilted mean already reaches the target;
   * at most {@link #MAX_TILT}.
   */
  static double tiltFor(double target, DiscretePld[] parts, int[] times) {
    // the logarithms of the masses, once: the search evaluates the tilted mean several times
    double[][] logPmfs = new double[parts.length][];
    for (int i = 0; i < parts.length; i++) {
      logPmfs[i] = parts[i].logPmf();
    }
    if (!(tiltedMean(0.0, parts, logPmfs, times) < target)) {
      return 0.0;
    }
    double hi = 1.0;
    while (tiltedMean(hi, parts, logPmfs, times) < target) {
      if (hi >= MAX_TILT) {
        return MAX_TILT;
      }
      hi *= 2;
    }
    // safeguarded Newton in the bracket: the tilted mean's derivative in lambda is the tilted
    // variance, so a pass over the masses gives both (a handful of passes, where bisection took 60)
    double lo = hi / 2 >= 1.0 ? hi / 2 : 0.0;
    double lambda = 0.5 * (lo + hi);
    for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; i++) {
      double[] mv = tiltedMoments(lambda, parts, logPmfs, times);
      double f = mv[0] - target;
      if (f < 0) {
        lo = lambda;
      } else {
        hi = lambda;
      }
      double next = mv[1] > 0 ? lambda - f / mv[1] : Double.NaN;
      if (!(next > lo && next < hi)) {
        next = 0.5 * (lo + hi);
      } else if (Math.abs(next - lambda) <= 1e-7 * hi) {
        return next;
      }
      lambda = next;
    }
    return lo;
  }

  /** The composition's tilted mean and variance (the sums of its parts', times their counts). */
  private static double[] tiltedMoments(
      double lambda, DiscretePld[] parts, double[][] logPmfs, int[] times) {
    double mean = 0;
    double var = 0;
    for (int i = 0; i < parts.length; i++) {
      double[] mv = parts[i].tiltedMoments(lambda, logPmfs[i]);
      mean += times[i] * mv[0];
      var += times[i] * mv[1];
    }
    return new double[] {mean, var};
  }

  /** The mean and variance of the finite losses under weights {@code pmf_j e^{lambda l_j}}. */
  private double[] tiltedMoments(double lambda, double[] logPmf) {
    double top = tiltedTop(lambda, logPmf);
    double w = 0;
    double wl = 0;
    double wll = 0;
    for (int j = 0; j < pmf.length; j++) {
      if (logPmf[j] != Double.NEGATIVE_INFINITY) {
        double l = loss(j);
        double e = Math.exp(logPmf[j] + lambda * l - top);
        w += e;
        wl += e * l;
        wll += e * l * l;
      }
    }
    double mean = wl / w;
    return new double[] {mean, Math.max(0.0, wll / w - mean * mean)};
  }

  /** The largest tilt used, in 1/nats. */
  static final double MAX_TILT = 1024;

  private static double tiltedMean(double lambda, DiscretePld[] parts, double[][] logPmfs, int[] times) {
    double sum = 0;
    for (int i = 0; i < parts.length; i++) {
      sum += times[i] * parts[i].tiltedMean(lambda, logPmfs[i]);
    }
    return sum;
  }

  /**
   * The mean of the finite losses under weights {@code pmf_j e^{lambda l_j}} (NaN without mass),
   * given {@code logPmf = }{@link #logPmf()}.
   */
  private double tiltedMean(double lambda, double[] logPmf) {
    double top = tiltedTop(lambda, logPmf);
    double w = 0;
    double wl = 0;
    for (int j = 0; j < pmf.length; j++) {
      if (logPmf[j] != Double.NEGATIVE_INFINITY) {
        double e = Math.exp(logPmf[j] + lambda * loss(j) - top);
        w += e;
        wl += e * loss(j);
      }
    }
    return wl / w;
  }

  /** {@code log pmf_j}, and -infinity where the mass is not positive. */
  private double[] logPmf() {
    double[] out = new double[pmf.length];
    for (int j = 0; j < pmf.length; j++) {
      out[j] = pmf[j] > 0 ? Math.log(pmf[j]) : Double.NEGATIVE_INFINITY;
    }
    return out;
  }

  /** The largest {@code log pmf_j + lambda l_j} over the positive masses (-infinity if none). */
  private double tiltedTop(double lambda, double[] logPmf) {
    double top = Double.NEGATIVE_INFINITY;
    for (int j = 0; j < pmf.length; j++) {
      if (logPmf[j] != Double.NEGATIVE_INFINITY) {
        top = Math.max(top, logPmf[j] + lambda * loss(j));
      }
    }
    return top;
  }

  /**
   * The composition, convolved exponentially tilted (lambda > 0; 0 is {@link #compose(DiscretePld,
   * double)}). Losses on the grid add exactly, so tilting commutes with convolution: {@code
   * (x e^{lambda l}) * (y e^{lambda l}) = (x * y) e^{lambda l}}. The FFT's rounding error is
   * bounded per value in the tilted sequence ({@link Convolution.Result#errorMax()}, relative to
   * the tilted mass, which sits where the tilt puts it: at the loss the composition is asked
   * about); untilted, the bound at loss l is that times {@code e^{-lambda l}}, tiny in the high
   * tail that decides a small delta and large only far below it. So:
   *
   * <ul>
   *   <li>pessimistic: each value is raised by its bound (every value an upper bound, so every
   *       delta is), and below the first loss, from the tilted peak down, where the bound exceeds
   *       both the value and 1e-9 of the mass that can be left below, everything is replaced by
   *       one mass at that loss: the total finite mass less what the values above are known to
   *       hold at least (the true mass there is at most that, and moving it up to a higher loss
   *       only raises delta);
   *   <li>optimistic: each value is lowered by its bound and clipped at 0 (every value a lower
   *       bound; mass may be dropped).
   * </ul>
   *
   * <p>Nothing goes to the infinity mass or the slack, which without a tilt carry the whole
   * L1 bound (about {@code sqrt(N)} times the 2-norm bound, relative to the bulk): at delta = 1e-10
   * after 1e3 to 1e5 subsampled steps that bound alone exceeded delta.
   *
   * <p>With {@link PldOptions#extendedPrecision()} the convolution is {@link
   * Convolution#convolveTilted}: in double-double arithmetic up to 2^20 bins. A single tilt cannot
   * always put the loss asked about at the tilted peak: with a small sampling rate the composition
   * is a mixture (a narrow bulk from the steps that did not sample the record, a long tail from the
   * rare ones that did), the tilted mean reaches the target through the tail while the peak stays
   * in the bulk (q = 1e-4, 1,000 steps, sigma 1, delta 1e-10: the loss 0.047 at e^-14.6 of the
   * tilted peak). There the double FFT's bound held the two estimates 3.7 % apart whatever the
   * interval; in double-double they meet within 0.03 %.
   */
  DiscretePld compose(DiscretePld other, double tail, double tilt) {
    return compose(other, tail, tilt, false);
  }

  /**
   * {@link #compose(DiscretePld, double, double)}; where {@code extended}, the tilted convolution
   * is {@link Convolution#convolveTilted} (double-double arithmetic up to 2^20 bins), else {@link
   * Convolution#convolve}.
   */
  DiscretePld compose(DiscretePld other, double tail, double tilt, boolean extended) {
    if (!(tilt > 0)) {
      return compose(other, tail);
    }
    checkComposable(other);
    double[] xs = new double[pmf.length];
    double sx = tilted(tilt, xs);
    double[] ys = xs; // a squaring: one sequence, one real transform
    double sy = sx;
    if (other != this) {
      ys = new double[other.pmf.length];
      sy = other.tilted(tilt, ys);
    }
    Convolution.Result r =
        extended ? Convolution.convolveTilted(xs, ys) : Convolution.convolve(xs, ys);
    double inf = infinityMass + other.infinityMass - infinityMass * other.infinityMass;
    // the exp's rounding (a few 1e-14 relative: its argument is at most a few hundred), with a
    // margin, and the convolution's own error relative to each value
    return untilt(r.values(), offset + other.offset, sx + sy, tilt, r.errorMax(),
        1e-12 + r.errorRelative(), finiteMass() * other.finiteMass(), inf, slack + other.slack,
        roundings + other.roundings).truncate(tail);
  }

  /**
   * The PLD of a composition convolved tilted by {@code tilt}: {@code z[k]} is the tilted value at
   * loss {@code (off + k) h}, within {@code errMax + rel z[k]} (absolute, in the tilted units) of the
   * truth, and {@code e^{logFactor - tilt (off + k) h}} takes it back to P-mass. Optimistic: every
   * value lowered by its bound (and clipped at 0). Pessimistic: every value raised by its bound, and
   * below the first loss under the tilted peak where the bound exceeds both the value and 1e-9 of
   * what can be left below, everything replaced by one mass at that loss, the finite {@code total}
   * less what the values above hold at least.
   */
  private DiscretePld untilt(
      double[] z, long off, double logFactor, double tilt, double errMax, double rel, double total,
      double inf, double newSlack, long newRoundings) {
    int n = z.length;
    int peak = 0;
    for (int k = 1; k < n; k++) {
      if (z[k] > z[peak]) {
        peak = k;
      }
    }
    double logErr = errMax > 0 ? Math.log(errMax) : Double.NEGATIVE_INFINITY;
    double[] v = new double[n];
    if (optimistic) {
      for (int k = 0; k < n; k++) {
        double f = logFactor - tilt * (off + k) * h; // log of the untilting factor
        double val = z[k] > 0 ? Math.exp(Math.log(z[k]) + f) * (1 - rel) : 0.0;
        double err = Math.exp(logErr + f);
        double lowered = val - err;
        v[k] = lowered > 0 && Double.isFinite(lowered) ? lowered : 0.0;
      }
      return with(off, v, inf, newSlack, newRoundings);
    }
    double knownAbove = 0; // what the values above the lump hold at least
    int lump = -1;
    for (int k = n - 1; k >= 0; k--) {
      double f = logFactor - tilt * (off + k) * h;
      double val = z[k] > 0 ? Math.exp(Math.log(z[k]) + f) : 0.0;
      double err = Math.exp(logErr + f) + rel * val;
      // Below the peak the bound grows as e^{-lambda l}: lump once it exceeds the value and is
      // no longer negligible against what can be left below (a lone empty bin in the bulk, where
      // the value is rounding noise, keeps its pointwise bound instead of ending the grid there).
      if (k <= peak && !(Double.isFinite(val + err)
          && (err < val || err < 1e-9 * Math.max(0.0, total - knownAbove)))) {
        lump = k;
        break;
      }
      v[k] = val + err;
      knownAbove += Math.max(0.0, val - err);
    }
    if (lump >= 0) {
      v[lump] = Math.max(0.0, total - knownAbove * (1 - 1e-12)) + 1e-15 * total;
    }
    inf = Math.max(inf, 1.0 - total);
    return with(off, v, inf, 0.0, newRoundings);
  }

  /**
   * The untilted T-fold self-composition as one transform ({@link Convolution#selfConvolve}): the
   * masses scaled to sum 1, every frequency raised to the T-th power, transformed back, onto a
   * window of composed losses outside which the composition holds at most {@code eps} of that unit
   * mass on either side (a Chernoff bound, {@link #window}). The transform is circular, so what lies
   * outside the window wraps around onto it: at most {@code eps} more on any value, added to the
   * rounding-error bound. Pessimistic, the mass above the window goes to the infinity mass, {@code
   * eps} of it is moved up onto the window's bottom, and the L1 rounding-error bound goes to
   * infinity as {@link #compose(DiscretePld, double)} puts it; optimistic, both are slack. One
   * transform of the final size replaces 2 log2(T) convolutions (the untilted Yelp DP-SGD composition
   * at 6.25e-5: 0.96 s to 0.27 s). Tilted compositions still square: the power's error bound, about
   * {@code T rho |x|_2} on every tilted value, is as good at the loss asked about but much worse
   * below it than the last squarings' (relative to spread-out operands), and a composition tilted
   * towards the whole query's loss as one part of a larger one (a ledger's, CTCL's plan) lumped its
   * mass too close below that loss (the plan's upper bound rose from 1.992 to 2.75 as the interval
   * shrank).
   */
  private DiscretePld selfComposeByPower(int times, double tail) {
    double[] xs = pmf.clone();
    double eps = outsideMass(xs, times);
    Power p = power(xs, 0.0, eps, window(xs, sum(xs), times, eps), times);
    double[] z = p.z();
    int m = z.length;
    double scale = Math.exp(p.logFactor());
    double[] v = new double[m];
    for (int k = 0; k < m; k++) {
      v[k] = z[k] > 0 ? z[k] * scale : 0.0;
    }
    double errorL1 = (p.errMax() * Math.sqrt(p.size()) + eps) * scale;
    Convolution.Result res = new Convolution.Result(v, errorL1, p.errMax() * scale, 0.0);
    if (optimistic) {
      return with(p.off(), v, p.inf(), times * slack + errorL1 + eps * scale, times * roundings)
          .trimNoise(res).truncate(tail);
    }
    v[0] += eps * scale; // the mass below the window, moved up onto its bottom
    double inf = Math.max(p.inf(), 1.0 - p.total());
    return with(p.off(), v, inf + errorL1, 0.0, times * roundings).trimNoise(res).truncate(tail);
  }

  /**
   * The power's values on its window (the composed losses {@code (off + k) h}), the bound on each
   * value's error (the outside mass included), {@code log} of the factor that takes a value back to
   * P-mass at loss 0, the finite mass and infinity mass of the composition, the outside mass and
   * the transform's length.
   */
  private record Power(double[] z, long off, double errMax, double logFactor, double total,
      double inf, double eps, int size) {}

  /** The T-fold power of {@code xs} (tilted by {@code e^{sx}} less than the masses) on the window. */
  private Power power(double[] xs, double sx, double eps, long[] w, int times) {
    long lo = w[0];
    long width = w[1] - w[0] + 1;
    if (width > (1 << 26)) {
      throw new IllegalStateException(
          "privacy loss distribution too large to compose: " + width
              + " bins; use a coarser discretisation interval");
    }
    int size = Integer.highestOneBit((int) width);
    if (size < width) {
      size <<= 1;
    }
    size = Math.max(size, 2);
    Convolution.PowerResult r = Convolution.selfConvolve(xs, times, size);
    double[] circ = r.values();
    int m = (int) width;
    double[] z = new double[m];
    for (int k = 0; k < m; k++) {
      z[k] = circ[(int) ((lo + k) & (size - 1))];
    }
    double total = Math.pow(finiteMass(), times);
    double inf = -Math.expm1(times * Math.log1p(-infinityMass));
    return new Power(z, times * offset + lo, r.errorMax() + eps, times * sx + r.logScale(), total,
        inf, eps, size);
  }

  /** The sum of the values. */
  private static double sum(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s;
  }

  /**
   * The mass, relative to the unit mass of {@code x / sum(x)}, that the power's window may leave
   * outside: below the rounding error of the power, {@code T u |x|_2 / |x|_1}.
   */
  private static double outsideMass(double[] x, int times) {
    double sum = 0;
    double sq = 0;
    for (double v : x) {
      sum += v;
      sq += v * v;
    }
    return Math.max(1e-300, times * 0x1.0p-53 * Math.sqrt(sq) / sum);
  }

  /**
   * The composed grid indices {@code [a, b]} (from {@code T * offset}) outside which the T-fold
   * composition of {@code x / sum} holds at most {@code eps} above b and at most {@code eps} below
   * a, by Chernoff's bound {@code P(S >= b) <= e^{-theta b} (E e^{theta X})^T} (and its mirror)
   * minimised over a grid of theta around {@code 1 / (sd sqrt(T))}.
   */
  static long[] window(double[] x, double sum, int times, double eps) {
    int n = x.length;
    double mean = 0;
    for (int j = 0; j < n; j++) {
      mean += j * (x[j] / sum);
    }
    double var = 0;
    for (int j = 0; j < n; j++) {
      double d = j - mean;
      var += d * d * (x[j] / sum);
    }
    long top = (long) times * (n - 1);
    if (!(var > 0)) {
      long at = Math.round(mean) * times;
      return new long[] {Math.max(0, at - 1), Math.min(top, at + 1)};
    }
    double theta0 = 1.0 / (Math.sqrt(var) * Math.sqrt(times));
    double logEps = Math.log(eps);
    double logSum = Math.log(sum);
    // K(theta) = log E e^{theta (X - mean)}; P(S - T mean >= t) <= exp(-theta t + T K(theta)).
    // theta from 1/(sd sqrt T) / 2^12 up, by factors sqrt 2, until the bound has grown four steps
    // running: for a mixture the best theta lies far below 1/(sd sqrt T) (q = 1e-4, sigma 0.5, 100
    // steps at 1.25e-4: sd 6 bins, best theta 1/30 of that, a window of 64,000 bins where the
    // grid from a quarter of it gave 6.6 million)
    double upper = top;
    double lower = 0;
    int upWorse = 0;
    int downWorse = 0;
    for (int k = -24; k <= 40 && (upWorse < 4 || downWorse < 4); k++) {
      double theta = theta0 * Math.pow(2, 0.5 * k);
      if (upWorse < 4) {
        double up = times * mean + (times * cumulant(x, theta, mean, logSum) - logEps) / theta;
        if (up < upper) {
          upper = up;
          upWorse = 0;
        } else if (upper < top) {
          upWorse++; // past the best (before any bound below the top, keep looking)
        }
      }
      if (downWorse < 4) {
        double down = times * mean - (times * cumulant(x, -theta, mean, logSum) - logEps) / theta;
        if (down > lower) {
          lower = down;
          downWorse = 0;
        } else if (lower > 0 || k >= 0) {
          downWorse++; // past the best, or no bound above the bottom from theta0 on
        }
      }
    }
    long a = Math.max(0, (long) Math.floor(lower) - 1);
    long b = Math.min(top, (long) Math.ceil(upper) + 1);
    return new long[] {a, Math.max(a, b)};
  }

  /**
   * {@code log sum_j x_j e^{theta (j - mean)} - logSum}, rounded up: where no term can overflow, the
   * exponentials by repeated multiplication (each within a relative {@code (j + 2) u} of the truth,
   * so {@code 2 (n + 2) u} is added to the logarithm), else term by term from the largest.
   */
  private static double cumulant(double[] x, double theta, double mean, double logSum) {
    int n = x.length;
    double reach = Math.max(Math.abs(theta * mean), Math.abs(theta * (n - 1 - mean)));
    if (reach < 600) {
      double w = Math.exp(-theta * mean);
      double r = Math.exp(theta);
      double s = 0;
      for (int j = 0; j < n; j++) {
        s += x[j] * w;
        w *= r;
      }
      return Math.log(s) - logSum + 2.0 * (n + 2) * 0x1.0p-53 + 1e-15;
    }
    double max = Double.NEGATIVE_INFINITY;
    for (int j = 0; j < n; j++) {
      if (x[j] > 0) {
        max = Math.max(max, Math.log(x[j]) + theta * (j - mean));
      }
    }
    double s = 0;
    for (int j = 0; j < n; j++) {
      if (x[j] > 0) {
        s += Math.exp(Math.log(x[j]) + theta * (j - mean) - max);
      }
    }
    return max + Math.log(s) - logSum + 1e-12 * (Math.abs(max) + 1);
  }

  /**
   * Writes {@code pmf_j e^{lambda l_j - s}} into {@code out} and returns s, the largest {@code
   * log pmf_j + lambda l_j} (so the largest value written is 1 and none overflows).
   */
  private double tilted(double lambda, double[] out) {
    return tilted(lambda, out, logPmf());
  }

  /** {@link #tilted(double, double[])} given {@code logPmf = }{@link #logPmf()}. */
  private double tilted(double lambda, double[] out, double[] logPmf) {
    double top = tiltedTop(lambda, logPmf);
    for (int j = 0; j < pmf.length; j++) {
      out[j] = logPmf[j] != Double.NEGATIVE_INFINITY ? Math.exp(logPmf[j] + lambda * loss(j) - top) : 0.0;
    }
    return top == Double.NEGATIVE_INFINITY ? 0.0 : top;
  }
}
