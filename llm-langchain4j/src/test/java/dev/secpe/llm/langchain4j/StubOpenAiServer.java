package dev.secpe.llm.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real HTTP server on the loopback interface speaking OpenAI's chat-completions protocol, for
 * LangChain4j's {@code OpenAiChatModel}. A reply is deterministic in the messages and the seed: a
 * rotation (by a hash of both) of the words of the last user message, as many as {@code max_tokens}
 * allows (finish reason "length" when it cuts, else "stop"); usage counts words. Every request body
 * is kept; {@link #failWith} makes every reply an error whose body quotes the prompt, as some
 * services do.
 */
final class StubOpenAiServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_WORDS = 24;

  private final HttpServer server;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "stub-openai");
    t.setDaemon(true);
    return t;
  });
  final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
  private volatile int failStatus;

  StubOpenAiServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/chat/completions", this::chat);
    server.setExecutor(pool);
    server.start();
  }

  /** The base URL LangChain4j's OpenAI client takes. */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** Every later reply is HTTP {@code status} (0: healthy again). */
  void failWith(int status) {
    failStatus = status;
  }

  private void chat(HttpExchange ex) throws IOException {
    try (ex) {
      JsonNode body = JSON.readTree(ex.getRequestBody());
      bodies.add(body);
      String prompt = "";
      for (JsonNode m : body.path("messages")) {
        if ("user".equals(m.path("role").asText())) {
          prompt = m.path("content").asText();
        }
      }
      int status = failStatus;
      if (status != 0) {
        ObjectNode err = JSON.createObjectNode();
        err.putObject("error").put("message", "could not serve the prompt: " + prompt).put("type", "stub");
        reply(ex, status, err);
        return;
      }
      String[] words = prompt.trim().isEmpty() ? new String[] {"empty"} : prompt.trim().split("\\s+");
      long seed = body.path("seed").asLong(0);
      int shift = Math.floorMod((body.path("messages").toString() + "#" + seed).hashCode(), words.length);
      int limit = body.has("max_completion_tokens")
          ? body.path("max_completion_tokens").asInt()
          : body.path("max_tokens").asInt(MAX_WORDS);
      int n = Math.min(Math.min(words.length, MAX_WORDS), limit);
      List<String> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        out.add(words[(shift + i) % words.length]);
      }
      ObjectNode resp = JSON.createObjectNode();
      resp.put("id", "chatcmpl-stub").put("object", "chat.completion").put("created", 0)
          .put("model", body.path("model").asText("stub"));
      ObjectNode choice = resp.putArray("choices").addObject();
      choice.put("index", 0);
      choice.putObject("message").put("role", "assistant").put("content", String.join(" ", out));
      choice.put("finish_reason", n < Math.min(words.length, MAX_WORDS) ? "length" : "stop");
      resp.putObject("usage").put("prompt_tokens", words.length).put("completion_tokens", n)
          .put("total_tokens", words.length + n);
      reply(ex, 200, resp);
    }
  }

  private static void reply(HttpExchange ex, int status, JsonNode json) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(json);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
