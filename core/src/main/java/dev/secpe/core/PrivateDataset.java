package dev.secpe.core;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The private records a run protects. Never empty; ids are unique; either every record carries a
 * label or none does. {@link #toString()} shows the size only.
 */
public final class PrivateDataset {

  private final List<PrivateRecord> records;
  private final boolean labelled;

  private PrivateDataset(List<PrivateRecord> records, boolean labelled) {
    this.records = records;
    this.labelled = labelled;
  }

  /**
   * A dataset of the given records.
   *
   * @throws IllegalArgumentException if empty, if an id repeats (the message names the id's
   *     position, not the text), or if only some records are labelled
   */
  public static PrivateDataset of(List<PrivateRecord> records) {
    Objects.requireNonNull(records, "records");
    for (int i = 0; i < records.size(); i++) {
      if (records.get(i) == null) {
        throw new IllegalArgumentException("private dataset: record at index " + i + " is null");
      }
    }
    List<PrivateRecord> copy = List.copyOf(records);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("private dataset is empty: at least one record is needed");
    }
    Set<String> ids = new HashSet<>();
    int withLabel = 0;
    for (int i = 0; i < copy.size(); i++) {
      PrivateRecord r = copy.get(i);
      if (!ids.add(r.id())) {
        throw new IllegalArgumentException(
            "private dataset: duplicate record id '" + r.id() + "' at index " + i);
      }
      if (r.label().isPresent()) {
        withLabel++;
      }
    }
    if (withLabel != 0 && withLabel != copy.size()) {
      throw new IllegalArgumentException(
          "private dataset: "
              + withLabel
              + " of "
              + copy.size()
              + " records are labelled; label all or none");
    }
    return new PrivateDataset(copy, withLabel != 0);
  }

  /**
   * A SHA-256 digest (hex) of every record's id, label and text, in order: checkpoints store it so
   * that a resume with other private records is refused. It is a function of private data, like
   * the checkpoint's releases, and stays with the checkpoint beside the data; it is never reported.
   */
  public String contentHash() {
    String h = contentHash;
    if (h == null) {
      RecordDigest d = new RecordDigest();
      for (PrivateRecord r : records) {
        d.add(r.id(), r.label(), r.text().reveal());
      }
      h = d.hex();
      contentHash = h;
    }
    return h;
  }

  private volatile String contentHash;

  /**
   * The key of this dataset in a privacy journal: a SHA-256 digest (hex) of the <em>multiset</em>
   * of record texts, each in Unicode NFC. Order, ids, labels, the file format and the texts' normal
   * form are left out, so that the same records read from a shuffled, relabelled or re-exported
   * file (or one that writes accents decomposed, NFD) are the same dataset to the journal and its
   * budget (a record added or changed makes another dataset: the journal cannot know that two
   * files overlap). Like {@link #contentHash()} it is a function of private data and is never
   * reported; it names the dataset's journal. {@link DatasetKey} gives its definition and its
   * parts, for stores that keep their records elsewhere.
   */
  public String datasetKey() {
    return keys().datasetKey();
  }

  /**
   * A key for keyed secret ids that is the same in every run on the same records, in any order
   * ({@link DatasetKey.Keys#secretIdKey}): SecPE keys its secrets' ids with it, so that its journal
   * can tell whether two runs protected the same secrets. A function of private data that reveals
   * none of it; only someone holding the records can compute it. A fresh copy; never write it.
   */
  public byte[] secretIdKey() {
    return keys().secretIdKey();
  }

  /** Both keys, from one pass over the texts' digests, computed once. */
  private DatasetKey.Keys keys() {
    DatasetKey.Keys k = keys;
    if (k == null) {
      k = DatasetKey.keys(records.stream().map(r -> r.text().reveal()).toList());
      keys = k;
    }
    return k;
  }

  private volatile DatasetKey.Keys keys;

  /** The records (unmodifiable). */
  public List<PrivateRecord> records() {
    return records;
  }

  /** Record {@code i}. */
  public PrivateRecord get(int i) {
    return records.get(i);
  }

  /** The number of records. */
  public int size() {
    return records.size();
  }

  /** Whether every record carries a label. */
  public boolean isLabelled() {
    return labelled;
  }

  /** The texts, still redacted, in record order. */
  public List<PrivateText> texts() {
    return records.stream().map(PrivateRecord::text).toList();
  }

  @Override
  public String toString() {
    return "PrivateDataset[" + records.size() + " records" + (labelled ? ", labelled" : "") + "]";
  }
}
