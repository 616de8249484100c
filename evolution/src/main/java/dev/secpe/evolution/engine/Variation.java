package dev.secpe.evolution.engine;

import dev.secpe.core.Provenance;
import dev.secpe.core.SyntheticText;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.prompt.FillInMasking;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Variation and initial-sample plans shared by the methods. */
public final class Variation {

  /** Relative standard deviation of the fill-in target length around the parent's length. */
  static final double LENGTH_NOISE = 0.1;

  private Variation() {}

  /** Target length of a fresh sample when no public text tells: words. */
  static final int DEFAULT_WORDS = 100;

  /**
   * {@code perGroup[g]} fresh samples for each label group (PE's RANDOM_API). Each asks for the
   * length of a random public text (public information), or {@link #DEFAULT_WORDS} without one.
   */
  public static List<Offspring> random(RunContext ctx, int[] perGroup, SplittableRandom rng) {
    List<String> pub = ctx.publicData().texts();
    int cap = Math.max(5, ctx.settings().generation().maxTokens() * 3 / 4);
    List<Offspring> out = new ArrayList<>();
    for (int g = 0; g < perGroup.length; g++) {
      String label = ctx.label(g).map(l -> l.name()).orElse(null);
      for (int i = 0; i < perGroup[g]; i++) {
        int words =
            pub.isEmpty()
                ? DEFAULT_WORDS
                : FillInMasking.wordCount(pub.get(rng.nextInt(pub.size())));
        words = Math.max(5, Math.min(cap, words));
        out.add(
            new Offspring(
                new GenerationTask.Random(label, List.of(), words),
                List.of(),
                Provenance.INITIAL,
                ctx.label(g)));
      }
    }
    return out;
  }

  /**
   * {@code l} fill-in variations of each survivor (Aug-PE): each word masked with the configured
   * probability and the target length the parent's plus Gaussian noise.
   */
  public static List<Offspring> fillIn(
      RunContext ctx, List<SyntheticText> survivors, int l, SplittableRandom rng) {
    double p = ctx.settings().maskProbability();
    List<Offspring> out = new ArrayList<>(survivors.size() * l);
    for (SyntheticText s : survivors) {
      int words = FillInMasking.wordCount(s.text());
      for (int v = 0; v < l; v++) {
        int target = FillInMasking.targetWords(words, LENGTH_NOISE, rng);
        out.add(
            new Offspring(
                new GenerationTask.FillIn(
                    s.text(), p, target, s.label().map(x -> x.name()).orElse(null)),
                List.of(s.id()),
                Provenance.FILL,
                s.label()));
      }
    }
    return out;
  }
}
