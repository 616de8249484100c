package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --embedder openai} (REMOTE) without {@code --allow-remote-embedding}: refused before
 * any request reaches the service, the probe of public text included. A stub OpenAI-compatible
 * {@code /embeddings} endpoint on the loopback interface counts what reaches it.
 */
class RunRemoteEmbedderConsentTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private HttpServer server;
  private final AtomicInteger requests = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/embeddings", exchange -> {
      requests.incrementAndGet();
      JsonNode body = JSON.readTree(exchange.getRequestBody());
      ObjectNode out = JSON.createObjectNode();
      ArrayNode data = out.putArray("data");
      JsonNode input = body.get("input");
      int n = input.isArray() ? input.size() : 1;
      for (int i = 0; i < n; i++) {
        ObjectNode row = data.addObject();
        row.put("index", i);
        ArrayNode v = row.putArray("embedding");
        for (int j = 0; j < 8; j++) {
          v.add(j == i % 8 ? 1.0 : 0.1);
        }
      }
      byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private CliRun.Outcome run(Path dir, String... extra) throws Exception {
    List<String> priv = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      priv.add("{\"text\": \"please reset the password of account " + i + " on the mail server\"}");
    }
    Files.write(dir.resolve("private.jsonl"), priv);
    List<String> args = new ArrayList<>(List.of("run", "--method", "augpe",
        "--private", dir.resolve("private.jsonl").toString(),
        "--synthetic-size", "4", "--iterations", "1", "--epsilon", "4", "--delta", "1e-5",
        "--generator", "test-fake-generator", "--embedder", "openai",
        "--provider-option", "base-url=http://127.0.0.1:" + server.getAddress().getPort() + "/v1",
        "--provider-option", "api-key=test-key", "--provider-option", "max-retries=0",
        "--reproducible-noise", "1", "--quiet", "--journal", dir.resolve("journal").toString(),
        "--out", dir.resolve("synthetic.jsonl").toString(), "--report", dir.resolve("report.json").toString()));
    args.addAll(List.of(extra));
    return CliRun.execute(args);
  }

  // fault: `run --embedder openai` without `--allow-remote-embedding` (issue 50, "Also")
  // holds: exit 2 naming --allow-remote-embedding, and no request reached the service (before: the public probe sentence was sent to it, then the run was refused)
  @Test
  void withoutConsentNoRequestReachesTheRemoteEmbedder(@TempDir Path dir) throws Exception {
    CliRun.Outcome o = run(dir);
    assertThat(requests.get()).as("requests that reached the service").isZero();
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--embedder openai").contains("REMOTE").contains("--allow-remote-embedding")
        .contains("no request was made to it");
    assertThat(Files.exists(dir.resolve("report.json"))).isFalse();
  }

  @Test
  void withConsentTheServiceIsAsked(@TempDir Path dir) throws Exception {
    // The control: the same command with consent reaches the stub (the probe, then the records).
    CliRun.Outcome o = run(dir, "--allow-remote-embedding");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(requests.get()).isPositive();
  }
}
