package dev.secpe.accounting;

/**
 * A mu-Gaussian-differential-privacy guarantee (Dong, Roth and Su 2019): the trade-off curve
 * lies above {@code G_mu(alpha) = Phi(PhiInv(1 - alpha) - mu)}.
 *
 * @param mu the GDP parameter, finite and >= 0 (0 means perfect privacy)
 */
public record GdpMu(double mu) {

  /** Validates eagerly. */
  public GdpMu {
    Preconditions.checkNonNegative("mu", mu);
  }
}
