package dev.secpe.llm.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits text into word-level tokens for the n-gram generator and joins them back. Case is kept.
 * E-mail addresses, URLs, numbers (with decimal points, separators, dates, phone-number dashes,
 * percent signs) and words with inner apostrophes or hyphens stay single tokens; every other
 * visible non-space character is punctuation (control and format characters are dropped) (runs of the same mark, such as "..." or "!!", are one token).
 */
final class WordTokenizer {

  private static final Pattern TOKEN =
      Pattern.compile(
          "[A-Za-z0-9._%+\\-]+@[A-Za-z0-9\\-]+(?:\\.[A-Za-z0-9\\-]+)*\\.[A-Za-z]{2,}" // e-mail
              + "|(?:https?://|www\\.)[^\\s<>\"')\\]]*[^\\s<>\"')\\].,;:!?]" // URL
              + "|[+]?\\d+(?:[.,:/\\-]\\d+)*%?" // number, date, time, phone piece
              + "|[\\p{L}\\p{M}][\\p{L}\\p{M}\\p{N}]*(?:['\u2019\\-][\\p{L}\\p{M}\\p{N}]+)*" // word
              + "|([^\\s\\p{Z}\\p{C}\\p{L}\\p{N}])\\1*"); // punctuation run (no space/control)

  private WordTokenizer() {}

  /** The tokens of {@code text}, in order. */
  static List<String> tokenize(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(text);
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  /** Whether a token counts as a word (holds a letter or a digit). */
  static boolean isWord(String token) {
    for (int i = 0; i < token.length(); i++) {
      if (Character.isLetterOrDigit(token.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /** Whether a token ends a sentence. */
  static boolean endsSentence(String token) {
    char c = token.charAt(0);
    return c == '.' || c == '!' || c == '?';
  }

  /** Whether a token is a phrase boundary inside a sentence. */
  static boolean endsPhrase(String token) {
    char c = token.charAt(0);
    return c == ',' || c == ';' || c == ':';
  }

  /**
   * Joins tokens with single spaces, except around punctuation that attaches to a neighbour;
   * {@code tokenize(detokenize(tokens))} gives the tokens back.
   */
  static String detokenize(List<String> tokens) {
    StringBuilder sb = new StringBuilder();
    boolean attachNext = true;
    boolean insideDoubleQuote = false;
    for (String t : tokens) {
      boolean attachToPrevious = false;
      boolean attachFollowing = false;
      if (t.length() >= 1 && !isWord(t)) {
        char c = t.charAt(0);
        switch (c) {
          case '.', ',', ';', ':', '!', '?', '%', ')', ']', '}' -> attachToPrevious = true;
          case '(', '[', '{', '$', '#' -> attachFollowing = true;
          case '"' -> {
            if (insideDoubleQuote) {
              attachToPrevious = true;
            } else {
              attachFollowing = true;
            }
            insideDoubleQuote = !insideDoubleQuote;
          }
          case '\'' -> attachToPrevious = true;
          default -> {}
        }
      }
      // Two runs of the same mark written together would read back as one token (", ," -> ",,"):
      // keep a space between them so detokenize and tokenize round-trip.
      boolean sameMarkAhead =
          sb.length() > 0 && !isWord(t) && sb.charAt(sb.length() - 1) == t.charAt(0);
      if (sb.length() > 0 && ((!attachNext && !attachToPrevious) || sameMarkAhead)) {
        sb.append(' ');
      }
      sb.append(t);
      attachNext = attachFollowing;
    }
    return sb.toString();
  }

  /** Number of word tokens in {@code tokens}. */
  static int countWords(List<String> tokens) {
    int n = 0;
    for (String t : tokens) {
      if (isWord(t)) {
        n++;
      }
    }
    return n;
  }
}
