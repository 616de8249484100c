package dev.secpe.llm.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A small synthetic public corpus written for these tests: restaurant reviews ("food") and
 * IT-support messages ("tech") with disjoint topical vocabulary, built from templates with a
 * fixed seed.
 */
final class TestCorpus {
  static final List<String> FOOD_WORDS =
      List.of("pasta", "pizza", "waiter", "dessert", "soup", "chef", "menu", "restaurant",
          "delicious", "salad", "sauce", "dinner", "table", "wine", "bread", "flavour");
  static final List<String> TECH_WORDS =
      List.of("password", "laptop", "server", "printer", "login", "account", "network", "email",
          "software", "update", "screen", "keyboard", "router", "reboot", "ticket", "install");

  private static final String[] FOOD =
      {
        "The %s was %s and the %s was %s.",
        "We ordered the %s and the %s; both were %s.",
        "Our %s recommended the %s, which tasted %s.",
        "I would come back for the %s and the %s.",
        "The %s at this %s is %s, but the %s was %s.",
        "Dinner started with %s and ended with a %s %s.",
      };
  private static final String[] TECH =
      {
        "My %s stopped working after the %s, please %s it.",
        "I cannot %s to my %s since the %s yesterday.",
        "The %s shows an error when I open the %s.",
        "Please reset the %s for my %s, the %s is locked.",
        "After the %s the %s is slow and the %s keeps failing.",
        "Could someone check the %s? The %s does not respond.",
      };
  private static final List<String> FOOD_ADJ = List.of("delicious", "cold", "fresh", "salty", "amazing", "bland");
  private static final List<String> TECH_VERB = List.of("fix", "reboot", "update", "install", "check", "login");

  private TestCorpus() {}

  /** {@code perLabel} documents of each label, interleaved; labels in {@link #labels}. */
  static List<String> texts(int perLabel, long seed) {
    return build(perLabel, seed, true);
  }

  static List<String> labels(int perLabel, long seed) {
    return build(perLabel, seed, false);
  }

  private static List<String> build(int perLabel, long seed, boolean text) {
    Random rnd = new Random(seed);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < perLabel; i++) {
      out.add(text ? doc(rnd, FOOD, FOOD_WORDS, FOOD_ADJ) : "food");
      out.add(text ? doc(rnd, TECH, TECH_WORDS, TECH_VERB) : "tech");
    }
    return out;
  }

  private static String doc(Random rnd, String[] templates, List<String> nouns, List<String> other) {
    StringBuilder sb = new StringBuilder();
    int sentences = 2 + rnd.nextInt(3);
    for (int s = 0; s < sentences; s++) {
      String t = templates[rnd.nextInt(templates.length)];
      int slots = t.split("%s", -1).length - 1;
      Object[] fill = new Object[slots];
      for (int k = 0; k < slots; k++) {
        List<String> pool = rnd.nextInt(3) == 0 ? other : nouns;
        fill[k] = pool.get(rnd.nextInt(pool.size()));
      }
      if (s > 0) {
        sb.append(' ');
      }
      sb.append(String.format(t, fill));
    }
    return sb.toString();
  }
}
