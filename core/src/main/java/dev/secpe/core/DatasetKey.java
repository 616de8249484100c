package dev.secpe.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The key a privacy journal files a private dataset under ({@link PrivateDataset#datasetKey()}),
 * in parts, so that a store that keeps its records elsewhere (a Spark cluster) computes the same key
 * for the same records as a file read into memory: one dataset, one journal, one budget.
 *
 * <p>The key is the SHA-256 (hex) of: the length-prefixed tag {@code secpe-dataset-multiset-v1}
 * (4-byte big-endian length, then its UTF-8 bytes), the number of records (8 bytes, big-endian),
 * and the SHA-256 of each record's text (in Unicode normalisation form C, as UTF-8), those digests
 * sorted in ascending unsigned order. Order, ids, labels, the file format and the text's Unicode
 * normal form do not change it. It is a function of the private texts:
 * it names the journal and is never reported.
 */
public final class DatasetKey {

  private static final byte[] TAG = "secpe-dataset-multiset-v1".getBytes(StandardCharsets.UTF_8);
  private static final byte[] SECRET_ID_TAG = "secpe-secret-id-key-v1".getBytes(StandardCharsets.UTF_8);
  private static final HexFormat HEX = HexFormat.of();

  private DatasetKey() {}

  /**
   * One record's part of the key: the SHA-256 of the UTF-8 bytes of its text in Unicode
   * normalisation form C, so that the same text composed (NFC, "é" as one code point) or
   * decomposed (NFD, "e" and a combining accent, as some systems write it) is one record to the
   * journal and its budget.
   */
  public static byte[] textDigest(String text) {
    String nfc = Normalizer.normalize(Objects.requireNonNull(text, "text"), Normalizer.Form.NFC);
    return sha256().digest(nfc.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * {@link #textDigest} in lower-case hex: 64 characters, so that sorting these strings sorts the
   * digests in the order {@link #ofSorted} needs.
   */
  public static String textDigestHex(String text) {
    return HEX.formatHex(textDigest(text));
  }

  /** The key of {@code texts}, in any order. */
  public static String of(List<String> texts) {
    byte[][] each = new byte[texts.size()][];
    for (int i = 0; i < each.length; i++) {
      each[i] = textDigest(texts.get(i));
    }
    Arrays.sort(each, Arrays::compareUnsigned);
    return ofSorted(each.length, Arrays.asList(each).iterator());
  }

  /**
   * The key of {@code count} records whose {@link #textDigest}s come in ascending unsigned order
   * (streamed, so that a cluster's sorted digests need not fit in memory at once).
   *
   * @throws IllegalArgumentException if the digests are not {@code count} 32-byte digests in
   *     ascending order
   */
  public static String ofSorted(long count, Iterator<byte[]> ascending) {
    return HEX.formatHex(digestSorted(TAG, count, ascending));
  }

  /**
   * A 32-byte key for {@link dev.secpe.core.secret.SecretIds#withKey} derived from the same record
   * digests as the dataset key, under another tag ({@code secpe-secret-id-key-v1}): the same
   * records, in any order, give the same key, so a secret has the same id in every run on them;
   * and the dataset key, which names the journal, does not reveal it (a SHA-256 under another
   * tag). Only someone holding the records can compute it. Never write it.
   */
  public static byte[] secretIdKey(List<String> texts) {
    byte[][] each = new byte[texts.size()][];
    for (int i = 0; i < each.length; i++) {
      each[i] = textDigest(texts.get(i));
    }
    Arrays.sort(each, Arrays::compareUnsigned);
    return secretIdKeyOfSorted(each.length, Arrays.asList(each).iterator());
  }

  /** {@link #secretIdKey(List)} from sorted digests, as {@link #ofSorted} takes them. */
  public static byte[] secretIdKeyOfSorted(long count, Iterator<byte[]> ascending) {
    return digestSorted(SECRET_ID_TAG, count, ascending);
  }

  private static byte[] digestSorted(byte[] tag, long count, Iterator<byte[]> ascending) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got count=" + count);
    }
    MessageDigest md = sha256();
    md.update(ByteBuffer.allocate(4).putInt(tag.length).array());
    md.update(tag);
    md.update(ByteBuffer.allocate(8).putLong(count).array());
    long seen = 0;
    byte[] last = null;
    while (ascending.hasNext()) {
      byte[] d = ascending.next();
      if (d == null || d.length != 32) {
        throw new IllegalArgumentException(
            "digest " + seen + " must be a 32-byte SHA-256, got " + (d == null ? "null" : d.length + " bytes"));
      }
      if (last != null && Arrays.compareUnsigned(last, d) > 0) {
        throw new IllegalArgumentException("digests must come in ascending order, digest " + seen + " does not");
      }
      md.update(d);
      last = d;
      seen++;
    }
    if (seen != count) {
      throw new IllegalArgumentException("count must equal the digests given, got count=" + count + " for " + seen);
    }
    return md.digest();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
