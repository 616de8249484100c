package dev.secpe.examples;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.evolution.AugPE;
import dev.secpe.evolution.DPGA;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.SecPE;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.llm.embedded.NgramTextGenerator;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

/**
 * How an application calls the three methods: the bundled corpus stands in for your private
 * records, the embedded generator and embedder for your LLM gateway and embedding service.
 * {@code QuickStartTest} runs it in the build.
 */
public final class QuickStart {

  private QuickStart() {}

  /** SecPE: (p, r)-secret protection of the PII in the private e-mails. */
  public static RunResult secpe(PrivateDataset priv, PublicCorpus pub, TextGenerator gen, TextEmbedder emb, int n) {
    // snippet-start: secpe
    RunResult result =
        SecPE.builder()
            .privateData(priv)
            .publicData(pub)
            .labels(labels())
            .generator(gen)
            .embedder(emb)
            .secrets(PiiDetector.all())
            .budget(SecretBudget.ofRatio(1e-4, 10))
            .syntheticSize(n)
            .build()
            .run();
    // snippet-end: secpe
    return result;
  }

  /** Aug-PE at the same reconstruction guarantee (SecPE eq. 4). */
  public static RunResult augpe(PrivateDataset priv, PublicCorpus pub, TextGenerator gen, TextEmbedder emb, int n) {
    return AugPE.builder()
        .privateData(priv)
        .publicData(pub)
        .labels(labels())
        .generator(gen)
        .embedder(emb)
        .budget(SecretBudget.ofRatio(1e-4, 10))
        .syntheticSize(n)
        .build()
        .run();
  }

  /** DPGA with an (epsilon, delta) budget. */
  public static RunResult dpga(PrivateDataset priv, PublicCorpus pub, TextGenerator gen, TextEmbedder emb, int n) {
    return DPGA.builder()
        .privateData(priv)
        .publicData(pub)
        .labels(labels())
        .generator(gen)
        .embedder(emb)
        .budget(new DpBudget(4.0, DpBudget.deltaForDatasetSize(priv.size())))
        .syntheticSize(n)
        .build()
        .run();
  }

  /** The label names are public; their proportions are released with noise (and accounted). */
  static LabelSet labels() {
    return new LabelSet.ToBeReleased(new TreeSet<>(List.of(BundledCorpus.HAM, BundledCorpus.SPAM)));
  }

  /** Runs SecPE on the bundled corpus and writes {@code synthetic.jsonl}. */
  public static void main(String[] args) {
    BundledCorpus corpus = BundledCorpus.spamAssassin();
    PublicCorpus pub = corpus.publicPart();
    List<String> labels = pub.records().stream().map(r -> r.label().orElseThrow().name()).toList();
    try (TextGenerator gen = NgramTextGenerator.builder().train(pub.texts(), labels).build();
        TextEmbedder emb = MiniLmEmbedder.create()) {
      RunResult r = secpe(corpus.privatePart(), pub, gen, emb, 50);
      r.dataset().writeJsonl(Path.of(args.length > 0 ? args[0] : "synthetic.jsonl"));
      System.out.println(r.report());
    }
  }
}
