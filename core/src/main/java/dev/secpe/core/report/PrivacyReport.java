package dev.secpe.core.report;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.Release;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a finished run spent and what it guarantees, immutable. Holds public facts only.
 *
 * @param method the method, e.g. "secpe", "augpe", "dpga"
 * @param syntheticRecords the number of synthetic texts released
 * @param privateRecords the number of private records used (public by convention in DP papers'
 *     reporting; omit by setting -1 if the caller considers it private)
 * @param mu the composed mu-GDP guarantee, if the mechanisms compose in GDP
 * @param dp the composed (epsilon, delta) guarantee, if computed
 * @param secretBudget the (p, r) secret protection that holds for every secret (SecPE; for
 *     Aug-PE/DPGA the (p, r) their mu implies through eq. (4)), if stated
 * @param sigma the noise multiplier of the run's main mechanism, if it has one
 * @param mechanisms every release charged to the ledger, in order
 * @param deviations where the accounting departs from the paper's analysis, as sentences
 * @param noise how the noise was sampled
 * @param providers the models and services used
 * @param timing total time per phase
 * @param roundTimings time per phase of each round, round 1 first
 * @param warnings settings that make the output weak (for example noise that swamps the votes),
 *     as sentences; public facts only
 * @param embedding texts sent to the embedder, its throughput and the candidate cache's hit rate,
 *     if measured
 * @param guarantee what the run guarantees and to what, in words (per secret or per record, and
 *     whether records were used exactly), if stated
 */
public record PrivacyReport(
    String method,
    int syntheticRecords,
    int privateRecords,
    Optional<GdpMu> mu,
    Optional<DpBudget> dp,
    Optional<SecretBudget> secretBudget,
    OptionalDouble sigma,
    List<Release> mechanisms,
    List<String> deviations,
    NoiseMode noise,
    List<ProviderInfo> providers,
    PhaseTimings timing,
    List<PhaseTimings> roundTimings,
    List<String> warnings,
    Optional<EmbeddingStats> embedding,
    Optional<Guarantee> guarantee) {

  /**
   * What a run guarantees, said so that a report read alone cannot pass for more: SecPE's is per
   * secret, never record-level, and in its dataset split records without a detected secret are used
   * exactly.
   *
   * @param statement the guarantee in one sentence, e.g. "(p, r)-secret protection of each detected
   *     secret; the records in which the detector found no secret were used exactly, without noise
   *     ...: no record-level bound ..."
   * @param mode the method's mode: "secpe", "secpe-split", "secpe-split-votes", or the method's name
   * @param exactRecords whether the run used private records exactly, without noise
   */
  public record Guarantee(String statement, String mode, boolean exactRecords) {

    /** Checks the values. */
    public Guarantee {
      Objects.requireNonNull(statement, "statement");
      Objects.requireNonNull(mode, "mode");
      if (statement.isBlank() || mode.isBlank()) {
        throw new IllegalArgumentException(
            "guarantee statement and mode must not be blank, got statement='" + statement + "', mode='" + mode + "'");
      }
    }
  }

  /** Validates and copies. */
  public PrivacyReport {
    Objects.requireNonNull(method, "method");
    if (method.isBlank()) {
      throw new IllegalArgumentException("method must not be blank");
    }
    if (syntheticRecords < 0) {
      throw new IllegalArgumentException(
          "syntheticRecords must be >= 0, got syntheticRecords=" + syntheticRecords);
    }
    if (privateRecords < -1) {
      throw new IllegalArgumentException(
          "privateRecords must be >= 0 or -1 (withheld), got privateRecords=" + privateRecords);
    }
    Objects.requireNonNull(mu, "mu");
    Objects.requireNonNull(dp, "dp");
    Objects.requireNonNull(secretBudget, "secretBudget");
    Objects.requireNonNull(sigma, "sigma");
    if (sigma.isPresent() && !(sigma.getAsDouble() > 0)) {
      throw new IllegalArgumentException("sigma must be > 0, got sigma=" + sigma.getAsDouble());
    }
    mechanisms = List.copyOf(mechanisms);
    deviations = List.copyOf(deviations);
    Objects.requireNonNull(noise, "noise");
    providers = List.copyOf(providers);
    Objects.requireNonNull(timing, "timing");
    roundTimings = List.copyOf(roundTimings);
    warnings = List.copyOf(warnings);
    Objects.requireNonNull(embedding, "embedding");
    Objects.requireNonNull(guarantee, "guarantee");
  }

  /**
   * The report as the indented JSON that {@code bin/secpe run} writes (the keys are listed in the
   * user guide's command-line page); {@link PrivacyReportJson} also writes it to a file or gives
   * it as a Jackson tree.
   */
  public String toJson() {
    return PrivacyReportJson.toJson(this);
  }

  /**
   * A few lines a person reads: the method and sizes, the guarantee, the releases and their noise,
   * every warning, and where the rest is ({@link #toJson()}: every release, deviation, provider
   * and timing). Public facts only, as the report itself.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    b.append(method).append(" run: ").append(syntheticRecords).append(" synthetic texts");
    if (privateRecords >= 0) {
      b.append(" from ").append(privateRecords).append(" private records");
    }
    b.append('\n').append("guarantee: ");
    List<String> parts = new ArrayList<>();
    secretBudget.ifPresent(s -> parts.add("(p, r) = (" + figure(s.p()) + ", " + figure(s.r()) + ") for every secret"));
    mu.ifPresent(m -> parts.add("mu = " + figure(m.mu()) + " (GDP)"));
    dp.ifPresent(d -> parts.add("(epsilon, delta) = (" + figure(d.epsilon()) + ", " + figure(d.delta()) + ")"));
    b.append(parts.isEmpty() ? "none (non-private: nothing is protected)" : String.join("; ", parts)).append('\n');
    guarantee.ifPresent(g -> b.append("what it covers: ").append(g.statement()).append('\n'));
    b.append("releases: ").append(mechanisms.size());
    sigma.ifPresent(x -> b.append(", noise multiplier ").append(figure(x)));
    b.append(", ").append(noise.isPrivate() ? "secure noise" : "reproducible noise (NOT private)").append('\n');
    for (String w : warnings) {
      b.append("warning: ").append(w).append('\n');
    }
    return b.append("(every release, deviation, provider and timing: toJson())").toString();
  }

  /** Four significant digits, without a trailing exponent where none is needed. */
  private static String figure(double x) {
    if (x == 0 || Double.isInfinite(x) || Double.isNaN(x)) {
      return x == 0 ? "0" : String.valueOf(x);
    }
    BigDecimal d = new BigDecimal(x).round(new MathContext(4)).stripTrailingZeros();
    double a = Math.abs(x);
    return a >= 1e-4 && a < 1e7 ? d.toPlainString() : d.toString();
  }

  /** A builder for {@code method}. */
  public static Builder builder(String method) {
    return new Builder(method);
  }

  /** Builder; {@link #build()} validates. */
  public static final class Builder {
    private final String method;
    private int syntheticRecords;
    private int privateRecords = -1;
    private GdpMu mu;
    private DpBudget dp;
    private SecretBudget secretBudget;
    private Double sigma;
    private final List<Release> mechanisms = new ArrayList<>();
    private final List<String> deviations = new ArrayList<>();
    private NoiseMode noise = NoiseMode.SECURE;
    private final List<ProviderInfo> providers = new ArrayList<>();
    private PhaseTimings timing = PhaseTimings.ZERO;
    private final List<PhaseTimings> roundTimings = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private EmbeddingStats embedding;
    private Guarantee guarantee;

    Builder(String method) {
      this.method = Objects.requireNonNull(method, "method");
    }

    /** The number of synthetic texts. */
    public Builder syntheticRecords(int n) {
      this.syntheticRecords = n;
      return this;
    }

    /** The number of private records. */
    public Builder privateRecords(int n) {
      this.privateRecords = n;
      return this;
    }

    /** The composed mu-GDP. */
    public Builder mu(GdpMu mu) {
      this.mu = Objects.requireNonNull(mu, "mu");
      return this;
    }

    /** The composed (epsilon, delta). */
    public Builder dp(DpBudget dp) {
      this.dp = Objects.requireNonNull(dp, "dp");
      return this;
    }

    /** The (p, r) that holds for every secret. */
    public Builder secretBudget(SecretBudget budget) {
      this.secretBudget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    /** The main noise multiplier. */
    public Builder sigma(double sigma) {
      this.sigma = sigma;
      return this;
    }

    /** The ledger's releases, in order. */
    public Builder mechanisms(List<Release> releases) {
      this.mechanisms.addAll(releases);
      return this;
    }

    /** Adds a deviation from the paper's analysis. */
    public Builder deviation(String sentence) {
      this.deviations.add(Objects.requireNonNull(sentence, "sentence"));
      return this;
    }

    /** Adds a warning: a setting that makes the output weak, and what would help. */
    public Builder warning(String sentence) {
      this.warnings.add(Objects.requireNonNull(sentence, "sentence"));
      return this;
    }

    /** How noise was sampled; {@link NoiseMode#SECURE} by default. */
    public Builder noise(NoiseMode noise) {
      this.noise = Objects.requireNonNull(noise, "noise");
      return this;
    }

    /** Adds a provider. */
    public Builder provider(ProviderInfo provider) {
      this.providers.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /** Where the embedding time went. */
    public Builder embedding(EmbeddingStats stats) {
      this.embedding = Objects.requireNonNull(stats, "embedding");
      return this;
    }

    /** What the run guarantees, in words. */
    public Builder guarantee(Guarantee guarantee) {
      this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
      return this;
    }

    /** Total phase timings. */
    public Builder timing(PhaseTimings timing) {
      this.timing = Objects.requireNonNull(timing, "timing");
      return this;
    }

    /** Adds the timings of the next round. */
    public Builder roundTiming(PhaseTimings timing) {
      this.roundTimings.add(Objects.requireNonNull(timing, "timing"));
      return this;
    }

    /** The report. */
    public PrivacyReport build() {
      return new PrivacyReport(
          method,
          syntheticRecords,
          privateRecords,
          Optional.ofNullable(mu),
          Optional.ofNullable(dp),
          Optional.ofNullable(secretBudget),
          sigma == null ? OptionalDouble.empty() : OptionalDouble.of(sigma),
          mechanisms,
          deviations,
          noise,
          providers,
          timing,
          roundTimings,
          warnings,
          Optional.ofNullable(embedding),
          Optional.ofNullable(guarantee));
    }
  }
}
