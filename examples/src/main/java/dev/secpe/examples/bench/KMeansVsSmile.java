package dev.secpe.examples.bench;

import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.KMeansResult;
import dev.secpe.clustering.Metric;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * k-means per-iteration time: {@code dev.secpe.clustering.KMeans} (ND4J kernel, float) against
 * Smile 3.1.1's {@code KMeans.lloyd} (pure Java, double) on the same data in the same run.
 *
 * <p>Per-iteration time is {@code (T(1 + iters) - T(1)) / iters}: the difference removes seeding
 * and set-up from both sides. Our side reports the iterations it actually ran (tolerance 0, so
 * it stops early only at a fixed point); Smile does not expose its count.
 *
 * <p>Run: {@code ./mvnw -q -pl examples -am -DskipTests install && ./mvnw -q -pl examples
 * exec:java -Dexec.mainClass=dev.secpe.examples.bench.KMeansVsSmile [-Dexec.args="n k d iters"]}.
 * Smile is GPL-3.0: this class stays in the examples module.
 */
public final class KMeansVsSmile {

  private KMeansVsSmile() {}

  /** Entry point: optional args {@code n k d iters reps}. */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int k = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int d = args.length > 2 ? Integer.parseInt(args[2]) : 384;
    int iters = args.length > 3 ? Integer.parseInt(args[3]) : 8;
    int reps = args.length > 4 ? Integer.parseInt(args[4]) : 2;
    System.out.println(toJson(run(n, k, d, iters, reps)));
  }

  /** Runs the comparison; best of {@code reps} for each timing. */
  public static Map<String, Object> run(int n, int k, int d, int iters, int reps) {
    SplittableRandom rnd = new SplittableRandom(1);
    float[][] xf = new float[n][d];
    double[][] xd = new double[n][d];
    double[][] means = new double[50][d];
    for (double[] m : means) {
      for (int j = 0; j < d; j++) {
        m[j] = gaussian(rnd);
      }
    }
    for (int i = 0; i < n; i++) {
      double[] m = means[rnd.nextInt(means.length)];
      for (int j = 0; j < d; j++) {
        xf[i][j] = (float) (m[j] + 2 * gaussian(rnd));
        xd[i][j] = xf[i][j];
      }
    }
    EmbeddingMatrix e = EmbeddingMatrix.of(xf);
    fitOurs(e, k, 2); // warm-up
    smile.clustering.KMeans.lloyd(xd, k, 2, 0.0);

    double ours1 = Double.POSITIVE_INFINITY;
    double oursN = Double.POSITIVE_INFINITY;
    double smile1 = Double.POSITIVE_INFINITY;
    double smileN = Double.POSITIVE_INFINITY;
    int oursIters = 0;
    double oursInertia = 0;
    double smileDistortion = 0;
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      fitOurs(e, k, 1);
      ours1 = Math.min(ours1, (System.nanoTime() - t0) / 1e9);
      t0 = System.nanoTime();
      KMeansResult res = fitOurs(e, k, 1 + iters);
      oursN = Math.min(oursN, (System.nanoTime() - t0) / 1e9);
      oursIters = res.iterations();
      oursInertia = res.inertia();
      t0 = System.nanoTime();
      smile.clustering.KMeans.lloyd(xd, k, 1, 0.0);
      smile1 = Math.min(smile1, (System.nanoTime() - t0) / 1e9);
      t0 = System.nanoTime();
      smile.clustering.KMeans s = smile.clustering.KMeans.lloyd(xd, k, 1 + iters, 0.0);
      smileN = Math.min(smileN, (System.nanoTime() - t0) / 1e9);
      smileDistortion = s.distortion;
    }
    double oursPer = (oursN - ours1) / Math.max(1, oursIters - 1);
    double smilePer = (smileN - smile1) / iters;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("secpe_seconds_per_iteration", oursPer);
    out.put("smile_seconds_per_iteration", smilePer);
    out.put("ratio", smilePer / oursPer);
    out.put("secpe_iterations", oursIters);
    out.put("secpe_final_inertia", oursInertia);
    out.put("smile_final_distortion", smileDistortion);
    out.put("n", n);
    out.put("k", k);
    out.put("d", d);
    out.put("iters", iters);
    out.put("openblas_coretype", String.valueOf(System.getenv("OPENBLAS_CORETYPE")));
    out.put("cpus", Runtime.getRuntime().availableProcessors());
    out.put("note", "ratio = smile/secpe per-iteration time (> 1: ours faster); ours float on "
        + "ND4J, Smile 3.1.1 KMeans.lloyd double, pure Java, parallel streams");
    return out;
  }

  private static KMeansResult fitOurs(EmbeddingMatrix e, int k, int maxIterations) {
    return KMeans.builder().k(k).metric(Metric.L2).seed(3).tolerance(0)
        .seeding(KMeans.Seeding.KMEANS_PLUS_PLUS).maxIterations(maxIterations).build().fit(e);
  }

  private static double gaussian(SplittableRandom r) {
    double u1 = r.nextDouble();
    double u2 = r.nextDouble();
    return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
  }

  private static String toJson(Map<String, Object> m) {
    StringBuilder sb = new StringBuilder("{");
    m.forEach((key, v) -> {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append('"').append(key).append("\":");
      sb.append(v instanceof String ? "\"" + v + "\"" : String.valueOf(v));
    });
    return sb.append('}').toString();
  }
}
