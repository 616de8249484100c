package dev.secpe.evolution.persist;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exclusive locks on files, held for a whole run: one process at a time (an OS file lock, released
 * by the OS when the process dies, so a killed run never leaves a stale lock) and one run at a time
 * within this JVM (the OS lock is per process). The holder writes who it is into the lock file, so
 * that a refused run can say which run holds it.
 */
final class FileLocks {

  /** Lock files held by runs in this JVM (canonical paths). */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  /** How often a waiting run tries again. */
  private static final long POLL_MILLIS = 100;

  private FileLocks() {}

  /** A held lock; {@link #close()} releases it. */
  static final class Held implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private Held(Path file, FileChannel channel, FileLock lock) {
      this.file = file;
      this.channel = channel;
      this.lock = lock;
    }

    @Override
    public void close() {
      try {
        lock.release();
        channel.close();
      } catch (IOException e) {
        // closing the channel releases the lock in any case
      } finally {
        HELD.remove(file);
      }
    }
  }

  /**
   * Takes the exclusive lock of {@code lockFile} (created if missing), waiting at most {@code wait}
   * for another holder to let go.
   *
   * @param what what the lock protects, for the refusal ("the checkpoint directory /x")
   * @param holder who takes it, written into the lock file ("secpe augpe run 1f3c...")
   * @throws IllegalStateException if another run holds it after {@code wait}; the message names
   *     the holder as it described itself
   */
  static Held exclusive(Path lockFile, Duration wait, String what, String holder) {
    Path key = lockFile.toAbsolutePath().normalize();
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      if (HELD.add(key)) {
        FileChannel ch = null;
        try {
          ch = FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
          FileLock lock;
          try {
            lock = ch.tryLock();
          } catch (OverlappingFileLockException heldInThisJvm) {
            lock = null; // locked through another channel of this JVM, not by a run
          }
          if (lock != null) {
            byte[] who = (holder + "; pid " + ProcessHandle.current().pid() + "; since " + Instant.now() + "\n")
                .getBytes(StandardCharsets.UTF_8);
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(who), 0);
            ch.force(false);
            return new Held(key, ch, lock);
          }
          ch.close();
        } catch (IOException e) {
          HELD.remove(key);
          closeQuietly(ch);
          throw new UncheckedIOException("cannot lock " + what + " (" + key + "): " + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        } catch (RuntimeException e) {
          HELD.remove(key);
          closeQuietly(ch);
          throw e;
        }
        HELD.remove(key);
      }
      if (System.nanoTime() >= deadline) {
        throw new IllegalStateException(
            "another run is using " + what + " (held by: " + holderOf(key) + "): two runs at once would each"
                + " draw and spend the budget; wait for it to end"
                + (wait.isZero() ? "" : " (waited " + wait.toSeconds() + " s)"));
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted while waiting for " + what);
      }
    }
  }

  private static String holderOf(Path lockFile) {
    try {
      String s = Files.readString(lockFile, StandardCharsets.UTF_8).strip();
      return s.isEmpty() ? "a run in this JVM or one starting now" : s;
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static void closeQuietly(FileChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // nothing held
      }
    }
  }
}
