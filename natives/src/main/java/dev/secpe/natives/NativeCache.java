package dev.secpe.natives;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Native libraries shipped inside jars, extracted once to a per-user cache directory and loaded
 * from there, instead of being copied into a fresh directory of the system temporary directory on
 * every start (which leaves them behind after {@code kill -9}: 16 MB for ONNX Runtime, 69 MB for
 * OR-Tools).
 *
 * <p>The cache root is the system property {@code secpe.native.cache}, else {@code
 * $XDG_CACHE_HOME/secpe/native}, else {@code ~/.cache/secpe/native}. Each set of libraries gets a
 * directory {@code LABEL-ID}, where ID is a digest of the names, sizes and CRC-32s of the jar
 * entries (read from the jar's directory, without inflating them), so versions never mix. Each file
 * is written to a temporary name in that directory, checked against the jar entry's size and CRC-32,
 * and renamed, so a crash never leaves half a library; a manifest ({@value #MANIFEST}: the SHA-256
 * of every file, written last) lets every later start verify each cached file by SHA-256 and
 * replace a damaged or missing one.
 */
public final class NativeCache {

  /** The manifest of a cache directory: one {@code SHA-256 NAME} line per file, as {@code sha256sum} writes it. */
  public static final String MANIFEST = "SHA256SUMS";

  private NativeCache() {}

  /** The per-user cache root (not created here). */
  public static Path root() {
    String p = System.getProperty("secpe.native.cache");
    if (p != null && !p.isBlank()) {
      return Path.of(p);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("secpe").resolve("native");
  }

  /**
   * The names of the files directly under the resource directory {@code dir} (ending in {@code
   * /}), as {@code loader} sees it in a jar or a directory; empty when it has no such directory.
   *
   * @throws IOException when the directory is somewhere that cannot be listed (a nested jar)
   */
  public static List<String> list(ClassLoader loader, String dir) throws IOException {
    checkDir(dir);
    URL url = loader.getResource(dir);
    if (url == null) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    if ("jar".equals(url.getProtocol())) {
      try (ZipFile zip = new ZipFile(jarFile(url).toFile())) {
        zip.stream()
            .map(ZipEntry::getName)
            .filter(n -> n.startsWith(dir) && n.length() > dir.length() && n.indexOf('/', dir.length()) < 0)
            .forEach(n -> names.add(n.substring(dir.length())));
      }
    } else if ("file".equals(url.getProtocol())) {
      try (Stream<Path> s = Files.list(Path.of(toUri(url)))) {
        s.filter(Files::isRegularFile).forEach(p -> names.add(p.getFileName().toString()));
      }
    } else {
      throw new IOException("cannot list the resources at " + url);
    }
    names.sort(null);
    return List.copyOf(names);
  }

  /**
   * Makes sure {@code root/LABEL-ID} holds the resources {@code dir + name} for every name, each
   * verified by SHA-256 against the manifest, extracting only what is missing or damaged, and
   * returns that directory.
   *
   * @param root the cache root, usually {@link #root()}
   * @param label the directory's name before its content id, e.g. {@code "ortools-linux-x86-64"}
   * @param loader the class loader that sees the resources
   * @param dir the resource directory, ending in {@code /}
   * @param names file names in {@code dir}, without {@code /}
   * @throws IOException when a resource is missing or the cache cannot be written
   */
  public static Path extract(Path root, String label, ClassLoader loader, String dir, List<String> names)
      throws IOException {
    checkDir(dir);
    if (names.isEmpty()) {
      throw new IllegalArgumentException("names must not be empty");
    }
    Map<Path, ZipFile> jars = new HashMap<>();
    try {
      Map<String, Source> sources = new TreeMap<>();
      for (String name : names) {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals("..") || name.equals(MANIFEST)) {
          throw new IllegalArgumentException("not a plain file name: name=" + name);
        }
        URL url = loader.getResource(dir + name);
        if (url == null) {
          throw new IOException("resource " + dir + name + " not found");
        }
        sources.put(name, Source.of(url, jars));
      }
      Path target = root.resolve(label + "-" + id(sources));
      Files.createDirectories(target);
      Map<String, String> manifest = readManifest(target.resolve(MANIFEST));
      boolean changed = false;
      for (Map.Entry<String, Source> e : sources.entrySet()) {
        Path file = target.resolve(e.getKey());
        String want = manifest.get(e.getKey());
        if (want != null && Files.isRegularFile(file) && want.equals(sha256(file))) {
          continue;
        }
        manifest.put(e.getKey(), e.getValue().copyTo(file));
        changed = true;
      }
      if (changed) {
        StringBuilder text = new StringBuilder();
        manifest.forEach((name, sha) -> text.append(sha).append("  ").append(name).append('\n'));
        Path tmp = Files.createTempFile(target, MANIFEST, ".part");
        try {
          Files.writeString(tmp, text);
          moveOver(tmp, target.resolve(MANIFEST));
        } finally {
          Files.deleteIfExists(tmp);
        }
      }
      return target;
    } finally {
      for (ZipFile z : jars.values()) {
        z.close();
      }
    }
  }

  /** A resource: where it is, and its size and CRC-32 as its jar records them (or as read). */
  private record Source(URL url, ZipFile zip, ZipEntry entry, long size, long crc) {

    static Source of(URL url, Map<Path, ZipFile> jars) throws IOException {
      if ("jar".equals(url.getProtocol())) {
        JarURLConnection c = (JarURLConnection) url.openConnection();
        if ("file".equals(c.getJarFileURL().getProtocol())) {
          Path jar = jarFile(url);
          ZipFile zip = jars.get(jar);
          if (zip == null) {
            zip = new ZipFile(jar.toFile());
            jars.put(jar, zip);
          }
          ZipEntry entry = zip.getEntry(c.getEntryName());
          if (entry == null || entry.getSize() < 0 || entry.getCrc() < 0) {
            throw new IOException("jar " + jar + " has no complete entry " + c.getEntryName());
          }
          return new Source(url, zip, entry, entry.getSize(), entry.getCrc());
        }
      }
      // A directory on the class path, or a jar inside a jar: read it once for its size and CRC.
      CRC32 crc = new CRC32();
      long size;
      try (InputStream in = new CheckedInputStream(url.openStream(), crc)) {
        size = in.transferTo(OutputStream.nullOutputStream());
      }
      return new Source(url, null, null, size, crc.getValue());
    }

    InputStream open() throws IOException {
      return zip != null ? zip.getInputStream(entry) : url.openStream();
    }

    /** Copies to a temporary file beside {@code file}, checks size and CRC, renames; returns the SHA-256. */
    String copyTo(Path file) throws IOException {
      Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".part");
      try {
        MessageDigest md = sha256();
        CRC32 got = new CRC32();
        long n;
        try (InputStream in = new DigestInputStream(new CheckedInputStream(open(), got), md)) {
          n = Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
        }
        if (n != size || got.getValue() != crc) {
          throw new IOException("resource " + url + " read back with another size or CRC-32 than its jar records");
        }
        moveOver(tmp, file);
        return HexFormat.of().formatHex(md.digest());
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }

  private static String id(Map<String, Source> sources) {
    MessageDigest md = sha256();
    sources.forEach((name, s) ->
        md.update((name + "\t" + s.size() + "\t" + Long.toHexString(s.crc()) + "\n").getBytes(StandardCharsets.UTF_8)));
    return HexFormat.of().formatHex(md.digest()).substring(0, 16);
  }

  /** Name to SHA-256 from a manifest; empty if it is missing, and lines that do not parse are skipped. */
  private static Map<String, String> readManifest(Path manifest) throws IOException {
    Map<String, String> out = new TreeMap<>();
    if (!Files.isRegularFile(manifest)) {
      return out;
    }
    try (BufferedReader r = Files.newBufferedReader(manifest, StandardCharsets.UTF_8)) {
      for (String line; (line = r.readLine()) != null; ) {
        int sep = line.indexOf("  ");
        if (sep == 64 && line.length() > 66) {
          out.put(line.substring(66), line.substring(0, 64));
        }
      }
    } catch (CharacterCodingException e) {
      out.clear(); // a damaged manifest: every file is extracted again
    }
    return out;
  }

  private static void moveOver(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static String sha256(Path file) throws IOException {
    MessageDigest md = sha256();
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /** The local jar file of a {@code jar:file:...!/entry} URL. */
  private static Path jarFile(URL url) throws IOException {
    URL jar = ((JarURLConnection) url.openConnection()).getJarFileURL();
    if (!"file".equals(jar.getProtocol())) {
      throw new IOException("cannot open " + jar + " as a local jar");
    }
    return Path.of(toUri(jar));
  }

  private static URI toUri(URL url) throws IOException {
    try {
      return url.toURI();
    } catch (URISyntaxException e) {
      throw new IOException("not a file URL: " + url, e);
    }
  }

  private static void checkDir(String dir) {
    if (dir.isEmpty() || !dir.endsWith("/") || dir.startsWith("/")) {
      throw new IllegalArgumentException("a resource directory ends in '/' and does not start with one: dir=" + dir);
    }
  }
}
