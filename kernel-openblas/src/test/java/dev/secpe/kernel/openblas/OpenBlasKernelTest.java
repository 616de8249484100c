package dev.secpe.kernel.openblas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.clustering.Backend;
import dev.secpe.clustering.Metric;
import dev.secpe.clustering.NearestNeighbours;
import dev.secpe.clustering.RowSource;
import dev.secpe.core.EmbeddingMatrix;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kernel on OpenBLAS gives the pure-Java kernel's answers exactly (winners, exact scores and
 * counts), including exact ties and a B wide enough to be cut into column chunks; AUTO picks
 * OpenBLAS when this module is present.
 */
class OpenBlasKernelTest {

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

  @Test
  void autoPicksOpenBlasWhenThisModuleIsPresent() {
    assertThat(kernel(Backend.AUTO, Metric.COSINE).resolvedBackend()).isEqualTo(Backend.OPENBLAS);
    assertThat(new OpenBlasGemm().load()).startsWith("OpenBLAS 0.3.31");
  }

  @ParameterizedTest
  @EnumSource(Metric.class)
  void top1AndCountsEqualThePureJavaKernel(Metric metric) {
    // 6000 candidates: more than 5120, so B is cut into two column chunks; 2500 rows of A: blocks
    // of the automatic size and a short last block
    EmbeddingMatrix b = matrix(6000, 48, 7, 40);
    EmbeddingMatrix a = matrix(2500, 48, 8, 0);
    // A's first rows repeat B's duplicated rows: their winner is an exact tie between two columns
    float[][] rows = a.toArray();
    for (int q = 0; q < 40; q++) {
      rows[q] = b.row(q);
    }
    EmbeddingMatrix aa = EmbeddingMatrix.of(rows);
    NearestNeighbours.Top1 viaBlas = kernel(Backend.OPENBLAS, metric).top1(RowSource.of(aa), b);
    NearestNeighbours.Top1 viaJava = kernel(Backend.JAVA, metric).top1(RowSource.of(aa), b);
    assertThat(viaBlas.index()).containsExactly(viaJava.index());
    assertThat(viaBlas.score()).containsExactly(viaJava.score());
    for (int q = 0; q < 40; q++) {
      assertThat(viaBlas.index()[q]).as("tie at row %d", q).isEqualTo(q);
    }
    assertThat(kernel(Backend.OPENBLAS, metric).nearestCounts(RowSource.of(aa), b))
        .containsExactly(kernel(Backend.JAVA, metric).nearestCounts(RowSource.of(aa), b));
  }

  @Test
  void topKEqualsThePureJavaKernel() {
    EmbeddingMatrix b = matrix(700, 32, 11, 10);
    EmbeddingMatrix a = matrix(300, 32, 12, 0);
    NearestNeighbours.TopK viaBlas = kernel(Backend.OPENBLAS, Metric.L2).topK(RowSource.of(a), b, 5);
    NearestNeighbours.TopK viaJava = kernel(Backend.JAVA, Metric.L2).topK(RowSource.of(a), b, 5);
    assertThat(viaBlas.index()).isDeepEqualTo(viaJava.index());
    assertThat(viaBlas.score()).isDeepEqualTo(viaJava.score());
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
