package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.core.io.DatasetReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyntheticDatasetTest {

  @TempDir Path dir;

  @Test
  void jsonlRoundTripsThroughTheReader() throws Exception {
    SyntheticDataset d =
        SyntheticDataset.of(
            List.of(
                new SyntheticText("s1", "Free \"money\"\nnow", Optional.of(Label.of("spam")), Provenance.initial()),
                new SyntheticText(
                    "s2",
                    "Meeting at 10 — ünïcödé",
                    Optional.of(Label.of("ham")),
                    new Provenance(3, List.of("s1", "p9"), Provenance.VARIATION))));
    Path f = dir.resolve("syn.jsonl");
    d.writeJsonl(f);
    List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
    assertThat(lines).hasSize(2);
    JsonNode second = new ObjectMapper().readTree(lines.get(1));
    assertThat(second.get("round").asInt()).isEqualTo(3);
    assertThat(second.get("parents").get(1).asText()).isEqualTo("p9");
    assertThat(second.get("operator").asText()).isEqualTo("variation");
    PublicCorpus back = DatasetReader.builder().labelField("label").build().readPublic(f);
    assertThat(back.texts()).containsExactly("Free \"money\"\nnow", "Meeting at 10 — ünïcödé");
    assertThat(back.records().get(0).label()).contains(Label.of("spam"));
    assertThat(back.records().get(1).id()).isEqualTo("s2");
  }

  @Test
  void validation() {
    SyntheticText t = new SyntheticText("a", "x", Optional.empty(), Provenance.initial());
    assertThatThrownBy(() -> SyntheticDataset.of(List.of(t, t)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duplicate id 'a'");
    assertThatThrownBy(() -> new Provenance(-1, List.of(), "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("round must be >= 0, got round=-1");
    // A synthetic text is never blank (the engine stops a run whose generator returns one).
    assertThatThrownBy(() -> new SyntheticText("b", " \n", Optional.empty(), Provenance.initial()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("synthetic text 'b' must not be blank");
  }
}
