package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.Gdp;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.evolution.augpe.AugPEMethod;
import dev.secpe.evolution.augpe.AugPEOptions;
import dev.secpe.evolution.augpe.AugPEPlan;
import dev.secpe.evolution.engine.Inputs;
import dev.secpe.evolution.engine.Labels;
import dev.secpe.evolution.engine.Method;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Aug-PE, the mu-GDP private-evolution baseline (Xie et al. 2024, "Differentially private synthetic
 * data via foundation model APIs 2: text"): every round each private record votes for its nearest
 * candidates, the vote histogram is released with Gaussian noise, and the winners are varied by
 * fill-in.
 *
 * <p>The budget may be given as (epsilon, delta), as mu-GDP, or — to compare with SecPE at the same
 * reconstruction guarantee — as (p, r) through SecPE eq. (4).
 *
 * <pre>{@code
 * RunResult result = AugPE.builder()
 *     .privateData(privateData).generator(generator).embedder(embedder)
 *     .budget(new DpBudget(4.0, 1e-5))
 *     .syntheticSize(200).iterations(5)
 *     .build()
 *     .run();
 * }</pre>
 */
public final class AugPE extends Runs<AugPE.Config> {

  /** How survivors are chosen from the noisy histogram. */
  public enum SelectionMode {
    /** The top counts of each label (the default). */
    RANK,
    /**
     * A sample proportional to the (positive part of the) counts, without replacement (so the
     * survivors are distinct texts; with replacement a survivor could appear twice in the output).
     */
    PROBABILITY,
    /**
     * Survivors allocated to lineages in proportion to their votes: a lineage is a survivor of
     * the previous round with its children (in round 0, each candidate alone); each lineage gets
     * slots by largest remainder over the positive part of its summed votes and fills them with
     * its best-voted members. Rank selection penalises a survivor whose near-identical children
     * split its voters; summing the lineage's votes first removes that penalty.
     */
    LINEAGE
  }

  /**
   * Aug-PE's immutable configuration.
   *
   * @param settings the shared settings
   * @param totalMu the whole run's mu-GDP: null exactly when {@code settings.privacy()} is
   *     {@link PrivacyMode.NonPrivate}
   * @param budgetGivenAsSecret whether the budget came as (p, r)
   * @param prior the prior p used for the report's (p, r) (from the budget, or 1e-4)
   * @param delta the delta used for the report's (epsilon, delta)
   * @param nearestNeighbours k, candidates each record votes for (weight 1/sqrt(k))
   * @param threshold H: noisy counts below it become 0
   * @param selection rank or probability selection
   */
  public record Config(
      EvolutionSettings settings,
      @Nullable GdpMu totalMu,
      boolean budgetGivenAsSecret,
      double prior,
      double delta,
      int nearestNeighbours,
      double threshold,
      SelectionMode selection) implements RunConfig {

    /** Validates eagerly. */
    public Config {
      RunConfig.requireBudgetMatches(settings, "totalMu", totalMu);
      if (settings.privacy() instanceof PrivacyMode.Private && !(totalMu.mu() > 0)) {
        throw new IllegalArgumentException("the budget must allow mu > 0, got mu=" + totalMu.mu());
      }
      Objects.requireNonNull(selection, "selection");
    }

    String describe() {
      return "mu=" + (totalMu == null ? "none" : totalMu.mu()) + ", k=" + nearestNeighbours + ", H=" + threshold + ", selection=" + selection;
    }
  }


  private AugPE(Config config, Inputs inputs, PrivacyPlan plan) {
    super(config, inputs, plan);
  }

  /**
   * What Aug-PE's steps read of {@code c}: plain values, so that the steps never import this class.
   */
  static AugPEOptions options(Config c) {
    return new AugPEOptions(
        c.settings(), c.totalMu(), c.budgetGivenAsSecret(), c.prior(), c.delta(), c.nearestNeighbours(),
        c.threshold(), AugPEOptions.Selection.valueOf(c.selection().name()));
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  Method newMethod() {
    return new AugPEMethod(options(config()), privacyPlan());
  }

  @Override
  String describe() {
    return config().describe();
  }

  @Override
  List<String> methodWarnings() {
    return AugPEMethod.warnings(options(config()), privacyPlan(), inputs.privateData().size());
  }


  /** Builds {@link AugPE} runs. */
  public static final class Builder extends EvolutionBuilder<Builder> {
    private GdpMu mu;
    private boolean secret;
    private double prior = 1e-4;
    private Double delta;
    private int k = 1;
    private double threshold = 0.0;
    private SelectionMode selection = SelectionMode.RANK;
    private String budgetSetAs;

    Builder() {}

    @Override
    Builder self() {
      return this;
    }

    private void once(String how) {
      if (budgetSetAs != null) {
        throw new IllegalStateException(
            "the budget was already set as " + budgetSetAs + "; cannot also set it as " + how);
      }
      budgetSetAs = how;
    }

    /** The whole run's (epsilon, delta); mu is the largest with delta(epsilon; mu) &lt;= delta. */
    public Builder budget(DpBudget budget) {
      requireApproximateDp("Aug-PE", budget);
      once("(epsilon, delta)");
      this.mu = Gdp.muFor(budget);
      this.delta = budget.delta();
      return this;
    }

    /** The whole run's mu-GDP. */
    public Builder budget(GdpMu mu) {
      Objects.requireNonNull(mu, "budget");
      once("mu-GDP");
      this.mu = mu;
      return this;
    }

    /** The same (p, r) as a SecPE run, converted by SecPE eq. (4). */
    public Builder budget(SecretBudget budget) {
      Objects.requireNonNull(budget, "budget");
      once("(p, r)");
      this.mu = Gdp.muFor(budget);
      this.secret = true;
      this.prior = budget.p();
      return this;
    }

    /** k nearest candidates per private vote (default 1). */
    public Builder nearestNeighbours(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("nearestNeighbours must be >= 1, got nearestNeighbours=" + k);
      }
      this.k = k;
      return this;
    }

    /** Threshold H (default 0): noisy counts below it are zeroed. */
    public Builder threshold(double h) {
      if (!Double.isFinite(h)) {
        throw new IllegalArgumentException("threshold must be finite, got threshold=" + h);
      }
      this.threshold = h;
      return this;
    }

    /** Rank (default) or probability selection. */
    public Builder selection(SelectionMode mode) {
      this.selection = Objects.requireNonNull(mode, "selection");
      return this;
    }

    @Override
    List<String> missingOwn() {
      return budgetMissing(mu, "budget(DpBudget | GdpMu | SecretBudget)");
    }

    /** Validates everything and returns a single-use run. */
    public AugPE build() {
      EvolutionSettings s = settings();
      refuseBudgetWhenNonPrivate(mu);
      double d = delta != null ? delta : DpBudget.deltaForDatasetSize(Math.max(2, privateData.size()));
      Config c = new Config(s, mu, secret, prior, d, k, threshold, selection);
      // The plan is solved here, before any private record is read.
      List<Label> labels = Labels.of(privateData.isLabelled(), s.labels());
      boolean released = !labels.isEmpty() && s.labels().orElseThrow() instanceof LabelSet.ToBeReleased;
      return new AugPE(c, new Inputs(privateData, publicData, generator, embedder), AugPEPlan.of(options(c), labels.size(), released));
    }
  }
}
