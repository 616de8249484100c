package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A native backend gives the pure-Java kernel's answers exactly (winners, exact scores and
 * counts), including exact ties and a B wide enough to be cut into column chunks, for top-1 and
 * top-k. One test for every backend, on {@link NearestNeighboursTest#NATIVE}: in each add-on's
 * build on its own backend (secpe-kernel-openblas runs it with {@code
 * -Dsecpe.test.nativeBackend=OPENBLAS}, secpe-kernel-nd4j with {@code ND4J}, secpe-kernel-cuda
 * with {@code CUDA} on its emulated device); in this module's build, which has no native
 * backend, on the pure-Java kernel against itself.
 */
class NativeBackendAgreementTest {

  private static final Backend NATIVE = NearestNeighboursTest.NATIVE;

  /** Random rows with planted duplicates in B, so that exact ties occur (lowest index wins). */
  private static EmbeddingMatrix matrix(int rows, int d, long seed, int duplicates) {
    SplittableRandom r = new SplittableRandom(seed);
    float[][] m = new float[rows][d];
    for (float[] row : m) {
      for (int i = 0; i < d; i++) {
        row[i] = (float) (r.nextDouble() * 2 - 1);
      }
    }
    for (int q = 0; q < duplicates; q++) {
      m[rows - 1 - q] = m[q].clone(); // the later copy must never win against the earlier
    }
    return EmbeddingMatrix.of(m);
  }

  private static NearestNeighbours kernel(Backend backend, Metric metric) {
    return NearestNeighbours.builder().backend(backend).metric(metric).threads(2).build();
  }

  @ParameterizedTest
  @EnumSource(Metric.class)
  void top1AndCountsEqualThePureJavaKernel(Metric metric) {
    // 6000 candidates: more than 5120, so B is cut into two column chunks; 2500 rows of A: blocks
    // of the automatic size and a short last block
    EmbeddingMatrix b = matrix(6000, 48, 7, 40);
    EmbeddingMatrix a = matrix(2500, 48, 8, 0);
    // A's first rows repeat B's duplicated rows: their winner is an exact tie between two columns
    // (on a fused backend such rows are the ones fetched back for the exact re-check)
    float[][] rows = a.toArray();
    for (int q = 0; q < 40; q++) {
      rows[q] = b.row(q);
    }
    EmbeddingMatrix aa = EmbeddingMatrix.of(rows);
    NearestNeighbours.Top1 viaNative = kernel(NATIVE, metric).top1(RowSource.of(aa), b);
    NearestNeighbours.Top1 viaJava = kernel(Backend.JAVA, metric).top1(RowSource.of(aa), b);
    assertThat(viaNative.index()).containsExactly(viaJava.index());
    assertThat(viaNative.score()).containsExactly(viaJava.score());
    for (int q = 0; q < 40; q++) {
      assertThat(viaNative.index()[q]).as("tie at row %d", q).isEqualTo(q);
    }
    assertThat(kernel(NATIVE, metric).nearestCounts(RowSource.of(aa), b))
        .containsExactly(kernel(Backend.JAVA, metric).nearestCounts(RowSource.of(aa), b));
  }

  @Test
  void topKEqualsThePureJavaKernel() {
    EmbeddingMatrix b = matrix(700, 32, 11, 10);
    EmbeddingMatrix a = matrix(300, 32, 12, 0);
    NearestNeighbours.TopK viaNative = kernel(NATIVE, Metric.L2).topK(RowSource.of(a), b, 5);
    NearestNeighbours.TopK viaJava = kernel(Backend.JAVA, Metric.L2).topK(RowSource.of(a), b, 5);
    assertThat(viaNative.index()).isDeepEqualTo(viaJava.index());
    assertThat(viaNative.score()).isDeepEqualTo(viaJava.score());
  }
}
