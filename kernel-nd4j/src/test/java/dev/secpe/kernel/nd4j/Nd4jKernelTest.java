package dev.secpe.kernel.nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.BlasThreads;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.spi.NativeGemm;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * AUTO picks ND4J when this module is present (and no other add-on is), the kernel finds this
 * module's GEMM as the service named "nd4j", and the GEMM is right on its own. That the kernel on
 * ND4J gives the pure-Java kernel's answers exactly is clustering's {@code
 * NativeBackendAgreementTest}, run here on this backend.
 */
class Nd4jKernelTest {

  @Test
  void autoPicksNd4jWhenThisModuleIsPresent() {
    assertThat(NearestNeighbours.builder().build().resolvedBackend()).isEqualTo(Backend.ND4J);
    assertThat(ServiceLoader.load(NativeGemm.class).stream().map(p -> p.get().name()))
        .containsExactly("nd4j");
    assertThat(new Nd4jGemm().load()).isEqualTo("CpuBackend");
    // the kernel's BLAS threads are ND4J's OpenBLAS's, read and set through this service
    int before = BlasThreads.get();
    assertThat(before).isEqualTo(new Nd4jGemm().threads()).isPositive();
    BlasThreads.setProcessWide(before);
    assertThat(BlasThreads.get()).isEqualTo(before);
  }

  @Test
  void aGemmOfTheServiceIsRightOnItsOwn() {
    // C = A B^T for a 3 x 2 block against a 4-row B in chunks of 3 and 1 (a full-width tile and a
    // narrower last one), then a short block of 1 row: checked by hand
    float[] b = {1, 0, 0, 1, 1, 1, 2, -1};
    Nd4jGemm g = new Nd4jGemm();
    assertThat(g.columnMajor()).isFalse();
    assertThat(g.fusedTop2()).isFalse();
    try (NativeGemm.Chunks chunks = g.chunks(b, 2, new int[] {0, 3}, new int[] {3, 1});
        NativeGemm.Tile tile = chunks.newTile(3, 3)) {
      tile.load(new float[] {1, 2, 3, 4, -1, 0.5f}, 3);
      float[] got0 = new float[9];
      tile.multiply(0).asFloatBuffer().get(0, got0);
      assertThat(got0).containsExactly(1, 2, 3, 3, 4, 7, -1, 0.5f, -0.5f);
      float[] got1 = new float[3];
      tile.multiply(1).asFloatBuffer().get(0, got1);
      assertThat(got1).containsExactly(0, 2, -2.5f);
      tile.load(new float[] {2, 1}, 1);
      float[] short0 = new float[3];
      tile.multiply(0).asFloatBuffer().get(0, short0);
      assertThat(short0).containsExactly(2, 1, 3);
      float[] short1 = new float[1];
      tile.multiply(1).asFloatBuffer().get(0, short1);
      assertThat(short1).containsExactly(3);
      assertThat(chunks.bytes()).isEqualTo(8 * Float.BYTES);
      assertThat(tile.bytes()).isEqualTo((3 * 2 + 3 * 3) * Float.BYTES);
      assertThatThrownBy(() -> tile.load(new float[8], 4)).hasMessage("rows must be in 1..3, got rows=4");
    }
  }

  @Test
  void askingForAnotherBackendNamesItsAddOn() {
    assertThatThrownBy(() -> NearestNeighbours.builder().backend(Backend.OPENBLAS).metric(Metric.L2)
        .build().resolvedBackend())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("secpe-kernel-openblas");
  }
}
