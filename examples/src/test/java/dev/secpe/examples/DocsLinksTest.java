package dev.secpe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link and anchor in README.md and docs/**.md resolves, and the README stays a
 * five-minute read (at most 250 lines). The checker itself is tested on a small tree with one
 * link of each kind that must fail, so that a checker that accepts everything fails here.
 */
class DocsLinksTest {

  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent(); // examples/ -> repository

  @Test
  void everyRelativeLinkAndAnchorInTheDocumentationResolves() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
    }
    assertThat(files).contains(ROOT.resolve("docs/guide/index.md"));

    MarkdownLinks links = new MarkdownLinks(ROOT);
    List<MarkdownLinks.Broken> broken = new ArrayList<>();
    for (Path f : files) {
      broken.addAll(links.check(f));
    }
    assertThat(broken).as("broken links").isEmpty();
  }

  @Test
  void theReadmeIsAtMost250Lines() throws IOException {
    assertThat(Files.readAllLines(ROOT.resolve("README.md"))).hasSizeLessThanOrEqualTo(250);
  }

  @Test
  void everyGuidePageIsInTheGuideIndex() throws IOException {
    String index = Files.readString(ROOT.resolve("docs/guide/index.md"));
    try (Stream<Path> pages = Files.list(ROOT.resolve("docs/guide"))) {
      pages.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".md") && !n.equals("index.md"))
          .forEach(n -> assertThat(index).as("docs/guide/index.md links " + n).contains("(" + n + ")"));
    }
  }

  @Test
  void theCheckerFindsAMissingFileAMissingAnchorAndIgnoresCode(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("docs"));
    Files.writeString(dir.resolve("docs/target.md"), """
        # Target page
        ## The `code` heading (with **bold**)
        ## Repeated
        ## Repeated
        ```
        # not a heading
        ```
        """);
    Files.writeString(dir.resolve("README.md"), """
        [fine](docs/target.md) [fine](docs/target.md#target-page) [fine](docs/target.md#the-code-heading-with-bold)
        [fine](docs/target.md#repeated-1) [web](https://example.com/nowhere) [self](#a-heading)
        # A heading
        [missing file](docs/nowhere.md)
        [missing anchor](docs/target.md#not-a-heading)
        [outside](../elsewhere.md)
        `[in code](docs/nowhere.md)`
        ```
        [in a fence](docs/nowhere.md)
        ```
        [ref]: docs/gone.md
        """);

    List<MarkdownLinks.Broken> broken = new MarkdownLinks(dir).check(dir.resolve("README.md"));

    assertThat(broken).extracting(MarkdownLinks.Broken::line, MarkdownLinks.Broken::target)
        .containsExactly(
            Tuple.tuple(4, "docs/nowhere.md"),
            Tuple.tuple(5, "docs/target.md#not-a-heading"),
            Tuple.tuple(6, "../elsewhere.md"),
            Tuple.tuple(11, "docs/gone.md"));
  }

  @Test
  void anchorsFollowGitHubsRule() {
    assertThat(MarkdownLinks.slug("Modules: what to add for what")).isEqualTo("modules-what-to-add-for-what");
    assertThat(MarkdownLinks.slug("The embedded providers (`secpe-llm-embedded`)"))
        .isEqualTo("the-embedded-providers-secpe-llm-embedded");
    assertThat(MarkdownLinks.slug("Set-up: two commands")).isEqualTo("set-up-two-commands");
    assertThat(MarkdownLinks.slug("The guarantee, and against whom")).isEqualTo("the-guarantee-and-against-whom");
  }
}
