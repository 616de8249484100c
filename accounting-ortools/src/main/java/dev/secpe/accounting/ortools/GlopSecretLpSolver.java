package dev.secpe.accounting.ortools;

import dev.secpe.accounting.secret.SecretLpProblem;
import dev.secpe.accounting.secret.SecretLpSolver;

/**
 * OR-Tools GLOP as the solver of SecPE's LP (6): primal/dual simplex, exact (a vertex). Found by
 * {@link java.util.ServiceLoader}; selected by {@code SecretNoise.LpSolver.GLOP} or by {@code AUTO} for large pieces.
 */
public final class GlopSecretLpSolver implements SecretLpSolver {

  /** For {@link java.util.ServiceLoader}. */
  public GlopSecretLpSolver() {}

  @Override
  public String name() {
    return "GLOP";
  }

  @Override
  public double[] solve(SecretLpProblem problem) {
    return OrToolsLp.solve(problem, false);
  }
}
