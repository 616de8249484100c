/**
 * Privacy accounting: mechanisms, the privacy-loss-distribution accountant, the budget-limited
 * ledger, calibration, secure noise and SecPE's secret-protection noise (SECRETNOISE) with its
 * linear-program solvers. Depends on the JDK only.
 *
 * <p>Further {@link dev.secpe.accounting.secret.SecretLpSolver}s (OR-Tools GLOP and PDLP in
 * {@code dev.secpe.accounting.ortools}) are found with {@link java.util.ServiceLoader}.
 */
module dev.secpe.accounting {
  requires static org.jspecify;

  exports dev.secpe.accounting;
  exports dev.secpe.accounting.ledger;
  exports dev.secpe.accounting.noise;
  exports dev.secpe.accounting.pld;
  exports dev.secpe.accounting.secret;

  uses dev.secpe.accounting.secret.SecretLpSolver;
}
