package dev.secpe.accounting.secret;

/** Test access to the package-private {@link Gauss} of this package. */
public final class GaussProbe {

  private GaussProbe() {}

  /** {@link Gauss#upperQuantile(double)}. */
  public static double upperQuantile(double p) {
    return Gauss.upperQuantile(p);
  }
}
