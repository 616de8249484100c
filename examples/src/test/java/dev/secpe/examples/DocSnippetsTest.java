package dev.secpe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code java} block of the user guide compiles as a reader copies it: with the imports the
 * block shows, and nothing else (issue 53: a snippet without its imports, or with a type in the
 * wrong package, sent users to {@code javap}). A block is either statements, wrapped in a method,
 * or members (a class, a record, an annotated method), wrapped in a class. A block of import lines
 * alone gives the imports of every later block on its page. What a block takes from earlier ones is
 * declared in a line {@code // given: Type name, Type name} at its top, or in a comment {@code
 * <!-- given: ... -->} just before it; it becomes the method's parameters. {@code /* ... *}{@code /}
 * stands for settings shown elsewhere. A block after {@code <!-- snippet: FILE region="NAME" -->}
 * must equal that region of FILE (which compiles, and is tested) instead.
 * A module declaration ({@code module ... { requires ...; }}) is left to {@code
 * examples/consumer-modular}, which compiles one. The README's quick start is {@link
 * ReadmeSnippetTest}'s.
 */
class DocSnippetsTest {

  private static final Pattern MEMBERS =
      Pattern.compile("^(@\\w+|(public |private |protected |static |final |abstract )*(class|record|interface|enum) )");

  /** The line before a block that copies a region of a source file (which compiles, and is tested). */
  private static final Pattern FROM = Pattern.compile("<!-- snippet: (\\S+) region=\"([\\w-]+)\" -->");

  /** A comment before a block naming what it takes from earlier ones: {@code <!-- given: Type name, ... -->}. */
  private static final Pattern GIVEN = Pattern.compile("<!-- given: (.+) -->");

  @TempDir Path out;

  /**
   * One block: where it is, its imports, what it is given, its body, and the source region it
   * copies (null for a block that stands on its own).
   */
  record Snippet(String where, List<String> imports, String given, String body, String from) {

    boolean members() {
      return MEMBERS.matcher(body.stripLeading()).find();
    }

    String source(String className) {
      StringBuilder b = new StringBuilder();
      imports.forEach(i -> b.append(i).append('\n'));
      b.append("@SuppressWarnings(\"all\")\nclass ").append(className).append(" {\n");
      if (members()) {
        b.append(body).append("\n}\n");
      } else {
        b.append("Object snippet(").append(given).append(") throws Exception {\n").append(body).append('\n');
        if (!body.contains("return ")) {
          b.append("return null;\n");
        }
        b.append("}\n}\n");
      }
      return b.toString();
    }
  }

  static List<Snippet> snippets(Path page, String name) throws IOException {
    List<String> lines = Files.readAllLines(page);
    List<Snippet> out = new ArrayList<>();
    List<String> pageImports = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).strip().equals("```java")) {
        continue;
      }
      int start = i + 1;
      int end = start;
      while (!lines.get(end).strip().equals("```")) {
        end++;
      }
      List<String> imports = new ArrayList<>(pageImports);
      String given = "";
      String from = null;
      for (int back = i - 1; back >= Math.max(0, i - 3) && lines.get(back).strip().startsWith("<!--"); back--) {
        Matcher g = GIVEN.matcher(lines.get(back).strip());
        Matcher f = FROM.matcher(lines.get(back).strip());
        if (g.matches()) {
          given = g.group(1).strip();
        } else if (f.matches()) {
          from = f.group(1) + "#" + f.group(2);
        }
      }
      StringBuilder body = new StringBuilder();
      List<String> own = new ArrayList<>();
      for (String l : lines.subList(start, end)) {
        String t = l.strip();
        if (t.startsWith("import ") && body.length() == 0) {
          own.add(t);
        } else if (t.startsWith("// given:") && body.length() == 0) {
          given = t.substring("// given:".length()).strip();
        } else if (!(t.isEmpty() && body.length() == 0)) {
          body.append(l).append('\n');
        }
      }
      i = end;
      if (body.toString().isBlank()) {
        pageImports.addAll(own); // a block of imports only: every later block of the page uses them
        continue;
      }
      imports.addAll(own);
      if (!body.toString().stripLeading().startsWith("module ")) {
        out.add(new Snippet(name + ":" + start, imports, given, body.toString(), from));
      }
    }
    return out;
  }

  @Test
  void everyJavaBlockOfTheGuideCompilesWithTheImportsItShows() throws IOException {
    Path guide = Path.of(System.getProperty("user.dir")).getParent().resolve("docs/guide");
    List<Snippet> all = new ArrayList<>();
    try (Stream<Path> pages = Files.list(guide)) {
      for (Path p : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        all.addAll(snippets(p, "docs/guide/" + p.getFileName()));
      }
    }
    assertThat(all).as("java blocks found in docs/guide").hasSizeGreaterThan(15);

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> failures = new ArrayList<>();
    Path root = guide.getParent().getParent();
    for (int k = 0; k < all.size(); k++) {
      if (all.get(k).from() != null) {
        String[] at = all.get(k).from().split("#");
        assertThat(dedent(all.get(k).body()))
            .as(all.get(k).where() + " copies " + all.get(k).from())
            .isEqualTo(dedent(region(root.resolve(at[0]), at[1])));
        continue;
      }
      List<String> errors = errors(javac, all.get(k).source("Snippet" + k));
      if (!errors.isEmpty()) {
        failures.add(all.get(k).where() + ":\n  " + String.join("\n  ", errors));
      }
    }
    assertThat(failures).as("guide snippets that do not compile as shown").isEmpty();
  }

  /** The lines between {@code // @start region="NAME"} and {@code // @end region="NAME"} of a file. */
  static String region(Path file, String name) throws IOException {
    List<String> lines = Files.readAllLines(file);
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().equals("// @start region=\"" + name + "\"")) {
        start = i + 1;
      } else if (start >= 0 && lines.get(i).strip().equals("// @end region=\"" + name + "\"")) {
        return String.join("\n", lines.subList(start, i));
      }
    }
    throw new AssertionError("region \"" + name + "\" not found in " + file);
  }

  /** The lines without their common indentation and trailing blanks. */
  static String dedent(String text) {
    List<String> lines = text.lines().toList();
    int indent = lines.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    return String.join("\n", lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent).stripTrailing()).toList()).strip();
  }

  /** The harness itself: a block without its import fails, the same block with it compiles. */
  @Test
  void aBlockWithoutItsImportIsCaught() throws IOException {
    Path page = out.resolve("page.md");
    Files.writeString(page, "```java\nGdpMu mu = new GdpMu(1.0);\n```\n\n```java\nimport dev.secpe.accounting.GdpMu;\n\nGdpMu mu = new GdpMu(1.0);\n```\n");
    List<Snippet> two = snippets(page, "page.md");
    assertThat(two).hasSize(2);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(errors(javac, two.get(0).source("A"))).anyMatch(e -> e.contains("GdpMu"));
    assertThat(errors(javac, two.get(1).source("B"))).isEmpty();
  }

  /** The compiler's errors (first line of each) for {@code source}; empty when it compiles. */
  private List<String> errors(JavaCompiler javac, String source) {
    JavaFileObject unit =
        new SimpleJavaFileObject(URI.create("string:///Snippet.java"), JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean ok = javac.getTask(new StringWriter(), null, diagnostics,
            List.of("-proc:none", "-classpath", System.getProperty("java.class.path"), "-d", out.toString()),
            null, List.of(unit))
        .call();
    List<String> out = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        out.add("line " + d.getLineNumber() + ": " + String.join(" ", d.getMessage(Locale.ROOT).lines().map(String::strip).toList()));
      }
    }
    if (!ok && out.isEmpty()) {
      out.add("the compiler failed without an error message");
    }
    return out;
  }
}
