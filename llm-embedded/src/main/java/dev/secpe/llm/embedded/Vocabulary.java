package dev.secpe.llm.embedded;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Word ids of the n-gram generator. Ids 0, 1 and 2 are the unknown word, the start padding and the
 * end of a document; words follow by decreasing training frequency (ties by text). At most {@link
 * #MAX_SIZE} ids, so that four ids pack into one non-negative {@code long}.
 */
final class Vocabulary {
  static final int BITS = 15;
  static final int MAX_SIZE = 1 << BITS; // ids 0..32767
  static final int UNK = 0;
  static final int BOS = 1;
  static final int EOS = 2;

  private final String[] words;
  private final Map<String, Integer> ids;

  Vocabulary(String[] words) {
    this.words = words.clone();
    this.ids = new HashMap<>(words.length * 2);
    for (int i = 0; i < words.length; i++) {
      ids.put(words[i], i);
    }
  }

  /** Builds the vocabulary of tokenised documents. */
  static Vocabulary build(List<List<String>> documents, int minCount, int maxSize) {
    Map<String, int[]> freq = new HashMap<>();
    for (List<String> doc : documents) {
      for (String t : doc) {
        freq.computeIfAbsent(t, k -> new int[1])[0]++;
      }
    }
    List<Map.Entry<String, int[]>> entries = new ArrayList<>(freq.entrySet());
    entries.removeIf(e -> e.getValue()[0] < minCount);
    entries.sort(
        (a, b) -> {
          int c = Integer.compare(b.getValue()[0], a.getValue()[0]);
          return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
    int n = Math.min(entries.size(), maxSize - 3);
    String[] words = new String[n + 3];
    words[UNK] = "<unk>";
    words[BOS] = "<s>";
    words[EOS] = "</s>";
    for (int i = 0; i < n; i++) {
      words[i + 3] = entries.get(i).getKey();
    }
    return new Vocabulary(words);
  }

  int size() {
    return words.length;
  }

  int id(String word) {
    Integer id = ids.get(word);
    return id == null || id < 3 ? UNK : id;
  }

  String word(int id) {
    return words[id];
  }

  int[] ids(List<String> tokens) {
    int[] out = new int[tokens.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = id(tokens.get(i));
    }
    return out;
  }

  String[] words() {
    return Arrays.copyOf(words, words.length);
  }
}
