package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class ProvidersCommandTest {

  @Test
  void jsonListsTheOpenAiProvidersAsRemote() throws Exception {
    CliRun.Outcome r = CliRun.execute("providers", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode root = r.json();
    assertThat(root.fieldNames()).toIterable().containsExactly("generators", "embedders");
    assertThat(root.get("generators").toString()).contains("{\"name\":\"openai\",\"locality\":\"REMOTE\"}");
    assertThat(root.get("embedders").toString()).contains("{\"name\":\"openai\",\"locality\":\"REMOTE\"}");
    for (JsonNode p : root.get("generators")) {
      assertThat(p.get("locality").asText()).isIn("LOCAL", "REMOTE");
    }
  }

  @Test
  void plainTextToo() {
    CliRun.Outcome r = CliRun.execute("providers");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("generators:").contains("openai (REMOTE)");
  }
}
