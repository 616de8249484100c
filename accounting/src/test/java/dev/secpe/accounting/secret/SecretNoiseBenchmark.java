package dev.secpe.accounting.secret;

import dev.secpe.accounting.SecretBudget;
import java.util.List;

/**
 * Benchmark harness (not a test): SecretNoise on a generated instance like SecPE App. B.1, each
 * record holding each secret independently with a small probability. Prints the wall time of
 * the LP + calibration, and for reference the time of the same process on the paper's own size.
 *
 * <pre>
 * ./mvnw -q -B -ntp -pl accounting -am test-compile
 * java -cp "accounting/target/classes:accounting/target/test-classes:$(cat cp.txt)" \
 *     dev.secpe.accounting.secret.SecretNoiseBenchmark [records] [secrets] [prob]
 * </pre>
 */
public final class SecretNoiseBenchmark {

  private SecretNoiseBenchmark() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int m = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
    double prob = args.length > 2 ? Double.parseDouble(args[2]) : 0.001;
    SecretBudget budget = SecretBudget.ofRatio(0.01, 10);
    run(2000, 100, 0.01, budget); // warm-up: native library load, JIT
    double ref = run(8000, 400, 0.01, budget); // reference: the paper's B.1 size
    double big = run(n, m, prob, budget);
    System.out.printf("ratio (N=%d, m=%d, p=%s) / (8000, 400, 0.01) = %.2f%n", n, m, prob, big / ref);
  }

  private static double run(int n, int m, double prob, SecretBudget budget) {
    long g0 = System.nanoTime();
    List<int[]> records = SecretNoiseTest.simulate(n, m, prob, 1);
    long t0 = System.nanoTime();
    SecretNoiseResult res = SecretNoise.builder().records(records, m).uniformBudget(budget)
        .shiftMultiplier(Math.sqrt(2)).solve();
    long t1 = System.nanoTime();
    long held = records.stream().mapToLong(r -> r.length).sum();
    double secs = (t1 - t0) / 1e9;
    System.out.printf(
        "N=%d m=%d prob=%s memberships=%d: generate %.2f s, SecretNoise %.2f s; sigma=%.4f"
            + " expected_sampled=%.1f%n",
        n, m, prob, held, (t0 - g0) / 1e9, secs, res.sigma(), res.expectedSampled());
    return secs;
  }
}
