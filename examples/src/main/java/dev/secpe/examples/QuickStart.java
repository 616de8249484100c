package dev.secpe.examples;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
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
   * SecPE from scratch: (p, r)-secret protection of the PII in a few private texts, with the
   * embedded generator (trained on the public texts) and embedder; writes the synthetic records to
   * {@code synthetic.jsonl} and returns the run's result. Everything it uses is defined in it.
   */
  public static RunResult firstRun() {
    // The README and the javadoc overview show the region below.
    // @start region="secpe"
    // Your private records: an id and the text (read files with DatasetReader). Two here; use thousands.
    PrivateDataset priv = PrivateDataset.of(List.of(
        PrivateRecord.of("1", "Hi Ann, the March invoice is attached. Call me on 555-0142 if anything is off."),
        PrivateRecord.of("2", "Dear team, the server move is on Friday; mail ops@example.com with any questions.")));
    // Public text of the same kind (here 300 of the bundled public e-mails): trains the generator.
    PublicCorpus pub = PublicCorpus.ofTexts(BundledCorpus.spamAssassin().publicPart().texts().subList(0, 300));
    try (TextGenerator gen = SpliceTextGenerator.builder().train(pub.texts()).build();
        TextEmbedder emb = MiniLmEmbedder.createQuantized()) {  // int8 all-MiniLM-L6-v2, in process
      RunResult result =
          SecPE.builder()
              .privateData(priv)                        // private text only reaches the embedder
              .publicData(pub)                          // public text: clusters, generator training
              .generator(gen)                           // TextGenerator: never sees private text
              .embedder(emb)                            // TextEmbedder: REMOTE ones need allowRemoteEmbedding()
              .secrets(PiiDetector.all())               // what to protect: e-mail addresses, phone numbers, ...
              .budget(SecretBudget.ofRatio(1e-4, 10))   // (p, r) = (1e-4, 1e-3) for every secret
              .syntheticSize(20)                        // how many synthetic records
              .build()
              .run();
      result.dataset().writeJsonl(Path.of("synthetic.jsonl"));
      System.out.println(result.report());      // the guarantee, releases, warnings (toJson(): all)
      return result;
    }
    // @end region="secpe"
  }

  /**
   * SecPE on labelled data: (p, r)-secret protection of the PII in the private e-mails, the label
   * proportions released with noise; writes the synthetic records to {@code out}.
   */
  public static RunResult secpe(PrivateDataset priv, PublicCorpus pub, int n, Path out) {
    List<String> pubLabels = pub.records().stream().map(r -> r.label().map(Label::name).orElse(null)).toList();
    try (TextGenerator gen = SpliceTextGenerator.builder().train(pub.texts(), pubLabels).build();
        TextEmbedder emb = MiniLmEmbedder.create()) {
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
      result.dataset().writeJsonl(out);
      return result;
    }
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

  /** Runs the first-run snippet: SecPE on two made-up records, {@code synthetic.jsonl} written. */
  public static void main(String[] args) {
    firstRun();
  }
}
