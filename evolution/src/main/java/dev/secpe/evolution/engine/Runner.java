package dev.secpe.evolution.engine;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyGuarantee;
import dev.secpe.core.SyntheticDataset;
import dev.secpe.core.report.NoiseMode;
import dev.secpe.core.report.PhaseTimings;
import dev.secpe.core.report.PrivacyReport;
import dev.secpe.core.report.ProviderInfo;
import dev.secpe.core.report.RunEvent;
import dev.secpe.evolution.EvolutionSettings;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.provider.TimedEmbedder;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.cache.CachingEmbedder;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one method through the {@link Engine} and assembles its {@link RunResult}: the synthetic
 * dataset and the privacy report (releases, composed guarantee, providers, timings, deviations).
 */
public final class Runner {

  /** Entries of the in-memory embedding cache (384-dim floats: about 75 MB when full). */
  static final int EMBEDDING_CACHE = 50_000;

  private Runner() {}

  /** Runs the engine and assembles the result and report. */
  public static RunResult execute(
      Method method,
      String methodDescription,
      RunKind kind,
      EvolutionSettings settings,
      Inputs inputs,
      AtomicBoolean cancelled) {
    PrivateStore privateData = inputs.privateData();
    TextGenerator generator = inputs.generator();
    TextEmbedder embedder = inputs.embedder();
    // Survivors are embedded again every round: cache by content (in memory only; the cache never
    // writes private text or its vectors anywhere).
    TextEmbedder cached =
        embedder instanceof CachingEmbedder ? embedder : CachingEmbedder.inMemory(embedder, EMBEDDING_CACHE);
    // Timeouts, retries and cancellation around every embedding batch (private ones included).
    TimedEmbedder timed = new TimedEmbedder(cached, settings.embeddingTimeout(), settings.providerRetries(), cancelled);
    Engine engine =
        new Engine(
            method, kind, settings, privateData, inputs.publicData(), generator, timed, methodDescription, cancelled,
            cached instanceof CachingEmbedder c ? c::stats : null);
    Engine.Outcome out;
    try {
      out = engine.run();
    } finally {
      timed.close();
    }
    RunContext ctx = out.context();
    // None missing, none extra: the ledger after a completed run is the plan.
    method.plan().checkFollowed(ctx.ledger().releases(), ctx.store().coveredDrawn());
    PhaseTimings total = Engine.total(out.rounds());
    PrivacyReport.Builder b =
        PrivacyReport.builder(method.name())
            .syntheticRecords(out.synthetic().size())
            .privateRecords(privateData.size())
            .mechanisms(ctx.ledger().releases())
            .provider(new ProviderInfo("generator", generator.name(), version(generator), generator.locality()))
            .provider(new ProviderInfo("embedder", embedder.name(), version(embedder), embedder.locality()))
            .timing(total)
            .embedding(out.embedding());
    out.rounds().forEach(b::roundTiming);
    b.guarantee(new PrivacyReport.Guarantee(
        method.plan().isPrivate() ? kind.guarantee() : RunKind.NONE, kind.mode(), kind.exactRecords()));
    if (!method.plan().isPrivate()) {
      b.noise(NoiseMode.NONE)
          .deviation("Non-private baseline (r/p = infinity): no noise was added and nothing is protected.");
    } else {
      double reportDelta = method.reportDelta();
      double reportPrior = method.reportPrior();
      PrivacyGuarantee g = ctx.ledger().guarantee(reportDelta, reportPrior);
      b.dp(new DpBudget(g.epsilon(), reportDelta))
          .noise(settings.noise().isPrivate() ? NoiseMode.SECURE : NoiseMode.REPRODUCIBLE_NON_PRIVATE);
      g.gdp().ifPresent(b::mu);
      if (g.worstR() > reportPrior && g.worstR() < 1) {
        b.secretBudget(new SecretBudget(reportPrior, g.worstR()));
      }
      method.deviations(ctx).forEach(b::deviation);
      DpBudget.deltaAboveOneOverN(reportDelta, privateData.size()).ifPresent(b::warning);
      DpBudget.defaultDeltaTooLarge(reportDelta, privateData.size()).ifPresent(b::warning);
      method.warnings(ctx).forEach(b::warning);
      b.deviation("Dual (eps, delta) from the ledger: " + g.dpMethod() + "; (p, r): " + g.secretMethod() + ".");
    }
    for (String repaired : engine.journalRepairs()) {
      b.warning("privacy journal: " + repaired + " (journalled as a repair; see secpe privacy spent).");
    }
    if (out.copiesLeftOut() > 0) {
      b.warning(
          out.copiesLeftOut() + " generated text(s) stayed copies of texts already in the population after "
              + Engine.DUPLICATE_RETRIES + " more requests each and were left out: the generator repeats itself"
              + " (raise its temperature, or allowDuplicates(true) to keep copies).");
    }
    if (out.resumedFromRound() > 0 || out.releasesReused() > 0) {
      b.deviation(
          "Resumed from round "
              + out.resumedFromRound()
              + ": "
              + out.releasesReused()
              + " release(s) served from the checkpoint, none drawn twice.");
    }
    method.report(b);
    settings.listener().onEvent(new RunEvent.RunFinished(total));
    return new RunResult(SyntheticDataset.of(out.synthetic()), b.build());
  }

  /**
   * The provider's version: its jar manifest's Implementation-Version (every SecPE module's jar
   * has one), else its named module's version (on the module path), else "dev" (classes not in a
   * jar, as in an IDE or a module's own tests).
   */
  static String version(Object provider) {
    Class<?> c = provider.getClass();
    String v = c.getPackage().getImplementationVersion();
    if (v == null && c.getModule().getDescriptor() != null) {
      v = c.getModule().getDescriptor().rawVersion().orElse(null);
    }
    return v == null ? "dev" : v;
  }
}
