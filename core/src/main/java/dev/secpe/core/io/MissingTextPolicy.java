package dev.secpe.core.io;

/** What {@link DatasetReader} does with a record whose text field is absent, null or blank. */
public enum MissingTextPolicy {
  /** Fail with a {@link DatasetFormatException} naming the line and field. The default. */
  REJECT,
  /** Skip the record; the skipped line numbers go to the reader's skip listener, if any. */
  SKIP
}
