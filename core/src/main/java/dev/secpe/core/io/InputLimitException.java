package dev.secpe.core.io;

/**
 * An input is larger than a stated limit of its {@link DatasetReader}: a record longer than {@link
 * DatasetReader.Builder#maxRecordChars}, or more data than {@link
 * DatasetReader.Builder#maxInputBytes} (an input that never ends, such as {@code /dev/zero}, stops
 * here instead of exhausting the memory). The message names the source, the line, the limit and
 * the setting that raises it; never the content.
 */
public final class InputLimitException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String setting;
  private final long limit;

  InputLimitException(String source, long line, String what, String setting, long limit) {
    super(source + (line > 0 ? ": line " + line : "") + ": " + what + " (the limit " + setting + "=" + limit + ")");
    this.setting = setting;
    this.limit = limit;
  }

  /** The builder setting whose limit was reached: "maxRecordChars" or "maxInputBytes". */
  public String setting() {
    return setting;
  }

  /** The limit that was reached. */
  public long limit() {
    return limit;
  }
}
