package dev.secpe.llm.testkit;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ConcurrencyLimiter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A deterministic generator for tests: the text of a request is a pure function of its {@link
 * GenerationTask} and seed (a request without a seed uses seed 0), built from a small fixed
 * vocabulary — a random task yields its label, keywords and filler words; a fill-in keeps the
 * parent's words and replaces each with probability {@code maskProbability}; a rewrite shuffles
 * the parent; a cross interleaves both parents. {@code maxTokens} (one word = one token) and stop
 * sequences are honoured. Each request is one call for the {@link FaultPlan}; requests run through
 * a {@link ConcurrencyLimiter}, so the fake also exercises bounded concurrency and cancellation.
 * Thread-safe.
 */
public final class FakeTextGenerator extends Fake implements TextGenerator {

  private static final List<String> VOCABULARY = List.of(
      "the", "service", "was", "quick", "and", "friendly", "paper", "method", "results", "clear",
      "study", "patients", "data", "model", "team", "meeting", "schedule", "thanks", "price",
      "quality", "would", "recommend", "again", "slow", "noisy", "novel", "baseline", "improves",
      "shows", "report", "update", "project", "weekend", "menu", "staff", "room", "clean", "late",
      "delivery", "order", "analysis", "sample", "effect", "trial", "review", "strong", "weak",
      "overall", "because", "however");

  private final ConcurrencyLimiter limiter;

  private FakeTextGenerator(Builder b) {
    super(b);
    this.limiter = new ConcurrencyLimiter(b.concurrency);
  }

  /** A builder: name "fake", LOCAL, concurrency 8, no faults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The limiter bounding concurrent requests (to observe {@code inFlight()} in tests). */
  public ConcurrencyLimiter limiter() {
    return limiter;
  }

  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    long latency = faults.plan().latency().toNanos();
    return limiter.mapAsync(
        requests,
        req -> {
          ProviderException failure = faults.next(name);
          if (latency == 0) {
            return failure != null
                ? CompletableFuture.failedFuture(failure)
                : CompletableFuture.completedFuture(respond(req));
          }
          Executor later = CompletableFuture.delayedExecutor(latency, TimeUnit.NANOSECONDS);
          return CompletableFuture.supplyAsync(
              () -> {
                if (failure != null) {
                  throw failure;
                }
                return respond(req);
              },
              later);
        });
  }

  /** The result this fake returns for {@code request} (when no fault is injected). */
  public static GenerationResult respond(GenerationRequest request) {
    GenerationTask task = request.task();
    long seed = request.params().seed().orElse(0L);
    long h = FakeHash.fnv1a64(task.toString().getBytes(StandardCharsets.UTF_8));
    SplittableRandom rng = new SplittableRandom(FakeHash.mix(h ^ FakeHash.mix(seed)));
    List<String> words = new ArrayList<>();
    if (task instanceof GenerationTask.Random r) {
      if (r.label() != null) {
        words.addAll(split(r.label()));
      }
      for (String k : r.keywords()) {
        words.addAll(split(k));
      }
      int target = r.targetWords() > 0 ? r.targetWords() : 20;
      while (words.size() < target) {
        words.add(pick(rng));
      }
    } else if (task instanceof GenerationTask.FillIn f) {
      for (String w : split(f.parent())) {
        boolean blank = w.equals("_") || rng.nextDouble() < f.maskProbability();
        words.add(blank ? pick(rng) : w);
      }
      if (f.targetWords() > 0) {
        while (words.size() < f.targetWords()) {
          words.add(pick(rng));
        }
        while (words.size() > f.targetWords()) {
          words.remove(words.size() - 1);
        }
      }
    } else if (task instanceof GenerationTask.Rewrite w) {
      words.addAll(split(w.parent()));
      for (int i = words.size() - 1; i > 0; i--) {
        int j = rng.nextInt(i + 1);
        String t = words.get(i);
        words.set(i, words.get(j));
        words.set(j, t);
      }
    } else if (task instanceof GenerationTask.Cross c) {
      List<String> a = split(c.first());
      List<String> b = split(c.second());
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        List<String> from = rng.nextBoolean() ? a : b;
        if (i < from.size()) {
          words.add(from.get(i));
        }
      }
    }
    GenerationResult.FinishReason reason = GenerationResult.FinishReason.STOP;
    int max = request.params().maxTokens();
    if (words.size() > max) {
      words = new ArrayList<>(words.subList(0, max));
      reason = GenerationResult.FinishReason.LENGTH;
    }
    String text = String.join(" ", words);
    for (String stop : request.params().stop()) {
      int at = stop.isEmpty() ? -1 : text.indexOf(stop);
      if (at >= 0) {
        text = text.substring(0, at);
        reason = GenerationResult.FinishReason.STOP;
      }
    }
    int promptTokens = 0;
    for (ChatMessage m : request.messages()) {
      promptTokens += split(m.content()).size();
    }
    return new GenerationResult(text, reason, promptTokens, split(text).size());
  }

  private static String pick(SplittableRandom rng) {
    return VOCABULARY.get(rng.nextInt(VOCABULARY.size()));
  }

  private static List<String> split(String s) {
    String t = s.trim();
    return t.isEmpty() ? new ArrayList<>() : new ArrayList<>(Arrays.asList(t.split("\\s+")));
  }

  @Override
  public String toString() {
    return "FakeTextGenerator{" + name + ", " + locality + ", concurrency=" + limiter.maxInFlight() + "}";
  }

  /**
   * Configures a {@link FakeTextGenerator}: the name, claimed locality and faults of every fake, and
   * the concurrency.
   */
  public static final class Builder extends Fake.Settings<Builder> {
    private int concurrency = 8;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The most requests in flight at once, >= 1; default 8. */
    public Builder concurrency(int value) {
      this.concurrency = atLeast(1, value, "concurrency");
      return this;
    }

    /** A new fake (with its own call counter and limiter). */
    public FakeTextGenerator build() {
      return new FakeTextGenerator(this);
    }
  }
}
