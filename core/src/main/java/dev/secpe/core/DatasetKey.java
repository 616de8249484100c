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
    return ofSorted(texts.size(), sortedDigests(texts));
  }

  /**
   * The key of {@code count} records whose {@link #textDigest}s come in ascending unsigned order
   * (streamed, so that a cluster's sorted digests need not fit in memory at once).
   *
   * @throws IllegalArgumentException if the digests are not {@code count} 32-byte digests in
   *     ascending order
   */
  public static String ofSorted(long count, Iterator<byte[]> ascending) {
    return HEX.formatHex(digestSorted(count, ascending, TAG)[0]);
  }

  /**
   * The dataset key and the secret-id key of {@code texts}, in any order, from one pass over
   * their digests.
   */
  public static Keys keys(List<String> texts) {
    return keysOfSorted(texts.size(), sortedDigests(texts));
  }

  /** {@link #keys(List)} from sorted digests, as {@link #ofSorted} takes them: one pass for both. */
  public static Keys keysOfSorted(long count, Iterator<byte[]> ascending) {
    byte[][] d = digestSorted(count, ascending, TAG, SECRET_ID_TAG);
    return new Keys(HEX.formatHex(d[0]), d[1]);
  }

  /**
   * A dataset's two keys, computed together.
   *
   * @param datasetKey the key that names its journal ({@link DatasetKey#ofSorted})
   * @param secretIdKey a 32-byte key for {@link dev.secpe.core.secret.SecretIds#withKey}: the
   *     SHA-256 of the same record digests under its own tag ({@code secpe-secret-id-key-v1}), so
   *     the same records, in any order, give the same key and a secret the same id in every run on
   *     them, while the dataset key, which names the journal, does not reveal it. Only someone
   *     holding the records can compute it. Never write it. The accessor gives a fresh copy.
   */
  public record Keys(String datasetKey, byte[] secretIdKey) {

    /** Copies the key. */
    public Keys {
      Objects.requireNonNull(datasetKey, "datasetKey");
      secretIdKey = secretIdKey.clone();
    }

    /** The 32-byte secret-id key (a copy). */
    @Override
    public byte[] secretIdKey() {
      return secretIdKey.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Keys k && datasetKey.equals(k.datasetKey) && Arrays.equals(secretIdKey, k.secretIdKey);
    }

    @Override
    public int hashCode() {
      return 31 * datasetKey.hashCode() + Arrays.hashCode(secretIdKey);
    }

    /** The dataset key only: the secret-id key is never printed. */
    @Override
    public String toString() {
      return "Keys[datasetKey=" + datasetKey + ", secretIdKey=redacted]";
    }
  }

  /** The {@link #textDigest}s of {@code texts}, in ascending unsigned order. */
  private static Iterator<byte[]> sortedDigests(List<String> texts) {
    byte[][] each = new byte[texts.size()][];
    for (int i = 0; i < each.length; i++) {
      each[i] = textDigest(texts.get(i));
    }
    Arrays.sort(each, Arrays::compareUnsigned);
    return Arrays.asList(each).iterator();
  }

  /** SHA-256 of each tag's length-prefixed header, the count and the checked digests, in one pass. */
  private static byte[][] digestSorted(long count, Iterator<byte[]> ascending, byte[]... tags) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got count=" + count);
    }
    MessageDigest[] mds = new MessageDigest[tags.length];
    for (int t = 0; t < tags.length; t++) {
      mds[t] = sha256();
      mds[t].update(ByteBuffer.allocate(4).putInt(tags[t].length).array());
      mds[t].update(tags[t]);
      mds[t].update(ByteBuffer.allocate(8).putLong(count).array());
    }
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
      for (MessageDigest md : mds) {
        md.update(d);
      }
      last = d;
      seen++;
    }
    if (seen != count) {
      throw new IllegalArgumentException("count must equal the digests given, got count=" + count + " for " + seen);
    }
    byte[][] out = new byte[tags.length][];
    for (int t = 0; t < tags.length; t++) {
      out[t] = mds[t].digest();
    }
    return out;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
