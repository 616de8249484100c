package dev.secpe.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.secpe.llm.testkit.FakeTextEmbedder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real HTTP server on the loopback interface speaking the OpenAI wire format (chat completions,
 * completions, embeddings), with scripted faults. Replies are deterministic: a chat/completion
 * reply echoes the request id ("req-N" found in the prompt) and a hash of prompt and seed; an
 * embedding is {@link FakeTextEmbedder}'s vector times 3 (so the client must normalise), and the
 * data items come back in reverse order (so the client must use "index").
 */
final class LoopbackOpenAi implements AutoCloseable {

  /** What to do with one attempt. */
  enum Fault {
    NONE, RATE_LIMIT_SECONDS, RATE_LIMIT_DATE, SERVER_ERROR, SLOW, MALFORMED, RESET, BAD_REQUEST,
    UNAUTHORIZED, RATE_LIMIT_LONG
  }

  /** Chooses the fault of attempt {@code attempt} (1-based) of the request with id {@code id}. */
  interface Script {
    Fault fault(String id, int attempt);
  }

  static {
    // The JDK server writes headers and body separately; without TCP_NODELAY, Nagle plus the
    // client's delayed ACK adds about 40 ms to every response. Must be set before the first server.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ID = Pattern.compile("req-\\d+");

  final HttpServer server;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "loopback-openai");
    t.setDaemon(true);
    return t;
  });
  private final Script script;
  private final Duration latency;
  private final Duration slow;
  private final FakeTextEmbedder vectors = FakeTextEmbedder.builder().dimension(16).build();

  final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  final AtomicInteger requests = new AtomicInteger();
  final AtomicInteger inFlight = new AtomicInteger();
  // Exchanges still counted in inFlight (HttpExchange attributes are per context, not per exchange).
  private final java.util.Set<HttpExchange> counted = ConcurrentHashMap.newKeySet();
  final AtomicInteger maxInFlight = new AtomicInteger();
  final List<String> authorizations = new CopyOnWriteArrayList<>();
  final List<String> paths = new CopyOnWriteArrayList<>();

  LoopbackOpenAi(Script script, Duration latency, Duration slow) throws IOException {
    this.script = script;
    this.latency = latency;
    this.slow = slow;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    server.createContext("/v1/", this::handle);
    server.setExecutor(pool);
    server.start();
  }

  static LoopbackOpenAi healthy() throws IOException {
    return new LoopbackOpenAi((id, n) -> Fault.NONE, Duration.ZERO, Duration.ZERO);
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  int attemptsOf(String id) {
    AtomicInteger a = attempts.get(id);
    return a == null ? 0 : a.get();
  }

  private void handle(HttpExchange ex) throws IOException {
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    // Leave the in-flight count before the client can see the answer, so a client that sends its
    // next request the moment it has a response is not counted twice.
    counted.add(ex);
    try {
      requests.incrementAndGet();
      paths.add(ex.getRequestURI().getPath());
      String auth = ex.getRequestHeaders().getFirst("Authorization");
      authorizations.add(auth == null ? "" : auth);
      JsonNode req = JSON.readTree(ex.getRequestBody().readAllBytes());
      String path = ex.getRequestURI().getPath();
      String text = switch (path) {
        case "/v1/chat/completions" -> req.path("messages").toString();
        case "/v1/completions" -> req.path("prompt").asText();
        case "/v1/embeddings" -> req.path("input").toString();
        default -> null;
      };
      if (text == null) {
        send(ex, 404, "{\"error\":{\"type\":\"not_found\"}}");
        return;
      }
      Matcher m = ID.matcher(text);
      String id = m.find() ? m.group() : "none";
      int attempt = attempts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      sleep(latency);
      switch (script.fault(id, attempt)) {
        case RATE_LIMIT_SECONDS -> {
          ex.getResponseHeaders().add("Retry-After", "1");
          send(ex, 429, "{\"error\":{\"type\":\"rate_limit\",\"message\":\"slow down " + id + "\"}}");
          return;
        }
        case RATE_LIMIT_DATE -> {
          ex.getResponseHeaders().add("Retry-After", DateTimeFormatter.RFC_1123_DATE_TIME.format(
              ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(1)));
          send(ex, 429, "{\"error\":{\"type\":\"rate_limit\"}}");
          return;
        }
        case RATE_LIMIT_LONG -> {
          ex.getResponseHeaders().add("Retry-After", "3600");
          send(ex, 429, "{\"error\":{\"type\":\"rate_limit\"}}");
          return;
        }
        case SERVER_ERROR -> {
          send(ex, 500, "{\"error\":{\"type\":\"server_error\"}}");
          return;
        }
        case SLOW -> sleep(slow);
        case MALFORMED -> {
          send(ex, 200, "{\"choices\": [ {\"mess");
          return;
        }
        case RESET -> {
          leave(ex);
          ex.close(); // no status line: the client sees the connection end
          return;
        }
        case BAD_REQUEST -> {
          // A server that echoes the input in its message: the client must not repeat it.
          send(ex, 400, JSON.createObjectNode().set("error", JSON.createObjectNode()
              .put("type", "invalid_request_error").put("message", "bad input: " + text)).toString());
          return;
        }
        case UNAUTHORIZED -> {
          send(ex, 401, "{\"error\":{\"type\":\"invalid_api_key\",\"message\":\"key " + auth + " rejected\"}}");
          return;
        }
        case NONE -> { }
      }
      send(ex, 200, reply(path, req, text, id).toString());
    } finally {
      leave(ex);
    }
  }

  private void leave(HttpExchange ex) {
    if (counted.remove(ex)) {
      inFlight.decrementAndGet();
    }
  }

  private ObjectNode reply(String path, JsonNode req, String text, String id) {
    ObjectNode out = JSON.createObjectNode();
    if (path.equals("/v1/embeddings")) {
      ArrayNode data = out.putArray("data");
      JsonNode input = req.path("input");
      for (int i = input.size() - 1; i >= 0; i--) {
        ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
        ArrayNode e = item.putArray("embedding");
        for (float x : vectors.vector(input.get(i).asText())) {
          e.add(3 * x);
        }
      }
      out.putObject("usage").put("prompt_tokens", input.size()).put("total_tokens", input.size());
      return out;
    }
    long seed = req.path("seed").asLong(0);
    String body = "echo " + id + " " + Integer.toHexString((text + "|" + seed).hashCode());
    ObjectNode choice = out.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop");
    if (path.equals("/v1/chat/completions")) {
      choice.putObject("message").put("role", "assistant").put("content", body);
    } else {
      choice.put("text", body);
    }
    out.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 3).put("total_tokens", 13);
    return out;
  }

  private void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    leave(ex);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    try {
      ex.sendResponseHeaders(status, b.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(b);
      }
    } catch (IOException e) {
      // the client gave up (timeout): nothing to do
    } finally {
      ex.close();
    }
  }

  private static void sleep(Duration d) {
    if (d.isZero()) {
      return;
    }
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
