package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Downstream accuracy, the utility measure of Aug-PE, SecPE (Tables 3-7) and DPGA-TextSyn:
 * train a classifier on synthetic embeddings and their labels, test it on embeddings and labels
 * of real held-out records.
 *
 * <p>The classifier is L2-regularised logistic regression (one-vs-rest for more than two
 * classes) on the raw embedding features plus an intercept feature of value 1: the model and
 * stopping rule of LIBLINEAR's solver {@code L2R_LR} (Fan et al., "LIBLINEAR: A Library for Large
 * Linear Classification", JMLR 2008), fitted here by a Newton method on dense rows (up to 0.1.0,
 * by LIBLINEAR for Java itself; the tests compare the two). Classes are ordered by their labels.
 * A test label never seen in training counts as a miss. With one training class every test record
 * is predicted as that class. The result is deterministic for given inputs and options, and
 * nothing is printed.
 */
public final class DownstreamClassifier {

  private DownstreamClassifier() {}

  /** Trains and tests with {@link ClassifierOptions#defaults()}. */
  public static DownstreamAccuracy evaluate(
      EmbeddingMatrix trainEmbeddings,
      List<Label> trainLabels,
      EmbeddingMatrix testEmbeddings,
      List<Label> testLabels) {
    return evaluate(
        trainEmbeddings, trainLabels, testEmbeddings, testLabels, ClassifierOptions.defaults());
  }

  /**
   * Trains on ({@code trainEmbeddings}, {@code trainLabels}) and reports accuracy on ({@code
   * testEmbeddings}, {@code testLabels}).
   *
   * @throws IllegalArgumentException if a set is empty, labels and rows differ in number, or the
   *     dimensions differ
   */
  public static DownstreamAccuracy evaluate(
      EmbeddingMatrix trainEmbeddings,
      List<Label> trainLabels,
      EmbeddingMatrix testEmbeddings,
      List<Label> testLabels,
      ClassifierOptions options) {
    Checks.rowsAtLeast(trainEmbeddings, "trainEmbeddings", 1);
    Checks.rowsAtLeast(testEmbeddings, "testEmbeddings", 1);
    Checks.sameDimension(trainEmbeddings, "trainEmbeddings", testEmbeddings, "testEmbeddings");
    List<Label> trainY = checkLabels(trainLabels, "trainLabels", trainEmbeddings.rows());
    List<Label> testY = checkLabels(testLabels, "testLabels", testEmbeddings.rows());
    Objects.requireNonNull(options, "options");

    TreeSet<Label> classes = new TreeSet<>(trainY);
    List<Label> index = new ArrayList<>(classes);
    Map<Label, Integer> id = new TreeMap<>();
    for (int i = 0; i < index.size(); i++) {
      id.put(index.get(i), i);
    }
    int[] predictions = new int[testY.size()];
    if (index.size() == 1) {
      Arrays.fill(predictions, 0);
    } else {
      int[] y = new int[trainY.size()];
      for (int i = 0; i < y.length; i++) {
        y[i] = id.get(trainY.get(i));
      }
      LogisticRegression model =
          LogisticRegression.fit(trainEmbeddings, y, index.size(), options.c(), options.tolerance());
      float[] row = new float[testEmbeddings.dimension()];
      for (int i = 0; i < predictions.length; i++) {
        testEmbeddings.copyRow(i, row, 0);
        predictions[i] = model.predict(row);
      }
    }
    return tally(index, trainY, testY, predictions);
  }

  private static DownstreamAccuracy tally(
      List<Label> index, List<Label> trainY, List<Label> testY, int[] predictions) {
    TreeSet<Label> all = new TreeSet<>(index);
    all.addAll(testY);
    Map<Label, int[]> counts = new TreeMap<>(); // train, test, correct, predicted
    for (Label l : all) {
      counts.put(l, new int[4]);
    }
    for (Label l : trainY) {
      counts.get(l)[0]++;
    }
    int correct = 0;
    for (int i = 0; i < testY.size(); i++) {
      Label truth = testY.get(i);
      Label predicted = index.get(predictions[i]);
      counts.get(truth)[1]++;
      counts.get(predicted)[3]++;
      if (truth.equals(predicted)) {
        counts.get(truth)[2]++;
        correct++;
      }
    }
    List<ClassCounts> perClass = new ArrayList<>();
    counts.forEach((l, c) -> perClass.add(new ClassCounts(l, c[0], c[1], c[2], c[3])));
    return new DownstreamAccuracy(
        (double) correct / testY.size(), correct, testY.size(), perClass);
  }

  private static List<Label> checkLabels(List<Label> labels, String name, int rows) {
    Objects.requireNonNull(labels, name);
    if (labels.size() != rows) {
      throw new IllegalArgumentException(
          name + " must have one label per row, got " + name + ".size=" + labels.size() + " rows="
              + rows);
    }
    for (int i = 0; i < labels.size(); i++) {
      Objects.requireNonNull(labels.get(i), name + "[" + i + "]");
    }
    return List.copyOf(labels);
  }
}
