package dev.secpe.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Output paths checked before any private record is read, and written atomically. A run spends a
 * privacy budget that cannot be bought back: a mistyped {@code --out} must fail at once, not after
 * every release has been drawn, and must never replace what is not the run's own.
 *
 * <p>An output must be a new path or an existing regular file (not a link, a directory, a FIFO, a
 * device or a socket), not under {@code /dev}, {@code /proc} or {@code /sys}, and not an input of
 * any kind, another output or a file of the checkpoint or journal directories, compared by real
 * path and by device and inode (a hard link is the same file). Each output's directory is probed
 * with a real write of the output's expected size (up to {@link #PROBE_MAX} bytes; beyond, the free
 * space is checked), since creating an empty file succeeds on a full disk.
 */
final class OutputPaths {

  /** The most a probe writes; a larger expected size is checked against the free space. */
  static final long PROBE_MAX = 8L << 20;

  /** Pseudo file systems no output may go to. */
  private static final List<Path> SYSTEM = List.of(Path.of("/dev"), Path.of("/proc"), Path.of("/sys"));

  private OutputPaths() {}

  /** What a run reads and writes, checked together by {@link #check()}. */
  static final class Plan {
    private final Map<String, Path> inputs = new LinkedHashMap<>();
    private final Map<String, Path> files = new LinkedHashMap<>();
    private final Map<String, Long> sizes = new LinkedHashMap<>();
    private final Map<String, Path> dirs = new LinkedHashMap<>();
    private final Map<String, List<String>> dirFiles = new LinkedHashMap<>();
    private final Set<String> ownerOnlyDirs = new HashSet<>();

    /** An input (null: none). */
    Plan input(String option, Path p) {
      if (p != null) {
        inputs.put(option, p);
      }
      return this;
    }

    /** A file the run writes, of about {@code bytes} bytes (null path: none). */
    Plan file(String option, Path p, long bytes) {
      if (p != null) {
        files.put(option, p);
        sizes.put(option, bytes);
      }
      return this;
    }

    /**
     * A directory the run writes {@code bytes} into, as the files {@code names} (null path: none);
     * created if missing, readable by its owner only where {@code ownerOnly}.
     */
    Plan directory(String option, Path d, long bytes, List<String> names, boolean ownerOnly) {
      if (d != null) {
        dirs.put(option, d);
        sizes.put(option, bytes);
        dirFiles.put(option, names);
        if (ownerOnly) {
          ownerOnlyDirs.add(option);
        }
      }
      return this;
    }

    /**
     * Checks everything, creating the directories.
     *
     * @throws IllegalArgumentException naming the option and the reason
     */
    void check() {
      List<Named> taken = new ArrayList<>();
      for (Map.Entry<String, Path> in : inputs.entrySet()) {
        taken.add(new Named(in.getKey(), in.getValue()));
      }
      for (Map.Entry<String, Path> d : dirs.entrySet()) {
        checkDirectory(d.getKey(), d.getValue(), taken);
        for (String name : dirFiles.get(d.getKey())) {
          Path f = d.getValue().resolve(name);
          for (Named in : taken) {
            if (in.sameFile(f)) {
              throw new IllegalArgumentException(
                  in.option + " " + in.path + " is the " + name + " of " + d.getKey() + " " + d.getValue()
                      + ": the run would write over it; choose another path");
            }
          }
        }
      }
      for (Map.Entry<String, Path> out : files.entrySet()) {
        String option = out.getKey();
        Path p = out.getValue();
        for (Named other : taken) {
          if (other.sameFile(p)) {
            throw new IllegalArgumentException(
                option + " " + p + " is the same file as " + other.option + " " + other.path + ": choose another path");
          }
        }
        Path c = canonical(p);
        for (Map.Entry<String, Path> d : dirs.entrySet()) {
          if (c.startsWith(canonical(d.getValue()))) {
            throw new IllegalArgumentException(
                option + " " + p + " is inside " + d.getKey() + " " + d.getValue() + ", which the run keeps for its own"
                    + " files: choose a path outside it");
          }
        }
        checkFile(option, p);
        taken.add(new Named(option, p));
        probe(option, p, c.getParent(), sizes.get(option));
      }
      for (Map.Entry<String, Path> d : dirs.entrySet()) {
        create(d.getKey(), d.getValue(), ownerOnlyDirs.contains(d.getKey()));
        probe(d.getKey(), d.getValue(), d.getValue(), sizes.get(d.getKey()));
      }
    }

    private static void checkDirectory(String option, Path d, List<Named> taken) {
      if (d.toString().isEmpty()) {
        throw new IllegalArgumentException(option + " must not be empty (it would put the run's files in the current directory)");
      }
      if (Files.exists(d) && !Files.isDirectory(d)) {
        throw new IllegalArgumentException(option + " " + d + " exists and is not a directory");
      }
      Path c = canonical(d);
      for (Path system : SYSTEM) {
        if (c.startsWith(system)) {
          throw new IllegalArgumentException(option + " " + d + " is under " + system + ": choose a directory on a real file system");
        }
      }
      for (Named other : taken) {
        if (other.sameFile(d) || canonical(other.path).equals(c)) {
          throw new IllegalArgumentException(
              option + " " + d + " is the same path as " + other.option + ": choose another directory");
        }
      }
    }
  }

  /** An option's path, compared by real path and by device and inode. */
  private record Named(String option, Path path) {
    boolean sameFile(Path other) {
      if (canonical(path).equals(canonical(other))) {
        return true;
      }
      Object a = fileKey(path);
      return a != null && a.equals(fileKey(other));
    }
  }

  /** The device and inode of an existing file (links followed), or null. */
  private static Object fileKey(Path p) {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class).fileKey();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Checks that every output (option name to path; null paths skipped) is a writable file path
   * distinct from every input and from the other outputs. Directories in {@code directoryOutputs}
   * must be, or be creatable as, writable directories.
   *
   * @throws IllegalArgumentException naming the option and the reason
   */
  static void preflight(
      Map<String, Path> fileOutputs, Map<String, Path> directoryOutputs, Map<String, Path> inputs) {
    Plan plan = new Plan();
    inputs.forEach(plan::input);
    fileOutputs.forEach((o, p) -> plan.file(o, p, 1));
    directoryOutputs.forEach((o, d) -> plan.directory(o, d, 1, List.of(), false));
    plan.check();
  }

  /** Creates {@code d} and its parents (the new ones owner-only where asked). */
  private static void create(String option, Path d, boolean ownerOnly) {
    try {
      Path abs = d.toAbsolutePath().normalize();
      List<Path> missing = new ArrayList<>();
      for (Path at = abs; at != null && !Files.isDirectory(at); at = at.getParent()) {
        missing.add(0, at);
      }
      for (Path m : missing) {
        if (ownerOnly && m.getFileSystem().supportedFileAttributeViews().contains("posix")) {
          Files.createDirectory(m, PosixFilePermissions.asFileAttribute(
              PosixFilePermissions.fromString("rwx------")));
        } else {
          Files.createDirectory(m);
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(option + " " + d + ": cannot create the directory (" + describe(e) + ")");
    }
  }

  /** A file output: a new path or a regular file, not a link, not in a pseudo file system. */
  private static void checkFile(String option, Path p) {
    if (p.toString().isEmpty()) {
      throw new IllegalArgumentException(option + " must not be empty");
    }
    if (Files.isSymbolicLink(p)) {
      throw new IllegalArgumentException(
          option + " " + p + " is a symbolic link (to " + target(p) + "): an output replaces only a regular file"
              + " of its own; give the path of the file itself, or a new one");
    }
    if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException(
          option + " " + p + " is " + kind(p) + ": an output must be a regular file or a new path");
    }
    Path c = canonical(p);
    for (Path system : SYSTEM) {
      if (c.startsWith(system)) {
        throw new IllegalArgumentException(
            option + " " + p + " is under " + system + ": an output must be a regular file on a real file system");
      }
    }
    Path parent = c.getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new IllegalArgumentException(
          option + " " + p + ": directory " + parent + " does not exist (or is not a directory)");
    }
    if (Files.exists(p) && !Files.isWritable(p)) {
      throw new IllegalArgumentException(option + " " + p + " is not writable");
    }
  }

  /**
   * Writes {@code bytes} (at most {@link #PROBE_MAX}; beyond, the free space is checked) into a
   * temporary file in {@code dir}, forces it to the disk and deletes it: a full disk, a read-only
   * mount or a pseudo file system fails here, before anything is drawn, not after. Permission bits
   * are not enough: for root every directory looks writable.
   */
  private static void probe(String option, Path what, Path dir, long bytes) {
    if (dir == null) {
      throw new IllegalArgumentException(option + " " + what + ": no existing directory to write in");
    }
    try {
      long free = Files.getFileStore(dir).getUsableSpace();
      if (free < bytes) {
        throw new IllegalArgumentException(
            option + " " + what + ": needs about " + mib(bytes) + " and " + dir + " has " + mib(free) + " free;"
                + " free some space or choose another path (nothing was read or drawn)");
      }
    } catch (IOException e) {
      // no file store information: the write below decides
    }
    Path probe = null;
    try {
      probe = Files.createTempFile(dir, ".secpe-write-check-", ".tmp");
      long n = Math.max(1, Math.min(bytes, PROBE_MAX));
      ByteBuffer block = ByteBuffer.allocate((int) Math.min(n, 1 << 16));
      try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.WRITE)) {
        for (long left = n; left > 0; left -= block.capacity()) {
          block.clear().limit((int) Math.min(block.capacity(), left));
          while (block.hasRemaining()) {
            ch.write(block);
          }
        }
        ch.force(true);
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          option + " " + what + " cannot be written: a test write of " + mib(Math.max(1, Math.min(bytes, PROBE_MAX)))
              + " in " + dir + " failed (" + describe(e) + "); nothing was read or drawn");
    } finally {
      if (probe != null) {
        try {
          Files.deleteIfExists(probe);
        } catch (IOException ignored) {
          // best effort: it holds zeros only
        }
      }
    }
  }

  private static String mib(long bytes) {
    return bytes < (1 << 20) ? bytes + " bytes" : String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }

  private static String describe(Exception e) {
    String m = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  private static String target(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  /** What a path that is not a regular file is: "a directory", "a FIFO", "a character device", ... */
  static String kind(Path p) {
    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      return "a directory";
    }
    try {
      int mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      switch (mode & 0170000) {
        case 0010000:
          return "a FIFO";
        case 0020000:
          return "a character device";
        case 0060000:
          return "a block device";
        case 0140000:
          return "a socket";
        default:
          return "not a regular file";
      }
    } catch (IOException | RuntimeException e) {
      return "not a regular file";
    }
  }

  /** The real path of an existing file (links resolved); else the absolute, normalised path with its parent resolved. */
  static Path canonical(Path p) {
    try {
      if (Files.exists(p)) {
        return p.toRealPath();
      }
      Path abs = p.toAbsolutePath().normalize();
      Path parent = abs.getParent();
      if (parent != null && Files.exists(parent)) {
        return parent.toRealPath().resolve(abs.getFileName());
      }
      return abs;
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }

  /** Something that writes a whole file. */
  interface Writer {
    void write(Path target) throws IOException;
  }

  /**
   * Writes {@code target} atomically: into a temporary file in the same directory, forced to the
   * disk, then renamed over the target, so a crash never leaves half a file; a failed write
   * removes its temporary file.
   */
  static void writeAtomically(Path target, Writer writer) {
    writeAtomically(null, target, writer);
  }

  /**
   * {@link #writeAtomically(Path, Writer)} for the output of {@code option} (null: none), which a
   * failure names with the target's path and the cause (a full disk), never the temporary file.
   */
  static void writeAtomically(String option, Path target, Writer writer) {
    Objects.requireNonNull(target, "target");
    Path dir = target.toAbsolutePath().getParent();
    Path tmp = null;
    try {
      tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
      writer.write(tmp);
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new IllegalStateException((option == null ? "" : option + ": ") + "cannot write " + target + ": " + describe(e));
    } catch (UncheckedIOException e) {
      throw new IllegalStateException(
          (option == null ? "" : option + ": ") + "cannot write " + target + ": " + describe(e.getCause()));
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // best effort: the temporary file holds only output, never input
        }
      }
    }
  }
}
