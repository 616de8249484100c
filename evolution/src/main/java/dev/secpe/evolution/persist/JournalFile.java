package dev.secpe.evolution.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

/**
 * The file of one dataset's privacy journal: {@code DIR/KEY/journal.jsonl}, one JSON object a line,
 * appended and forced to the disk ({@code fsync}) before {@link #append} returns, never rewritten.
 * It is opened for appending only, so an append-only file ({@code chattr +a}) is a journal runs
 * can use and no one can rewrite. The first entry names the dataset: a journal of another dataset
 * (copied, linked or restored over this one) is refused.
 * Each entry holds its sequence number, its time and the SHA-256 of the line before it, so that an
 * entry edited, removed or reordered by accident breaks the chain and the journal is refused
 * (someone who controls the file can rewrite the chain: see the threat model in the docs).
 *
 * <p>Writes happen under {@code DIR/KEY/lock}, held by one run for its whole length ({@link
 * FileLocks}). A line left half-written by a crash (no final newline) was never acknowledged:
 * nothing was drawn on its strength, so the locked opener cuts it off and journals that it did (a
 * complete entry that lost only its newline is completed, never dropped). Only what a crash leaves
 * is cut off, a strict prefix of the one entry being written ({@link JournalTail}); any other
 * damage is refused by every reader and opener, naming the byte where it starts.
 */
final class JournalFile implements AutoCloseable {

  static final String FILE = "journal.jsonl";
  static final String LOCK = "lock";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final FileLocks.Held lock;
  private final FileChannel channel;
  private final List<ObjectNode> entries;
  private String lastHash;
  private final List<String> repairs = new ArrayList<>();

  private JournalFile(Path file, FileLocks.Held lock, FileChannel channel, List<ObjectNode> entries, String lastHash) {
    this.file = file;
    this.lock = lock;
    this.channel = channel;
    this.entries = entries;
    this.lastHash = lastHash;
  }

  /** The directory of a dataset's journal under the journal root. */
  static Path dirOf(Path root, String key) {
    return root.resolve(key);
  }

  /**
   * Opens the journal of {@code key} under {@code root} for appending, holding its lock until
   * {@link #close()} (waiting at most {@code wait} for another run to let go). The file is opened
   * for appending only ({@code O_APPEND}), so a journal made append-only ({@code chattr +a}) works;
   * write access beyond appending is asked for only to cut off a half-written last line, and
   * {@link #repairs()} says when that (or any other repair) happened.
   *
   * @throws IllegalStateException if another run holds it, the journal is damaged, is not a
   *     regular file or belongs to another dataset
   * @throws UncheckedIOException if it cannot be created, locked or read
   */
  static JournalFile openLocked(Path root, String key, Duration wait, String holder) {
    Path dir = dirOf(root, key);
    try {
      createPrivateDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the privacy journal directory " + dir + ": " + describe(e), e);
    }
    FileLocks.Held lock = FileLocks.exclusive(dir.resolve(LOCK), wait, "the privacy journal of this dataset (" + dir + ")", holder);
    try {
      Path file = dir.resolve(FILE);
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
          Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
          Files.createFile(file);
        }
      }
      checkRegular(file);
      Contents c = Contents.load(file);
      checkDataset(file, c.entries(), key);
      FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      JournalFile jf = new JournalFile(file, lock, ch, c.entries(), c.lastHash());
      try {
        if (c.hasTail()) {
          jf.repairTail(c);
        }
      } catch (IOException | RuntimeException e) {
        jf.closeChannel();
        throw e;
      }
      if (c.entries().isEmpty() || c.bytes().length == 0) {
        syncDirectory(dir);
      }
      return jf;
    } catch (IOException e) {
      lock.close();
      throw new UncheckedIOException("cannot open the privacy journal in " + dir + ": " + describe(e), e);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /**
   * Repairs a last line without its newline. A complete entry (it parses and continues the chain)
   * lost only its newline: it is kept, completed by appending the newline (an append, which an
   * append-only journal allows), so a lifetime limit or a charge is never dropped. A line cut
   * short was never acknowledged, so nothing was drawn on its strength: it is cut off, which needs
   * write access to the file (refused, with what to do, where the file is append-only).
   */
  private void repairTail(Contents c) throws IOException {
    byte[] tail = c.tail();
    int end = c.end();
    ObjectNode complete = completeEntry(tail);
    if (complete == null) {
      refuseDamagedTail(file, c, entries.size(), lastHash);
    }
    if (complete != null) {
      write(new byte[] {'\n'}, channel.size());
      entries.add(complete);
      lastHash = sha256(tail);
      String what = "completed entry " + complete.path("seq").asLong() + " (" + complete.path("type").asText()
          + "), whose final newline a crash left unwritten; it is kept";
      repairs.add(what);
      append(JSON.createObjectNode().put("type", "repair").put("note", what));
      return;
    }
    boolean limit = new String(tail, StandardCharsets.UTF_8).contains("\"type\":\"limit\"");
    try (FileChannel w = FileChannel.open(file, StandardOpenOption.WRITE)) {
      w.truncate(end);
      w.force(true);
    } catch (IOException e) {
      throw new IllegalStateException(
          "the privacy journal " + file + " ends in a half-written entry (" + tail.length + " bytes, never"
              + " acknowledged) that must be cut off before a run can append, but the file cannot be rewritten ("
              + describe(e) + "): if it is append-only (chattr +a), clear the flag for one run (chattr -a), or cut"
              + " the last, unfinished line off by hand; nothing was drawn", e);
    }
    String what = "cut off " + tail.length + " bytes of an entry a crash left half-written (never acknowledged:"
        + " nothing was drawn on it)"
        + (limit ? "; it was a lifetime limit being set, which was never set: set it again (secpe privacy limit)" : "");
    repairs.add(what);
    append(JSON.createObjectNode().put("type", "repair").put("note", what));
  }

  /**
   * Refuses a last line (no final newline) that is not what a crash leaves, a strict prefix of the
   * one entry being written ({@link JournalTail}): NUL bytes, a zeroed file, another entry's bytes
   * or text that is no JSON may hide acknowledged entries (a limit, charges), so they are never cut
   * off as a torn entry, nor read past.
   *
   * @throws IllegalStateException naming the byte where the damage starts and what to restore
   */
  private static void refuseDamagedTail(Path file, Contents c, int count, String lastHash) {
    int at = JournalTail.damage(c.tail(), count + 1L, lastHash);
    if (at < 0) {
      return;
    }
    long offset = (long) c.end() + at;
    String what = c.bytes()[(int) offset] == 0
        ? "NUL bytes (a zeroed or never-written region: a disk or file-system fault, or a stray write)"
        : "bytes that are not the start of entry " + (count + 1) + " continuing the chain";
    throw damaged(file, offset, c.bytes().length,
        "after its last complete entry (" + count + ") it holds " + what + ", which is not what a crash"
            + " leaves (at most the start of the one entry being written)");
  }

  /**
   * The refusal of a damaged journal: where the damage starts, and what to do. What was spent (a
   * lifetime limit, runs, charges) may lie past it, so no command reads past it and no run is
   * accounted on it.
   */
  private static IllegalStateException damaged(Path file, long offset, long size, String why) {
    return new IllegalStateException(
        "the privacy journal " + file + " is damaged from byte " + offset + (size >= 0 ? " on (of " + size + " bytes)" : " on") + ": " + why
            + "; entries acknowledged before the damage (a lifetime limit, charges) may be hidden by it, so what"
            + " was spent on this dataset cannot be read and no run on it can be accounted: restore the journal"
            + " from a backup (or the file from before the damage); nothing was drawn");
  }

  /** {@code tail} as the next entry of the chain, or null where it is not one. */
  private ObjectNode completeEntry(byte[] tail) {
    return completeEntry(tail, entries.size(), lastHash);
  }

  /** {@code tail} as the entry after {@code count} entries ending in {@code lastHash}, or null. */
  private static ObjectNode completeEntry(byte[] tail, int count, String lastHash) {
    JsonNode n;
    try {
      n = JSON.readTree(tail);
    } catch (IOException e) {
      return null;
    }
    return n instanceof ObjectNode o && o.path("seq").asLong(-1) == count + 1L
        && o.path("prev").asText("?").equals(lastHash) ? o : null;
  }

  /**
   * What the opener repaired (a half-written last line cut off or completed), in words; empty if
   * nothing.
   */
  List<String> repairs() {
    return Collections.unmodifiableList(repairs);
  }

  /**
   * Refuses a journal that is not a regular file (a directory, a device, a link to {@code
   * /dev/null}): what it would hold is lost, and what it holds cannot be read.
   */
  static void checkRegular(Path file) {
    if (Files.isRegularFile(file)) {
      return;
    }
    String kind = Files.isDirectory(file) ? "a directory"
        : Files.isSymbolicLink(file) ? "a symbolic link to " + target(file) + ", which is not a regular file"
        : "not a regular file (a device, a FIFO or a socket)";
    throw new IllegalStateException(
        "the privacy journal " + file + " is " + kind + ": a journal must be a regular file, or what it records"
            + " is lost; restore the dataset's journal there (nothing was drawn)");
  }

  private static String target(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException e) {
      return "an unreadable target";
    }
  }

  /** Characters of a dataset key shown in messages: enough to tell two keys apart. */
  static final int KEY_SHOWN = 12;

  /**
   * Refuses a journal whose first entry names another dataset: a journal copied, linked or
   * restored from another dataset's directory would lend that dataset's limit and history to this
   * one.
   */
  static void checkDataset(Path file, List<ObjectNode> entries, String key) {
    if (entries.isEmpty()) {
      return;
    }
    ObjectNode first = entries.get(0);
    String named = first.path("key").asText("");
    if (!first.path("type").asText().equals("dataset")) {
      throw damaged(file, 0, -1, "its first entry is a '" + first.path("type").asText() + "', not the line that names"
          + " its dataset");
    }
    if (!named.equals(key)) {
      throw new IllegalStateException(
          "the privacy journal " + file + " belongs to another dataset: its first entry names the dataset "
              + (named.isEmpty() ? "(none)" : shortKey(named) + "…") + ", but these records are the dataset "
              + shortKey(key) + "… (it was copied, linked or restored from another dataset's directory); restore"
              + " this dataset's own journal or move the other one back (nothing was drawn)");
    }
  }

  /** The first {@value #KEY_SHOWN} characters of a dataset key. */
  static String shortKey(String key) {
    return key.length() <= KEY_SHOWN ? key : key.substring(0, KEY_SHOWN);
  }

  /**
   * The entries of {@code key}'s journal under {@code root}, read without the lock (a run may be
   * appending: a last line without its newline counts only where it is a complete entry); empty
   * if there is none.
   *
   * @throws IllegalStateException if the journal is damaged, not a regular file, or another
   *     dataset's
   * @throws UncheckedIOException if it cannot be read
   */
  static List<ObjectNode> read(Path root, String key) {
    Path file = dirOf(root, key).resolve(FILE);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    checkRegular(file);
    try {
      Contents c = Contents.load(file);
      List<ObjectNode> entries = c.entries();
      if (c.hasTail()) {
        // A complete entry that lost only its newline (or a run appending right now) counts: a
        // limit or a charge is never left out; a line cut short was never acknowledged.
        ObjectNode complete = completeEntry(c.tail(), entries.size(), c.lastHash());
        if (complete != null) {
          entries.add(complete);
        } else {
          refuseDamagedTail(file, c, entries.size(), c.lastHash());
        }
      }
      checkDataset(file, entries, key);
      return entries;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the privacy journal " + file + ": " + describe(e), e);
    }
  }

  /**
   * A journal file as read: its bytes, the end of its last complete line, the entries of the
   * complete lines (chain checked; a mutable list) and the last one's hash.
   */
  private record Contents(byte[] bytes, int end, List<ObjectNode> entries, String lastHash) {

    static Contents load(Path file) throws IOException {
      byte[] bytes = Files.readAllBytes(file);
      int end = bytes.length;
      while (end > 0 && bytes[end - 1] != '\n') {
        end--;
      }
      List<ObjectNode> entries = new ArrayList<>();
      String last = parse(file, bytes, end, entries);
      return new Contents(bytes, end, entries, last);
    }

    /** Whether a last line lacks its newline. */
    boolean hasTail() {
      return end < bytes.length;
    }

    /** That last line's bytes. */
    byte[] tail() {
      return Arrays.copyOfRange(bytes, end, bytes.length);
    }
  }

  /** Parses complete lines into {@code out}, checking the chain; returns the last line's hash. */
  private static String parse(Path file, byte[] bytes, int end, List<ObjectNode> out) {
    String prev = "";
    int start = 0;
    long seq = 0;
    for (int i = 0; i < end; i++) {
      if (bytes[i] != '\n') {
        continue;
      }
      byte[] line = Arrays.copyOfRange(bytes, start, i);
      start = i + 1;
      seq++;
      JsonNode n;
      try {
        n = JSON.readTree(line);
      } catch (IOException e) {
        n = null;
      }
      if (!(n instanceof ObjectNode o) || o.path("seq").asLong(-1) != seq || !o.path("prev").asText("?").equals(prev)) {
        throw damaged(file, i - line.length, bytes.length,
            "it is damaged or was edited at entry " + seq + " (its chain of digests breaks there)");
      }
      out.add(o);
      prev = sha256(line);
    }
    return prev;
  }

  /** The entries, in order (including those this run appended). */
  List<ObjectNode> entries() {
    return Collections.unmodifiableList(entries);
  }

  /** Where the journal lives. */
  Path file() {
    return file;
  }

  /**
   * Appends {@code entry} (its sequence number, time and chain digest are set here) and forces it
   * to the disk before returning: an entry is durable once this returns.
   *
   * @throws UncheckedIOException if it cannot be written (a full disk): the caller must not go on
   */
  ObjectNode append(ObjectNode entry) {
    ObjectNode e = JSON.createObjectNode();
    e.put("seq", entries.size() + 1L);
    e.put("time", Instant.now().toString());
    e.put("prev", lastHash);
    e.setAll(entry);
    byte[] line;
    try {
      line = JSON.writeValueAsBytes(e);
      byte[] withNewline = Arrays.copyOf(line, line.length + 1);
      withNewline[line.length] = '\n';
      write(withNewline, channel.size());
    } catch (IOException io) {
      throw new UncheckedIOException("cannot write to the privacy journal " + file + ": " + describe(io), io);
    }
    entries.add(e);
    lastHash = sha256(line);
    return e;
  }

  /**
   * Appends {@code bytes} (the channel is in append mode: they land at the end, {@code at}) and
   * forces them to the disk. A failed write never leaves part of a line behind where the file can
   * be cut back; where it cannot (append-only), the next locked open repairs the line.
   */
  private void write(byte[] bytes, long at) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    try {
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      channel.force(true);
    } catch (IOException io) {
      try {
        channel.truncate(at);
        channel.force(true);
      } catch (IOException ignored) {
        // append-only, or the disk is gone: the next locked open cuts a half line off
      }
      throw io;
    }
  }

  private void closeChannel() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing was written through it that is not forced
    }
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // every entry was forced when it was appended
    } finally {
      lock.close();
    }
  }

  /**
   * Creates {@code dir} and its parents, readable by the owner only where the file system allows
   * it.
   */
  static void createPrivateDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      createPrivateDirectories(parent);
    }
    try {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      if (!Files.isDirectory(dir)) {
        throw e;
      }
    }
  }

  /** Forces a directory's entries (a new file's name) to the disk, where the platform allows it. */
  static void syncDirectory(Path dir) {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | RuntimeException e) {
      // not every platform opens directories (Windows); the file's own force still holds
    }
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  static String describe(IOException e) {
    String m = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : " (" + m + ")");
  }

  static ObjectMapper json() {
    return JSON;
  }

  /** The values of a release as stored in the journal: big-endian doubles, base64. */
  static String encode(double[] values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 8);
    for (double v : values) {
      b.putDouble(v);
    }
    return Base64.getEncoder().encodeToString(b.array());
  }

  static double[] decode(String base64) {
    ByteBuffer b = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
    double[] v = new double[b.remaining() / 8];
    for (int i = 0; i < v.length; i++) {
      v[i] = b.getDouble();
    }
    return v;
  }
}
