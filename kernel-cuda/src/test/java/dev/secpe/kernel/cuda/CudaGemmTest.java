package dev.secpe.kernel.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.KMeansResult;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kernel's host side on the CUDA backend, run on the emulated device (this module's tests
 * set {@code secpe.kernel.cuda.emulate}; a GPU is not needed): AUTO picks CUDA, and the winners,
 * exact scores and counts are those of the pure-Java kernel, exact ties included (the fused scan
 * hands such rows to the exact re-check, which fetches their scores from the device), for top-1
 * (fused) and top-k (tiles copied back).
 */
class CudaGemmTest {

  /**
   * Random rows with planted duplicates in B, so that exact ties occur (lowest index wins). As in
   * secpe-kernel-openblas' test: a module's tests cannot read clustering's test jar, which holds
   * classes of the module's own package, so the helper is not shared.
   */
  private static EmbeddingMatrix matrix(int rows, int d, long seed, int duplicates) {
    SplittableRandom r = new SplittableRandom(seed);
    float[][] m = new float[rows][d];
    for (float[] row : m) {
      for (int i = 0; i < d; i++) {
        row[i] = (float) (r.nextDouble() * 2 - 1);
      }
    }
    for (int q = 0; q < duplicates; q++) {
      m[rows - 1 - q] = m[q].clone();
    }
    return EmbeddingMatrix.of(m);
  }

  private static NearestNeighbours kernel(Backend backend, Metric metric) {
    return NearestNeighbours.builder().backend(backend).metric(metric).threads(2).build();
  }

  @Test
  void autoPicksCudaWhereItLoads() {
    assertThat(kernel(Backend.AUTO, Metric.COSINE).resolvedBackend()).isEqualTo(Backend.CUDA);
    assertThat(new CudaGemm().load()).contains("emulated");
  }

  @ParameterizedTest
  @EnumSource(Metric.class)
  void top1AndCountsEqualThePureJavaKernel(Metric metric) {
    // 6000 candidates: B cut into two column chunks; 1500 rows: blocks and a short last block
    EmbeddingMatrix b = matrix(6000, 32, 7, 40);
    EmbeddingMatrix a = matrix(1500, 32, 8, 0);
    float[][] rows = a.toArray();
    for (int q = 0; q < 40; q++) {
      rows[q] = b.row(q); // an exact tie between two columns of B
    }
    EmbeddingMatrix aa = EmbeddingMatrix.of(rows);
    NearestNeighbours.Top1 viaCuda = kernel(Backend.CUDA, metric).top1(RowSource.of(aa), b);
    NearestNeighbours.Top1 viaJava = kernel(Backend.JAVA, metric).top1(RowSource.of(aa), b);
    assertThat(viaCuda.index()).containsExactly(viaJava.index());
    assertThat(viaCuda.score()).containsExactly(viaJava.score());
    for (int q = 0; q < 40; q++) {
      assertThat(viaCuda.index()[q]).as("row %s ties columns %s and %s", q, q, 5999 - q)
          .isEqualTo(q);
    }
    assertThat(kernel(Backend.CUDA, metric).nearestCounts(RowSource.of(aa), b))
        .containsExactly(kernel(Backend.JAVA, metric).nearestCounts(RowSource.of(aa), b));
  }

  @Test
  void topKEqualsThePureJavaKernel() {
    EmbeddingMatrix b = matrix(700, 24, 3, 20);
    EmbeddingMatrix a = matrix(300, 24, 4, 0);
    NearestNeighbours.TopK viaCuda = kernel(Backend.CUDA, Metric.L2).topK(RowSource.of(a), b, 5);
    NearestNeighbours.TopK viaJava = kernel(Backend.JAVA, Metric.L2).topK(RowSource.of(a), b, 5);
    assertThat(viaCuda.index()).isDeepEqualTo(viaJava.index());
    assertThat(viaCuda.score()).isDeepEqualTo(viaJava.score());
  }

  @Test
  void kMeansOnCudaEqualsKMeansOnJava() {
    EmbeddingMatrix x = matrix(1200, 16, 11, 0);
    KMeansResult onCuda = KMeans.builder().k(12).seed(5).backend(Backend.CUDA).build().fit(x);
    KMeansResult onJava = KMeans.builder().k(12).seed(5).backend(Backend.JAVA).build().fit(x);
    assertThat(onCuda.assignments()).containsExactly(onJava.assignments());
  }

  @Test
  void badChunksAreRefusedNamingTheValues() {
    CudaGemm gemm = new CudaGemm();
    assertThatThrownBy(() -> gemm.chunks(new float[12], 5, new int[] {0}, new int[] {2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("d=5");
    assertThatThrownBy(() -> gemm.chunks(new float[12], 4, new int[] {2}, new int[] {2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start=2 width=2");
  }
}
