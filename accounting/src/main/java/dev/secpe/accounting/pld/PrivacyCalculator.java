package dev.secpe.accounting.pld;

import dev.secpe.accounting.Calibration;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.Preconditions;
import dev.secpe.accounting.SecretBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One entry point for the questions {@code bin/secpe privacy} answers, a builder per question, over
 * the static functions of {@link Calibration}, {@link Gdp} and {@link PrivacyLossDistribution}
 * (which remain the reference: every answer here is theirs, on the same conservative side).
 *
 * <pre>{@code
 * // sigma of a Gaussian mechanism for (1, 1e-5)-DP at L2 sensitivity 1 (Balle and Wang 2018)
 * double sigma = PrivacyCalculator.gaussianSigma().epsilon(1.0).delta(1e-5).sigma();
 * // epsilon at delta = 1e-5 of ten Gaussian releases at sigma 5 and one Laplace release at b 20
 * double eps = PrivacyCalculator.releases().gaussian(5.0, 10).laplace(20.0, 1).epsilon(1e-5);
 * // the (p, r)-secret protection at p = 1e-4 of the Gaussian releases (exact, in mu-GDP)
 * double r = PrivacyCalculator.releases().gaussian(5.0, 10).secretR(1e-4);
 * }</pre>
 *
 * <p>docs/guide/privacy-math.md shows the static calls each answer comes from.
 */
public final class PrivacyCalculator {

  private PrivacyCalculator() {}

  /** The noise of a Gaussian mechanism for an (epsilon, delta) budget. */
  public static GaussianSigma gaussianSigma() {
    return new GaussianSigma();
  }

  /** The guarantee of a list of releases (Gaussian and Laplace, each at its sensitivity). */
  public static Releases releases() {
    return new Releases();
  }

  /** The largest mu-GDP that gives (p, r)-secret protection (SecPE eq. 4), rounded down. */
  public static GdpMu muFor(SecretBudget budget) {
    return Gdp.muFor(budget);
  }

  /** Builder for the sigma of a Gaussian mechanism; epsilon and delta are required. */
  public static final class GaussianSigma {
    private Double epsilon;
    private Double delta;
    private double sensitivity = 1.0;
    private boolean classic;

    private GaussianSigma() {}

    /** Epsilon, > 0. */
    public GaussianSigma epsilon(double epsilon) {
      this.epsilon = Preconditions.checkPositive("epsilon", epsilon);
      return this;
    }

    /** Delta, in (0, 1). */
    public GaussianSigma delta(double delta) {
      this.delta = Preconditions.checkOpenUnit("delta", delta);
      return this;
    }

    /** The L2 sensitivity, > 0 (default 1). */
    public GaussianSigma sensitivity(double sensitivity) {
      this.sensitivity = Preconditions.checkPositive("sensitivity", sensitivity);
      return this;
    }

    /**
     * The classic calibration {@code sqrt(2 ln(1.25/delta)) / epsilon} (needs epsilon below 1)
     * instead of the analytic one (the default, and never larger).
     */
    public GaussianSigma classic() {
      this.classic = true;
      return this;
    }

    /**
     * The sigma ({@link Calibration#analyticGaussianSigma} or {@link
     * Calibration#classicGaussianSigma}).
     *
     * @throws IllegalStateException if epsilon or delta was not set
     */
    public double sigma() {
      if (epsilon == null || delta == null) {
        throw new IllegalStateException(
            "gaussianSigma() needs epsilon(...) and delta(...), got epsilon=" + epsilon + " delta=" + delta);
      }
      DpBudget budget = new DpBudget(epsilon, delta);
      return classic
          ? Calibration.classicGaussianSigma(budget, sensitivity)
          : Calibration.analyticGaussianSigma(budget, sensitivity);
    }

    @Override
    public String toString() {
      return "GaussianSigma{epsilon=" + epsilon + ", delta=" + delta + ", sensitivity=" + sensitivity
          + (classic ? ", classic" : "") + "}";
    }
  }

  /**
   * Builder for the composed guarantee of releases: add each kind with its count, then ask. Epsilon
   * and delta come from the privacy-loss distribution (pessimistic, so an upper bound within its
   * discretisation); mu and r are exact where every release is Gaussian.
   */
  public static final class Releases {
    private record Entry(boolean gaussian, double scale, double sensitivity, int count) {}

    private final List<Entry> entries = new ArrayList<>();

    private Releases() {}

    /** {@code count} Gaussian releases of noise sd {@code sigma} at L2 sensitivity 1. */
    public Releases gaussian(double sigma, int count) {
      return gaussian(sigma, 1.0, count);
    }

    /** {@code count} Gaussian releases of noise sd {@code sigma} at the given L2 sensitivity. */
    public Releases gaussian(double sigma, double sensitivity, int count) {
      return add(true, "sigma", sigma, sensitivity, count);
    }

    /** {@code count} Laplace releases of scale {@code b} at L1 sensitivity 1. */
    public Releases laplace(double b, int count) {
      return laplace(b, 1.0, count);
    }

    /** {@code count} Laplace releases of scale {@code b} at the given L1 sensitivity. */
    public Releases laplace(double b, double sensitivity, int count) {
      return add(false, "b", b, sensitivity, count);
    }

    private Releases add(boolean gaussian, String scaleName, double scale, double sensitivity, int count) {
      entries.add(new Entry(gaussian, Preconditions.checkPositive(scaleName, scale),
          Preconditions.checkPositive("sensitivity", sensitivity), Preconditions.checkPositive("count", count)));
      return this;
    }

    /** The least epsilon at {@code delta}, rounded up ({@link PrivacyLossDistribution#epsilon}). */
    public double epsilon(double delta) {
      return pld().epsilon(delta);
    }

    /** The delta at {@code epsilon}, rounded up ({@link PrivacyLossDistribution#delta}). */
    public double delta(double epsilon) {
      return pld().delta(epsilon);
    }

    /**
     * The exact mu-GDP of Gaussian releases: {@code sqrt(sum count * (sensitivity / sigma)^2)}.
     *
     * @throws IllegalStateException if there is no release or a Laplace one (not mu-GDP)
     */
    public GdpMu mu() {
      if (entries.isEmpty() || entries.stream().anyMatch(e -> !e.gaussian())) {
        throw new IllegalStateException(
            "mu() needs Gaussian releases only, got " + describe() + "; ask epsilon(delta) instead");
      }
      List<GdpMu> mus = new ArrayList<>();
      for (Entry e : entries) {
        mus.add(Gdp.compose(new GdpMu(e.sensitivity() / e.scale()), e.count()));
      }
      return Gdp.compose(mus);
    }

    /** The posterior bound r at prior {@code p} of {@link #mu()} (SecPE eq. 4, rounded up). */
    public double secretR(double p) {
      return Gdp.secretR(mu(), p);
    }

    private PrivacyLossDistribution pld() {
      if (entries.isEmpty()) {
        throw new IllegalStateException("releases() needs at least one gaussian(...) or laplace(...)");
      }
      PrivacyLossDistribution all = null;
      for (Entry e : entries) {
        PrivacyLossDistribution one = e.gaussian()
            ? PrivacyLossDistribution.gaussian(e.scale(), e.sensitivity())
            : PrivacyLossDistribution.laplace(e.scale(), e.sensitivity());
        one = e.count() == 1 ? one : one.selfCompose(e.count());
        all = all == null ? one : all.compose(one);
      }
      return Objects.requireNonNull(all);
    }

    private String describe() {
      StringBuilder sb = new StringBuilder();
      for (Entry e : entries) {
        sb.append(sb.length() == 0 ? "" : ", ").append(e.count()).append(" x ")
            .append(e.gaussian() ? "gaussian(sigma=" : "laplace(b=").append(e.scale())
            .append(", sensitivity=").append(e.sensitivity()).append(")");
      }
      return sb.length() == 0 ? "none" : sb.toString();
    }

    @Override
    public String toString() {
      return "Releases{" + describe() + "}";
    }
  }
}
