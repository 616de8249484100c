package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;

/**
 * L2-regularised logistic regression on dense rows, one-vs-rest for more than two classes: the
 * model LIBLINEAR's solver {@code L2R_LR} fits (Fan et al., "LIBLINEAR: A Library for Large Linear
 * Classification", JMLR 2008), with its stopping rule. Each model minimises
 *
 * <pre>
 *   f(w) = 1/2 |w|^2 + C sum_i log(1 + exp(-s_i w.x_i))
 * </pre>
 *
 * <p>over the row's features plus an intercept feature of value 1 (regularised like the others,
 * LIBLINEAR's default), with {@code s_i = +1} for the model's class and -1 for the others. {@code
 * f} is strictly convex, so the minimiser is unique. It is found by Newton's method from {@code w
 * = 0}: each step solves {@code H p = -g} by conjugate gradients with a diagonal preconditioner
 * ({@code H = I + C X^T D X}, applied as products, never formed), then halves the step until the
 * Armijo condition holds (Galli and Lin, "A study on truncated Newton methods for linear
 * classification", IEEE TNNLS 2022: the line-search variant LIBLINEAR uses since 2.40). It stops
 * when {@code |g(w)| <= tolerance * max(min(pos, neg), 1) / n * |g(0)|}, {@code pos} and {@code
 * neg} the sizes of the two sides, LIBLINEAR's rule for this solver.
 *
 * <p>Deterministic: sums in a fixed order, no randomness, no threads.
 */
final class LogisticRegression {

  /** Newton iterations at the most (LIBLINEAR's limit). */
  static final int MAX_NEWTON = 1000;

  /** The Armijo constant of the line search (LIBLINEAR's). */
  private static final double ARMIJO = 0.01;

  /** Halvings of the step at the most, per line search (LIBLINEAR's limit). */
  private static final int MAX_HALVINGS = 20;

  /** CG stops once the residual is this fraction of the gradient's norm. */
  private static final double CG_FRACTION = 0.1;

  /** One weight vector per model, {@code d + 1} long: the features', then the intercept's. */
  private final double[][] weights;

  private final int classes;

  private LogisticRegression(double[][] weights, int classes) {
    this.weights = weights;
    this.classes = classes;
  }

  /**
   * Fits the models: one for two classes, one per class for more.
   *
   * @param x the training rows (finite, as every {@link EmbeddingMatrix})
   * @param y each row's class in {@code 0 .. classes - 1}
   * @param classes at least 2
   * @param c the inverse regularisation strength C, finite and > 0
   * @param tolerance the stopping tolerance, finite and > 0
   * @throws ArithmeticException if a model does not reach the tolerance in {@link #MAX_NEWTON}
   *     Newton iterations (which a strictly convex smooth objective does not lead to; where the
   *     line search can no longer decrease f in double precision, the model stops there)
   */
  static LogisticRegression fit(EmbeddingMatrix x, int[] y, int classes, double c, double tolerance) {
    Rows rows = new Rows(x);
    int models = classes == 2 ? 1 : classes;
    double[][] w = new double[models][];
    for (int m = 0; m < models; m++) {
      double[] s = new double[rows.n];
      for (int i = 0; i < rows.n; i++) {
        s[i] = y[i] == m ? 1 : -1;
      }
      w[m] = new Problem(rows, s, c).minimise(tolerance);
    }
    return new LogisticRegression(w, classes);
  }

  /**
   * The predicted class of {@code row}: for two classes 0 where the model's decision value is
   * positive, else 1; for more, the class whose model gives the largest value (the lowest index
   * among equals).
   */
  int predict(float[] row) {
    if (classes == 2) {
      return decision(weights[0], row) > 0 ? 0 : 1;
    }
    int best = 0;
    double top = decision(weights[0], row);
    for (int m = 1; m < weights.length; m++) {
      double v = decision(weights[m], row);
      if (v > top) {
        top = v;
        best = m;
      }
    }
    return best;
  }

  /** The weight vectors (copies), for the tests. */
  double[][] weights() {
    double[][] out = new double[weights.length][];
    for (int m = 0; m < out.length; m++) {
      out[m] = weights[m].clone();
    }
    return out;
  }

  private static double decision(double[] w, float[] row) {
    int d = row.length;
    double z = w[d];
    for (int j = 0; j < d; j++) {
      z += w[j] * row[j];
    }
    return z;
  }

  /** The training rows, row-major, and their shape (the intercept feature is implicit). */
  private static final class Rows {
    final float[] x;
    final int n;
    final int d;

    Rows(EmbeddingMatrix m) {
      n = m.rows();
      d = m.dimension();
      x = new float[n * d];
      for (int i = 0; i < n; i++) {
        m.copyRow(i, x, i * d);
      }
    }

    /** {@code out[i] = x_i . w + w[d]} for every row. */
    void times(double[] w, double[] out) {
      for (int i = 0, o = 0; i < n; i++, o += d) {
        double z = w[d];
        for (int j = 0; j < d; j++) {
          z += x[o + j] * w[j];
        }
        out[i] = z;
      }
    }

    /** {@code out += scale * sum_i u[i] x_i}, the intercept feature included. */
    void addTransposeTimes(double[] u, double scale, double[] out) {
      double bias = 0;
      for (int i = 0, o = 0; i < n; i++, o += d) {
        double ui = u[i] * scale;
        if (ui != 0) {
          for (int j = 0; j < d; j++) {
            out[j] += ui * x[o + j];
          }
        }
        bias += ui;
      }
      out[d] += bias;
    }
  }

  /** One binary model: its labels, C, and the state of the iteration. */
  private static final class Problem {
    private final Rows rows;
    private final double[] s;
    private final double c;
    private final int p;
    /** Per row: {@code z = X w}, and {@code D = sigma(s z) (1 - sigma(s z))} at the current w. */
    private final double[] z;
    private final double[] dd;

    Problem(Rows rows, double[] s, double c) {
      this.rows = rows;
      this.s = s;
      this.c = c;
      this.p = rows.d + 1;
      this.z = new double[rows.n];
      this.dd = new double[rows.n];
    }

    double[] minimise(double tolerance) {
      int n = rows.n;
      int pos = 0;
      for (double si : s) {
        pos += si > 0 ? 1 : 0;
      }
      double stop = tolerance * Math.max(Math.min(pos, n - pos), 1) / n;
      double[] w = new double[p];
      double[] g = new double[p];
      rows.times(w, z);
      double f = objective(w, z);
      gradient(w, g);
      double g0 = norm(g);
      double[] step = new double[p];
      double[] xStep = new double[n];
      double[] zTry = new double[n];
      double[] wTry = new double[p];
      for (int iter = 0; iter < MAX_NEWTON; iter++) {
        double gn = norm(g);
        if (gn <= stop * g0) {
          return w;
        }
        newtonStep(g, gn, step);
        rows.times(step, xStep);
        double slope = dot(g, step);
        double alpha = 1;
        int halvings = 0;
        double fTry;
        while (true) {
          for (int k = 0; k < p; k++) {
            wTry[k] = w[k] + alpha * step[k];
          }
          for (int i = 0; i < n; i++) {
            zTry[i] = z[i] + alpha * xStep[i];
          }
          fTry = objective(wTry, zTry);
          if (fTry <= f + ARMIJO * alpha * slope) {
            break;
          }
          if (++halvings > MAX_HALVINGS) {
            // f no longer decreases along the step in double precision: w is as close to the
            // minimiser as this precision allows (LIBLINEAR stops here too)
            return w;
          }
          alpha /= 2;
        }
        System.arraycopy(wTry, 0, w, 0, p);
        System.arraycopy(zTry, 0, z, 0, n);
        f = fTry;
        gradient(w, g);
      }
      throw new ArithmeticException("logistic regression did not converge in " + MAX_NEWTON
          + " Newton steps on " + n + " rows of " + rows.d + " features: |g| = " + norm(g)
          + " > " + stop * g0);
    }

    /** {@code f(w)} from {@code z = X w}, each loss term computed without overflow. */
    private double objective(double[] w, double[] zw) {
      double loss = 0;
      for (int i = 0; i < zw.length; i++) {
        double m = s[i] * zw[i];
        loss += m >= 0 ? Math.log1p(Math.exp(-m)) : -m + Math.log1p(Math.exp(m));
      }
      return 0.5 * dot(w, w) + c * loss;
    }

    /** {@code g = w + C X^T ((sigma(s z) - 1) s)} at the current z; also sets D. */
    private void gradient(double[] w, double[] g) {
      double[] u = new double[z.length];
      for (int i = 0; i < z.length; i++) {
        double sigma = sigmoid(s[i] * z[i]);
        dd[i] = sigma * (1 - sigma);
        u[i] = (sigma - 1) * s[i];
      }
      System.arraycopy(w, 0, g, 0, p);
      rows.addTransposeTimes(u, c, g);
    }

    /** {@code out = H v = v + C X^T (D (X v))}. */
    private void hessianTimes(double[] v, double[] xv, double[] out) {
      rows.times(v, xv);
      for (int i = 0; i < xv.length; i++) {
        xv[i] *= dd[i];
      }
      System.arraycopy(v, 0, out, 0, p);
      rows.addTransposeTimes(xv, c, out);
    }

    /**
     * An approximate solution of {@code H step = -g} by conjugate gradients preconditioned with
     * H's diagonal, stopped once the residual is {@link #CG_FRACTION} of |g| (at most p steps).
     */
    private void newtonStep(double[] g, double gn, double[] step) {
      int n = rows.n;
      int d = rows.d;
      double[] m = new double[p];
      for (int i = 0, o = 0; i < n; i++, o += d) {
        double di = c * dd[i];
        for (int j = 0; j < d; j++) {
          double xij = rows.x[o + j];
          m[j] += di * xij * xij;
        }
        m[d] += di;
      }
      for (int k = 0; k < p; k++) {
        m[k] += 1;
        step[k] = 0;
      }
      double[] r = new double[p];
      double[] zr = new double[p];
      double[] dir = new double[p];
      double[] hd = new double[p];
      double[] xv = new double[n];
      for (int k = 0; k < p; k++) {
        r[k] = -g[k];
        zr[k] = r[k] / m[k];
        dir[k] = zr[k];
      }
      double rz = dot(r, zr);
      for (int it = 0; it < p && norm(r) > CG_FRACTION * gn; it++) {
        hessianTimes(dir, xv, hd);
        double a = rz / dot(dir, hd);
        for (int k = 0; k < p; k++) {
          step[k] += a * dir[k];
          r[k] -= a * hd[k];
          zr[k] = r[k] / m[k];
        }
        double rzNext = dot(r, zr);
        double beta = rzNext / rz;
        rz = rzNext;
        for (int k = 0; k < p; k++) {
          dir[k] = zr[k] + beta * dir[k];
        }
      }
    }
  }

  static double sigmoid(double t) {
    return t >= 0 ? 1 / (1 + Math.exp(-t)) : Math.exp(t) / (1 + Math.exp(t));
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int k = 0; k < a.length; k++) {
      s += a[k] * b[k];
    }
    return s;
  }

  private static double norm(double[] a) {
    return Math.sqrt(dot(a, a));
  }
}
