package dev.secpe.llm.cache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of (embedder name, dimension, text), held as four longs. */
record ContentKey(long a, long b, long c, long d) {

  static final int BYTES = 32;

  static ContentKey of(String embedderName, int dimension, String text) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
    md.update(embedderName.getBytes(StandardCharsets.UTF_8));
    md.update((byte) 0);
    md.update(ByteBuffer.allocate(4).putInt(dimension).array());
    md.update(text.getBytes(StandardCharsets.UTF_8));
    return read(ByteBuffer.wrap(md.digest()));
  }

  static ContentKey read(ByteBuffer buf) {
    return new ContentKey(buf.getLong(), buf.getLong(), buf.getLong(), buf.getLong());
  }

  void write(ByteBuffer buf) {
    buf.putLong(a).putLong(b).putLong(c).putLong(d);
  }
}
