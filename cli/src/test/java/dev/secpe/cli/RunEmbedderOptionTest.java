package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --embedder NAME} resolves the embedder by provider name, e.g. the int8 MiniLM. */
class RunEmbedderOptionTest {

  @Test
  void runUsesTheQuantizedMiniLmEmbedderByName(@TempDir Path dir) throws Exception {
    List<String> priv = new ArrayList<>();
    List<String> pub = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      priv.add("{\"text\": \"my password for server " + i + " is locked, please reset the account\"}");
      pub.add("{\"text\": \"the printer on floor " + i + " needs new toner and the network is slow\"}");
    }
    Files.write(dir.resolve("private.jsonl"), priv);
    Files.write(dir.resolve("public.jsonl"), pub);
    CliRun.Outcome o = CliRun.execute("run", "--method", "augpe",
        "--private", dir.resolve("private.jsonl").toString(),
        "--public", dir.resolve("public.jsonl").toString(),
        "--synthetic-size", "10", "--iterations", "1", "--epsilon", "4", "--delta", "1e-5",
        "--embedder", "all-minilm-l6-v2-q", "--reproducible-noise", "1", "--quiet",
        "--out", dir.resolve("synthetic.jsonl").toString(),
        "--report", dir.resolve("report.json").toString());
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
    JsonNode embedder = null;
    for (JsonNode p : report.get("providers")) {
      if (p.get("role").asText().equals("embedder")) {
        embedder = p;
      }
    }
    assertThat(embedder).isNotNull();
    assertThat(embedder.get("name").asText()).isEqualTo("all-minilm-l6-v2-q");
    assertThat(embedder.get("locality").asText()).isEqualTo("LOCAL");
    assertThat(Files.readAllLines(dir.resolve("synthetic.jsonl"))).hasSize(10);
  }
}
