package dev.secpe.evaluation;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Benchmark harness (not a test): the metrics' linear algebra by the library (ojAlgo) against
 * Hipparchus ({@link HipparchusReference}, the library's own up to 0.1.0) in one process, at
 * MiniLM's 384 dimensions: FID's trace of the matrix square root from two covariances (two
 * eigen-decompositions and two products), the Gram form's singular values (100 x 100), and the
 * eigen-decomposition of PCA. Prints the median times, their ratio and the relative difference of
 * the values.
 *
 * <pre>
 * ./mvnw -q -B -ntp -o -pl evaluation test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -cp "evaluation/target/classes:evaluation/target/test-classes:$(cat evaluation/cp.txt)" \
 *     dev.secpe.evaluation.LinearAlgebraBenchmark
 * </pre>
 */
public final class LinearAlgebraBenchmark {

  private LinearAlgebraBenchmark() {}

  public static void main(String[] args) {
    int d = args.length > 0 ? Integer.parseInt(args[0]) : 384;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    double[][] x = sample(2000, d, 1);
    double[][] y = sample(2000, d, 2);
    double[][] c1 = Moments.covariance(x, Moments.mean(x));
    double[][] c2 = Moments.covariance(y, Moments.mean(y));
    double[] ours = new double[1];
    double[] theirs = new double[1];
    report("FID trace sqrt(C1 C2), d=" + d, reps,
        () -> ours[0] = FrechetDistance.traceSqrtProduct(c1, c2),
        () -> theirs[0] = HipparchusReference.traceSqrtProduct(c1, c2), ours, theirs);
    double[][] g = new double[100][100];
    SplittableRandom r = new SplittableRandom(3);
    for (double[] row : g) {
      for (int k = 0; k < row.length; k++) {
        row[k] = TestData.normal(r);
      }
    }
    report("Gram form: singular values, 100 x 100", reps,
        () -> ours[0] = Arrays.stream(Moments.singularValues(g)).sum(),
        () -> theirs[0] = HipparchusReference.nuclearNorm(g), ours, theirs);
    report("PCA: eigen-decomposition of a covariance, d=" + d, reps,
        () -> ours[0] = Moments.eigen(c1).values()[0],
        () -> theirs[0] = HipparchusReference.eigenvalues(c1)[0], ours, theirs);
  }

  private static void report(String what, int reps, Runnable ours, Runnable theirs, double[] a, double[] b) {
    double[] tOurs = new double[reps];
    double[] tTheirs = new double[reps];
    for (int i = -2; i < reps; i++) { // two warm-up rounds
      long t0 = System.nanoTime();
      ours.run();
      long t1 = System.nanoTime();
      theirs.run();
      long t2 = System.nanoTime();
      if (i >= 0) {
        tOurs[i] = (t1 - t0) / 1e6;
        tTheirs[i] = (t2 - t1) / 1e6;
      }
    }
    Arrays.sort(tOurs);
    Arrays.sort(tTheirs);
    double mo = tOurs[reps / 2];
    double mt = tTheirs[reps / 2];
    System.out.printf(Locale.ROOT, "%s: ojAlgo %.1f ms, Hipparchus %.1f ms, ratio Hipparchus/ojAlgo %.2f;"
        + " values %.15g vs %.15g (relative difference %.2g)%n",
        what, mo, mt, mt / mo, a[0], b[0], Math.abs(a[0] - b[0]) / Math.abs(b[0]));
  }

  private static double[][] sample(int n, int d, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] out = new double[n][d];
    for (double[] row : out) {
      for (int j = 0; j < d; j++) {
        row[j] = TestData.normal(r) / (1 + 0.05 * j);
      }
    }
    return out;
  }
}
