package dev.secpe.core.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Input files read with a bounded wait: opening a file and every read give up with an {@link
 * InputStalledException} when no data arrives within the stall timeout. A FIFO with no writer
 * (which blocks {@code open} for good) or a read that hangs then fails with a message that names
 * the file, instead of hanging the run. FIFOs and pipes that deliver their data are read as usual,
 * so private records can come from a process (a decryption, say) without ever touching the disk.
 *
 * <p>The timeout bounds a <em>stall</em>, not the whole read: a large file that keeps arriving is
 * read to its end. The file is read by a daemon thread that hands 64 KiB chunks over; closing the
 * stream stops it (a thread blocked opening a FIFO with no writer stays blocked until a writer
 * appears or the JVM exits: the JDK cannot interrupt that {@code open}).
 */
public final class InputFiles {

  /** The default stall timeout: 60 s. */
  public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(60);

  private static final int CHUNK = 1 << 16;

  private InputFiles() {}

  /**
   * Opens {@code file} for reading, waiting at most {@code stallTimeout} for it to open and for
   * each later read's data.
   *
   * @throws InputStalledException if it does not open in time
   * @throws IOException as {@link Files#newInputStream} (missing file, a directory, no permission)
   */
  public static InputStream open(Path file, Duration stallTimeout) throws IOException {
    Objects.requireNonNull(file, "file");
    checkTimeout("stallTimeout", stallTimeout);
    Pumped in = new Pumped(file, stallTimeout);
    in.awaitOpen();
    return in;
  }

  /** Every line of a UTF-8 file, read as {@link #open} reads. */
  public static List<String> readAllLines(Path file, Duration stallTimeout) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(open(file, stallTimeout), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        lines.add(line);
      }
    }
    return lines;
  }

  /**
   * Checks a stall timeout.
   *
   * @throws IllegalArgumentException unless it is positive
   */
  static Duration checkTimeout(String name, Duration stallTimeout) {
    Objects.requireNonNull(stallTimeout, name);
    if (stallTimeout.isNegative() || stallTimeout.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + name + "=" + stallTimeout);
    }
    return stallTimeout;
  }

  /** A stream fed by a daemon thread that opens and reads the file. */
  private static final class Pumped extends InputStream {
    private static final byte[] EOF = new byte[0];

    private final Path file;
    private final Duration timeout;
    private final CompletableFuture<Void> opened = new CompletableFuture<>();
    /** byte[] chunks, {@link #EOF}, or the IOException that ended the read. */
    private final BlockingQueue<Object> chunks = new ArrayBlockingQueue<>(4);
    private final Thread pump;
    private volatile boolean closed;
    private byte[] chunk = new byte[0];
    private int pos;
    private boolean ended;

    Pumped(Path file, Duration timeout) {
      this.file = file;
      this.timeout = timeout;
      this.pump = new Thread(this::pump, "secpe-input-" + file.getFileName());
      pump.setDaemon(true);
      pump.start();
    }

    private void pump() {
      try (InputStream in = Files.newInputStream(file)) {
        opened.complete(null);
        while (!closed) {
          byte[] buf = new byte[CHUNK];
          int n = in.read(buf);
          if (n < 0) {
            chunks.put(EOF);
            return;
          }
          if (n > 0) {
            chunks.put(n == buf.length ? buf : Arrays.copyOf(buf, n));
          }
        }
      } catch (IOException e) {
        if (!opened.completeExceptionally(e)) {
          try {
            chunks.put(e);
          } catch (InterruptedException closedMeanwhile) {
            // the reader closed the stream: nobody waits for the error
          }
        }
      } catch (InterruptedException e) {
        // closed by the reader
      }
    }

    void awaitOpen() throws IOException {
      try {
        opened.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        close();
        throw new InputStalledException(file, timeout, true);
      } catch (ExecutionException e) {
        close();
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      } catch (InterruptedException e) {
        close();
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while opening " + file);
      }
    }

    /** Makes the current chunk non-empty; false at the end of the file. */
    private boolean fill() throws IOException {
      if (closed) {
        throw new IOException("stream closed");
      }
      while (pos == chunk.length) {
        if (ended) {
          return false;
        }
        Object next;
        try {
          next = chunks.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading " + file);
        }
        if (next == null) {
          throw new InputStalledException(file, timeout, false);
        }
        if (next instanceof IOException e) {
          ended = true;
          throw e;
        }
        chunk = (byte[]) next;
        pos = 0;
        if (chunk == EOF) {
          ended = true;
          return false;
        }
      }
      return true;
    }

    @Override
    public int read() throws IOException {
      return fill() ? chunk[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      if (!fill()) {
        return -1;
      }
      int n = Math.min(len, chunk.length - pos);
      System.arraycopy(chunk, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return chunk.length - pos;
    }

    @Override
    public void close() {
      closed = true;
      pump.interrupt(); // an interruptible file channel closes and the pump ends
    }
  }
}
