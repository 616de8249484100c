package dev.secpe.evolution.engine;

import dev.secpe.core.PublicCorpus;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.prompt.FillInMasking;
import java.util.Optional;

/**
 * The lengths, in words, a generator is asked for: the range of the public records' lengths. A
 * target outside it (a DP length range that noise stretched at small N, a fill-in target that
 * drifted over rounds) is clipped to it, so a provider is never asked for a text longer than any
 * public record, nor shorter than the shortest. Public data only: no privacy effect.
 *
 * @param min the shortest public record's word count (at least 1)
 * @param max the longest public record's word count
 */
public record LengthRange(int min, int max) {

  /** Validates the bounds. */
  public LengthRange {
    if (min < 1 || max < min) {
      throw new IllegalArgumentException("need 1 <= min <= max, got min=" + min + " max=" + max);
    }
  }

  /** The range of {@code publicData}'s word counts; empty when it holds no text. */
  public static Optional<LengthRange> of(PublicCorpus publicData) {
    int lo = Integer.MAX_VALUE;
    int hi = 0;
    for (String t : publicData.texts()) {
      int w = FillInMasking.wordCount(t);
      if (w > 0) {
        lo = Math.min(lo, w);
        hi = Math.max(hi, w);
      }
    }
    return hi == 0 ? Optional.empty() : Optional.of(new LengthRange(lo, hi));
  }

  /** {@code words} clipped to the range. */
  public int clip(int words) {
    return Math.max(min, Math.min(max, words));
  }

  /** {@code task} with its target length, if it states one, clipped to the range. */
  public GenerationTask clip(GenerationTask task) {
    if (task instanceof GenerationTask.Random r && r.targetWords() > 0 && clip(r.targetWords()) != r.targetWords()) {
      return new GenerationTask.Random(r.label(), r.keywords(), clip(r.targetWords()));
    }
    if (task instanceof GenerationTask.FillIn f && f.targetWords() > 0 && clip(f.targetWords()) != f.targetWords()) {
      return new GenerationTask.FillIn(f.parent(), f.maskProbability(), clip(f.targetWords()), f.label());
    }
    return task;
  }
}
