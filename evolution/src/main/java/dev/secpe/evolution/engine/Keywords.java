package dev.secpe.evolution.engine;


import dev.secpe.core.Label;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.Words;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keyword candidates from PUBLIC text only: for each label group, the words with the highest
 * tf-idf, where tf counts the word in the group's public documents (all public documents when they
 * carry no matching labels) and idf is over all public documents. Stop words and tokens without a
 * letter are skipped. DPGA lets private data vote among these candidates.
 */
public final class Keywords {

  private static final Set<String> STOP =
      Set.of(
          "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
          "been", "being", "but", "by", "can", "could", "did", "do", "does", "for", "from", "had",
          "has", "have", "he", "her", "here", "his", "how", "i", "if", "in", "into", "is", "it",
          "its", "just", "me", "more", "my", "no", "not", "now", "of", "on", "one", "only", "or",
          "other", "our", "out", "over", "so", "some", "such", "than", "that", "the", "their",
          "them", "then", "there", "these", "they", "this", "those", "to", "up", "us", "very",
          "was", "we", "were", "what", "when", "which", "who", "will", "with", "would", "you",
          "your", "re", "s", "t", "don", "get", "got", "like", "use", "used");

  private Keywords() {}

  /** Whether a lower-cased token may be a keyword: longer than 2, not a stop word, has a letter. */
  public static boolean isCandidate(String w) {
    return w.length() > 2 && !STOP.contains(w) && w.chars().anyMatch(Character::isLetter);
  }

  /** Up to {@code n} candidates per label group, best first. */
  public static List<List<String>> candidates(RunContext ctx, int n) {
    List<PublicRecord> docs = ctx.publicData().records();
    Map<String, Integer> df = new HashMap<>();
    List<List<String>> tokens = new ArrayList<>(docs.size());
    for (PublicRecord d : docs) {
      List<String> words = new ArrayList<>();
      for (String w : Words.of(d.text())) {
        if (isCandidate(w)) {
          words.add(w);
        }
      }
      tokens.add(words);
      for (String w : new HashSet<>(words)) {
        df.merge(w, 1, Integer::sum);
      }
    }
    boolean byLabel =
        !ctx.labels().isEmpty()
            && docs.stream().anyMatch(d -> d.label().isPresent() && ctx.labels().contains(d.label().get()));
    List<List<String>> out = new ArrayList<>();
    for (int g = 0; g < ctx.groups(); g++) {
      Optional<Label> label = ctx.label(g);
      Map<String, Integer> tf = new HashMap<>();
      for (int i = 0; i < docs.size(); i++) {
        if (byLabel && !docs.get(i).label().equals(label)) {
          continue;
        }
        for (String w : tokens.get(i)) {
          tf.merge(w, 1, Integer::sum);
        }
      }
      int total = docs.size();
      List<String> best =
          tf.entrySet().stream()
              .sorted(
                  Comparator.<Map.Entry<String, Integer>>comparingDouble(
                          e -> -e.getValue() * Math.log1p((double) total / df.get(e.getKey())))
                      .thenComparing(Map.Entry::getKey))
              .limit(n)
              .map(Map.Entry::getKey)
              .toList();
      out.add(best);
    }
    return out;
  }
}
