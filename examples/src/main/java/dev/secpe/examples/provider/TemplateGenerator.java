package dev.secpe.examples.provider;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * A toy custom generator, as a provider author would write one: it fills masks and rewrites by
 * shuffling words of its own phrase book. It shows the shape (a light provider in {@code
 * META-INF/services}, a heavy generator, the provider test kit in the tests), not a useful model.
 */
public final class TemplateGenerator implements TextGenerator {

  /** The name of this generator and of its provider: one constant, so the two cannot disagree. */
  static final String NAME = "template";

  /** Where this generator and so its provider run: in this process. */
  static final Locality LOCALITY = Locality.LOCAL;

  private static final String[] WORDS = {
    "please", "find", "the", "report", "attached", "meeting", "tomorrow", "thanks", "offer", "free",
    "update", "server", "list", "message", "account", "order", "today", "new", "price", "team"
  };

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Locality locality() {
    return LOCALITY;
  }

  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    List<GenerationResult> out = new ArrayList<>(requests.size());
    for (GenerationRequest r : requests) {
      out.add(respond(r));
    }
    return CompletableFuture.completedFuture(out);
  }

  private static GenerationResult respond(GenerationRequest r) {
    SplittableRandom rng = new SplittableRandom(r.params().seed().orElse(r.task().hashCode()));
    int words = 12;
    StringBuilder b = new StringBuilder();
    if (r.task() instanceof GenerationTask.FillIn f) {
      for (String w : f.parent().split("\\s+")) {
        b.append(rng.nextDouble() < f.maskProbability() ? WORDS[rng.nextInt(WORDS.length)] : w).append(' ');
      }
    } else if (r.task() instanceof GenerationTask.Random rand && rand.targetWords() > 0) {
      words = rand.targetWords();
    }
    if (b.length() == 0) {
      for (int i = 0; i < words; i++) {
        b.append(WORDS[rng.nextInt(WORDS.length)]).append(' ');
      }
    }
    String text = b.toString().strip();
    String[] tokens = text.split(" ");
    boolean cut = tokens.length > r.params().maxTokens();
    if (cut) {
      text = String.join(" ", Arrays.copyOf(tokens, r.params().maxTokens()));
    }
    return new GenerationResult(
        text, cut ? GenerationResult.FinishReason.LENGTH : GenerationResult.FinishReason.STOP, 0, Math.min(tokens.length, r.params().maxTokens()));
  }
}
