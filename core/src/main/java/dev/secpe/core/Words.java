package dev.secpe.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The project's one word tokenizer: a word is a maximal run of Unicode letters, lower-cased with
 * {@link Locale#ROOT}. Digits, punctuation and whitespace separate words ("e-mail" is "e", "mail";
 * "don't" is "don", "t"). Used for random-word secrets, term matching and word counts, so that
 * public frequencies and private matches agree on what a word is.
 */
public final class Words {

  private Words() {}

  /** The words of {@code text} in order, lower-cased. */
  public static List<String> of(String text) {
    List<String> out = new ArrayList<>();
    forEach(text, out::add);
    return out;
  }

  /** The number of words in {@code text}. */
  public static int count(String text) {
    int[] n = {0};
    forEach(text, w -> n[0]++);
    return n[0];
  }

  /** Calls {@code sink} with each word of {@code text}, lower-cased. */
  public static void forEach(String text, Consumer<String> sink) {
    forEachSpan(text, (word, start, end) -> sink.accept(word));
  }

  /**
   * Calls {@code sink} with each word of {@code text}, lower-cased, and where it stands: {@code
   * text.substring(start, end)} is the word as written.
   */
  public static void forEachSpan(String text, Span sink) {
    int n = text.length();
    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      if (!Character.isLetter(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      while (i < n) {
        int c = text.codePointAt(i);
        if (!Character.isLetter(c)) {
          break;
        }
        i += Character.charCount(c);
      }
      sink.accept(text.substring(start, i).toLowerCase(Locale.ROOT), start, i);
    }
  }

  /** Receives a word and its place, for {@link #forEachSpan}. */
  @FunctionalInterface
  public interface Span {
    /** One word, lower-cased, found at {@code text.substring(start, end)}. */
    void accept(String word, int start, int end);
  }
}
