package dev.secpe.kernel.openblas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import org.junit.jupiter.api.Test;

/**
 * AUTO picks OpenBLAS when this module is present, and the service's GEMM is right on its own.
 * That the kernel on OpenBLAS gives the pure-Java kernel's answers exactly is clustering's
 * {@code NativeBackendAgreementTest}, run here on this backend.
 */
class OpenBlasKernelTest {

  private static NearestNeighbours kernel(Backend backend, Metric metric) {
    return NearestNeighbours.builder().backend(backend).metric(metric).threads(2).build();
  }

  @Test
  void autoPicksOpenBlasWhenThisModuleIsPresent() {
    assertThat(kernel(Backend.AUTO, Metric.COSINE).resolvedBackend()).isEqualTo(Backend.OPENBLAS);
    assertThat(new OpenBlasGemm().load()).startsWith("OpenBLAS 0.3.31");
  }

  @Test
  void aGemmOfTheServiceIsRightOnItsOwn() {
    // C = A B^T for a 3 x 2 block against a 4-row B in two chunks of 2, checked by hand
    float[] b = {1, 0, 0, 1, 1, 1, 2, -1};
    OpenBlasGemm g = new OpenBlasGemm();
    try (var chunks = g.chunks(b, 2, new int[] {0, 2}, new int[] {2, 2});
        var tile = chunks.newTile(3, 2)) {
      tile.load(new float[] {1, 2, 3, 4, -1, 0.5f}, 3);
      var c0 = tile.multiply(0).asFloatBuffer();
      float[] got0 = new float[6];
      c0.get(0, got0);
      assertThat(got0).containsExactly(1, 2, 3, 4, -1, 0.5f);
      var c1 = tile.multiply(1).asFloatBuffer();
      float[] got1 = new float[6];
      c1.get(0, got1);
      assertThat(got1).containsExactly(3, 0, 7, 2, -0.5f, -2.5f);
      // the same tiles column-major: C^T, one column of the chunk after the other
      assertThat(g.columnMajor()).isTrue();
      float[] t0 = new float[6];
      tile.multiplyColumns(0).asFloatBuffer().get(0, t0);
      assertThat(t0).containsExactly(1, 3, -1, 2, 4, 0.5f);
      float[] t1 = new float[6];
      tile.multiplyColumns(1).asFloatBuffer().get(0, t1);
      assertThat(t1).containsExactly(3, 7, -0.5f, 0, 2, -2.5f);
      assertThat(chunks.bytes()).isEqualTo(8 * Float.BYTES);
      assertThat(tile.bytes()).isEqualTo((3 * 2 + 3 * 2) * Float.BYTES);
    }
  }
}
