package dev.secpe.accounting.pld;

/**
 * Privacy profile of the Laplace mechanism, P = Lap(Delta, b), Q = Lap(0, b), eps0 = Delta/b:
 * delta(eps) = 1 - e^{(eps - eps0)/2} for |eps| <= eps0, 0 above, 1 - e^eps below (the loss is
 * (|x| - |x - Delta|)/b, which is non-decreasing in x and bounded by eps0 in absolute value).
 * Package-private.
 */
final class LaplaceProfile implements PrivacyProfile {

  private final double eps0;

  LaplaceProfile(double eps0) {
    this.eps0 = eps0;
  }

  @Override
  public double delta(double eps) {
    if (eps >= eps0) {
      return 0.0;
    }
    if (eps <= -eps0) {
      return -Math.expm1(eps);
    }
    return -Math.expm1(0.5 * (eps - eps0));
  }

  @Override
  public double lowLoss() {
    return -eps0;
  }

  @Override
  public double highLoss() {
    return eps0;
  }
}
