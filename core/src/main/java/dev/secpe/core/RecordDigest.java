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

  /** The digest, hex. */
  String hex() {
    return HexFormat.of().formatHex(md.digest());
  }
}
