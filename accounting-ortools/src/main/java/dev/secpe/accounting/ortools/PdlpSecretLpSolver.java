package dev.secpe.accounting.ortools;

import dev.secpe.accounting.secret.SecretLpProblem;
import dev.secpe.accounting.secret.SecretLpSolver;

/**
 * OR-Tools PDLP as the solver of SecPE's LP (6): first-order, relative optimality tolerance 1e-4; scales to very large instances (the caller restores exact feasibility). Found by
 * {@link java.util.ServiceLoader}; selected by {@code SecretNoise.LpSolver.PDLP} or by {@code AUTO} for large pieces.
 */
public final class PdlpSecretLpSolver implements SecretLpSolver {

  /** For {@link java.util.ServiceLoader}. */
  public PdlpSecretLpSolver() {}

  @Override
  public String name() {
    return "PDLP";
  }

  @Override
  public double[] solve(SecretLpProblem problem) {
    return OrToolsLp.solve(problem, true);
  }
}
