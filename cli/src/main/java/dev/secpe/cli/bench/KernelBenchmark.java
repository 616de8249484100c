package dev.secpe.cli.bench;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.BlasThreads;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.RowSource;
import dev.secpe.clustering.internal.KernelProbe;
import dev.secpe.clustering.internal.KernelProbe.Phase;
import dev.secpe.core.EmbeddingMatrix;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's GFLOP/s against numpy on the same data in the same run. Java writes A and B to
 * temporary float32 files, times OpenBLAS's GEMM alone (the kernel's backend) and the full top-1 kernel (GEMM + exact
 * argmax) with its preferred scan and again with the scalar scan (what runs where the Vector API
 * module is not added), then runs {@code gemm_ref.py} (in this jar) with {@code python3}, which
 * times numpy's GEMM and a blocked GEMM + argmax on the same files, at several block sizes (the
 * best counts). The child inherits the JVM's environment, so both sides see the same {@code
 * OPENBLAS_CORETYPE}/thread settings; numpy is also run once with {@code OPENBLAS_CORETYPE}
 * removed, for reference. Best-of-reps timings; the kernel's phases (GEMM, scan, exact re-check,
 * preparation of A) are timed inside it ({@link KernelProbe}) and reported as shares of its
 * time.
 */
public final class KernelBenchmark {

  /**
   * @param m rows of A
   * @param n rows of B
   * @param d dimension
   * @param metric metric of the top-1 kernel
   * @param reps repetitions (best kept)
   * @param javaRows rows of A used for the (slow) plain-Java backend
   * @param threads kernel worker threads (0 = default)
   * @param blockRows kernel block rows (0 = auto)
   * @param python the python executable ("" to skip numpy)
   * @param seed data seed
   */
  public record Config(int m, int n, int d, Metric metric, int reps, int javaRows, int threads,
      int blockRows, String python, long seed, boolean sweep) {
    /** The reference size of docs/clustering-performance.md: 20000 x 384 against 5000 x 384, cosine. */
    public static Config defaults() {
      return new Config(20000, 5000, 384, Metric.COSINE, 5, 1000, 0, 0, "python3", 1, false);
    }
  }

  /**
   * Interleaves kernel configurations (workers x BLAS threads, block rows) round-robin so that
   * they share the same machine load, keeping each one's best time.
   */
  private static void sweep(Config c, RowSource ea, EmbeddingMatrix eb, double flops,
      Map<String, Object> out) {
    int cores = Runtime.getRuntime().availableProcessors();
    int original = BlasThreads.get();
    int[][] cfgs = {
        {1, cores, 0}, {cores, 1, 0}, {cores, cores, 0}, {1, cores, 512}, {cores, 1, 256},
        {cores, 1, 512}, {cores, 1, 1024}, {cores, cores, 512}, {cores, 1, 2048}};
    double[] best = new double[cfgs.length];
    Arrays.fill(best, Double.POSITIVE_INFINITY);
    for (int r = 0; r < c.reps(); r++) {
      for (int qq = 0; qq < cfgs.length; qq++) {
        int q = r % 2 == 0 ? qq : cfgs.length - 1 - qq; // alternate the order between rounds
        BlasThreads.setProcessWide(cfgs[q][1]); // this benchmark's own choice
        NearestNeighbours k = NearestNeighbours.builder().metric(c.metric())
            .backend(Backend.OPENBLAS).threads(cfgs[q][0])
            .blockRows(cfgs[q][2]).build();
        long t0 = System.nanoTime();
        k.top1(ea, eb);
        best[q] = Math.min(best[q], (System.nanoTime() - t0) / 1e9);
      }
    }
    BlasThreads.setProcessWide(original);
    for (int q = 0; q < cfgs.length; q++) {
      out.put("sweep_workers" + cfgs[q][0] + "_blas" + cfgs[q][1] + "_block"
          + (cfgs[q][2] == 0 ? "auto" : cfgs[q][2]) + "_gflops", flops / best[q] / 1e9);
    }
  }

  private KernelBenchmark() {}

  /** Runs the benchmark; returns a flat, ordered map ready to print as JSON. */
  public static Map<String, Object> run(Config c) throws IOException, InterruptedException {
    SplittableRandom rnd = new SplittableRandom(c.seed());
    float[] a = gaussianRows(rnd, c.m(), c.d(), c.metric() == Metric.COSINE);
    float[] b = gaussianRows(rnd, c.n(), c.d(), c.metric() == Metric.COSINE);
    RowSource ea = RowSource.of(EmbeddingMatrix.ofFlat(c.m(), c.d(), a));
    EmbeddingMatrix eb = EmbeddingMatrix.ofFlat(c.n(), c.d(), b);
    double flops = 2.0 * c.m() * c.n() * c.d();
    Map<String, Object> out = new LinkedHashMap<>();

    NearestNeighbours.Builder kb = NearestNeighbours.builder().metric(c.metric())
        .backend(Backend.OPENBLAS).blockRows(c.blockRows());
    if (c.threads() > 0) {
      kb.threads(c.threads());
    }
    NearestNeighbours kernel = kb.build();
    kernel.top1(ea, eb); // warm-up (loads OpenBLAS, JIT)
    timed(kernel, ea, eb, true); // and the scalar scan's JIT

    Path dir = Files.createTempDirectory("secpe-bench-kernel");
    try {
      Path pa = dir.resolve("A.bin");
      Path pb = dir.resolve("B.bin");
      Path pi = dir.resolve("idx.bin");
      Path script = dir.resolve("gemm_ref.py");
      int blk = kernel.blockRowsFor(c.n());
      NumpyServer numpy = null;
      if (!c.python().isEmpty()) {
        writeFloats(pa, a);
        writeFloats(pb, b);
        try (InputStream in = KernelBenchmark.class.getResourceAsStream("gemm_ref.py")) {
          if (in == null) {
            throw new IllegalStateException("gemm_ref.py missing from the classpath");
          }
          Files.copy(in, script);
        }
        numpy = new NumpyServer(command(c, script, pa, pb, pi, blk, true));
        numpy.call("gemm"); // warm-up, untimed
        numpy.call("top1");
      }
      try {
        // OpenBLAS GEMM alone: whole A x B^T into a preallocated C.
        OpenBlasGemmReference whole = new OpenBlasGemmReference(a, c.m(), b, c.n(), c.d());
        double gemm = Double.POSITIVE_INFINITY;
        double npGemm = Double.POSITIVE_INFINITY;
        double npTop1 = Double.POSITIVE_INFINITY;
        int npBlock = 0;
        Timed top1 = null;
        Timed scalar = null;
        // Each repetition times Java and numpy back to back, so that a change of machine load
        // between them is rare; the paired ratios' median is reported beside best-of-reps.
        double[] ratios = new double[c.reps()];
        double[] gemmRatios = new double[c.reps()];
        double[] scalarRatios = new double[c.reps()];
        for (int r = 0; r < c.reps(); r++) {
          double g = whole.time();
          gemm = Math.min(gemm, g);
          Timed t = timed(kernel, ea, eb, false);
          top1 = top1 == null || t.seconds < top1.seconds ? t : top1;
          Timed s = timed(kernel, ea, eb, true);
          scalar = scalar == null || s.seconds < scalar.seconds ? s : scalar;
          if (numpy != null) {
            double ng = number(numpy.call("gemm"), "seconds");
            String nt = numpy.call("top1");
            double n1 = number(nt, "seconds");
            npGemm = Math.min(npGemm, ng);
            if (n1 < npTop1) {
              npTop1 = n1;
              npBlock = (int) number(nt, "block");
            }
            ratios[r] = n1 / t.seconds;
            gemmRatios[r] = ng / g;
            scalarRatios[r] = n1 / s.seconds;
          }
        }
        whole.close();
        int[] idx = top1.index;

        if (c.sweep()) {
          sweep(c, ea, eb, flops, out);
        }

        // Plain Java on a subset.
        int jr = Math.min(c.javaRows(), c.m());
        RowSource sub = RowSource.of(EmbeddingMatrix.ofFlat(jr, c.d(), Arrays.copyOf(a, jr * c.d())));
        NearestNeighbours.Builder jb = NearestNeighbours.builder().metric(c.metric())
            .backend(Backend.JAVA);
        if (c.threads() > 0) {
          jb.threads(c.threads());
        }
        NearestNeighbours plain = jb.build();
        plain.top1(sub, eb);
        long t0 = System.nanoTime();
        int[] plainIdx = plain.top1(sub, eb).index();
        double plainS = (System.nanoTime() - t0) / 1e9;
        int plainAgree = 0;
        for (int i = 0; i < jr; i++) {
          plainAgree += plainIdx[i] == idx[i] ? 1 : 0;
        }
        int scalarAgree = 0;
        for (int i = 0; i < c.m(); i++) {
          scalarAgree += scalar.index[i] == idx[i] ? 1 : 0;
        }

        out.put("java_gflops", flops / top1.seconds / 1e9);
        out.put("java_gemm_gflops", flops / gemm / 1e9);
        out.put("java_plain_gflops", 2.0 * jr * c.n() * c.d() / plainS / 1e9);
        out.put("java_top1_seconds", top1.seconds);
        out.put("java_gemm_seconds", gemm);
        out.put("scan", top1.probe.scan());
        out.put("scan_share", top1.share(Phase.SCAN));
        out.put("gemm_share", top1.share(Phase.GEMM));
        out.put("rescore_share", top1.share(Phase.RESCORE));
        out.put("prepare_share", top1.share(Phase.PREPARE));
        out.put("java_scalar_scan_gflops", flops / scalar.seconds / 1e9);
        out.put("scalar_scan_share", scalar.share(Phase.SCAN));
        if (numpy != null) {
          double npTop1Gflops = flops / npTop1 / 1e9;
          int[] npIdx = readInts(pi, c.m());
          int agree = 0;
          for (int i = 0; i < c.m(); i++) {
            agree += npIdx[i] == idx[i] ? 1 : 0;
          }
          out.put("numpy_gflops", npTop1Gflops);
          out.put("numpy_gemm_gflops", flops / npGemm / 1e9);
          out.put("ratio", flops / top1.seconds / 1e9 / npTop1Gflops);
          out.put("gemm_ratio", npGemm / gemm);
          out.put("ratio_median", median(ratios));
          out.put("ratio_min", Arrays.stream(ratios).min().orElse(Double.NaN));
          out.put("ratio_max", Arrays.stream(ratios).max().orElse(Double.NaN));
          out.put("gemm_ratio_median", median(gemmRatios));
          out.put("scalar_scan_ratio", npTop1 / scalar.seconds);
          out.put("scalar_scan_ratio_median", median(scalarRatios));
          out.put("plain_java_ratio", (double) out.get("java_plain_gflops") / npTop1Gflops);
          out.put("numpy_block_rows", npBlock);
          out.put("numpy_version", string(numpy.ready, "numpy_version"));
          out.put("top1_agreement_with_numpy", (double) agree / c.m());
          numpy.close();
          numpy = null;
          if (System.getenv("OPENBLAS_CORETYPE") != null) {
            String json2 = python(c, script, pa, pb, pi, blk);
            out.put("numpy_default_coretype_gflops", number(json2, "top1_gflops"));
            out.put("numpy_default_coretype_gemm_gflops", number(json2, "gemm_gflops"));
          }
        }
        out.put("plain_java_agreement", (double) plainAgree / jr);
        out.put("scalar_scan_agreement", (double) scalarAgree / c.m());
        out.put("m", c.m());
        out.put("n", c.n());
        out.put("d", c.d());
        out.put("metric", c.metric().toString());
        out.put("reps", c.reps());
        out.put("threads", kernel.threads());
        out.put("block_rows", kernel.blockRowsFor(c.n()));
        out.put("chunk_columns", top1.probe.chunkColumns());
        out.put("lanes", top1.probe.lanes());
        out.put("parts_per_lane", top1.probe.partsPerLane());
        out.put("vector_module", ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            ? "present" : "absent");
      } finally {
        if (numpy != null) {
          numpy.close();
        }
      }
    } finally {
      try (var s = Files.list(dir)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(dir);
    }
    out.put("openblas_coretype", String.valueOf(System.getenv("OPENBLAS_CORETYPE")));
    out.put("omp_num_threads", String.valueOf(System.getenv("OMP_NUM_THREADS")));
    out.put("blas_threads", BlasThreads.get());
    out.put("cpus", Runtime.getRuntime().availableProcessors());
    out.put("note", "java_gflops/numpy_gflops: blocked GEMM + argmax on both sides (Java adds "
        + "the exact tie re-check; numpy: its best block size); *_gemm_*: GEMM alone; ratio: "
        + "best of reps on each side; ratio_median/_min/_max: over the reps, each Java "
        + "repetition paired with the numpy one right after it; *_share: the kernel's time in "
        + "each phase (scan: the fused arg-max scan of each tile).");
    return out;
  }

  private static double median(double[] x) {
    double[] y = x.clone();
    Arrays.sort(y);
    int n = y.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? y[n / 2] : (y[n / 2 - 1] + y[n / 2]) / 2;
  }

  /** numpy's reference in {@code --serve} mode: one repetition per call, on the same data. */
  private static final class NumpyServer implements AutoCloseable {
    private final Process process;
    private final BufferedReader in;
    private final Writer outWriter;
    final String ready;

    NumpyServer(List<String> command) throws IOException {
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.redirectError(ProcessBuilder.Redirect.INHERIT);
      process = pb.start();
      in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      outWriter = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      ready = in.readLine();
      if (ready == null || !ready.contains("\"ready\"")) {
        process.destroy();
        throw new IllegalStateException("numpy reference did not start: " + command);
      }
    }

    String call(String cmd) throws IOException {
      outWriter.write(cmd + "\n");
      outWriter.flush();
      String line = in.readLine();
      if (line == null || line.contains("\"error\"")) {
        throw new IllegalStateException("numpy reference failed on " + cmd + ": " + line);
      }
      return line;
    }

    @Override
    public void close() throws IOException {
      try {
        outWriter.write("quit\n");
        outWriter.flush();
      } catch (IOException e) {
        // already gone
      }
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroy();
        }
      } catch (InterruptedException e) {
        process.destroy();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One timed top-1 call with its phase probe. */
  private record Timed(double seconds, int[] index, KernelProbe probe) {
    double share(Phase phase) {
      long total = 0;
      for (Phase p : Phase.values()) {
        total += probe.nanos(p);
      }
      return total == 0 ? 0 : (double) probe.nanos(phase) / total;
    }
  }

  private static Timed timed(NearestNeighbours kernel, RowSource a, EmbeddingMatrix b, boolean scalar) {
    KernelProbe probe = KernelProbe.start(scalar);
    try {
      long t0 = System.nanoTime();
      int[] idx = kernel.top1(a, b).index();
      return new Timed((System.nanoTime() - t0) / 1e9, idx, probe);
    } finally {
      probe.stop();
    }
  }

  private static List<String> command(Config c, Path script, Path pa, Path pb, Path pi, int blk,
      boolean serve) {
    List<String> cmd = new ArrayList<>(List.of(c.python(), script.toString(),
        pa.toString(), pb.toString(), Integer.toString(c.m()), Integer.toString(c.n()),
        Integer.toString(c.d()), "--metric", c.metric() == Metric.COSINE ? "cosine" : "l2",
        "--reps", Integer.toString(c.reps()), "--block", Integer.toString(blk)));
    if (serve) {
      cmd.add("--indices");
      cmd.add(pi.toString());
      cmd.add("--serve");
    }
    return cmd;
  }

  /** numpy once more, all repetitions in one go, with OPENBLAS_CORETYPE removed (for reference). */
  private static String python(Config c, Path script, Path pa, Path pb, Path pi, int blk)
      throws IOException, InterruptedException {
    ProcessBuilder pb2 = new ProcessBuilder(command(c, script, pa, pb, pi, blk, false));
    pb2.environment().remove("OPENBLAS_CORETYPE");
    pb2.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process p = pb2.start();
    String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("numpy reference failed (exit " + p.exitValue() + "): "
          + c.python() + " " + script);
    }
    return stdout;
  }

  static double number(String json, String key) {
    Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*([-+0-9.eE]+)")
        .matcher(json);
    if (!m.find()) {
      throw new IllegalStateException("numpy reference output lacks " + key + ": " + json);
    }
    return Double.parseDouble(m.group(1));
  }

  static String string(String json, String key) {
    Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*\"([^\"]*)\"")
        .matcher(json);
    return m.find() ? m.group(1) : "?";
  }

  static float[] gaussianRows(SplittableRandom rnd, int rows, int d, boolean normalise) {
    float[] x = new float[rows * d];
    for (int i = 0; i < rows; i++) {
      double s = 0;
      for (int j = 0; j < d; j++) {
        double v = GaussianMixtureRows.gaussian(rnd);
        x[i * d + j] = (float) v;
        s += v * v;
      }
      if (normalise) {
        double inv = 1 / Math.sqrt(s);
        for (int j = 0; j < d; j++) {
          x[i * d + j] = (float) (x[i * d + j] * inv);
        }
      }
    }
    return x;
  }

  static void writeFloats(Path p, float[] x) throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(x.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    buf.asFloatBuffer().put(x);
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    }
  }

  static int[] readInts(Path p, int n) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    int[] out = new int[n];
    buf.asIntBuffer().get(out);
    return out;
  }
}
