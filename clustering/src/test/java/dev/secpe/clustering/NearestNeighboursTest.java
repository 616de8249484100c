package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class NearestNeighboursTest {

  /**
   * The native backend under test: none in this module's build (JAVA: the native GEMMs are
   * add-ons); secpe-kernel-openblas, -nd4j and -cuda run this class from this module's test jar
   * with {@code -Dsecpe.test.nativeBackend=OPENBLAS}, {@code ND4J} and {@code CUDA}.
   */
  static final Backend NATIVE = Backend.valueOf(System.getProperty("secpe.test.nativeBackend", "JAVA"));

  static java.util.stream.Stream<Backend> backends() {
    return java.util.stream.Stream.of(NATIVE, Backend.JAVA, Backend.AUTO);
  }


  /**
   * Backend x metric x layout: the automatic tiling with the preferred scan, and narrow column
   * chunks (ties and near-ties then fall on both sides of a chunk boundary) with each scan and
   * the block's scan split over 1 or 3 threads.
   */
  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> cases() {
    java.util.List<org.junit.jupiter.params.provider.Arguments> l = new java.util.ArrayList<>();
    for (Backend be : new Backend[] {NATIVE, Backend.JAVA}) {
      for (Metric m : Metric.values()) {
        l.add(org.junit.jupiter.params.provider.Arguments.of(be, m, Layout.AUTO));
        for (Layout layout : Layout.NARROW) {
          l.add(org.junit.jupiter.params.provider.Arguments.of(be, m, layout));
        }
      }
    }
    return l.stream();
  }

  /** How a test kernel cuts and scans: chunk columns (0 = auto), parts (0 = auto), scan. */
  record Layout(int chunkColumns, int parts, RowScan scan) {
    static final Layout AUTO = new Layout(0, 0, null);
    static final java.util.List<Layout> NARROW = narrow();

    private static java.util.List<Layout> narrow() {
      java.util.List<Layout> l = new java.util.ArrayList<>();
      for (RowScan s : RowScanTest.scans()) {
        l.add(new Layout(7, 1, s));
        l.add(new Layout(40, 3, s));
      }
      return l;
    }

    NearestNeighbours.Builder apply(NearestNeighbours.Builder b) {
      return b.chunkColumns(chunkColumns).parts(parts).scan(scan);
    }

    @Override
    public String toString() {
      return this == AUTO ? "auto" : "chunks of " + chunkColumns + ", " + parts + " parts, " + scan.name();
    }
  }

  static float[][] gaussian(SplittableRandom rnd, int n, int d) {
    float[][] x = new float[n][d];
    for (float[] r : x) {
      for (int j = 0; j < d; j++) {
        r[j] = (float) nextGaussian(rnd);
      }
    }
    return x;
  }

  static double nextGaussian(SplittableRandom rnd) {
    double u1 = rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
  }

  static NearestNeighbours kernel(Backend be, Metric m, int blockRows, int threads) {
    return kernel(be, m, blockRows, threads, Layout.AUTO);
  }

  static NearestNeighbours kernel(Backend be, Metric m, int blockRows, int threads, Layout layout) {
    return layout.apply(NearestNeighbours.builder().backend(be).metric(m).blockRows(blockRows)
        .threads(threads)).build();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void top1MatchesBruteForceOnRandomData(Backend be, Metric m, Layout layout) {
    SplittableRandom rnd = new SplittableRandom(11);
    float[][] a = gaussian(rnd, 301, 37);
    float[][] b = gaussian(rnd, 257, 37);
    int[] expected = BruteForce.top1(m, a, b);
    int[] got = kernel(be, m, 64, 2, layout).top1(Embeddings.of(a), Embeddings.of(b)).index();
    assertThat(got).containsExactly(expected);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void plantedTiesGoToTheLowestIndex(Backend be, Metric m, Layout layout) {
    SplittableRandom rnd = new SplittableRandom(5);
    int d = 24;
    // Many exact ties: coordinates in {-1, 0, 1}; duplicated rows of b; a contains copies of b.
    float[][] b = new float[200][d];
    for (float[] r : b) {
      for (int j = 0; j < d; j++) {
        r[j] = rnd.nextInt(3) - 1;
      }
      r[rnd.nextInt(d)] = 1; // never a zero vector
    }
    for (int j = 100; j < 200; j++) {
      b[j] = m == Metric.COSINE ? scale(b[j - 100], 2f) : b[j - 100].clone();
    }
    float[][] a = new float[150][];
    for (int i = 0; i < 150; i++) {
      a[i] = i % 3 == 0 ? b[150 + i % 50].clone() : b[rnd.nextInt(200)].clone();
      if (i % 3 == 2) {
        a[i][rnd.nextInt(d)] += 1;
        if (allZero(a[i])) {
          a[i][0] = 1;
        }
      }
    }
    int[] expected = BruteForce.top1(m, a, b);
    for (int i = 0; i < 150; i += 3) {
      assertThat(expected[i]).isLessThan(100); // the duplicate in the upper half never wins
    }
    int[] got = kernel(be, m, 32, 2, layout).top1(Embeddings.of(a), Embeddings.of(b)).index();
    assertThat(got).containsExactly(expected);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void nearTiesBelowFloatResolutionAreDecidedExactly(Backend be, Metric m, Layout layout) {
    // b[1] differs from b[0] by one ulp in one coordinate: the float GEMM cannot separate them,
    // the exact score can.
    SplittableRandom rnd = new SplittableRandom(3);
    int d = 384;
    float[][] a = gaussian(rnd, 40, d);
    float[][] b = new float[64][];
    for (int j = 0; j < 64; j += 2) {
      b[j] = gaussian(rnd, 1, d)[0];
      b[j + 1] = b[j].clone();
      int c = rnd.nextInt(d);
      b[j + 1][c] = Math.nextUp(b[j + 1][c]);
    }
    for (int i = 0; i < 40; i++) {
      a[i] = b[rnd.nextInt(64)].clone();
      a[i][rnd.nextInt(d)] += 0.01f;
    }
    int[] expected = BruteForce.top1(m, a, b);
    int[] got = kernel(be, m, 16, 3, layout).top1(Embeddings.of(a), Embeddings.of(b)).index();
    assertThat(got).containsExactly(expected);
  }

  @ParameterizedTest
  @MethodSource("cases")
  void topKMatchesBruteForceRanking(Backend be, Metric m, Layout layout) {
    SplittableRandom rnd = new SplittableRandom(17);
    float[][] a = gaussian(rnd, 90, 16);
    float[][] b = gaussian(rnd, 70, 16);
    for (int j = 35; j < 70; j++) {
      b[j] = b[j - 35].clone(); // planted ties inside the top k
    }
    int k = 5;
    NearestNeighbours.TopK got = kernel(be, m, 32, 2, layout).topK(Embeddings.of(a), Embeddings.of(b), k);
    for (int i = 0; i < a.length; i++) {
      int[] rank = BruteForce.ranking(m, a, b, i);
      assertThat(got.index()[i]).containsExactly(java.util.Arrays.copyOf(rank, k));
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void scoresBeyondFloatRangeAreDecidedExactly(Backend be, Metric m, Layout layout) {
    // |a| |b| ~ 1e39: float inner products overflow, the exact (double) scores do not.
    SplittableRandom rnd = new SplittableRandom(31);
    float[][] a = gaussian(rnd, 50, 12);
    float[][] b = gaussian(rnd, 45, 12);
    for (float[][] x : new float[][][] {a, b}) {
      for (float[] r : x) {
        for (int j = 0; j < r.length; j++) {
          r[j] *= 1e19f;
        }
      }
    }
    b[40] = b[2].clone();
    a[0] = b[2].clone();
    int[] expected = BruteForce.top1(m, a, b);
    assertThat(expected[0]).isEqualTo(2);
    int[] got = kernel(be, m, 16, 2, layout).top1(Embeddings.of(a), Embeddings.of(b)).index();
    assertThat(got).containsExactly(expected);
  }

  @Test
  void backendsBlockSizesAndThreadCountsAgreeExactly() {
    SplittableRandom rnd = new SplittableRandom(23);
    Embeddings a = Embeddings.of(gaussian(rnd, 1000, 64));
    Embeddings b = Embeddings.of(gaussian(rnd, 300, 64));
    for (Metric m : Metric.values()) {
      NearestNeighbours.Top1 ref = kernel(Backend.JAVA, m, 1000, 1).top1(a, b);
      NearestNeighbours.Top1 nd = kernel(NATIVE, m, 0, 2).top1(a, b);
      NearestNeighbours.Top1 odd = kernel(NATIVE, m, 77, 3).top1(a, b);
      assertThat(nd.index()).containsExactly(ref.index());
      assertThat(nd.score()).containsExactly(ref.score());
      assertThat(odd.index()).containsExactly(ref.index());
    }
  }

  @Test
  void streamingCountsMatchInMemoryTop1() {
    SplittableRandom rnd = new SplittableRandom(29);
    Embeddings a = Embeddings.of(gaussian(rnd, 777, 8));
    Embeddings b = Embeddings.of(gaussian(rnd, 20, 8));
    NearestNeighbours nn = kernel(Backend.AUTO, Metric.L2, 50, 2);
    long[] counts = nn.nearestCounts(a, b);
    long[] expected = new long[20];
    for (int i : nn.top1(a, b).index()) {
      expected[i]++;
    }
    assertThat(counts).containsExactly(expected);
  }

  @ParameterizedTest
  @MethodSource("backends")
  void badInputIsRejectedNamingFieldAndValue(Backend be) {
    NearestNeighbours cos = kernel(be, Metric.COSINE, 0, 1);
    Embeddings b = Embeddings.of(new float[][] {{1, 0}, {0, 1}});
    assertThatThrownBy(() -> Embeddings.of(new float[][] {{1, Float.NaN}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("embeddings[0][1]=NaN");
    assertThatThrownBy(() -> cos.top1(Embeddings.of(new float[][] {{0, 0}, {1, 1}}), b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a[0] = zero vector");
    assertThatThrownBy(() -> cos.top1(b, Embeddings.of(new float[][] {{1, 1}, {0, 0}})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("b[1] = zero vector");
    assertThatThrownBy(() -> cos.top1(Embeddings.of(new float[][] {{1, 2, 3}}), b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a.dim=3 b.dim=2");
    assertThatThrownBy(() -> cos.topK(b, b, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k=3");
    assertThatThrownBy(() -> NearestNeighbours.builder().threads(0))
        .hasMessageContaining("threads=0");
    RowSource nanSource = new RowSource() {
      public long rows() { return 3; }
      public int dim() { return 2; }
      public void read(long first, int count, float[] dst) {
        for (int i = 0; i < count * 2; i++) {
          dst[i] = first + i / 2 == 2 ? Float.POSITIVE_INFINITY : 1f;
        }
      }
    };
    assertThatThrownBy(() -> cos.top1(nanSource, b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a[2][0]=Infinity");
  }

  private static float[] scale(float[] x, float s) {
    float[] y = x.clone();
    for (int i = 0; i < y.length; i++) {
      y[i] *= s;
    }
    return y;
  }

  private static boolean allZero(float[] x) {
    for (float v : x) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }
  @Test
  void callsLeaveTheBlasSettingAloneAndReuseTheirWorkers() {
    SplittableRandom rnd = new SplittableRandom(4);
    Embeddings a = Embeddings.of(gaussian(rnd, 600, 16));
    Embeddings b = Embeddings.of(gaussian(rnd, 50, 16));
    // a CUDA run (secpe-kernel-cuda's tests) and this module's own (no native backend) have no
    // BLAS threads to leave alone: the pool only
    Integer blas = NATIVE == Backend.CUDA || NATIVE == Backend.JAVA ? null : BlasThreads.get();
    kernel(Backend.JAVA, Metric.COSINE, 64, 2).top1(a, b); // warm: the shared pool's first workers
    long before = java.lang.management.ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
    for (int call = 0; call < 20; call++) {
      kernel(NATIVE, Metric.COSINE, 64, 2).top1(a, b);
      kernel(Backend.JAVA, Metric.COSINE, 64, 2).top1(a, b);
    }
    if (blas != null) {
      assertThat(BlasThreads.get()).isEqualTo(blas);
    }
    // 40 two-worker calls: a pool per call would start 80 threads; the shared pool reuses its own.
    long started = java.lang.management.ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
    assertThat(started).isLessThan(20);
    assertThatThrownBy(() -> BlasThreads.setProcessWide(0)).hasMessage("threads must be in 1..1024, got threads=0");
  }
}
