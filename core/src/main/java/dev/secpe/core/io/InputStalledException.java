package dev.secpe.core.io;

import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * An input file gave no data within its stall timeout: a FIFO or pipe that no process writes to,
 * or a read that hangs (a stalled network file system). The message names the file and the
 * timeout, never content.
 */
public final class InputStalledException extends InterruptedIOException {

  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final transient Duration timeout;

  /**
   * The exception.
   *
   * @param file the file
   * @param timeout the stall timeout that passed
   * @param opening whether the file never opened (a FIFO without a writer blocks there)
   */
  public InputStalledException(Path file, Duration timeout, boolean opening) {
    super(
        (opening ? "cannot open " : "no data from ") + Objects.requireNonNull(file, "file") + " within "
            + seconds(Objects.requireNonNull(timeout, "timeout"))
            + (opening
                ? ": a FIFO or pipe that no process writes to, or a stalled file system"
                : ": its writer (a FIFO or pipe) or the file system stalled"));
    this.file = file;
    this.timeout = timeout;
  }

  /** The file. */
  public Path file() {
    return file;
  }

  /** The stall timeout that passed. */
  public Duration timeout() {
    return timeout;
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s";
  }
}
