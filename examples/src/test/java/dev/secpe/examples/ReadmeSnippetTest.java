package dev.secpe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The README's quick-start code is the code {@link QuickStartTest} runs: the {@code java} block
 * after "From `examples/.../QuickStart.java`" must equal the {@code secpe} snippet region of
 * QuickStart.java (which the javadoc overview shows too), line for line (indentation aside), so the README cannot drift into API that does
 * not exist or variables it never defines.
 */
class ReadmeSnippetTest {

  @Test
  void readmeQuickStartIsTheTestedCode() throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).getParent(); // examples/ -> repository
    List<String> readme = Files.readAllLines(root.resolve("README.md"));
    List<String> source = Files.readAllLines(
        Path.of("src/main/java/dev/secpe/examples/QuickStart.java"));

    int marker = indexOf(readme, "From `examples/.../QuickStart.java`", 0);
    int open = indexOf(readme, "```java", marker);
    int close = indexOf(readme, "```", open + 1);
    List<String> shown = readme.subList(open + 1, close);

    int start = indexOf(source, "// @start region=\"secpe\"", 0);
    int end = indexOf(source, "// @end region=\"secpe\"", start);
    List<String> tested = source.subList(start + 1, end);

    assertThat(dedent(shown)).isEqualTo(dedent(tested));
  }

  private static int indexOf(List<String> lines, String needle, int from) {
    for (int i = from; i < lines.size(); i++) {
      if (lines.get(i).contains(needle)) {
        return i;
      }
    }
    throw new AssertionError("'" + needle + "' not found after line " + (from + 1));
  }

  private static String dedent(List<String> lines) {
    int indent = lines.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent).stripTrailing())
        .collect(Collectors.joining("\n"));
  }
}
