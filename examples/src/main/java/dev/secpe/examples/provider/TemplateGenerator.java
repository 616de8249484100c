package dev.secpe.examples.provider;

import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * A toy custom generator, as a provider author would write one: it answers each of the four
 * operators ({@link GenerationTask}: random, fill-in, rewrite, cross) with words of its own phrase
 * book. It shows the shape (a light provider in {@code
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

  // docs/guide/providers.md ("Writing a TextGenerator") shows the region below; DocSnippetsTest
  // keeps the two equal.
  // @start region="generator"
  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    // One result per request, in request order. A model behind a network would send the requests
    // (r.messages(): the rendered chat prompt) and complete the future when all have answered.
    List<GenerationResult> out = new ArrayList<>(requests.size());
    for (GenerationRequest r : requests) {
      out.add(respond(r.task(), r.params()));
    }
    return CompletableFuture.completedFuture(out);
  }

  /** What each operator asks for; a model that cannot follow the prompt reads the task instead. */
  private static GenerationResult respond(GenerationTask task, GenerationParams params) {
    // The same request with the same seed gives the same text (the contract's determinism).
    SplittableRandom rng = new SplittableRandom(params.seed().orElse(task.hashCode()));
    String text;
    if (task instanceof GenerationTask.Random random) {
      // A fresh sample, of the label (null: any) and about the length asked (0: no preference).
      text = phrase(rng, random.targetWords() > 0 ? random.targetWords() : 12);
    } else if (task instanceof GenerationTask.FillIn fill) {
      // Aug-PE's variation: each word of the parent was masked with this probability; fill it in.
      StringBuilder b = new StringBuilder();
      for (String w : fill.parent().split("\\s+")) {
        b.append(rng.nextDouble() < fill.maskProbability() ? WORDS[rng.nextInt(WORDS.length)] : w).append(' ');
      }
      text = b.toString().strip();
    } else if (task instanceof GenerationTask.Rewrite rewrite) {
      // DPGA's rewrite: the parent said another way (here: its words in another order).
      List<String> words = new ArrayList<>(List.of(rewrite.parent().split("\\s+")));
      Collections.shuffle(words, new Random(rng.nextLong()));
      text = String.join(" ", words);
    } else {
      // DPGA's cross: one text from two parents (here: the first half of each).
      GenerationTask.Cross cross = (GenerationTask.Cross) task;
      text = half(cross.first()) + " " + half(cross.second());
    }
    // Respect the token limit, and say when it cut the text.
    String[] tokens = text.split(" ");
    boolean cut = tokens.length > params.maxTokens();
    if (cut) {
      text = String.join(" ", Arrays.copyOf(tokens, params.maxTokens()));
    }
    return new GenerationResult(
        text, cut ? GenerationResult.FinishReason.LENGTH : GenerationResult.FinishReason.STOP,
        0, Math.min(tokens.length, params.maxTokens()));
  }
  // @end region="generator"

  private static String phrase(SplittableRandom rng, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      b.append(WORDS[rng.nextInt(WORDS.length)]).append(' ');
    }
    return b.toString().strip();
  }

  private static String half(String text) {
    String[] w = text.split("\\s+");
    return String.join(" ", Arrays.copyOf(w, Math.max(1, w.length / 2)));
  }
}
