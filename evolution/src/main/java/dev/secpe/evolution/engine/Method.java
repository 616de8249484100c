package dev.secpe.evolution.engine;

import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.llm.TextGenerator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The method-specific parts of a run. The {@link Engine} owns the loop, checkpoints, timing and
 * generation; a method owns its private-data releases (always through {@link RunContext#store()}),
 * its vote and its selection and variation rules.
 */
public interface Method {

  /** "secpe", "augpe", "dpga" or "ctcl". */
  public String name();

  /**
   * One-off work before round 0: calibration, one-off releases, label shares. Runs again on
   * resume, where every release comes back from the checkpoint instead of being drawn.
   */
  public void prepare(RunContext ctx);

  /** Whether {@link #prepare} uses {@link RunContext#publicUnit()} (embedded and timed first). */
  public default boolean needsPublicEmbeddings() {
    return false;
  }

  /**
   * Whether the method votes and varies (SecPE, Aug-PE, DPGA). One that does not (CTCL) releases
   * everything in {@link #prepare}, and its initial population is the output: {@link #vote},
   * {@link #select} and {@link #vary} are never called.
   */
  public default boolean evolves() {
    return true;
  }

  /**
   * The generator every population is generated with: the run's own by default; CTCL's is the
   * one fine-tuned in {@link #prepare} (the engine closes it after the run).
   */
  public default TextGenerator generator(TextGenerator given) {
    return given;
  }

  /**
   * The initial population: by default L random samples (from public text only) per synthetic
   * text of each label group's share, as SecPE and Aug-PE start.
   */
  public default List<Offspring> initial(RunContext ctx, SplittableRandom rng) {
    int[] shares = ctx.shares();
    for (int g = 0; g < shares.length; g++) {
      shares[g] *= ctx.settings().variations();
    }
    return Variation.random(ctx, shares, rng);
  }

  /** The (noisy) score of every candidate in round {@code round}. */
  public double[] vote(RunContext ctx, int round, List<SyntheticText> population, EmbeddingMatrix unit);

  /** The indices of the survivors, best first; by default the top share of each label. */
  public default int[] select(
      RunContext ctx, int round, double[] votes, List<SyntheticText> population, EmbeddingMatrix unit) {
    return ctx.topPerLabel(votes, population);
  }

  /** The children of the survivors for the next round. */
  public List<Offspring> vary(RunContext ctx, int round, List<SyntheticText> survivors, SplittableRandom rng);

  /**
   * The run's privacy plan, solved from the configuration when the run was built (before any
   * private record is read): every release the method will make, with its noise. The engine charges
   * a ledger that follows it ({@link dev.secpe.accounting.ledger.PrivacyPlan#newLedger()}), so a
   * release beyond the budget or outside the plan is refused before its noise is drawn; a
   * non-private run's plan releases nothing.
   */
  public PrivacyPlan plan();

  /**
   * Sentences for the report's warnings: settings that make this run's output weak (noise that
   * swamps the signal), with what would help. Public facts only. None by default.
   */
  public default List<String> warnings(RunContext ctx) {
    return List.of();
  }

  /** The delta at which the report states epsilon; asked of a private run only. */
  public double reportDelta();

  /** The prior p at which the report states (p, r); asked of a private run only. */
  public double reportPrior();

  /** Method-specific report fields (its noise multiplier, its (p, r) budget), set after the run. */
  public default void report(PrivacyReport.Builder report) {}

  /** Sentences for the report: how this run deviates from the paper's analysis. */
  public List<String> deviations(RunContext ctx);
}
