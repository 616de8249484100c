package dev.secpe.accounting.secret;

import java.util.Arrays;

/**
 * Benchmark harness (not a test): the library's simplex against Hipparchus' general simplex (the
 * solver up to 0.1.0, {@link HipparchusSimplex}) on the same pieces of the LP (6), in one process.
 * Each piece is the unreduced LP of SecPE App. B.1's simulation (every record holding each secret
 * with a small probability), at sizes up to the largest {@code AUTO} gives the simplex (800
 * variables plus constraints) and one that only the crossover sees. Prints, per size, the median
 * time of each, their ratio, the objectives and the largest difference between the two points.
 *
 * <pre>
 * ./mvnw -q -B -ntp -o -pl accounting test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -cp "accounting/target/classes:accounting/target/test-classes:$(cat accounting/cp.txt)" \
 *     dev.secpe.accounting.secret.SimplexBenchmark
 * </pre>
 */
public final class SimplexBenchmark {

  private SimplexBenchmark() {}

  public static void main(String[] args) {
    int[][] sizes = {{60, 20, 50}, {200, 60, 35}, {500, 150, 25}, {1200, 400, 25}}; // records, secrets, 1/prob
    for (int[] s : sizes) {
      int[][] members = SecretLpTest.membersOf(SecretNoiseTest.simulate(s[0], s[1], 1.0 / s[2], 7), s[1]);
      double[] eta = new double[s[1]];
      Arrays.fill(eta, 0.76);
      SecretLpProblem p = SecretLpTest.pieceOf(members, eta, s[0]);
      int reps = p.variables() + p.capacity().length > 1000 ? 3 : 9;
      double[] ours = null;
      double[] theirs = new double[0];
      boolean failed = false;
      double[] tOurs = new double[reps];
      double[] tTheirs = new double[reps];
      for (int r = 0; r < reps + 2; r++) { // two warm-up rounds
        long t0 = System.nanoTime();
        ours = SimplexSecretLpSolver.INSTANCE.solve(p);
        long t1 = System.nanoTime();
        try {
          theirs = failed ? theirs : HipparchusSimplex.solve(p);
        } catch (RuntimeException e) {
          failed = true;
          System.out.printf("variables=%d constraints=%d: Hipparchus failed (%s)%n",
              p.variables(), p.capacity().length, e.getMessage());
        }
        long t2 = System.nanoTime();
        if (r >= 2) {
          tOurs[r - 2] = (t1 - t0) / 1e6;
          tTheirs[r - 2] = (t2 - t1) / 1e6;
        }
      }
      if (failed) {
        System.out.printf("  ours %.2f ms, objective %.9f, sigma %.4f%n", median(tOurs),
            Arrays.stream(ours).sum(), sigma(members, ours));
        continue;
      }
      double diff = 0;
      for (int k = 0; k < ours.length; k++) {
        diff = Math.max(diff, Math.abs(ours[k] - theirs[k]));
      }
      System.out.printf(
          "variables=%d constraints=%d: ours %.2f ms, Hipparchus %.2f ms, ratio Hipparchus/ours %.1f;"
              + " objective %.9f vs %.9f; largest |x_ours - x_Hipparchus| %.3g; sigma %.4f vs %.4f%n",
          p.variables(), p.capacity().length, median(tOurs), median(tTheirs), median(tTheirs) / median(tOurs),
          Arrays.stream(ours).sum(), Arrays.stream(theirs).sum(), diff, sigma(members, ours), sigma(members, theirs));
    }
  }

  /**
   * SECRETNOISE's sigma for the piece's point x (the records' weights, in the order {@link
   * SecretLpTest#pieceOf} numbers them), as if a record holding no secret were present (max w = 1):
   * r/p = 10 at p = 1e-3, shift multiplier 1, one round.
   */
  static double sigma(int[][] members, double[] x) {
    int[] var = SecretLpTest.variableOf(members, Arrays.stream(members).flatMapToInt(Arrays::stream).max().orElse(-1) + 1);
    java.util.Map<java.util.List<Double>, Double> seen = new java.util.HashMap<>();
    double sigma = 0;
    for (int[] r : members) {
      double[] probs = Arrays.stream(r).mapToDouble(i -> Math.min(1, Math.max(0, x[var[i]]))).sorted().toArray();
      java.util.List<Double> key = Arrays.stream(probs).boxed().toList();
      double s = seen.computeIfAbsent(key, q -> MixtureBlowUp.leastSigma(probs, 1, 1,
          dev.secpe.accounting.SecretBudget.ofRatio(1e-3, 10)));
      sigma = Math.max(sigma, s);
    }
    return sigma;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
