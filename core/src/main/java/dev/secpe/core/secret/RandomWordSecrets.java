package dev.secpe.core.secret;

import dev.secpe.core.PublicCorpus;
import dev.secpe.core.Words;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The random-word secrets of SecPE §4.2: "sort all vocabulary items by frequency and designate
 * words near the 20% quantile as secrets; a sample is secret-containing if it includes any
 * designated word".
 *
 * <p>The frequencies are counted on PUBLIC text only, so choosing the secrets spends no privacy
 * budget. Precisely: words are {@link Words} tokens (lower-cased letter runs) of at least {@code
 * minLength} letters, taken from the normalised view of the text that every built-in detector
 * matches on (NFKC, full case folding, default-ignorable code points removed: "Straße", "STRASSE"
 * and "stra" and "sse" joined by a soft hyphen are the word "strasse"), in the public texts and in
 * the scanned ones alike; the vocabulary is sorted by total occurrence count, most frequent first, ties
 * broken alphabetically; the quantile {@code q} sits at rank {@code c = round(q * (V - 1))} (so a
 * fraction q of the vocabulary is at least as frequent); the {@code count} secrets are the
 * consecutive ranks {@code [s, s + count)} with {@code s = c - floor(count / 2)}, shifted to stay
 * within {@code [0, V)}. Each designated word is its own secret (kind "word").
 *
 * <p>The paper leaves the sort direction, tokenisation and window unstated; these are our
 * choices.
 */
public final class RandomWordSecrets extends InProcessDetector {

  private static final long serialVersionUID = 1L;

  private final List<String> words;
  private final Set<String> wordSet;

  private RandomWordSecrets(List<String> words) {
    super("random-words");
    this.words = List.copyOf(words);
    this.wordSet = Set.copyOf(words);
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The designated secret words, most frequent first. */
  public List<String> words() {
    return words;
  }

  @Override
  void find(String view, List<SecretMatch> out) {
    Words.forEachSpan(view, (w, start, end) -> {
      if (wordSet.contains(w)) {
        out.add(new SecretMatch("word", w, start, end));
      }
    });
  }

  /**
   * The version of how words are counted and matched ({@link Words}' tokens of the view): raise it
   * with any change to them.
   */
  static final int RULES_VERSION = 2;

  /** The designated words (sorted), {@link #RULES_VERSION} and the view's version; never printed. */
  @Override
  public String configuration() {
    List<String> parts = new ArrayList<>();
    parts.add("rules=" + RULES_VERSION);
    parts.add(viewConfiguration());
    words.stream().sorted().forEach(parts::add);
    return SecretDetectors.configurationOf("random-words", parts);
  }

  @Override
  public String toString() {
    return "RandomWordSecrets[" + words.size() + " words]";
  }

  /** Builder; values are validated as they are set. */
  public static final class Builder {
    private List<String> publicTexts;
    private double quantile = 0.2;
    private int count = 20;
    private int minLength = 2;

    Builder() {}

    /** The public texts whose word frequencies decide the secrets. Required. */
    public Builder publicTexts(List<String> texts) {
      this.publicTexts = List.copyOf(Objects.requireNonNull(texts, "texts"));
      return this;
    }

    /** The public corpus whose word frequencies decide the secrets. */
    public Builder publicCorpus(PublicCorpus corpus) {
      return publicTexts(Objects.requireNonNull(corpus, "corpus").texts());
    }

    /** The rank quantile q in [0, 1]; 0.2 by default (the paper's). */
    public Builder quantile(double q) {
      if (!(q >= 0 && q <= 1)) {
        throw new IllegalArgumentException("quantile must be in [0, 1], got quantile=" + q);
      }
      this.quantile = q;
      return this;
    }

    /** How many words to designate; 20 by default. */
    public Builder count(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("count must be >= 1, got count=" + count);
      }
      this.count = count;
      return this;
    }

    /** The shortest word considered, in letters; 2 by default. */
    public Builder minLength(int minLength) {
      if (minLength < 1) {
        throw new IllegalArgumentException("minLength must be >= 1, got minLength=" + minLength);
      }
      this.minLength = minLength;
      return this;
    }

    /**
     * Counts the public words and designates the secrets.
     *
     * @throws IllegalStateException if no public texts were given or the vocabulary is smaller
     *     than {@code count}
     */
    public RandomWordSecrets build() {
      if (publicTexts == null) {
        throw new IllegalStateException("random-word secrets need publicTexts(...) or publicCorpus(...)");
      }
      Map<String, Integer> freq = new HashMap<>();
      for (String t : publicTexts) {
        Words.forEach(
            TextView.normalise(t),
            w -> {
              if (w.codePointCount(0, w.length()) >= minLength) {
                freq.merge(w, 1, Integer::sum);
              }
            });
      }
      if (freq.size() < count) {
        throw new IllegalStateException(
            "public vocabulary has "
                + freq.size()
                + " words of >= "
                + minLength
                + " letters, fewer than count="
                + count);
      }
      List<Map.Entry<String, Integer>> vocab = new ArrayList<>(freq.entrySet());
      vocab.sort(
          Comparator.<Map.Entry<String, Integer>>comparingInt(Map.Entry::getValue)
              .reversed()
              .thenComparing(Map.Entry::getKey));
      int v = vocab.size();
      int centre = (int) Math.round(quantile * (v - 1));
      int start = Math.max(0, Math.min(centre - count / 2, v - count));
      List<String> chosen = new ArrayList<>(count);
      for (int k = start; k < start + count; k++) {
        chosen.add(vocab.get(k).getKey());
      }
      return new RandomWordSecrets(Collections.unmodifiableList(chosen));
    }
  }
}
