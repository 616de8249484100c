package dev.secpe.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.Label;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicRecord;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The corpora of SecPE's own regime load from the command line's class path with the counts that
 * data/README.md gives. The expected counts were read off the files with {@code zcat | python3}
 * (json per line, a Counter of {@code label}), not through the reader under test.
 */
class DemoCorpusTest {

  /** Package names the packages corpus leaves out as boilerplate (data/make_packages_corpus.py). */
  private static final Pattern BOILERPLATE =
      Pattern.compile("^(lib|python3?-|golang-|node-|r-cran-|ruby-)|-(dev|doc|dbg|dbgsym|data|common)(-|$)");

  // fault: `--corpus packages` was refused ("--corpus takes spamassassin, sotu, fortunes, speeches, cookies")
  // holds: each regime corpus has 3,000 unlabelled public and 3,400 labelled private records, in the files' label counts
  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
    "speeches; cold-war=2087,post-cold-war=1313",
    "cookies; cookie=895,definitions=942,people=994,politics=569",
    "packages; devel=874,games=629,net=1055,science=842",
  })
  void aRegimeCorpusLoadsWithItsCounts(String name, String counts) {
    DemoCorpus corpus = DemoCorpus.named(name, "lists");
    Map<String, Long> expected = new TreeMap<>();
    for (String pair : counts.split(",")) {
      String[] kv = pair.split("=");
      expected.put(kv[0], Long.parseLong(kv[1]));
    }
    assertThat(corpus.name()).isEqualTo(name);
    assertThat(DemoCorpus.NAMES).contains(name);
    assertThat(corpus.publicData().size()).isEqualTo(3000);
    assertThat(corpus.publicData().records()).allSatisfy(r -> assertThat(r.label()).isEmpty());
    assertThat(corpus.privateData().size()).isEqualTo(3400);
    Map<String, Long> byLabel = corpus.privateData().records().stream()
        .collect(Collectors.groupingBy(r -> r.label().orElseThrow().name(), TreeMap::new, Collectors.counting()));
    assertThat(byLabel).isEqualTo(expected);
    assertThat(corpus.labels()).extracting(Label::name).containsExactlyElementsOf(expected.keySet());
  }

  // fault: the packages files did not exist and the CLI jar's resources did not include them
  // holds: no public or private package is boilerplate by name, no package is on both sides, every public text has 20 to 120 words
  @Test
  void packagesAreCleanAndTheSidesDisjoint() {
    DemoCorpus corpus = DemoCorpus.named("packages", "lists");
    Set<String> publicIds = corpus.publicData().records().stream().map(PublicRecord::id).collect(Collectors.toSet());
    Set<String> privateIds = corpus.privateData().records().stream().map(PrivateRecord::id).collect(Collectors.toSet());
    assertThat(publicIds).hasSize(3000).noneMatch(id -> BOILERPLATE.matcher(id).find());
    assertThat(privateIds).hasSize(3400).noneMatch(id -> BOILERPLATE.matcher(id).find());
    Set<String> both = new HashSet<>(publicIds);
    both.retainAll(privateIds);
    assertThat(both).isEmpty();
    assertThat(corpus.publicData().texts()).allSatisfy(t -> assertThat(t.split("\\s+").length).isBetween(20, 120));
    assertThat(corpus.description()).contains("devel, games, net and science").contains("label: section");
  }

  @Test
  void anUnknownNameListsEveryCorpus() {
    assertThatThrownBy(() -> DemoCorpus.named("nope", "lists"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--corpus takes spamassassin, sotu, fortunes, speeches, cookies, packages, got corpus=nope");
  }
}
