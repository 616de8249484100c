package dev.secpe.kernel.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.KMeans;
import dev.secpe.clustering.KMeansResult;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The kernel's host side on the CUDA backend, run on the emulated device (this module's tests
 * set {@code secpe.kernel.cuda.emulate}; a GPU is not needed): AUTO picks CUDA, k-means' assignments
 * are those of the pure-Java kernel, and bad chunks are refused. That top-1 (fused: near-ties are
 * fetched back for the exact re-check) and top-k (tiles copied back) give the pure-Java kernel's
 * answers exactly is clustering's {@code NativeBackendAgreementTest}, run here on this backend.
 */
class CudaGemmTest {

  private static NearestNeighbours kernel(Backend backend, Metric metric) {
    return NearestNeighbours.builder().backend(backend).metric(metric).threads(2).build();
  }

  @Test
  void autoPicksCudaWhereItLoads() {
    assertThat(kernel(Backend.AUTO, Metric.COSINE).resolvedBackend()).isEqualTo(Backend.CUDA);
    assertThat(new CudaGemm().load()).contains("emulated");
  }

  @Test
  void kMeansOnCudaEqualsKMeansOnJava() {
    SplittableRandom r = new SplittableRandom(11);
    float[][] rows = new float[1200][16];
    for (float[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        row[i] = (float) (r.nextDouble() * 2 - 1);
      }
    }
    EmbeddingMatrix x = EmbeddingMatrix.of(rows);
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
