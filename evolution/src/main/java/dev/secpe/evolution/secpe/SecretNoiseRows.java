package dev.secpe.evolution.secpe;

import dev.secpe.accounting.secret.SecretNoiseResult;

/**
 * A SECRETNOISE result moved between record sets: solved over the records that take part (in the
 * split, those holding a secret) and read per label group. sigma and the per-secret values are
 * unchanged; only the per-record weights and sampling probabilities move.
 */
final class SecretNoiseRows {

  private SecretNoiseRows() {}

  /** {@code r} restricted to the records {@code rows}, in that order. */
  static SecretNoiseResult restrict(SecretNoiseResult r, int[] rows) {
    double[] w = r.weights();
    double[] rho = r.rho();
    double[] sw = new double[rows.length];
    double[] srho = new double[rows.length];
    double expected = 0;
    for (int i = 0; i < rows.length; i++) {
      sw[i] = w[rows[i]];
      srho[i] = rho[rows[i]];
      expected += srho[i];
    }
    return new SecretNoiseResult(
        r.sigma(), r.sigmaPerSecret(), sw, srho, expected, r.rounds(), r.shiftMultiplier(), r.secretCap());
  }

  /**
   * {@code r}, solved over the records {@code rows} of {@code n}, as a result over all n (the
   * others never sampled: weight and rho 0).
   */
  static SecretNoiseResult expand(SecretNoiseResult r, int[] rows, int n) {
    if (rows.length == n) {
      return r;
    }
    // The result's accessors return copies: read each once (read per record, they made this
    // quadratic, 90 s of round 0 at 250,000 secret holders: bench split).
    double[] rw = r.weights();
    double[] rrho = r.rho();
    double[] w = new double[n];
    double[] rho = new double[n];
    for (int i = 0; i < rows.length; i++) {
      w[rows[i]] = rw[i];
      rho[rows[i]] = rrho[i];
    }
    return new SecretNoiseResult(
        r.sigma(), r.sigmaPerSecret(), w, rho, r.expectedSampled(), r.rounds(), r.shiftMultiplier(), r.secretCap());
  }
}
