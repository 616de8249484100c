package dev.secpe.accounting.secret;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;

/**
 * The linear programme (6) of SecPE, solved with OR-Tools GLOP: {@code max sum_i w_i} subject to
 * {@code sum_{i in D_j} w_i <= eta_j} and {@code 0 <= w_i <= 1}. Only records that hold a secret
 * are variables; the others are unconstrained and take {@code w_i = 1} without the solver.
 * GLOP (simplex, exact) by default; for very large instances (more than 250,000 non-zeros, where
 * simplex takes minutes) PDLP (first-order, relative tolerance 1e-4). Either way the result is
 * made exactly feasible afterwards, and optimality is not a privacy matter: sigma is calibrated
 * to whatever rho comes out. Package-private.
 */
final class SecretLp {

  /** Above this many constraint non-zeros, {@code AUTO} uses PDLP instead of GLOP. */
  static final long PDLP_ABOVE_NONZEROS = 250_000;

  private static volatile boolean loaded;

  private SecretLp() {}

  private static void load() {
    if (!loaded) {
      synchronized (SecretLp.class) {
        if (!loaded) {
          Loader.loadNativeLibraries();
          loaded = true;
        }
      }
    }
  }

  /**
   * Solves the LP.
   *
   * @param recordsOfSecret for each secret j, the indices of the records that hold it
   * @param eta the capacities eta_j (> 0)
   * @param recordCount the number of records
   * @return w for every record (1 for records holding no secret), exactly feasible: a
   *     constraint the solver left violated within its tolerance is scaled down onto its
   *     capacity, which can only lower w and so keeps every other constraint feasible
   */
  static double[] solve(
      int[][] recordsOfSecret, double[] eta, int recordCount, SecretNoise.LpSolver choice) {
    double[] w = new double[recordCount];
    java.util.Arrays.fill(w, 1.0);
    int[] var = new int[recordCount];
    java.util.Arrays.fill(var, -1);
    int nVars = 0;
    for (int[] members : recordsOfSecret) {
      for (int i : members) {
        if (var[i] < 0) {
          var[i] = nVars++;
        }
      }
    }
    if (nVars == 0) {
      return w;
    }
    load();
    long nonZeros = 0;
    for (int j = 0; j < recordsOfSecret.length; j++) {
      if (eta[j] < recordsOfSecret[j].length) {
        nonZeros += recordsOfSecret[j].length;
      }
    }
    boolean pdlp =
        choice == SecretNoise.LpSolver.PDLP
            || (choice == SecretNoise.LpSolver.AUTO && nonZeros > PDLP_ABOVE_NONZEROS);
    MPSolver solver = MPSolver.createSolver(pdlp ? "PDLP" : "GLOP");
    if (solver == null) {
      throw new IllegalStateException("OR-Tools " + (pdlp ? "PDLP" : "GLOP") + " solver is not available");
    }
    try {
      MPVariable[] vars = new MPVariable[nVars];
      for (int k = 0; k < nVars; k++) {
        vars[k] = solver.makeNumVar(0.0, 1.0, "");
      }
      for (int j = 0; j < recordsOfSecret.length; j++) {
        int[] members = recordsOfSecret[j];
        if (members.length == 0 || eta[j] >= members.length) {
          continue; // no constraint, or one that w <= 1 already implies
        }
        MPConstraint c = solver.makeConstraint(Double.NEGATIVE_INFINITY, eta[j], "");
        for (int i : members) {
          c.setCoefficient(vars[var[i]], 1.0);
        }
      }
      MPObjective obj = solver.objective();
      for (MPVariable v : vars) {
        obj.setCoefficient(v, 1.0);
      }
      obj.setMaximization();
      if (pdlp) {
        solver.setSolverSpecificParametersAsString(
            "termination_criteria { simple_optimality_criteria {"
                + " eps_optimal_relative: 1e-4 eps_optimal_absolute: 1e-4 } }");
      }
      MPSolver.ResultStatus status = solver.solve();
      if (status != MPSolver.ResultStatus.OPTIMAL && !(pdlp && status == MPSolver.ResultStatus.FEASIBLE)) {
        throw new IllegalStateException("SecretNoise LP (6) was not solved to optimality: " + status);
      }
      for (int i = 0; i < recordCount; i++) {
        if (var[i] >= 0) {
          w[i] = Math.min(1.0, Math.max(0.0, vars[var[i]].solutionValue()));
        }
      }
    } finally {
      solver.delete();
    }
    concentrateExclusive(recordsOfSecret, w, recordCount);
    for (int j = 0; j < recordsOfSecret.length; j++) {
      double sum = 0;
      for (int i : recordsOfSecret[j]) {
        sum += w[i];
      }
      if (sum > eta[j]) {
        double scale = eta[j] / sum * (1 - 1e-15);
        for (int i : recordsOfSecret[j]) {
          w[i] *= scale;
        }
      }
    }
    return w;
  }

  /**
   * Among optimal solutions, one that needs less noise: the records holding exactly one secret j
   * appear in no other constraint, so their weights can be moved among them freely without
   * changing the objective or any constraint. They are concentrated, in record order, into as
   * few records as possible ({@code 1, 1, ..., f, 0, ...}), which is what a simplex vertex does
   * and what the least sigma wants: a Poisson-binomial with the same mean on fewer records is
   * less spread (three records sharing 0.629 need sigma 2.559, one record holding it 1.867).
   * Without it, the solver's choice among equal optima decides sigma: GLOP returns a vertex,
   * PDLP an interior point. Exact feasibility is restored by the caller afterwards.
   */
  static void concentrateExclusive(int[][] recordsOfSecret, double[] w, int recordCount) {
    int[] secretsHeld = new int[recordCount];
    for (int[] members : recordsOfSecret) {
      for (int i : members) {
        secretsHeld[i]++;
      }
    }
    for (int[] members : recordsOfSecret) {
      int[] exclusive = java.util.Arrays.stream(members).filter(i -> secretsHeld[i] == 1).sorted().toArray();
      double total = 0;
      for (int i : exclusive) {
        total += w[i];
      }
      for (int i : exclusive) {
        double v = Math.min(1.0, total);
        w[i] = v;
        total = Math.max(0.0, total - v);
      }
    }
  }
}
