package dev.secpe.core.io;

import java.util.Optional;

/**
 * A dataset file is malformed. The message names the source, the line (1-based) and, where one
 * is at fault, the field; it never quotes the file's content (which may be private text), and
 * the exception carries no cause for the same reason.
 */
public final class DatasetFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final long line;
  private final String field;

  DatasetFormatException(String source, long line, String field, String problem) {
    super(source + (line > 0 ? ": line " + line : "") + ": " + problem);
    this.source = source;
    this.line = line;
    this.field = field;
  }

  /** The file name or description of the source. */
  public String source() {
    return source;
  }

  /** The 1-based line of the fault, or 0 when the fault concerns the whole source. */
  public long line() {
    return line;
  }

  /** The field at fault, if one is. */
  public Optional<String> field() {
    return Optional.ofNullable(field);
  }
}
