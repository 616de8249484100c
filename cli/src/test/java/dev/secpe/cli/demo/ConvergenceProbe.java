package dev.secpe.cli.demo;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateTexts;
import dev.secpe.core.SyntheticText;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import dev.secpe.core.secret.RandomWordSecrets;
import dev.secpe.evaluation.FrechetDistance;
import dev.secpe.evaluation.NearestSimilarity;
import dev.secpe.evaluation.PrincipalProjection;
import dev.secpe.evolution.AugPE;
import dev.secpe.evolution.DPGA;
import dev.secpe.evolution.EvolutionBuilder;
import dev.secpe.evolution.SecPE;
import dev.secpe.evolution.VoteGeometry;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.cache.CachingEmbedder;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.llm.embedded.SpliceTextGenerator;
import dev.secpe.llm.prompt.Domain;
import dev.secpe.llm.prompt.PromptTemplates;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Where a PE run's distance to the private data comes from, round by round, on the demo's data
 * (mailing-list split, splice generator, int8 MiniLM, N_syn = 100, K = 100): FID in the demo's 16
 * private principal components split into the distance of the means and the spread (trace of the
 * covariance), and the fidelity and coverage of {@link NearestSimilarity}; mean over seeds. A
 * research harness for docs/method-findings.md, not a test.
 *
 * <p>Arguments: method (augpe|secpe|dpga), T, L, seeds. System properties: {@code geometry}
 * (CENTRED|COSINE), {@code selection} (Aug-PE: RANK|PROBABILITY|LINEAGE), {@code ratio} (r/p at
 * p = 1e-4; absent = non-private), {@code shrink} (SecPE: true|false), {@code suppression}
 * (DPGA: PAPER|NEAR_DUPLICATES|OFF), {@code corpus} (spamassassin|sotu|fortunes), {@code clusters}
 * (SecPE's K), {@code size} (N_syn), {@code allowDuplicates} (true: populations may repeat a
 * text, as before issue 31), {@code split}
 * (lists|era|random), {@code basis} (private|public: whose principal components FID is measured
 * in), {@code cache} (a directory
 * for the embedding cache, so repeated probes embed each text once).
 */
public final class ConvergenceProbe {

  private ConvergenceProbe() {}

  public static void main(String[] a) throws Exception {
    String method = a.length > 0 ? a[0] : "augpe";
    int rounds = a.length > 1 ? Integer.parseInt(a[1]) : 4;
    int variations = a.length > 2 ? Integer.parseInt(a[2]) : 3;
    int seeds = a.length > 3 ? Integer.parseInt(a[3]) : 3;
    String ratio = System.getProperty("ratio");
    String corpus = System.getProperty("corpus", "spamassassin");
    DemoRunner.Data d = DemoRunner.data(
        DemoCorpus.named(corpus, System.getProperty("split", "lists")),
        Integer.getInteger("heldOut", corpus.equals("spamassassin") ? 100 : 300), 2026);
    List<String> labs =
        d.publicData().records().stream().map(r -> r.label().map(Label::name).orElse(null)).toList();
    CachingEmbedder.Builder eb = CachingEmbedder.builder(MiniLmEmbedder.createQuantized()).maxEntries(300_000);
    if (System.getProperty("cache") != null) {
      eb.directory(Path.of(System.getProperty("cache")));
    }
    try (TextEmbedder emb = eb.build()) {
      EmbeddingMatrix pub = EmbeddingMatrix.of(emb.embed(d.publicData().texts()));
      // The reference: the held-out private records (-Dreference=private: those that vote).
      EmbeddingMatrix privUnit = PrivateTexts.embed(emb,
          "private".equals(System.getProperty("reference")) ? d.privateData()
              : dev.secpe.core.PrivateDataset.of(d.heldOut()), PrivacyGuard.localOnly());
      // The demo's basis: the private set's leading components (-Dbasis=public: the public set's).
      PrincipalProjection pp = PrincipalProjection.fit(
          "public".equals(System.getProperty("basis")) ? pub : privUnit, DemoRunner.FID_COMPONENTS);
      double[][] priv = pp.project(privUnit);
      double[] privMean = mean(priv);
      System.out.printf(Locale.ROOT, "private spread %.4f, public spread %.4f%n", trace(priv), trace(pp.project(pub)));
      // The fixed point of nearest-neighbour selection when the candidates are the public e-mails
      // themselves: each private record's nearest public e-mail, weighted by its votes.
      double[] votes = new double[pub.rows()];
      for (int i = 0; i < privUnit.rows(); i++) {
        int best = 0;
        for (int c = 1; c < pub.rows(); c++) {
          if (privUnit.dot(i, pub, c) > privUnit.dot(i, pub, best)) {
            best = c;
          }
        }
        votes[best]++;
      }
      System.out.printf(Locale.ROOT, "public e-mails weighted by private nearest-neighbour votes: spread %.4f%n",
          weightedTrace(pp.project(pub), votes));
      double[][] sum = new double[6][rounds];
      for (int s = 0; s < seeds; s++) {
        long seed = 2026 + s;
        List<double[]> rows = new ArrayList<>();
        RunListener listener = e -> {
          if (e instanceof RunEvent.SurvivorsSelected sv) {
            EmbeddingMatrix x = EmbeddingMatrix.of(emb.embed(sv.survivors().stream().map(SyntheticText::text).toList()));
            double[][] xp = pp.project(x);
            double[] m = mean(xp);
            double dm = 0;
            for (int j = 0; j < m.length; j++) {
              dm += (m[j] - privMean[j]) * (m[j] - privMean[j]);
            }
            NearestSimilarity near = NearestSimilarity.of(privUnit, x);
            rows.add(new double[] {FrechetDistance.between(xp, priv), dm, trace(xp), near.fidelity(), near.coverage(),
                sv.survivors().stream().map(SyntheticText::text).distinct().count()});
          }
        };
        TextGenerator g = SpliceTextGenerator.builder().train(d.publicData().texts(), labs).build();
        run(method, ratio, d, g, emb, rounds, variations, seed, listener);
        StringBuilder line = new StringBuilder("seed " + seed + ":");
        for (int t = 0; t < rows.size(); t++) {
          double[] r = rows.get(t);
          line.append(String.format(Locale.ROOT, " [FID %.4f means %.4f spread %.3f fidelity %.3f coverage %.3f distinct %.0f]",
              r[0], r[1], r[2], r[3], r[4], r[5]));
          for (int q = 0; q < 6; q++) {
            sum[q][t] += r[q] / seeds;
          }
        }
        System.out.println(line);
      }
      String[] names = {"FID", "means", "spread", "fidelity", "coverage", "distinct"};
      for (int q = 0; q < 6; q++) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-9s", names[q]));
        for (int t = 0; t < rounds; t++) {
          line.append(String.format(Locale.ROOT, t == 0 ? "%.4f" : " -> %.4f", sum[q][t]));
        }
        System.out.println(line);
      }
    }
  }

  private static void run(
      String method, String ratio, DemoRunner.Data d, TextGenerator g, TextEmbedder emb, int rounds,
      int variations, long seed, RunListener listener) {
    LabelSet labels = new LabelSet.ToBeReleased(d.labels());
    SecretBudget budget = ratio == null ? null : SecretBudget.ofRatio(DemoRunner.PRIOR, Double.parseDouble(ratio));
    VoteGeometry geometry = VoteGeometry.valueOf(System.getProperty("geometry", "CENTRED"));
    switch (method) {
      case "secpe" -> {
        SecPE.Builder b = common(SecPE.builder(), d, g, emb, labels, rounds, variations, seed, geometry, listener, budget)
            .clusters(Integer.getInteger("clusters", 100)).shrinkRepresentatives(Boolean.parseBoolean(System.getProperty("shrink", "true")));
        if (budget != null) {
          b.budget(budget).secrets(RandomWordSecrets.builder().publicCorpus(d.publicData()).build());
        }
        b.build().run();
      }
      case "dpga" -> {
        DPGA.Builder b = common(DPGA.builder(), d, g, emb, labels, rounds, variations, seed, geometry, listener, budget)
            .similaritySuppression(DPGA.Suppression.valueOf(System.getProperty("suppression", "NEAR_DUPLICATES")));
        if (budget != null) {
          throw new IllegalArgumentException("the probe runs DPGA without noise only");
        }
        b.build().run();
      }
      default -> {
        AugPE.Builder b = common(AugPE.builder(), d, g, emb, labels, rounds, variations, seed, geometry, listener, budget)
            .selection(AugPE.SelectionMode.valueOf(System.getProperty("selection", "RANK")));
        if (budget != null) {
          b.budget(budget);
        }
        b.build().run();
      }
    }
  }

  private static <B extends EvolutionBuilder<B>> B common(
      B b, DemoRunner.Data d, TextGenerator g, TextEmbedder emb, LabelSet labels, int rounds, int variations,
      long seed, VoteGeometry geometry, RunListener listener, SecretBudget budget) {
    b.privateData(d.privateData()).publicData(d.publicData()).labels(labels).generator(g).embedder(emb)
        .syntheticSize(Integer.getInteger("size", 100)).iterations(rounds).seed(seed)
        .templates(PromptTemplates.defaults(Domain.EMAIL))
        .generation(new GenerationParams(1.0, 1.0, 160, List.of(), OptionalLong.empty()))
        .voteGeometry(geometry).listener(listener).allowDuplicates(Boolean.getBoolean("allowDuplicates"));
    if (!(b instanceof DPGA.Builder)) { // DPGA's offspring follow its shares: it refuses variations
      b.variations(variations);
    }
    if (budget == null) {
      b.nonPrivate();
    }
    return b;
  }

  private static double[] mean(double[][] x) {
    double[] m = new double[x[0].length];
    for (double[] r : x) {
      for (int j = 0; j < m.length; j++) {
        m[j] += r[j] / x.length;
      }
    }
    return m;
  }

  private static double weightedTrace(double[][] x, double[] w) {
    double total = 0;
    double[] m = new double[x[0].length];
    for (int i = 0; i < x.length; i++) {
      total += w[i];
      for (int j = 0; j < m.length; j++) {
        m[j] += w[i] * x[i][j];
      }
    }
    double t = 0;
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < m.length; j++) {
        double dev = x[i][j] - m[j] / total;
        t += w[i] * dev * dev / total;
      }
    }
    return t;
  }

  private static double trace(double[][] x) {
    double[] m = mean(x);
    double t = 0;
    for (double[] r : x) {
      for (int j = 0; j < m.length; j++) {
        t += (r[j] - m[j]) * (r[j] - m[j]) / (x.length - 1);
      }
    }
    return t;
  }
}
