package dev.secpe.cli.demo;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * A progress line for a stretch of work counted in texts, printed at most once per {@code every}:
 * "what: 320/1,280 texts, 48.2 texts/s, about 20 s left", and a last line with the total time when
 * the stretch took long enough to have printed one. A stretch shorter than {@code every} prints
 * nothing. Counts and times only, never a text.
 */
public final class ThroughputLine {

  private final PrintStream out;
  private final String what;
  private final long total;
  private final long everyNanos;
  private final long start = System.nanoTime();
  private long lastPrint = start;
  private long done;
  private boolean printed;

  /** A stretch of {@code total} texts, reported on {@code out} at most once per {@code every}. */
  public ThroughputLine(PrintStream out, String what, long total, Duration every) {
    this.out = out;
    this.what = what;
    this.total = total;
    this.everyNanos = every.toNanos();
  }

  /** Texts done so far. */
  public synchronized long done() {
    return done;
  }

  /** {@code n} more texts are done. */
  public synchronized void advance(long n) {
    advanceTo(done + n);
  }

  /** {@code done} texts of the stretch are done. */
  public synchronized void advanceTo(long doneNow) {
    done = Math.min(total, doneNow);
    long now = System.nanoTime();
    double seconds = (now - start) / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    if (done >= total) {
      if (printed || now - start >= everyNanos) {
        out.printf(Locale.ROOT, "%s: %,d texts in %s, %.1f texts/s%n", what, total, duration(seconds), rate);
        printed = false;
      }
      lastPrint = Long.MAX_VALUE; // nothing more to say
      return;
    }
    if (now - lastPrint < everyNanos) {
      return;
    }
    String left = rate > 0 ? "about " + duration((total - done) / rate) + " left" : "time left unknown yet";
    out.printf(Locale.ROOT, "%s: %,d/%,d texts, %.1f texts/s, %s%n", what, done, total, rate, left);
    lastPrint = now;
    printed = true;
  }

  /** "12 s", "3 min 05 s", "1 h 02 min". */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
  }
}
