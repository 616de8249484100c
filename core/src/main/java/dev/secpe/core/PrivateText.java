package dev.secpe.core;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The text of a private record. It cannot be read as a plain {@code String} by code outside this
 * package: {@link #toString()} prints {@code PrivateText[redacted, N chars]} (so string
 * concatenation, {@code String.valueOf}, loggers and exception messages never see the content),
 * and the content leaves only through the gates of {@link PrivateTexts} (embedding and secret
 * detection, guarded by a {@link PrivacyGuard}) and the aggregate, local views below.
 *
 * <p>{@code equals} and {@code hashCode} compare content. Instances are immutable, thread-safe
 * and deliberately not {@link java.io.Serializable}.
 */
public final class PrivateText {

  private final String content;

  private PrivateText(String content) {
    this.content = content;
  }

  /**
   * Wraps private text.
   *
   * @throws IllegalArgumentException if {@code text} is blank (the message does not echo it)
   */
  public static PrivateText of(String text) {
    Objects.requireNonNull(text, "private text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("private text must not be blank");
    }
    return new PrivateText(text);
  }

  /** The content, for the gates in this package only. */
  String reveal() {
    return content;
  }

  /** The number of UTF-16 chars (also shown by {@link #toString()}). */
  public int length() {
    return content.length();
  }

  /**
   * The number of words as {@link Words} counts them; for length statistics. Like {@link
   * #length()}, a private value: release it only through an accounted mechanism.
   */
  public int wordCount() {
    return Words.count(content);
  }

  /**
   * Which of the given terms occur in this text as whole words (case-insensitive, {@link Words}
   * tokens); returns their indices in {@code terms}, ascending. A term of several words matches a
   * consecutive run of words. This is the gate for keyword voting: only membership of
   * caller-chosen (public) terms leaves the text. The result is still private data (enough terms
   * reconstruct a bag of words): feed it only into a mechanism charged to the privacy ledger.
   */
  public int[] containedTerms(List<String> terms) {
    Objects.requireNonNull(terms, "terms");
    List<String> words = Words.of(content);
    Set<String> single = new HashSet<>(words);
    Map<String, Boolean> phraseCache = new HashMap<>();
    String joined = null;
    int[] hits = new int[terms.size()];
    int n = 0;
    for (int i = 0; i < terms.size(); i++) {
      List<String> termWords = Words.of(Objects.requireNonNull(terms.get(i), "term"));
      boolean found;
      if (termWords.isEmpty()) {
        found = false;
      } else if (termWords.size() == 1) {
        found = single.contains(termWords.get(0));
      } else {
        if (joined == null) {
          joined = " " + String.join(" ", words) + " ";
        }
        String needle = " " + String.join(" ", termWords) + " ";
        String j = joined;
        found = phraseCache.computeIfAbsent(needle, k -> j.contains(k));
      }
      if (found) {
        hits[n++] = i;
      }
    }
    return Arrays.copyOf(hits, n);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PrivateText other && content.equals(other.content);
  }

  @Override
  public int hashCode() {
    return content.hashCode();
  }

  /** {@code PrivateText[redacted, N chars]}; never the content. */
  @Override
  public String toString() {
    return "PrivateText[redacted, " + content.length() + " chars]";
  }
}
