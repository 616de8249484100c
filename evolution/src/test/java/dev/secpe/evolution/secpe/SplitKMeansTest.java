package dev.secpe.evolution.secpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The split's k-means on a store: hand-worked clusters (sizes and centres in closed form), a public
 * part larger than the seeding's sample, and the sample itself.
 */
class SplitKMeansTest {

  /** A "text" is its vector, written out: "0.1 -2 3". */
  static final class VectorText implements TextEmbedder {
    private final int dim;

    VectorText(int dim) {
      this.dim = dim;
    }

    @Override
    public String name() {
      return "vector-text";
    }

    @Override
    public int dimension() {
      return dim;
    }

    @Override
    public boolean normalized() {
      return false;
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public float[][] embed(List<String> texts) {
      float[][] out = new float[texts.size()][dim];
      for (int i = 0; i < out.length; i++) {
        String[] parts = texts.get(i).split(" ");
        for (int j = 0; j < dim; j++) {
          out[i][j] = Float.parseFloat(parts[j]);
        }
      }
      return out;
    }
  }

  /** A store over vectors (as texts), embedded, with every record secret-free (no scan). */
  private static Recording store(List<float[]> rows) {
    List<PrivateRecord> records = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      StringBuilder t = new StringBuilder();
      for (float v : rows.get(i)) {
        t.append(t.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%s", v));
      }
      records.add(PrivateRecord.of("r" + i, t.toString()));
    }
    PrivateStore s = PrivateStore.inMemory(PrivateDataset.of(records));
    s.groups(List.of());
    s.embed(new VectorText(rows.get(0).length), PrivacyGuard.localOnly());
    return new Recording(s);
  }

  /** Counts the embeddings a store hands out. */
  record Recording(PrivateStore inner, int[] handedOut) {
    Recording(PrivateStore inner) {
      this(inner, new int[1]);
    }
  }

  private static PrivateStore recorded(Recording r) {
    return (PrivateStore) java.lang.reflect.Proxy.newProxyInstance(
        PrivateStore.class.getClassLoader(), new Class<?>[] {PrivateStore.class}, (proxy, m, args) -> {
          if (m.getName().equals("secretFreeEmbeddings")) {
            r.handedOut()[0] += ((int[]) args[0]).length;
          }
          try {
            return m.invoke(r.inner(), args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test
  void twoPairsOfRecordsMakeTwoClustersWithTheirSumsDirections() {
    // (1, 0.2) and (1, -0.2) sum (as unit rows) along (1, 0); (0.2, 1) and (-0.2, 1) along (0, 1).
    Recording r = store(List.of(new float[] {1, 0.2f}, new float[] {0.2f, 1}, new float[] {1, -0.2f},
        new float[] {-0.2f, 1}));
    LabelGroup.Clusters c = SplitKMeans.fit(recorded(r), new int[] {0, 1, 2, 3},
        EmbeddingMatrix.empty(2), 2, new SplittableRandom(1), 7, 1);
    assertThat(c.sizes()).containsExactly(2, 2);
    assertThat(c.corpusMembers()).containsExactly(0, 0);
    assertThat(c.emptyDropped()).isZero();
    List<String> centres = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      centres.add(Math.round(c.centres().get(k, 0) * 1e6) / 1e6 + "," + Math.round(c.centres().get(k, 1) * 1e6) / 1e6);
    }
    assertThat(centres).containsExactlyInAnyOrder("1.0,0.0", "0.0,1.0");
    // The corpus row (3, 0) joins the first pair: 3 members, 1 from the corpus, the same direction.
    LabelGroup.Clusters joined = SplitKMeans.fit(recorded(r), new int[] {0, 1, 2, 3},
        EmbeddingMatrix.of(new float[][] {{3, 0}}), 2, new SplittableRandom(1), 7, 1);
    int x = joined.centres().get(0, 0) > 0.5 ? 0 : 1;
    assertThat(joined.sizes()[x]).isEqualTo(3);
    assertThat(joined.corpusMembers()[x]).isEqualTo(1);
    assertThat(joined.sizes()[1 - x]).isEqualTo(2);
    assertThat(joined.centres().get(x, 0)).isCloseTo(1.0f, within(1e-6f));
  }

  @Test
  void aPublicPartLargerThanTheSampleIsSeededFromASampleAndClusteredWhole() {
    // 12,000 records along three axes (6,000, 4,000, 2,000), each with a small jitter: K = 3.
    int n = 12_000;
    SplittableRandom rnd = new SplittableRandom(42);
    List<float[]> rows = new ArrayList<>();
    int[] axis = new int[n];
    for (int i = 0; i < n; i++) {
      axis[i] = i % 6 < 3 ? 0 : i % 6 < 5 ? 1 : 2;
      float[] v = new float[3];
      for (int j = 0; j < 3; j++) {
        v[j] = (float) (0.05 * rnd.nextGaussian());
      }
      v[axis[i]] += 1;
      rows.add(v);
    }
    Recording r = store(rows);
    LabelGroup.Clusters c = SplitKMeans.fit(recorded(r), IntStream.range(0, n).toArray(),
        EmbeddingMatrix.empty(3), 3, new SplittableRandom(3), 11, 2);
    assertThat(r.handedOut()[0]).isEqualTo(SplitKMeans.SEED_SAMPLE);
    // Independently: each axis's rows, normalised in double, summed; the centre is the sum's direction.
    double[][] sum = new double[3][3];
    int[] size = new int[3];
    for (int i = 0; i < n; i++) {
      float[] v = rows.get(i);
      double norm = Math.sqrt(v[0] * (double) v[0] + v[1] * (double) v[1] + v[2] * (double) v[2]);
      for (int j = 0; j < 3; j++) {
        sum[axis[i]][j] += v[j] / norm;
      }
      size[axis[i]]++;
    }
    for (int k = 0; k < 3; k++) {
      int a = c.centres().get(k, 0) > 0.5 ? 0 : c.centres().get(k, 1) > 0.5 ? 1 : 2;
      assertThat(c.sizes()[k]).as("cluster of axis %d", a).isEqualTo(size[a]);
      double norm = Math.sqrt(sum[a][0] * sum[a][0] + sum[a][1] * sum[a][1] + sum[a][2] * sum[a][2]);
      for (int j = 0; j < 3; j++) {
        assertThat((double) c.centres().get(k, j)).isCloseTo(sum[a][j] / norm, within(1e-6));
      }
    }
    assertThat(size).containsExactlyInAnyOrder(6000, 4000, 2000);
  }

  @Test
  void theSampleIsUniformAscendingAndDistinct() {
    SplittableRandom rnd = new SplittableRandom(9);
    int[] hits = new int[10];
    int draws = 2000;
    for (int t = 0; t < draws; t++) {
      int[] s = SplitKMeans.sample(10, 3, rnd);
      assertThat(s).hasSize(3).isSorted().doesNotHaveDuplicates();
      for (int i : s) {
        hits[i]++;
      }
    }
    // Each index is drawn with probability 3/10: 600 of 2,000 expected, binomial sd 20.5; 5 sd
    // either side fails a correct sampler with probability below 1e-5 over the ten indices.
    for (int h : hits) {
      assertThat(h).isBetween(600 - 103, 600 + 103);
    }
    assertThat(SplitKMeans.sample(4, 9, rnd)).containsExactly(0, 1, 2, 3);
  }
}
