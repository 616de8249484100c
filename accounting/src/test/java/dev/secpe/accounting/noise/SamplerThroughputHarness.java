package dev.secpe.accounting.noise;

import java.security.SecureRandom;

/**
 * Throughput of the secure samplers against a reference in the same process: {@link
 * SecureRandom#nextGaussian()} (the textbook floating-point sampler these replace). Not a test;
 * run with {@code java -cp accounting/target/classes:accounting/target/test-classes:<hipparchus
 * jar> dev.secpe.accounting.noise.SamplerThroughputHarness}. Prints ns per sample and the ratio.
 */
public final class SamplerThroughputHarness {

  private SamplerThroughputHarness() {}

  /** Runs the measurement. */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    NoiseSource secure = NoiseSources.secure();
    SecureRandom reference = new SecureRandom();
    double sink = 0;
    for (int round = 0; round < 2; round++) { // first round is warm-up
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += reference.nextGaussian() * 3.0;
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += secure.gaussian(3.0);
      }
      long t2 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += secure.discreteGaussian(3.0);
      }
      long t3 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += secure.laplace(2.0);
      }
      long t4 = System.nanoTime();
      if (round == 1) {
        double ref = (t1 - t0) / (double) n;
        System.out.printf("SecureRandom.nextGaussian (reference): %8.1f ns/sample%n", ref);
        System.out.printf("secure().gaussian (grid, exact N_Z):   %8.1f ns/sample  ratio %.1fx%n", (t2 - t1) / (double) n, (t2 - t1) / (double) n / ref);
        System.out.printf("secure().discreteGaussian(3):          %8.1f ns/sample  ratio %.1fx%n", (t3 - t2) / (double) n, (t3 - t2) / (double) n / ref);
        System.out.printf("secure().laplace (grid, exact DLap):   %8.1f ns/sample  ratio %.1fx%n", (t4 - t3) / (double) n, (t4 - t3) / (double) n / ref);
      }
    }
    System.out.println("(sink " + (sink != 0) + ")");
  }
}
