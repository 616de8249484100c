package dev.secpe.kernel.cuda;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.EmbeddingMatrix;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The Java half of {@code bin/device-check} (issue 35), run on the GPU machine from the bundle
 * that {@code bin/device-check prepare} makes (a jlinked JDK and the thin jars; the machine has no
 * JDK): (a) the CUDA backend's winners against the pure-Java kernel's on 20000 x 5000 x 384 and
 * on a tie-heavy case, (b) the CUDA top-1 kernel on 20000 x 5000 x 384 (best of 5), a Yelp-scale
 * vote round (1.9 M x 35 k x 384, nearest counts) and a k-means iteration on 1.9 M x 384 with K =
 * 1000; it writes {@code java.json} and the 20000 x 5000 data ({@code a.f32}, {@code b.f32}, unit
 * rows) for the PyTorch reference that the script runs next on the same data.
 *
 * <p>{@code --dry-run}: the same steps at a hundredth of the sizes, where no GPU is (on the
 * emulated device when {@code -Dsecpe.kernel.cuda.emulate=true}), to prove the bundle and the
 * script; its figures mean nothing.
 */
public final class DeviceCheck {

  private DeviceCheck() {}

  public static void main(String[] args) throws Exception {
    Path outArg = Path.of(".");
    boolean dry = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--out" -> outArg = Path.of(args[++i]);
        case "--dry-run" -> dry = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + " (--out DIR, --dry-run)");
      }
    }
    Path out = outArg;
    Files.createDirectories(out);
    int scale = dry ? 100 : 1;
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("dry_run", dry);
    json.put("java", System.getProperty("java.version"));
    json.put("cpus", Runtime.getRuntime().availableProcessors());
    String cuda;
    try {
      cuda = new CudaGemm().load();
    } catch (RuntimeException | LinkageError e) {
      cuda = null;
      json.put("cuda_error", e.getMessage());
    }
    json.put("device", cuda == null ? "none" : cuda);
    log("device: " + json.get("device"));
    if (cuda == null) {
      json.put("winners_identical", null);
      write(out.resolve("java.json"), json);
      log("no CUDA device: nothing measured");
      return;
    }
    NearestNeighbours onCuda = NearestNeighbours.builder().backend(Backend.CUDA).build();
    NearestNeighbours onJava = NearestNeighbours.builder().backend(Backend.JAVA).build();

    // (a) winners: random unit rows, and a tie-heavy case. The data is written first, so that the
    // PyTorch reference runs even where a step of ours fails; each step's failure is recorded
    // (its_error) and java.json rewritten after each, so a device call is never wasted.
    int n = 20000 / scale;
    int m = 5000 / scale;
    int d = 384;
    float[] a = unitRows(n, d, 1);
    float[] b = unitRows(m, d, 2);
    writeFloats(out.resolve("a.f32"), a);
    writeFloats(out.resolve("b.f32"), b);
    json.put("kernel_shape", n + " x " + m + " x " + d);
    EmbeddingMatrix am = EmbeddingMatrix.ofFlat(n, d, a);
    EmbeddingMatrix bm = EmbeddingMatrix.ofFlat(m, d, b);
    json.put("winners_identical", false);
    step("winners", json, out, () -> {
      NearestNeighbours.Top1 gpu = onCuda.top1(RowSource.of(am), bm);
      writeInts(out.resolve("winners.i32"), gpu.index());
      long t0 = System.nanoTime();
      NearestNeighbours.Top1 cpu = onJava.top1(RowSource.of(am), bm);
      json.put("java_kernel_seconds", (System.nanoTime() - t0) / 1e9);
      boolean randomSame = Arrays.equals(gpu.index(), cpu.index())
          && Arrays.equals(gpu.score(), cpu.score());
      json.put("winners_identical_random", randomSame);
      boolean tiesSame = tieHeavy(4000 / Math.max(1, scale / 10), 1000 / Math.max(1, scale / 10), d);
      json.put("winners_identical_ties", tiesSame);
      json.put("winners_identical", randomSame && tiesSame);
      log("winners identical: random " + randomSame + ", tie-heavy " + tiesSame);
    });

    // (b) the top-1 kernel, best of 5
    step("kernel", json, out, () -> {
      double best = Double.POSITIVE_INFINITY;
      for (int rep = 0; rep < 5; rep++) {
        long s = System.nanoTime();
        onCuda.top1(RowSource.of(am), bm);
        best = Math.min(best, (System.nanoTime() - s) / 1e9);
      }
      json.put("kernel_seconds", best);
      log(String.format(Locale.ROOT, "kernel %d x %d x %d: %.4f s (best of 5)", n, m, d, best));
    });

    // Yelp-scale vote round: 1.9 M private rows against 35 k candidates, nearest counts
    int yn = 1_939_290 / scale;
    int ym = 35_000 / scale;
    // one copy of the 1.9 M rows (2.9 GB), for the round and for k-means
    EmbeddingMatrix ya = EmbeddingMatrix.ofFlat(yn, d, unitRows(yn, d, 3));
    json.put("yelp_shape", yn + " x " + ym + " x " + d);
    step("yelp", json, out, () -> {
      EmbeddingMatrix yb = EmbeddingMatrix.ofFlat(ym, d, unitRows(ym, d, 4));
      onCuda.nearestCounts(RowSource.of(am), yb); // warm-up
      long s = System.nanoTime();
      long[] counts = onCuda.nearestCounts(RowSource.of(ya), yb);
      double yelp = (System.nanoTime() - s) / 1e9;
      json.put("yelp_round_seconds", yelp);
      json.put("yelp_counts_total", Arrays.stream(counts).sum());
      log(String.format(Locale.ROOT, "Yelp-scale round %d x %d x %d: %.3f s", yn, ym, d, yelp));
    });

    // k-means on the same 1.9 M rows, K = 1000: one iteration = (3 iterations - 1) / 2
    int k = Math.max(2, 1000 / scale);
    json.put("kmeans_shape", yn + " x " + d + ", K = " + k);
    step("kmeans", json, out, () -> {
      double one = kmeans(ya, k, 1);
      json.put("kmeans_fit_1_iteration_seconds", one);
      double three = kmeans(ya, k, 3);
      json.put("kmeans_fit_3_iterations_seconds", three);
      json.put("kmeans_iteration_seconds", Math.max(0, (three - one) / 2));
      log(String.format(Locale.ROOT, "k-means K=%d: 1 iteration %.3f s, 3 iterations %.3f s", k,
          one, three));
    });
  }

  /** One step of the check, which may throw anything. */
  private interface Step {
    void run() throws Exception;
  }

  /** Runs a step; a failure is logged with its stack trace and recorded as {@code name_error}. */
  private static void step(String name, Map<String, Object> json, Path out, Step step) {
    try {
      step.run();
    } catch (Throwable t) { // OutOfMemoryError and the native path's errors included
      json.put(name + "_error", t.getClass().getSimpleName() + ": " + t.getMessage());
      log(name + " failed:");
      t.printStackTrace(System.out);
    }
    write(out.resolve("java.json"), json);
  }

  private static double kmeans(EmbeddingMatrix x, int k, int iterations) {
    long s = System.nanoTime();
    KMeans.builder().k(k).seed(7).maxIterations(iterations).backend(Backend.CUDA).build().fit(x);
    return (System.nanoTime() - s) / 1e9;
  }

  /**
   * Rows on a coarse grid with many duplicates: ties within the float error, and exact ties
   * between columns (the lowest index must win on both backends).
   */
  private static boolean tieHeavy(int n, int m, int d) {
    SplittableRandom r = new SplittableRandom(9);
    float[][] b = new float[m][d];
    for (int j = 0; j < m; j++) {
      if (j >= m / 2) {
        b[j] = b[r.nextInt(m / 2)].clone();
        continue;
      }
      for (int i = 0; i < d; i++) {
        b[j][i] = r.nextInt(3) - 1;
      }
      b[j][r.nextInt(d)] = 1; // never a zero row
    }
    float[][] a = new float[n][];
    for (int q = 0; q < n; q++) {
      a[q] = b[r.nextInt(m)].clone();
      a[q][r.nextInt(d)] += 1;
    }
    EmbeddingMatrix am = EmbeddingMatrix.of(a);
    EmbeddingMatrix bm = EmbeddingMatrix.of(b);
    boolean same = true;
    for (Metric metric : Metric.values()) {
      NearestNeighbours g = NearestNeighbours.builder().backend(Backend.CUDA).metric(metric).build();
      NearestNeighbours c = NearestNeighbours.builder().backend(Backend.JAVA).metric(metric).build();
      NearestNeighbours.Top1 x = g.top1(RowSource.of(am), bm);
      NearestNeighbours.Top1 y = c.top1(RowSource.of(am), bm);
      same &= Arrays.equals(x.index(), y.index()) && Arrays.equals(x.score(), y.score());
    }
    return same;
  }

  /** Unit rows, Gaussian directions, generated in parallel from per-row seeds. */
  static float[] unitRows(int rows, int d, long seed) {
    float[] x = new float[Math.multiplyExact(rows, d)];
    IntStream.range(0, rows).parallel().forEach(r -> {
      SplittableRandom g = new SplittableRandom(seed * 1_000_003L + r);
      double s = 0;
      for (int i = 0; i < d; i++) {
        double v = g.nextGaussian();
        x[r * d + i] = (float) v;
        s += v * v;
      }
      float inv = (float) (1 / Math.sqrt(s));
      for (int i = 0; i < d; i++) {
        x[r * d + i] *= inv;
      }
    });
    return x;
  }

  private static void writeFloats(Path p, float[] x) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(x.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    buf.asFloatBuffer().put(x);
    write(p, buf);
  }

  private static void writeInts(Path p, int[] x) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(x.length * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    buf.asIntBuffer().put(x);
    write(p, buf);
  }

  private static void write(Path p, ByteBuffer buf) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    }
  }

  /** A flat JSON object of strings, numbers, booleans and nulls. */
  private static void write(Path p, Map<String, Object> json) {
    List<String> fields = new ArrayList<>();
    json.forEach((k, v) -> fields.add("  \"" + k + "\": " + (v == null ? "null"
        : v instanceof String str ? "\"" + str.replace("\\", "\\\\").replace("\"", "\\\"") + "\""
        : v instanceof Double dd && !Double.isFinite(dd) ? "null" : String.valueOf(v))));
    try {
      Files.writeString(p, "{\n" + String.join(",\n", fields) + "\n}\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void log(String line) {
    System.out.println("device-check: " + line);
    System.out.flush();
  }
}
