package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ProvidersCommandTest {

  @Test
  void jsonListsTheOpenAiProvidersAsRemote() throws Exception {
    CommandLine cl = SecpeCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("providers", "--json");
    assertThat(code).as(err.toString()).isZero();
    JsonNode root = new ObjectMapper().readTree(out.toString());
    assertThat(root.fieldNames()).toIterable().containsExactly("generators", "embedders");
    assertThat(root.get("generators").toString()).contains("{\"name\":\"openai\",\"locality\":\"REMOTE\"}");
    assertThat(root.get("embedders").toString()).contains("{\"name\":\"openai\",\"locality\":\"REMOTE\"}");
    for (JsonNode p : root.get("generators")) {
      assertThat(p.get("locality").asText()).isIn("LOCAL", "REMOTE");
    }
  }

  @Test
  void plainTextToo() {
    CommandLine cl = SecpeCli.commandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    assertThat(cl.execute("providers")).isZero();
    assertThat(out.toString()).contains("generators:").contains("openai (REMOTE)");
  }
}
