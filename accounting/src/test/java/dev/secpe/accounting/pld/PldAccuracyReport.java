package dev.secpe.accounting.pld;

/**
 * Harness (not a test): prints the PLD accountant's epsilon against the closed-form Gaussian
 * epsilon from {@code reference/pld_reference.csv} (mpmath), with the wall time of each
 * composition, for the notes.
 *
 * <pre>
 * java -cp accounting/target/classes:accounting/target/test-classes:$CP \
 *     dev.secpe.accounting.pld.PldAccuracyReport [interval]
 * </pre>
 */
public final class PldAccuracyReport {

  private PldAccuracyReport() {}

  public static void main(String[] args) {
    double h = args.length > 0 ? Double.parseDouble(args[0]) : PldOptions.DEFAULT_INTERVAL;
    System.out.printf("interval h = %g%n", h);
    System.out.println("| mu | T | delta | eps (closed form) | eps (PLD) | relative error | ms |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (String mu : new String[] {"0.5", "1", "2"}) {
      for (int t : new int[] {1, 10, 100}) {
        long t0 = System.nanoTime();
        PrivacyLossDistribution pld = PrivacyLossDistribution
            .gaussian(1 / Double.parseDouble(mu), 1, PldOptions.withInterval(h)).selfCompose(t);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        for (String d : new String[] {"1e-5", "1e-8"}) {
          double exact = ReferenceValues.get("gaussian_eps mu=" + mu + " T=" + t + " delta=" + d);
          double eps = pld.epsilon(Double.parseDouble(d));
          System.out.printf("| %s | %d | %s | %.10f | %.10f | %.2e | %d |%n",
              mu, t, d, exact, eps, (eps - exact) / exact, ms);
        }
      }
    }
  }
}
