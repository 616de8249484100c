package dev.secpe.clustering;

/**
 * How "nearest" is measured.
 *
 * <p>Scores are defined exactly (this is what ties are decided on, see {@link
 * NearestNeighbours}): for float vectors {@code a}, {@code b}, with sums accumulated in double in
 * index order {@code 0..d-1},
 *
 * <ul>
 *   <li>{@link #COSINE}: {@code a} and {@code b} are first normalised to unit length (in double,
 *       then rounded to float); the score is the similarity {@code sum a_i b_i}; larger is
 *       nearer. Zero vectors are rejected.
 *   <li>{@link #L2}: the squared distance {@code max(0, (sum a_i^2 + sum b_i^2) - 2 sum a_i b_i)};
 *       smaller is nearer.
 * </ul>
 */
public enum Metric {
  /** Cosine similarity of L2-normalised vectors (SecPE Remark 3.3). */
  COSINE,
  /** Squared Euclidean distance. */
  L2
}
