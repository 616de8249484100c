package dev.secpe.evolution.persist;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What a crash can leave after a journal's last complete line, and nothing else. Entries are
 * appended one at a time, each forced to the disk before the next is written, so a crash leaves at
 * most a strict prefix of the one entry being written: the bytes {@link JournalFile#append} writes,
 * {@code {"seq":N,"time":"…","prev":"<SHA-256 of the line before>",…}}, cut anywhere. Any other
 * tail (NUL bytes of a zeroed or never-written region, another entry's bytes, text that is no
 * JSON) is damage a crash does not leave: it may hide acknowledged entries (a lifetime limit,
 * charges), so it is never cut off as a torn entry.
 */
final class JournalTail {

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * The longest time an entry holds ({@link java.time.Instant#toString()}: 27 characters, more past
   * year 9999).
   */
  private static final int MAX_TIME = 40;

  private JournalTail() {}

  /**
   * Where {@code tail} stops being a prefix of the entry {@code seq} following the line whose
   * digest is {@code prev}: the index of its first byte that cannot be there, or -1 where all of
   * it can (a prefix as far as it reaches: the header's literal bytes, a time, valid UTF-8 and JSON
   * that has not yet closed its object).
   */
  static int damage(byte[] tail, long seq, String prev) {
    int at = expect(tail, 0, "{\"seq\":" + seq + ",\"time\":\"");
    if (at < 0 || at == tail.length) {
      return at < 0 ? ~at : -1;
    }
    int t = at;
    while (t < tail.length && isTimeChar(tail[t])) {
      if (t - at >= MAX_TIME) {
        return t;
      }
      t++;
    }
    if (t == tail.length) {
      return -1;
    }
    if (tail[t] != '"' || t == at) {
      return t;
    }
    at = expect(tail, t + 1, ",\"prev\":\"" + prev + "\",");
    if (at < 0) {
      return ~at;
    }
    return syntax(tail);
  }

  /**
   * Matches {@code expected} at {@code from} as far as {@code tail} reaches: the index after it (or
   * the tail's length where the tail ends inside it), or {@code ~i} for the first byte {@code i}
   * that differs.
   */
  private static int expect(byte[] tail, int from, String expected) {
    byte[] e = expected.getBytes(StandardCharsets.UTF_8);
    for (int k = 0; k < e.length; k++) {
      if (from + k == tail.length) {
        return tail.length;
      }
      if (tail[from + k] != e[k]) {
        return ~(from + k);
      }
    }
    return from + e.length;
  }

  private static boolean isTimeChar(byte b) {
    return b >= '0' && b <= '9' || b == '-' || b == '+' || b == ':' || b == '.' || b == 'T' || b == 'Z';
  }

  /**
   * The first byte of {@code tail} that no prefix of one JSON object can hold: a NUL, a byte that
   * is not UTF-8 (a multi-byte character cut at the end is fine), a token error, or anything after
   * the object closed; -1 for none.
   */
  private static int syntax(byte[] tail) {
    for (int i = 0; i < tail.length; i++) {
      if (tail[i] == 0) {
        return i;
      }
    }
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(tail);
    if (utf8.decode(in, CharBuffer.allocate(tail.length), false).isError()) {
      return in.position();
    }
    int i = 0;
    try (JsonParser p = JSON.createNonBlockingByteArrayParser()) {
      ByteArrayFeeder feeder = (ByteArrayFeeder) p.getNonBlockingInputFeeder();
      int depth = 0;
      boolean closed = false;
      // One byte at a time, so that an error names the byte that caused it.
      for (; i < tail.length; i++) {
        if (closed) {
          return i;
        }
        feeder.feedInput(tail, i, i + 1);
        for (JsonToken tok = p.nextToken(); tok != null && tok != JsonToken.NOT_AVAILABLE; tok = p.nextToken()) {
          if (tok.isStructStart()) {
            depth++;
          } else if (tok.isStructEnd() && --depth == 0) {
            closed = true;
          }
        }
      }
      return -1;
    } catch (IOException e) {
      return Math.min(i, tail.length - 1);
    }
  }
}
