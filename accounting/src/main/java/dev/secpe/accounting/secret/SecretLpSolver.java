package dev.secpe.accounting.secret;

/**
 * A solver of SecPE's linear programme (6), in the reduced form of {@link SecretLpProblem}. The
 * library's own is a pure-Java simplex ({@link SecretNoise.LpSolver#SIMPLEX}); the optional
 * module {@code secpe-accounting-ortools} adds OR-Tools' GLOP and PDLP for large instances.
 * Implementations are found with {@link java.util.ServiceLoader} and chosen by {@link #name()}.
 *
 * <p>The LP only shapes the sampling probabilities: sigma is calibrated to whatever solution comes
 * back, so a solver that returns a feasible but less than optimal point costs utility, never
 * privacy. The caller clamps the result to the bounds and scales any constraint left violated
 * within a solver's tolerance back onto its capacity, so tolerances are safe.
 */
public interface SecretLpSolver {

  /** The name {@link SecretNoise.LpSolver} selects it by: {@code "SIMPLEX"}, {@code "GLOP"} or {@code "PDLP"}. */
  String name();

  /**
   * An optimal (or, for first-order methods, near-optimal) solution.
   *
   * @param problem the reduced LP
   * @return one value per variable of {@code problem}
   * @throws IllegalStateException if the solver fails; its message names the solver and its status
   */
  double[] solve(SecretLpProblem problem);
}
