package dev.secpe.accounting.noise;

import java.security.SecureRandom;
import java.util.Random;

/**
 * Random bits from a {@link SecureRandom}, fetched 4 KiB at a time. The exact samplers draw many
 * small uniform values per sample; asking the platform generator for each one costs a system
 * call or a lock (~250 ns), buffering costs a copy. The stream is the SecureRandom's own output,
 * unchanged. Thread-safe (synchronized; the exact samplers hold the lock only for one word).
 */
final class BufferedSecureRandom extends Random {

  private static final long serialVersionUID = 1L;
  private static final int BUFFER_BYTES = 4096;

  private final SecureRandom secure;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int position = BUFFER_BYTES;

  BufferedSecureRandom(SecureRandom secure) {
    super(0L); // the seed of the superclass is never used: next(int) is overridden
    this.secure = secure;
  }

  String algorithm() {
    return secure.getAlgorithm();
  }

  private long take(int bytes) {
    if (position + bytes > BUFFER_BYTES) {
      secure.nextBytes(buffer);
      position = 0;
    }
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = (v << 8) | (buffer[position++] & 0xff);
    }
    return v;
  }

  @Override
  protected synchronized int next(int bits) {
    return (int) (take(4) >>> (32 - bits));
  }

  @Override
  public synchronized long nextLong() {
    return take(8);
  }

  @Override
  public synchronized void setSeed(long seed) {
    // Ignored: Random's constructor calls this; a secure stream is never reseeded from a long.
  }
}
