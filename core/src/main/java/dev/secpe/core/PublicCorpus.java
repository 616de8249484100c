package dev.secpe.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Public text: used without privacy cost to train the embedded generator, to cluster (SecPE's
 * public k-means) and to count word frequencies (random-word secrets). May be empty.
 */
public final class PublicCorpus {

  private final List<PublicRecord> records;

  private PublicCorpus(List<PublicRecord> records) {
    this.records = records;
  }

  /**
   * A corpus of the given records.
   *
   * @throws IllegalArgumentException if an id repeats
   */
  public static PublicCorpus of(List<PublicRecord> records) {
    List<PublicRecord> copy = List.copyOf(Objects.requireNonNull(records, "records"));
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < copy.size(); i++) {
      if (!ids.add(copy.get(i).id())) {
        throw new IllegalArgumentException(
            "public corpus: duplicate record id '" + copy.get(i).id() + "' at index " + i);
      }
    }
    return new PublicCorpus(copy);
  }

  /** A corpus of unlabelled texts with ids "0", "1", .... */
  public static PublicCorpus ofTexts(List<String> texts) {
    List<PublicRecord> rs = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      rs.add(new PublicRecord(Integer.toString(i), texts.get(i), Optional.empty()));
    }
    return of(rs);
  }

  /** The records (unmodifiable). */
  public List<PublicRecord> records() {
    return records;
  }

  /** The texts in record order. */
  public List<String> texts() {
    return records.stream().map(PublicRecord::text).toList();
  }

  /** The number of records. */
  public int size() {
    return records.size();
  }

  /** Whether there are no records. */
  public boolean isEmpty() {
    return records.isEmpty();
  }

  /**
   * A SHA-256 digest (hex) of every record's id, label and text, in order, computed as {@link
   * PrivateDataset#contentHash()} computes it: checkpoints store it so that a resume with other
   * records is refused.
   */
  public String contentHash() {
    RecordDigest d = new RecordDigest();
    for (PublicRecord r : records) {
      d.add(r.id(), r.label(), r.text());
    }
    return d.hex();
  }

  @Override
  public String toString() {
    return "PublicCorpus[" + records.size() + " records]";
  }
}
