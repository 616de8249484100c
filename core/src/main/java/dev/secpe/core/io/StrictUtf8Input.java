package dev.secpe.core.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Passes bytes through and fails at the first byte sequence that is not well-formed UTF-8 (RFC
 * 3629: no overlong forms, no surrogates, nothing above U+10FFFF, no sequence cut short by the end
 * of the input), naming the line it is on. A line feed (0x0A) never occurs inside a multi-byte
 * sequence, so counting line feeds here gives the exact line, however far ahead a decoder reads.
 * Without this check the decoder replaced such bytes with U+FFFD silently, and the run was charged
 * for text that was not the file's.
 */
final class StrictUtf8Input extends FilterInputStream {

  /** A malformed sequence on {@link #line()} (1-based); it carries no byte of the input. */
  static final class Malformed extends IOException {
    private static final long serialVersionUID = 1L;
    private final long line;

    Malformed(long line) {
      super("not valid UTF-8 at line " + line);
      this.line = line;
    }

    long line() {
      return line;
    }
  }

  private long line = 1;
  private int pending; // continuation bytes still expected
  private int lo = 0x80; // the range the next continuation byte must lie in
  private int hi = 0xBF;

  StrictUtf8Input(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b < 0) {
      end();
    } else {
      check(b);
    }
    return b;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    int n = super.read(buf, off, len);
    if (n < 0) {
      end();
    }
    for (int i = 0; i < n; i++) {
      check(buf[off + i] & 0xFF);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    throw new IOException("skip is not supported while UTF-8 is checked");
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  private void end() throws Malformed {
    if (pending > 0) {
      throw new Malformed(line);
    }
  }

  private void check(int b) throws Malformed {
    if (pending > 0) {
      if (b < lo || b > hi) {
        throw new Malformed(line);
      }
      pending--;
      lo = 0x80;
      hi = 0xBF;
      return;
    }
    if (b < 0x80) {
      if (b == '\n') {
        line++;
      }
      return;
    }
    if (b >= 0xC2 && b <= 0xDF) {
      pending = 1;
    } else if (b == 0xE0) {
      pending = 2;
      lo = 0xA0;
    } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
      pending = 2;
    } else if (b == 0xED) {
      pending = 2;
      hi = 0x9F; // no surrogates
    } else if (b == 0xF0) {
      pending = 3;
      lo = 0x90;
    } else if (b >= 0xF1 && b <= 0xF3) {
      pending = 3;
    } else if (b == 0xF4) {
      pending = 3;
      hi = 0x8F;
    } else {
      throw new Malformed(line); // a continuation byte alone, C0, C1, F5-FF
    }
  }
}
