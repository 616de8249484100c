package dev.secpe.evolution.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The file of one dataset's privacy journal: {@code DIR/KEY/journal.jsonl}, one JSON object a line,
 * appended and forced to the disk ({@code fsync}) before {@link #append} returns, never rewritten.
 * Each entry holds its sequence number, its time and the SHA-256 of the line before it, so that an
 * entry edited, removed or reordered by accident breaks the chain and the journal is refused
 * (someone who controls the file can rewrite the chain: see the threat model in the docs).
 *
 * <p>Writes happen under {@code DIR/KEY/lock}, held by one run for its whole length ({@link
 * FileLocks}). A line left half-written by a crash (no final newline) was never acknowledged:
 * nothing was drawn on its strength, so the locked opener cuts it off and journals that it did.
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
   * {@link #close()} (waiting at most {@code wait} for another run to let go).
   *
   * @throws IllegalStateException if another run holds it, or the journal is damaged
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
      if (!Files.exists(file) && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      byte[] bytes = readAll(ch);
      int end = bytes.length;
      while (end > 0 && bytes[end - 1] != '\n') {
        end--;
      }
      List<ObjectNode> entries = new ArrayList<>();
      String last = parse(file, bytes, end, entries);
      JournalFile jf = new JournalFile(file, lock, ch, entries, last);
      if (end < bytes.length) {
        ch.truncate(end);
        ch.force(true);
        ObjectNode repair = JSON.createObjectNode().put("type", "repair")
            .put("note", "cut off " + (bytes.length - end) + " bytes of an entry a crash left half-written (never acknowledged: nothing was drawn on it)");
        jf.append(repair);
      }
      if (entries.isEmpty() || bytes.length == 0) {
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
   * The entries of {@code key}'s journal under {@code root}, read without the lock (a run may be
   * appending: a last line without its newline is left out); empty if there is none.
   *
   * @throws IllegalStateException if the journal is damaged
   */
  static List<ObjectNode> read(Path root, String key) {
    Path file = dirOf(root, key).resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    try {
      byte[] bytes = Files.readAllBytes(file);
      int end = bytes.length;
      while (end > 0 && bytes[end - 1] != '\n') {
        end--;
      }
      List<ObjectNode> entries = new ArrayList<>();
      parse(file, bytes, end, entries);
      return entries;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the privacy journal " + file + ": " + describe(e), e);
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
      byte[] line = java.util.Arrays.copyOfRange(bytes, start, i);
      start = i + 1;
      seq++;
      JsonNode n;
      try {
        n = JSON.readTree(line);
      } catch (IOException e) {
        n = null;
      }
      if (!(n instanceof ObjectNode o) || o.path("seq").asLong(-1) != seq || !o.path("prev").asText("?").equals(prev)) {
        throw new IllegalStateException(
            "the privacy journal " + file + " is damaged or was edited at entry " + seq + " (its chain of"
                + " digests breaks there); no run on this dataset can be accounted until a person restores it");
      }
      out.add(o);
      prev = sha256(line);
    }
    return prev;
  }

  /** The entries, in order (including those this run appended). */
  List<ObjectNode> entries() {
    return java.util.Collections.unmodifiableList(entries);
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
      long at = channel.size();
      ByteBuffer buf = ByteBuffer.allocate(line.length + 1).put(line).put((byte) '\n').flip();
      try {
        while (buf.hasRemaining()) {
          channel.write(buf, at + buf.position());
        }
        channel.force(true);
      } catch (IOException io) {
        // A partial line is never left behind by a failed append: cut it off at once.
        try {
          channel.truncate(at);
          channel.force(true);
        } catch (IOException ignored) {
          // the next locked open cuts a half line off
        }
        throw io;
      }
    } catch (IOException io) {
      throw new UncheckedIOException("cannot write to the privacy journal " + file + ": " + describe(io), io);
    }
    entries.add(e);
    lastHash = sha256(line);
    return e;
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

  private static byte[] readAll(FileChannel ch) throws IOException {
    long size = ch.size();
    if (size > Integer.MAX_VALUE - 16) {
      throw new IOException("journal too large (" + size + " bytes)");
    }
    ByteBuffer buf = ByteBuffer.allocate((int) size);
    while (buf.hasRemaining() && ch.read(buf, buf.position()) >= 0) {
      // read on
    }
    return buf.array();
  }

  /** Creates {@code dir} and its parents, readable by the owner only where the file system allows it. */
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
    } catch (java.nio.file.FileAlreadyExistsException e) {
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
    return java.util.Base64.getEncoder().encodeToString(b.array());
  }

  static double[] decode(String base64) {
    ByteBuffer b = ByteBuffer.wrap(java.util.Base64.getDecoder().decode(base64));
    double[] v = new double[b.remaining() / 8];
    for (int i = 0; i < v.length; i++) {
      v[i] = b.getDouble();
    }
    return v;
  }
}
