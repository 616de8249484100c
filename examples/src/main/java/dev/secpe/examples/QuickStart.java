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
import dev.secpe.llm.embedded.SpliceTextGenerator;
import java.nio.file.Path;
import java.util.List;

/**
 * How an application calls the three methods: the bundled corpus stands in for your private
 * records, the embedded generator and embedder for your LLM gateway and embedding service.
 * {@code QuickStartTest} runs it in the build.
 */
public final class QuickStart {

  private QuickStart() {}

  /**
   * SecPE: (p, r)-secret protection of the PII in the private e-mails, with the embedded generator
   * (trained on the public text) and embedder; writes the synthetic records to {@code out}.
   */
  public static RunResult secpe(PrivateDataset priv, PublicCorpus pub, int n, Path out) {
    // The README and the javadoc overview show the region below.
    // @start region="secpe"
    // priv: your private records, PrivateDataset.of(List<PrivateRecord>); pub: public text of the
    // same kind, PublicCorpus.of(List<PublicRecord>); n synthetic records are written to out.
    List<String> pubLabels = pub.records().stream().map(r -> r.label().orElseThrow().name()).toList();
    try (TextGenerator gen = SpliceTextGenerator.builder().train(pub.texts(), pubLabels).build();
        TextEmbedder emb = MiniLmEmbedder.create()) {
      RunResult result =
          SecPE.builder()
              .privateData(priv)                        // private text only reaches the embedder
              .publicData(pub)                          // public text: clusters, generator training
              .labels(LabelSet.toBeReleased(List.of(BundledCorpus.HAM, BundledCorpus.SPAM)))
              .generator(gen)                           // TextGenerator: never sees private text
              .embedder(emb)                            // TextEmbedder: REMOTE ones need allowRemoteEmbedding()
              .secrets(PiiDetector.all())               // what to protect
              .budget(SecretBudget.ofRatio(1e-4, 10))   // (p, r) = (1e-4, 1e-3) for every secret
              .syntheticSize(n)
              .build()
              .run();
      result.dataset().writeJsonl(out);
      return result;
    }
    // @end region="secpe"
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
    return LabelSet.toBeReleased(List.of(BundledCorpus.HAM, BundledCorpus.SPAM));
  }

  /** Runs SecPE on the bundled corpus and writes {@code synthetic.jsonl} (or the first argument). */
  public static void main(String[] args) {
    BundledCorpus corpus = BundledCorpus.spamAssassin();
    RunResult r = secpe(corpus.privatePart(), corpus.publicPart(), 50,
        Path.of(args.length > 0 ? args[0] : "synthetic.jsonl"));
    System.out.println(r.report());
  }
}
