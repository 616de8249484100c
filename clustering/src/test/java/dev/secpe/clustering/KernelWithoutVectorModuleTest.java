package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The kernel where the application did not add {@code jdk.incubator.vector} (the default for a
 * library user): it picks the scalar scan and gives the brute-force answer. Here (no tile scan is
 * provided in this module) and in secpe-kernel-openblas's surefire execution {@code
 * without-vector-module} (its scan provided, on OpenBLAS); skipped where the module is present.
 */
class KernelWithoutVectorModuleTest {

  @Test
  void worksWithTheScalarScan() {
    assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty());
    assertThat(RowScan.preferred()).isSameAs(ScalarRowScan.INSTANCE);
    SplittableRandom rnd = new SplittableRandom(8);
    float[][] a = NearestNeighboursTest.gaussian(rnd, 200, 20);
    float[][] b = NearestNeighboursTest.gaussian(rnd, 90, 20);
    b[60] = b[3].clone(); // a tie: the lower index wins
    a[0] = b[3].clone();
    for (Backend be : new Backend[] {Backend.AUTO, Backend.JAVA}) {
      for (Metric m : Metric.values()) {
        int[] got = NearestNeighbours.builder().backend(be).metric(m).chunkColumns(16).build()
            .top1(Embeddings.of(a), Embeddings.of(b)).index();
        assertThat(got).containsExactly(BruteForce.top1(m, a, b));
        assertThat(got[0]).isEqualTo(3);
      }
    }
  }
}
