package dev.secpe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.evolution.RunResult;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.llm.embedded.NgramTextGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the quick-start code with the embedded providers on a slice of the bundled corpus. */
class QuickStartTest {

  static PrivateDataset priv;
  static PublicCorpus pub;
  static TextGenerator gen;
  static TextEmbedder emb;

  @BeforeAll
  static void setUp() {
    BundledCorpus c = BundledCorpus.spamAssassin();
    List<dev.secpe.core.PrivateRecord> p = new ArrayList<>(c.privatePart().records());
    Collections.shuffle(p, new Random(1));
    priv = PrivateDataset.of(p.subList(0, 120));
    List<dev.secpe.core.PublicRecord> u = new ArrayList<>(c.publicPart().records());
    Collections.shuffle(u, new Random(2));
    pub = PublicCorpus.of(u.subList(0, 150));
    gen =
        NgramTextGenerator.builder()
            .train(pub.texts(), pub.records().stream().map(r -> r.label().orElseThrow().name()).toList())
            .build();
    emb = MiniLmEmbedder.create();
  }

  @AfterAll
  static void tearDown() {
    gen.close();
    emb.close();
  }

  @Test
  void secpe(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("synthetic.jsonl");
    RunResult r = QuickStart.secpe(priv, pub, 12, out);
    assertThat(r.dataset().size()).isEqualTo(12);
    assertThat(Files.readAllLines(out)).hasSize(12);
    assertThat(r.report().secretBudget().orElseThrow().r()).isLessThanOrEqualTo(1e-3 * (1 + 1e-9));
    assertThat(r.report().noise().isPrivate()).isTrue();
  }

  /** The README's snippet, as printed there: nothing but the library and two made-up records. */
  @Test
  void firstRunIsSelfContained() throws IOException {
    Path out = Path.of("synthetic.jsonl"); // where the snippet writes, relative to the working directory
    try {
      RunResult r = QuickStart.firstRun();
      assertThat(r.dataset().size()).isEqualTo(20);
      assertThat(Files.readAllLines(out)).hasSize(20);
      assertThat(r.report().secretBudget().orElseThrow().r()).isLessThanOrEqualTo(1e-3 * (1 + 1e-9));
      assertThat(r.report().noise().isPrivate()).isTrue();
    } finally {
      Files.deleteIfExists(out);
    }
  }

  @Test
  void augpe() {
    RunResult r = QuickStart.augpe(priv, pub, gen, emb, 12);
    assertThat(r.dataset().size()).isEqualTo(12);
    assertThat(r.report().mu()).isPresent();
  }

  @Test
  void dpga() {
    RunResult r = QuickStart.dpga(priv, pub, gen, emb, 12);
    assertThat(r.dataset().size()).isEqualTo(12);
    assertThat(r.report().dp().orElseThrow().epsilon()).isLessThanOrEqualTo(4.0 + 1e-9);
  }
}
