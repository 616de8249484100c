package dev.secpe.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the relative links of Markdown files that do not resolve: a target file or folder that
 * does not exist (or lies outside the repository), or an anchor that no heading of the target
 * produces. Anchors follow GitHub's rule: the heading's text without its Markdown, lower-cased,
 * every character but letters, digits, spaces, hyphens and underscores dropped, spaces turned
 * into hyphens, and "-1", "-2" ... appended to repeats. Links inside code (fenced blocks and
 * backtick spans) are not links; absolute URLs are not checked (no network in the build).
 */
final class MarkdownLinks {

  private static final Pattern INLINE = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s+(\\S+)");
  private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern CODE_SPAN = Pattern.compile("`+[^`]*`+");

  private final Path root;
  private final Map<Path, Set<String>> anchors = new HashMap<>();

  MarkdownLinks(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** One broken link: where it is, what it says, and why it does not resolve. */
  record Broken(Path file, int line, String target, String why) {
    @Override
    public String toString() {
      return file + ":" + line + ": (" + target + ") " + why;
    }
  }

  /** The broken links of {@code file}. */
  List<Broken> check(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    List<Broken> out = new ArrayList<>();
    List<String> lines = read(abs);
    boolean fenced = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.stripLeading().startsWith("```") || line.stripLeading().startsWith("~~~")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      String text = CODE_SPAN.matcher(line).replaceAll("");
      List<String> targets = new ArrayList<>();
      Matcher m = INLINE.matcher(text);
      while (m.find()) {
        targets.add(m.group(1));
      }
      Matcher r = REFERENCE.matcher(text);
      if (r.find()) {
        targets.add(r.group(1));
      }
      for (String target : targets) {
        String why = resolve(abs, target);
        if (why != null) {
          out.add(new Broken(root.relativize(abs), i + 1, target, why));
        }
      }
    }
    return out;
  }

  /** Null when {@code target}, written in {@code from}, resolves; otherwise why not. */
  private String resolve(Path from, String target) {
    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return null; // https:, mailto: ...: not checked
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path dest = path.isEmpty() ? from : from.getParent().resolve(path).normalize();
    if (!dest.startsWith(root)) {
      return "leaves the repository";
    }
    if (!Files.exists(dest)) {
      return "no such file: " + root.relativize(dest);
    }
    if (anchor == null) {
      return null;
    }
    if (!dest.getFileName().toString().endsWith(".md")) {
      return "an anchor into a file that is not Markdown";
    }
    Set<String> known = anchors.computeIfAbsent(dest, MarkdownLinks::anchorsOf);
    return known.contains(anchor) ? null : "no heading gives the anchor #" + anchor + " in " + root.relativize(dest);
  }

  /** Every anchor GitHub gives the headings of {@code file}. */
  static Set<String> anchorsOf(Path file) {
    Set<String> out = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : read(file)) {
      if (line.stripLeading().startsWith("```") || line.stripLeading().startsWith("~~~")) {
        fenced = !fenced;
        continue;
      }
      Matcher h = HEADING.matcher(line);
      if (fenced || !h.matches()) {
        continue;
      }
      String slug = slug(h.group(2));
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      out.add(n == 0 ? slug : slug + "-" + n);
    }
    return out;
  }

  /** GitHub's anchor for a heading's Markdown text. */
  static String slug(String heading) {
    String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // links: their text
        .replace("`", "")
        .replace("*", "");
    StringBuilder b = new StringBuilder();
    text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        b.appendCodePoint(c);
      } else if (c == ' ') {
        b.append('-');
      }
    });
    return b.toString();
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
