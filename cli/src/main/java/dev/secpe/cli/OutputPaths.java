package dev.secpe.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Output paths checked before any private record is read, and written atomically. A run spends a
 * privacy budget that cannot be bought back: a mistyped {@code --out} must fail at once, not after
 * every release has been drawn, and must never overwrite an input (the private file above all).
 */
final class OutputPaths {

  private OutputPaths() {}

  /**
   * Checks that every output (option name to path; null paths skipped) is a writable file path
   * distinct from every input and from the other outputs, the same file reached through a link
   * counting as the same. Directories in {@code directoryOutputs} must be, or be creatable as,
   * writable directories.
   *
   * @throws IllegalArgumentException naming the option and the reason
   */
  static void preflight(
      Map<String, Path> fileOutputs, Map<String, Path> directoryOutputs, Map<String, Path> inputs) {
    Map<String, Path> seen = new LinkedHashMap<>();
    for (Map.Entry<String, Path> in : inputs.entrySet()) {
      if (in.getValue() != null) {
        seen.put(in.getKey(), canonical(in.getValue()));
      }
    }
    for (Map.Entry<String, Path> out : fileOutputs.entrySet()) {
      Path p = out.getValue();
      if (p == null) {
        continue;
      }
      String option = out.getKey();
      Path c = canonical(p);
      for (Map.Entry<String, Path> other : seen.entrySet()) {
        if (other.getValue().equals(c)) {
          throw new IllegalArgumentException(
              option + " " + p + " is the same file as " + other.getKey() + ": choose another path");
        }
      }
      seen.put(option, c);
      if (Files.isDirectory(p)) {
        throw new IllegalArgumentException(option + " " + p + " is a directory: give a file path");
      }
      Path parent = c.getParent();
      if (parent == null || !Files.isDirectory(parent)) {
        throw new IllegalArgumentException(
            option + " " + p + ": directory " + parent + " does not exist (or is not a directory)");
      }
      if (!canCreateIn(parent) || (Files.exists(p) && !Files.isWritable(p))) {
        throw new IllegalArgumentException(option + " " + p + " is not writable");
      }
    }
    for (Map.Entry<String, Path> dir : directoryOutputs.entrySet()) {
      Path d = dir.getValue();
      if (d == null) {
        continue;
      }
      String option = dir.getKey();
      Path c = canonical(d);
      for (Map.Entry<String, Path> other : seen.entrySet()) {
        if (other.getValue().equals(c)) {
          throw new IllegalArgumentException(
              option + " " + d + " is the same path as " + other.getKey() + ": choose another directory");
        }
      }
      if (Files.exists(d) && !Files.isDirectory(d)) {
        throw new IllegalArgumentException(option + " " + d + " exists and is not a directory");
      }
      try {
        Files.createDirectories(d);
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException(
            option + " " + d + ": cannot create the directory (" + e.getClass().getSimpleName() + ")");
      }
      if (!canCreateIn(d)) {
        throw new IllegalArgumentException(option + " " + d + " is not writable");
      }
    }
  }

  /**
   * Whether a file can be created in {@code dir}, found by creating (and deleting) an empty one, as
   * the output will be. Permission bits are not enough: for root every directory looks writable,
   * and a pseudo-file system such as /proc or /sys, or a read-only mount, refuses the file only
   * when it is created, which without this probe was after the run had spent its budget.
   */
  private static boolean canCreateIn(Path dir) {
    try {
      Path probe = Files.createTempFile(dir, ".secpe-write-check-", ".tmp");
      Files.deleteIfExists(probe);
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
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
   * Writes {@code target} atomically: into a temporary file in the same directory, then renamed over
   * the target, so a crash never leaves half a file.
   */
  static void writeAtomically(Path target, Writer writer) {
    Path dir = target.toAbsolutePath().getParent();
    Path tmp = null;
    try {
      tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
      writer.write(tmp);
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + target + ": " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : " " + e.getMessage()));
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
