import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a staged release (a Maven repository layout on disk, as bin/stage-release writes it) for
 * what Maven Central requires of every artifact: a .pom; for jar packaging a .jar, -sources.jar
 * and -javadoc.jar (each a readable archive, the javadoc with an index.html, the sources with
 * .java files); .md5 and .sha1 checksums of every file that match it; a .asc signature of every
 * file when --signed, which {@code gpg --verify} accepts; a release version; and in each POM, itself or through its staged parent,
 * name, description, url, a licence, a developer and scm (connection and url). It also wants the
 * CycloneDX SBOM beside each jar. Prints one line per problem and exits 1 if there is any.
 *
 * <p>Usage: {@code java .ci/CheckStagedRelease.java DIR [--signed] [--expect N]} (N: how many
 * artifacts must be there).
 */
public final class CheckStagedRelease {

  private final Path root;
  private final boolean signed;
  private final List<String> problems = new ArrayList<>();

  private CheckStagedRelease(Path root, boolean signed) {
    this.root = root;
    this.signed = signed;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: java CheckStagedRelease.java DIR [--signed] [--expect N]");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    boolean signed = List.of(args).contains("--signed");
    int expect = -1;
    for (int i = 1; i < args.length - 1; i++) {
      if (args[i].equals("--expect")) {
        expect = Integer.parseInt(args[i + 1]);
      }
    }
    CheckStagedRelease c = new CheckStagedRelease(dir, signed);
    int artifacts = c.checkAll();
    if (expect >= 0 && artifacts != expect) {
      c.problems.add("expected " + expect + " artifacts, found " + artifacts);
    }
    c.problems.forEach(p -> System.out.println("problem: " + p));
    System.out.println(
        artifacts + " artifacts checked in " + dir + (signed ? " (signed)" : " (unsigned)") + ": "
            + (c.problems.isEmpty() ? "OK" : c.problems.size() + " problems"));
    System.exit(c.problems.isEmpty() ? 0 : 1);
  }

  /** Every directory holding a .pom is one artifact version. */
  private int checkAll() throws IOException {
    if (!Files.isDirectory(root)) {
      problems.add("no staging directory " + root);
      return 0;
    }
    List<Path> poms;
    try (Stream<Path> s = Files.walk(root)) {
      poms = s.filter(p -> p.toString().endsWith(".pom")).sorted().toList();
    }
    for (Path pom : poms) {
      checkArtifact(pom);
    }
    if (poms.isEmpty()) {
      problems.add("no .pom under " + root);
    }
    return poms.size();
  }

  private void checkArtifact(Path pom) throws IOException {
    Path dir = pom.getParent();
    String version = dir.getFileName().toString();
    String artifactId = dir.getParent().getFileName().toString();
    String base = artifactId + "-" + version;
    String who = artifactId + ":" + version;
    if (!pom.getFileName().toString().equals(base + ".pom")) {
      problems.add(who + ": unexpected POM name " + pom.getFileName());
    }
    if (version.endsWith("-SNAPSHOT")) {
      problems.add(who + ": a SNAPSHOT version cannot be released");
    }
    Document doc = parse(pom);
    String packaging = text(doc.getDocumentElement(), "packaging");
    if (packaging == null) {
      packaging = "jar";
    }
    for (String field : List.of("name", "description", "url")) {
      if (inherited(doc, field) == null) {
        problems.add(who + ": POM has no <" + field + "> (own or from its parent)");
      }
    }
    if (inheritedPath(doc, "licenses", "license", "name") == null) {
      problems.add(who + ": POM has no licence");
    }
    if (inheritedPath(doc, "developers", "developer", "name") == null) {
      problems.add(who + ": POM has no developer");
    }
    if (inheritedPath(doc, "scm", null, "url") == null || inheritedPath(doc, "scm", null, "connection") == null) {
      problems.add(who + ": POM has no <scm> with <url> and <connection>");
    }
    Set<String> required = new TreeSet<>();
    required.add(base + ".pom");
    if (packaging.equals("jar")) {
      required.add(base + ".jar");
      required.add(base + "-sources.jar");
      required.add(base + "-javadoc.jar");
      required.add(base + "-cyclonedx.json");
    }
    for (String f : required) {
      if (!Files.isRegularFile(dir.resolve(f))) {
        problems.add(who + ": missing " + f);
      }
    }
    if (packaging.equals("jar")) {
      checkArchive(who, dir.resolve(base + ".jar"), "META-INF/MANIFEST.MF");
      checkArchive(who, dir.resolve(base + "-sources.jar"), ".java");
      checkArchive(who, dir.resolve(base + "-javadoc.jar"), "index.html");
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.sorted().toList()) {
        String n = f.getFileName().toString();
        if (n.endsWith(".md5") || n.endsWith(".sha1") || n.endsWith(".sha256") || n.endsWith(".sha512")
            || n.startsWith("maven-metadata") || n.startsWith("_") || n.endsWith(".lastUpdated")) {
          continue;
        }
        if (n.endsWith(".asc")) {
          checkChecksum(who, f, "MD5", ".md5", false);
          continue;
        }
        checkChecksum(who, f, "MD5", ".md5", true);
        checkChecksum(who, f, "SHA-1", ".sha1", true);
        if (signed) {
          Path asc = dir.resolve(n + ".asc");
          if (!Files.isRegularFile(asc)) {
            problems.add(who + ": missing signature " + n + ".asc");
          } else if (!verifies(asc, f)) {
            problems.add(who + ": " + n + ".asc is not a good signature of " + n);
          }
        }
      }
    }
  }

  /** {@code gpg --verify}; the signer's key must be in the keyring ({@code GNUPGHOME}). */
  private static boolean verifies(Path asc, Path file) throws IOException {
    Process p = new ProcessBuilder("gpg", "--batch", "--verify", asc.toString(), file.toString())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try {
      return p.waitFor() == 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while verifying " + asc, e);
    }
  }

  private void checkChecksum(String who, Path file, String algorithm, String suffix, boolean required)
      throws IOException {
    Path sum = file.resolveSibling(file.getFileName() + suffix);
    if (!Files.isRegularFile(sum)) {
      if (required) {
        problems.add(who + ": missing checksum " + sum.getFileName());
      }
      return;
    }
    String expected = Files.readString(sum, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
    String actual;
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest md = MessageDigest.getInstance(algorithm);
      byte[] buf = new byte[1 << 16];
      for (int r; (r = in.read(buf)) > 0; ) {
        md.update(buf, 0, r);
      }
      actual = HexFormat.of().formatHex(md.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    if (!actual.equalsIgnoreCase(expected)) {
      problems.add(who + ": " + sum.getFileName() + " does not match " + file.getFileName());
    }
  }

  private void checkArchive(String who, Path jar, String mustHave) {
    if (!Files.isRegularFile(jar)) {
      return; // reported as missing
    }
    try (ZipFile z = new ZipFile(jar.toFile())) {
      boolean found = z.stream().anyMatch(e -> mustHave.startsWith(".") ? e.getName().endsWith(mustHave) : e.getName().equals(mustHave));
      if (!found) {
        problems.add(who + ": " + jar.getFileName() + " holds no " + mustHave);
      }
    } catch (IOException e) {
      problems.add(who + ": " + jar.getFileName() + " is not a readable archive: " + e.getMessage());
    }
  }

  /** A top-level element of the POM, or of its staged parent's, recursively. */
  private String inherited(Document doc, String field) throws IOException {
    String own = text(doc.getDocumentElement(), field);
    if (own != null) {
      return own;
    }
    Document parent = parent(doc);
    return parent == null ? null : inherited(parent, field);
  }

  private String inheritedPath(Document doc, String outer, String inner, String leaf) throws IOException {
    Element o = child(doc.getDocumentElement(), outer);
    if (o != null) {
      Element i = inner == null ? o : child(o, inner);
      if (i != null && text(i, leaf) != null) {
        return text(i, leaf);
      }
    }
    Document parent = parent(doc);
    return parent == null ? null : inheritedPath(parent, outer, inner, leaf);
  }

  private Document parent(Document doc) throws IOException {
    Element p = child(doc.getDocumentElement(), "parent");
    if (p == null) {
      return null;
    }
    String g = text(p, "groupId");
    String a = text(p, "artifactId");
    String v = text(p, "version");
    Path pom = root.resolve(g.replace('.', '/')).resolve(a).resolve(v).resolve(a + "-" + v + ".pom");
    if (!Files.isRegularFile(pom)) {
      problems.add(a + ":" + v + " (a parent) is not staged");
      return null;
    }
    return parse(pom);
  }

  private static Document parse(Path pom) throws IOException {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(false);
      return f.newDocumentBuilder().parse(pom.toFile());
    } catch (Exception e) {
      throw new IOException("cannot read " + pom + ": " + e.getMessage(), e);
    }
  }

  private static Element child(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(name)) {
        return c;
      }
    }
    return null;
  }

  private static String text(Element e, String name) {
    Element c = child(e, name);
    if (c == null) {
      return null;
    }
    String t = c.getTextContent().trim();
    return t.isEmpty() ? null : t;
  }
}
