package dev.secpe.clustering;

/**
 * The argument checks this package's builders share, so that each option is checked, and its
 * error worded, in one place (package-private).
 */
final class Require {

  /** The most kernel worker threads a builder accepts. */
  static final int MAX_THREADS = 1024;

  private Require() {}

  /**
   * {@code value}, or an {@link IllegalArgumentException} "NAME must not be null".
   *
   * @param name the option's name, as the error should say it
   */
  static <T> T nonNull(String name, T value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    return value;
  }

  /** {@code threads}, or an {@link IllegalArgumentException} unless it is in 1..1024. */
  static int threads(int threads) {
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException(
          "threads must be in 1.." + MAX_THREADS + ", got threads=" + threads);
    }
    return threads;
  }
}
