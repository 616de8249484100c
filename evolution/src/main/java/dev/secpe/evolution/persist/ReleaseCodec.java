package dev.secpe.evolution.persist;

/**
 * How a typed release value is stored: checkpoints keep every release as a {@code double[]}, and a
 * method whose release is more than one array (SecPE's representatives: counts, cluster indices,
 * centres) states its layout once, here, instead of packing it by hand at each use.
 *
 * @param <T> the value type
 */
public interface ReleaseCodec<T> {

  /** The value as stored; {@link #decode} of it must give an equal value. */
  double[] encode(T value);

  /**
   * The value of {@code stored}.
   *
   * @throws IllegalStateException if {@code stored} does not have this codec's layout (a damaged
   *     checkpoint)
   */
  T decode(double[] stored);

  /** The identity codec of plain arrays. */
  static ReleaseCodec<double[]> doubles() {
    return new ReleaseCodec<>() {
      @Override
      public double[] encode(double[] value) {
        return value;
      }

      @Override
      public double[] decode(double[] stored) {
        return stored;
      }
    };
  }
}
