package dev.secpe.core.secret;

import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateText;
import dev.secpe.core.PrivateTexts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Which secrets each private record holds: the input of SecPE's SECRETNOISE. {@link
 * #secretsOfRecord()} has exactly the shape {@code SecretNoise.builder().records(List<int[]>,
 * secretCount)} takes: entry i lists, ascending and without repeats, the indices (below {@link
 * #secretCount()}) of the secrets record i contains.
 *
 * <p>This is private data (it says which records share a secret and how many hold each): keep it
 * in memory; never write it, or {@link #secrets()}, to a report or log. {@link #toString()} shows
 * only the number of records.
 */
public final class SecretIndex {

  /** What counts as one secret. */
  public enum Granularity {
    /**
     * Each distinct (kind, normalised value) is a secret: "alice@example.org" and
     * "bob@example.org" are two secrets. The default.
     */
    VALUE,
    /**
     * Each kind is one secret ("some e-mail address"), as in SecPE's PII task, where every
     * AI4Privacy category is a secret.
     */
    KIND
  }

  private final List<int[]> secretsOfRecord;
  private final List<Secret> secrets;

  private SecretIndex(List<int[]> secretsOfRecord, List<Secret> secrets) {
    this.secretsOfRecord = secretsOfRecord;
    this.secrets = secrets;
  }

  /**
   * Scans {@code dataset} with {@code detector} through {@link PrivateTexts#detect}, one secret
   * per distinct value, ids under a fresh random key.
   *
   * @throws IllegalStateException if the detector is remote and {@code guard} does not allow it
   */
  public static SecretIndex scan(
      PrivateDataset dataset, SecretDetector detector, PrivacyGuard guard) {
    return scan(dataset, detector, guard, Granularity.VALUE, SecretIds.randomKey());
  }

  /**
   * Scans {@code dataset} with {@code detector}. Secret indices are assigned in order of first
   * occurrence (record order, then position), so the same data and detector give the same
   * indices.
   *
   * @throws IllegalStateException if the detector is remote and {@code guard} does not allow it
   */
  public static SecretIndex scan(
      PrivateDataset dataset,
      SecretDetector detector,
      PrivacyGuard guard,
      Granularity granularity,
      SecretIds ids) {
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(detector, "detector");
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(granularity, "granularity");
    Objects.requireNonNull(ids, "ids");
    guard.checkSecretDetector(detector.name(), detector.locality());
    List<List<Secret>> found = new ArrayList<>(dataset.size());
    for (int i = 0; i < dataset.size(); i++) {
      found.add(secretsIn(dataset.get(i).text(), detector, guard, granularity, ids));
    }
    return of(found);
  }

  /**
   * The secrets {@code detector} finds in one text, in order of position (repeats kept): what
   * {@link #scan} does per record, for a store that scans its records where they live (each
   * partition of a cluster) and sends only these keyed ids to {@link #of}.
   */
  public static List<Secret> secretsIn(
      PrivateText text, SecretDetector detector, PrivacyGuard guard, Granularity granularity, SecretIds ids) {
    List<Secret> out = new ArrayList<>();
    for (SecretMatch m : PrivateTexts.detect(detector, text, guard)) {
      String id = granularity == Granularity.VALUE ? ids.idOf(m.kind(), m.value()) : m.kind();
      out.add(new Secret(id, m.kind()));
    }
    return out;
  }

  /**
   * The index of records whose secrets (keyed ids and kinds, in order of position) are {@code
   * found.get(i)} for record i. Indices are assigned in order of first occurrence (record order,
   * then position), as {@link #scan} assigns them, so the same records give the same index
   * wherever they were scanned.
   */
  public static SecretIndex of(List<List<Secret>> found) {
    Objects.requireNonNull(found, "found");
    Map<String, Integer> indexOf = new LinkedHashMap<>();
    List<Secret> secrets = new ArrayList<>();
    List<int[]> perRecord = new ArrayList<>(found.size());
    for (List<Secret> record : found) {
      TreeSet<Integer> held = new TreeSet<>();
      for (Secret s : record) {
        Integer j = indexOf.get(s.id());
        if (j == null) {
          j = secrets.size();
          indexOf.put(s.id(), j);
          secrets.add(s);
        }
        held.add(j);
      }
      perRecord.add(held.stream().mapToInt(Integer::intValue).toArray());
    }
    return new SecretIndex(List.copyOf(perRecord), List.copyOf(secrets));
  }

  /** Per record, the ascending indices of the secrets it holds (fresh copies). */
  public List<int[]> secretsOfRecord() {
    List<int[]> out = new ArrayList<>(secretsOfRecord.size());
    for (int[] a : secretsOfRecord) {
      out.add(a.clone());
    }
    return out;
  }

  /** The secret indices record {@code i} holds (a copy). */
  public int[] secretsOf(int record) {
    return secretsOfRecord.get(record).clone();
  }

  /** The number of distinct secrets found. */
  public int secretCount() {
    return secrets.size();
  }

  /** The number of records scanned. */
  public int recordCount() {
    return secretsOfRecord.size();
  }

  /** The secrets, index j being secret j (ids and kinds only, never values). */
  public List<Secret> secrets() {
    return secrets;
  }

  /** Secret {@code j}. */
  public Secret secret(int j) {
    return secrets.get(j);
  }

  /** The number of records holding at least one secret. */
  public int recordsWithSecrets() {
    int n = 0;
    for (int[] a : secretsOfRecord) {
      if (a.length > 0) {
        n++;
      }
    }
    return n;
  }

  /** For each secret j, how many records hold it. */
  public int[] holderCounts() {
    int[] c = new int[secrets.size()];
    for (int[] a : secretsOfRecord) {
      for (int j : a) {
        c[j]++;
      }
    }
    return c;
  }

  /**
   * A name for these secrets in their index order: the SHA-256 (hex) of their keyed ids, one per
   * line, in index order. Two scans name the same secrets in the same order by the same digest
   * when their ids share a key (for SecPE, a key derived from the records: {@link
   * dev.secpe.core.DatasetKey.Keys#secretIdKey}); under different keys the digests differ. It reveals no
   * secret: the ids are keyed hashes.
   */
  public String digest() {
    String d = digest;
    if (d == null) {
      d = computeDigest();
      digest = d;
    }
    return d;
  }

  // Computed once: SecPE names every release's secret set with it (each group, each round).
  private volatile String digest;

  private String computeDigest() {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
    for (Secret s : secrets) {
      md.update(s.id().getBytes(StandardCharsets.UTF_8));
      md.update((byte) '\n');
    }
    return HexFormat.of().formatHex(md.digest());
  }

  @Override
  public String toString() {
    return "SecretIndex[" + secretsOfRecord.size() + " records, per-secret data redacted]";
  }
}
