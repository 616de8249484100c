package dev.secpe.llm;

import java.util.List;
import java.util.Objects;

/**
 * The evolution operator a request stands for, in structured form. Remote LLMs read the rendered
 * prompt; in-process generators (which cannot follow instructions) read this instead. Every text
 * here is public or synthetic: private records never reach a generator.
 */
public sealed interface GenerationTask {

  /**
   * A fresh sample (PE's RANDOM_API, DPGA's generate).
   *
   * @param label a class label to condition on, or null
   * @param keywords keywords to condition on (CTCL, DPGA), possibly empty
   * @param targetWords desired length in words, or 0 for no preference
   */
  record Random(String label, List<String> keywords, int targetWords) implements GenerationTask {
    /** Copies the keyword list. */
    public Random {
      keywords = List.copyOf(keywords);
    }
  }

  /**
   * Fill in the blanks of a masked parent (Aug-PE; DPGA's fill mutation).
   *
   * @param parent the synthetic parent text
   * @param maskProbability the probability each token was masked
   * @param targetWords desired length in words (parent length plus noise), or 0
   * @param label the parent's label, or null
   */
  record FillIn(String parent, double maskProbability, int targetWords, String label)
      implements GenerationTask {
    /** Validates eagerly. */
    public FillIn {
      Objects.requireNonNull(parent, "parent");
      if (!(maskProbability >= 0 && maskProbability <= 1)) {
        throw new IllegalArgumentException(
            "maskProbability must be in [0, 1], got maskProbability=" + maskProbability);
      }
    }
  }

  /**
   * Paraphrase a synthetic parent (DPGA's rewrite mutation).
   *
   * @param parent the synthetic parent text
   * @param label the parent's label, or null
   */
  record Rewrite(String parent, String label) implements GenerationTask {
    /** Validates eagerly. */
    public Rewrite {
      Objects.requireNonNull(parent, "parent");
    }
  }

  /**
   * Fuse two synthetic parents (DPGA's cross).
   *
   * @param first one parent
   * @param second the other parent
   * @param label the label of the offspring, or null
   */
  record Cross(String first, String second, String label) implements GenerationTask {
    /** Validates eagerly. */
    public Cross {
      Objects.requireNonNull(first, "first");
      Objects.requireNonNull(second, "second");
    }
  }
}
