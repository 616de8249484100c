package dev.secpe.evaluation;

import dev.secpe.core.EmbeddingMatrix;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The Java side of {@code evaluation/bench/bench.py}: reads two float32 matrices written by the
 * script, times each metric (best of {@code reps} runs after one warm-up) and prints one JSON
 * line with values and seconds. Not a test; run through the script, which compares with numpy.
 */
public final class EvaluationBenchmark {

  private EvaluationBenchmark() {}

  /** Arguments: file n1 n2 d reps. */
  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    int n1 = Integer.parseInt(args[1]);
    int n2 = Integer.parseInt(args[2]);
    int d = Integer.parseInt(args[3]);
    int reps = Integer.parseInt(args[4]);
    ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    float[] a = new float[n1 * d];
    float[] b = new float[n2 * d];
    buf.asFloatBuffer().get(a).get(b);
    EmbeddingMatrix real = EmbeddingMatrix.ofFlat(n1, d, a);
    EmbeddingMatrix synth = EmbeddingMatrix.ofFlat(n2, d, b);

    double[] fid = new double[1];
    double tFid = time(reps, () -> fid[0] = FrechetDistance.between(real, synth));
    PrecisionRecall[] pr = new PrecisionRecall[1];
    double tPr = time(reps, () -> pr[0] = ManifoldPrecisionRecall.compute(real, synth));
    double[] ss = new double[1];
    double tSs = time(reps, () -> ss[0] = SelfSimilarity.meanPairwiseCosine(synth));
    MauveResult[] m = new MauveResult[1];
    double tMauve = time(1, () -> m[0] = Mauve.compute(real, synth));
    System.out.println(String.format(Locale.ROOT,
        "{\"fid\": %.12g, \"precision\": %.6f, \"recall\": %.6f, \"self_similarity\": %.12g,"
            + " \"mauve\": %.6f, \"mauve_clusters\": %d, \"t_fid\": %.4f, \"t_pr\": %.4f,"
            + " \"t_self_similarity\": %.5f, \"t_mauve\": %.4f}",
        fid[0], pr[0].precision(), pr[0].recall(), ss[0], m[0].mauve(), m[0].clusters(), tFid,
        tPr, tSs, tMauve));
  }

  private static double time(int reps, Runnable r) {
    r.run(); // warm-up
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < reps; i++) {
      long t0 = System.nanoTime();
      r.run();
      best = Math.min(best, (System.nanoTime() - t0) / 1e9);
    }
    return best;
  }
}
