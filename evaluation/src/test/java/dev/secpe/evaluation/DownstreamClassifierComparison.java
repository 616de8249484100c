package dev.secpe.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import de.bwaldvogel.liblinear.Model;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;

/**
 * Measurement harness (not a test): the downstream classifier's logistic regression against
 * LIBLINEAR 2.44 ({@link LiblinearReference}, the classifier up to 0.1.0) on the bundled labelled
 * corpora, embedded with MiniLM ({@code all-minilm-l6-v2}, what {@code secpe evaluate} and the demo
 * use), default options (C = 1, tolerance 0.01). For each task and training size it prints both
 * accuracies on the test rows, the binomial standard error of an accuracy there, the test rows on
 * which the two predict different classes, and the time of each fit. Training rows are the first
 * of a shuffle seeded 2026. Embeddings are cached under {@code evaluation/target/embeddings}.
 *
 * <pre>
 * ./mvnw -q -B -ntp -o -pl evaluation -am test-compile
 * ./mvnw -q -B -ntp -o -pl evaluation dependency:build-classpath -Dmdep.outputFile=cp.txt -DincludeScope=test
 * java -cp "evaluation/target/classes:evaluation/target/test-classes:$(cat evaluation/cp.txt)" \
 *     dev.secpe.evaluation.DownstreamClassifierComparison
 * </pre>
 * (from the repository root: it reads {@code data/*.jsonl.gz}).
 */
public final class DownstreamClassifierComparison {

  private DownstreamClassifierComparison() {}

  /** Texts and their class indices (classes in label order). */
  private record Labelled(List<String> texts, int[] y, List<String> classes) {}

  public static void main(String[] args) throws IOException {
    Path cache = Path.of("evaluation/target/embeddings");
    Files.createDirectories(cache);
    System.out.println("task | train | test | classes | LIBLINEAR | ours | se | rows that differ | fit ms (LIBLINEAR / ours)");
    try (TextEmbedder embedder = Providers.installed().createEmbedder("all-minilm-l6-v2", ProviderConfig.empty())) {
      Labelled spam = read("data/spamassassin-sample.jsonl.gz", "label", null);
      Labelled spamPrivate = subset(spam, read("data/spamassassin-sample.jsonl.gz", "split", null), "private");
      Labelled spamPublic = subset(spam, read("data/spamassassin-sample.jsonl.gz", "split", null), "public");
      EmbeddingMatrix spamPrivateX = embed(embedder, cache, "spam-private", spamPrivate.texts());
      EmbeddingMatrix spamPublicX = embed(embedder, cache, "spam-public", spamPublic.texts());
      for (int n : new int[] {150, 300, 900}) {
        compare("spamassassin spam/ham, private -> public", spamPrivate, spamPrivateX, n, spamPublic, spamPublicX);
      }

      Labelled sotuPublic = read("data/sotu-public.jsonl.gz", "label", null);
      Labelled sotuPrivate = read("data/sotu-private.jsonl.gz", "label", sotuPublic.classes());
      EmbeddingMatrix sotuPublicX = embed(embedder, cache, "sotu-public", sotuPublic.texts());
      EmbeddingMatrix sotuPrivateX = embed(embedder, cache, "sotu-private", sotuPrivate.texts());
      for (int n : new int[] {150, 300, 1200}) {
        compare("sotu party, 1853-1932 -> 1981-2020", sotuPublic, sotuPublicX, n, sotuPrivate, sotuPrivateX);
      }

      for (String corpus : new String[] {"speeches", "cookies", "fortunes"}) {
        Labelled all = read("data/" + corpus + "-private.jsonl.gz", "label", null);
        EmbeddingMatrix x = embed(embedder, cache, corpus + "-private", all.texts());
        int half = all.texts().size() / 2;
        Split s = split(all, x, half);
        for (int n : new int[] {150, 300, half}) {
          compare(corpus + " " + String.join("/", all.classes()), s.train(), s.trainX(), n, s.test(), s.testX());
        }
      }
      Labelled topics = read("data/fortunes-public.jsonl.gz", "category", null);
      EmbeddingMatrix topicsX = embed(embedder, cache, "fortunes-public", topics.texts());
      Split s = split(topics, topicsX, 600);
      for (int n : new int[] {300, 600}) {
        compare("fortunes' " + topics.classes().size() + " public files", s.train(), s.trainX(), n, s.test(), s.testX());
      }
    }
  }

  private record Split(Labelled train, EmbeddingMatrix trainX, Labelled test, EmbeddingMatrix testX) {}

  /** A seeded shuffle's first {@code first} rows for training, the rest for testing. */
  private static Split split(Labelled all, EmbeddingMatrix x, int first) {
    int[] order = shuffled(all.texts().size());
    int[] a = java.util.Arrays.copyOf(order, first);
    int[] b = java.util.Arrays.copyOfRange(order, first, order.length);
    return new Split(pick(all, a), rows(x, a), pick(all, b), rows(x, b));
  }

  private static void compare(String task, Labelled train, EmbeddingMatrix trainX, int n, Labelled test,
      EmbeddingMatrix testX) {
    int[] order = shuffled(train.texts().size());
    int[] first = java.util.Arrays.copyOf(order, Math.min(n, order.length));
    int[] y = new int[first.length];
    TreeSet<Integer> seen = new TreeSet<>();
    for (int i = 0; i < first.length; i++) {
      y[i] = train.y()[first[i]];
      seen.add(y[i]);
    }
    // classes renumbered to those present in training, in label order, as the classifier does
    List<Integer> present = new ArrayList<>(seen);
    int[] yy = new int[y.length];
    for (int i = 0; i < y.length; i++) {
      yy[i] = present.indexOf(y[i]);
    }
    EmbeddingMatrix x = rows(trainX, first);
    long t0 = System.nanoTime();
    Model reference = LiblinearReference.fit(x, yy, 1.0, 0.01);
    long t1 = System.nanoTime();
    LogisticRegression ours = LogisticRegression.fit(x, yy, present.size(), 1.0, 0.01);
    long t2 = System.nanoTime();
    int[] theirs = LiblinearReference.predict(reference, testX);
    int correctTheirs = 0;
    int correctOurs = 0;
    int differ = 0;
    for (int i = 0; i < testX.rows(); i++) {
      int truth = test.y()[i];
      int p = present.get(ours.predict(testX.row(i)));
      int q = present.get(theirs[i]);
      correctOurs += p == truth ? 1 : 0;
      correctTheirs += q == truth ? 1 : 0;
      differ += p == q ? 0 : 1;
    }
    double accTheirs = correctTheirs / (double) testX.rows();
    double accOurs = correctOurs / (double) testX.rows();
    double se = Math.sqrt(accTheirs * (1 - accTheirs) / testX.rows());
    System.out.printf(Locale.ROOT, "%s | %d | %d | %d | %.4f | %.4f | %.4f | %d | %.0f / %.0f%n", task, first.length,
        testX.rows(), present.size(), accTheirs, accOurs, se, differ, (t1 - t0) / 1e6, (t2 - t1) / 1e6);
  }

  private static int[] shuffled(int n) {
    List<Integer> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(i);
    }
    java.util.Collections.shuffle(l, new Random(2026));
    return l.stream().mapToInt(Integer::intValue).toArray();
  }

  private static EmbeddingMatrix rows(EmbeddingMatrix m, int[] which) {
    float[][] out = new float[which.length][];
    for (int i = 0; i < which.length; i++) {
      out[i] = m.row(which[i]);
    }
    return EmbeddingMatrix.of(out);
  }

  private static Labelled pick(Labelled all, int[] which) {
    List<String> texts = new ArrayList<>();
    int[] y = new int[which.length];
    for (int i = 0; i < which.length; i++) {
      texts.add(all.texts().get(which[i]));
      y[i] = all.y()[which[i]];
    }
    return new Labelled(texts, y, all.classes());
  }

  /** The rows of {@code all} whose {@code by} value (another read of the same file) is {@code value}. */
  private static Labelled subset(Labelled all, Labelled by, String value) {
    int k = by.classes().indexOf(value);
    List<Integer> keep = new ArrayList<>();
    for (int i = 0; i < by.y().length; i++) {
      if (by.y()[i] == k) {
        keep.add(i);
      }
    }
    return pick(all, keep.stream().mapToInt(Integer::intValue).toArray());
  }

  /** Texts and the values of {@code field} as class indices, in label order (or {@code classes}'). */
  private static Labelled read(String file, String field, List<String> classes) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<String> texts = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(Path.of(file))), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        JsonNode node = json.readTree(line);
        texts.add(node.get("text").asText());
        labels.add(node.get(field).asText());
      }
    }
    List<String> order = classes != null ? classes : new ArrayList<>(new TreeSet<>(labels));
    int[] y = labels.stream().mapToInt(order::indexOf).toArray();
    return new Labelled(texts, y, order);
  }

  private static EmbeddingMatrix embed(TextEmbedder embedder, Path cache, String name, List<String> texts)
      throws IOException {
    Path file = cache.resolve(name + ".f32");
    if (Files.exists(file)) {
      try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file)))) {
        int n = in.readInt();
        int d = in.readInt();
        float[][] x = new float[n][d];
        for (float[] row : x) {
          for (int j = 0; j < d; j++) {
            row[j] = in.readFloat();
          }
        }
        if (n == texts.size()) {
          return EmbeddingMatrix.of(x);
        }
      }
    }
    float[][] x = embedder.embed(texts);
    try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(file)))) {
      out.writeInt(x.length);
      out.writeInt(x[0].length);
      for (float[] row : x) {
        for (float v : row) {
          out.writeFloat(v);
        }
      }
    }
    return EmbeddingMatrix.of(x);
  }
}
