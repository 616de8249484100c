package dev.secpe.evolution.secpe;

import dev.secpe.evolution.persist.ReleaseCodec;
import java.util.Arrays;

/**
 * One label group's released representatives: the noisy counts {@code n~_k}, the index of the
 * public cluster behind each (public), and the noisy centres, for the clusters kept after the
 * non-positive-count policy.
 *
 * @param counts the noisy counts, one per kept cluster
 * @param clusterIndex the public cluster of each kept representative
 * @param centres the noisy centres (kept x d)
 */
record Representatives(double[] counts, int[] clusterIndex, float[][] centres) {

  /**
   * How a release of representatives is stored: {@code [kept, counts, indices, centres row-major]}.
   */
  static final ReleaseCodec<Representatives> CODEC =
      new ReleaseCodec<>() {
        @Override
        public double[] encode(Representatives r) {
          int k = r.counts.length;
          int d = k == 0 ? 0 : r.centres[0].length;
          double[] out = new double[1 + 2 * k + k * d];
          out[0] = k;
          System.arraycopy(r.counts, 0, out, 1, k);
          for (int i = 0; i < k; i++) {
            out[1 + k + i] = r.clusterIndex[i];
            for (int j = 0; j < d; j++) {
              out[1 + 2 * k + i * d + j] = r.centres[i][j];
            }
          }
          return out;
        }

        @Override
        public Representatives decode(double[] v) {
          int k = v.length == 0 ? -1 : (int) v[0];
          int rest = v.length - 1 - 2 * k;
          if (k < 0 || v[0] != k || rest < 0 || (k == 0 ? rest != 0 : rest % k != 0)) {
            throw new IllegalStateException(
                "a stored secret-clustering release has the wrong layout (" + v.length + " values); the checkpoint is damaged");
          }
          int d = k == 0 ? 0 : rest / k;
          double[] counts = Arrays.copyOfRange(v, 1, 1 + k);
          int[] index = new int[k];
          float[][] centres = new float[k][d];
          for (int i = 0; i < k; i++) {
            index[i] = (int) v[1 + k + i];
            for (int j = 0; j < d; j++) {
              centres[i][j] = (float) v[1 + 2 * k + i * d + j];
            }
          }
          return new Representatives(counts, index, centres);
        }
      };

  /** The number of kept representatives. */
  int kept() {
    return counts.length;
  }
}
