package com.example.consumer;

import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * A user's own generator: fills a template with words drawn from a small public vocabulary.
 *
 * <p>Self-contained on purpose (this project is built against the installed SecPE artifacts, as
 * a user's would be): its accessors repeat those of the library's example generator, which a user
 * project cannot and should not import.
 */
public final class TemplateGenerator implements TextGenerator {
  private static final String[] WORDS = {
    "meeting", "invoice", "offer", "free", "project", "update", "deadline", "winner", "prize",
    "report", "schedule", "discount", "team", "urgent", "account", "lunch"
  };
  private final SplittableRandom rnd = new SplittableRandom(7);

  @Override
  public String name() {
    return "template";
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public synchronized CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    List<GenerationResult> out = new ArrayList<>();
    for (GenerationRequest r : requests) {
      StringBuilder sb = new StringBuilder("Subject:");
      for (int k = 0; k < 8; k++) {
        sb.append(' ').append(WORDS[rnd.nextInt(WORDS.length)]);
      }
      out.add(new GenerationResult(sb.toString(), GenerationResult.FinishReason.STOP, 0, 0));
    }
    return CompletableFuture.completedFuture(out);
  }
}
