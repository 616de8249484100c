package dev.secpe.llm.embedded;

import dev.secpe.llm.FineTunableGenerator;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The best embedded generator for CTCL: it writes with the {@link SpliceTextGenerator} (real
 * sentences of PUBLIC documents) and is fine-tuned through an {@link NgramTextGenerator} trained on
 * the same public text. CTCL needs a generator that both writes real text and learns from the
 * private data under DP; neither embedded generator does both (the n-gram model learns but writes
 * word salad, the splice generator writes real text but has nothing to learn), so this one pairs
 * them.
 *
 * <ul>
 *   <li><b>Fine-tuning</b> is the n-gram model's ({@link NgramTextGenerator#fineTuningRelease}):
 *       the same clipped, Poisson-subsampled, noised n-gram sum, with the same privacy contract
 *       and the same release, so a CTCL run checkpoints and resumes with it.
 *   <li><b>Generation</b> before fine-tuning is the splice generator's. After it, each request
 *       draws {@link Builder#candidates(int)} splice texts (the same task, derived seeds) and
 *       returns the one the fine-tuned model finds most likely relative to the public model: the
 *       largest mean per-word log ratio {@code ln P_tuned(w | h) - ln P_public(w | h)} (the first
 *       on a tie). The fine-tuned generator is a function of the release and public text only
 *       (post-processing).
 * </ul>
 *
 * <p>Deterministic as the splice generator is: a request with {@code params.seed()} always gives
 * the same text. Thread-safe. Closing it closes the n-gram models it owns.
 */
public final class GuidedSpliceGenerator extends LocalGenerator implements FineTunableGenerator {

  /** The generator name. */
  public static final String NAME = "embedded-guided-splice";

  private final SpliceTextGenerator writer;
  private final NgramTextGenerator publicModel;
  private final NgramTextGenerator tuned; // null until fine-tuned
  private final int candidates;
  private final long seed;
  private final AtomicLong calls = new AtomicLong();

  private GuidedSpliceGenerator(
      SpliceTextGenerator writer, NgramTextGenerator publicModel, NgramTextGenerator tuned, int candidates, long seed) {
    super(NAME);
    this.writer = writer;
    this.publicModel = publicModel;
    this.tuned = tuned;
    this.candidates = candidates;
    this.seed = seed;
  }

  /** A builder; {@link Builder#train} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Whether this generator was fine-tuned (then it reranks the splice generator's texts). */
  public boolean fineTuned() {
    return tuned != null;
  }

  /** Splice texts drawn per request once fine-tuned. */
  public int candidates() {
    return candidates;
  }

  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    if (tuned == null) {
      return writer.generateAsync(requests);
    }
    long call = calls.getAndIncrement();
    List<GenerationRequest> drafts = new ArrayList<>(requests.size() * candidates);
    for (int i = 0; i < requests.size(); i++) {
      GenerationRequest r = requests.get(i);
      long base = SpliceTextGenerator.requestSeed(r, seed, call, i);
      for (int j = 0; j < candidates; j++) {
        long s = j == 0 ? base : base ^ (j * 0xD1B54A32D192ED03L) + j;
        drafts.add(new GenerationRequest(r.messages(), r.task(), r.params().withSeed(s)));
      }
    }
    return writer.generateAsync(drafts).thenApply(texts -> {
      List<GenerationResult> out = new ArrayList<>(requests.size());
      for (int i = 0; i < requests.size(); i++) {
        GenerationResult best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < candidates; j++) {
          GenerationResult c = texts.get(i * candidates + j);
          double score = tuned.meanLogRatio(publicModel, c.text());
          if (best == null || score > bestScore) {
            best = c;
            bestScore = score;
          }
        }
        out.add(best);
      }
      return List.copyOf(out);
    });
  }

  /** True: the release is the n-gram model's (see {@link NgramTextGenerator#fineTuningRelease}). */
  @Override
  public boolean releasesFineTuning() {
    return true;
  }

  /** The n-gram model's release: the noisy sum of clipped n-gram contributions. */
  @Override
  public double[] fineTuningRelease(List<Example> examples, DpSgdSettings settings, DpNoise noise) {
    return publicModel.fineTuningRelease(examples, settings, noise);
  }

  /** This generator guided by the n-gram model rebuilt from the release (post-processing). */
  @Override
  public GuidedSpliceGenerator fromFineTuningRelease(double[] release, DpSgdSettings settings, int examples) {
    return new GuidedSpliceGenerator(
        writer, publicModel, publicModel.fromFineTuningRelease(release, settings, examples), candidates, seed);
  }

  /** This generator guided by the n-gram model fine-tuned on {@code examples} (one release). */
  @Override
  public GuidedSpliceGenerator fineTune(List<Example> examples, DpSgdSettings settings, DpNoise noise) {
    return new GuidedSpliceGenerator(
        writer, publicModel, publicModel.fineTune(examples, settings, noise), candidates, seed);
  }

  /**
   * Closes the fine-tuned model this generator owns; the public model is shared with the
   * generator it was fine-tuned from, which closes it.
   */
  @Override
  public void close() {
    if (tuned != null) {
      tuned.close();
    } else {
      publicModel.close();
    }
  }

  @Override
  public String toString() {
    return "GuidedSpliceGenerator[candidates=" + candidates + ", fineTuned=" + fineTuned() + "]";
  }

  /** Builds a {@link GuidedSpliceGenerator}. */
  public static final class Builder {
    private final SpliceTextGenerator.Builder splice = SpliceTextGenerator.builder();
    private List<String> texts;
    private int candidates = 8;
    private long seed = 0x5EC9E;

    private Builder() {}

    /** The PUBLIC training texts (required); never private text. */
    public Builder train(List<String> texts) {
      return train(texts, null);
    }

    /**
     * The PUBLIC training texts and their labels ({@code labels} may be null, or hold nulls for
     * unlabelled texts; otherwise one per text).
     */
    public Builder train(List<String> texts, List<String> labels) {
      splice.train(texts, labels); // validates both
      this.texts = List.copyOf(texts);
      return this;
    }

    /** Splice texts drawn per request once fine-tuned, the most private-like kept (default 8; 1 to 64). */
    public Builder candidates(int candidates) {
      this.candidates = Checks.inRange(1, 64, candidates, "candidates");
      return this;
    }

    /** The seed for requests that carry none. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Trains the n-gram model (unlabelled) and indexes the splice generator's documents (by label). */
    public GuidedSpliceGenerator build() {
      // The splice builder refuses to build untrained ("training texts missing: call train(texts)
      // first"), before texts is read below.
      SpliceTextGenerator w = splice.seed(seed).build();
      // Only the n-gram model's global counts are scored and fine-tuned: per-label models would
      // never be read, so it learns the texts without their labels.
      NgramTextGenerator m = NgramTextGenerator.builder().seed(seed).train(texts).build();
      return new GuidedSpliceGenerator(w, m, null, candidates, seed);
    }
  }
}
