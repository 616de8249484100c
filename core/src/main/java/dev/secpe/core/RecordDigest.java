package dev.secpe.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/** SHA-256 over (id, label, text) triples, each field length-prefixed (package-private). */
final class RecordDigest {

  private final MessageDigest md;

  RecordDigest() {
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /** Adds one record. */
  RecordDigest add(String id, Optional<Label> label, String text) {
    field(id);
    field(label.map(Label::name).orElse("\u0000"));
    field(text);
    return this;
  }

  private void field(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    md.update(ByteBuffer.allocate(4).putInt(b.length).array());
    md.update(b);
  }

  /**
   * SHA-256 (hex) of a multiset of texts: each text's SHA-256, sorted, then digested with the
   * count, so that any order of the same texts gives the same digest.
   */
  static String ofMultiset(java.util.List<String> texts) {
    byte[][] each = new byte[texts.size()][];
    RecordDigest d = new RecordDigest();
    for (int i = 0; i < each.length; i++) {
      d.md.reset();
      each[i] = d.md.digest(texts.get(i).getBytes(StandardCharsets.UTF_8));
    }
    java.util.Arrays.sort(each, java.util.Arrays::compareUnsigned);
    d.md.reset();
    d.field("secpe-dataset-multiset-v1");
    d.md.update(ByteBuffer.allocate(8).putLong(each.length).array());
    for (byte[] b : each) {
      d.md.update(b);
    }
    return d.hex();
  }

  /** The digest, hex. */
  String hex() {
    return HexFormat.of().formatHex(md.digest());
  }
}
