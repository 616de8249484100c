package dev.secpe.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.llm.ProviderException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The HTTP core shared by the generator and the embedder: round-robin endpoint choice with 429
 * cool-downs, retries with full-jitter exponential backoff honouring {@code Retry-After}, per
 * attempt timeouts and counters.
 *
 * <p>Privacy: nothing here logs or puts into an exception message a request or response body;
 * messages carry the status, the URL (never the key) and the error {@code type}/{@code code}
 * fields of an error body when they look like identifiers.
 */
final class OpenAiHttp implements AutoCloseable {

  static final ObjectMapper JSON = new ObjectMapper();
  private static final System.Logger LOG = System.getLogger(OpenAiHttp.class.getName());

  private final OpenAiConfig config;
  private final HttpClient client;
  private final Clock clock;
  private final EndpointState[] endpoints;
  private final AtomicInteger next = new AtomicInteger();

  final AtomicLong calls = new AtomicLong();
  final AtomicLong succeeded = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  final AtomicLong httpRequests = new AtomicLong();
  final AtomicLong retries = new AtomicLong();
  final AtomicLong rateLimited = new AtomicLong();
  final AtomicLong promptTokens = new AtomicLong();
  final AtomicLong completionTokens = new AtomicLong();

  OpenAiHttp(OpenAiConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
    this.client = HttpClient.newBuilder().connectTimeout(config.connectTimeout()).build();
    this.endpoints = config.endpoints().stream().map(EndpointState::new).toArray(EndpointState[]::new);
  }

  OpenAiStats stats() {
    return new OpenAiStats(calls.get(), succeeded.get(), failed.get(), httpRequests.get(),
        retries.get(), rateLimited.get(), promptTokens.get(), completionTokens.get());
  }

  /**
   * POSTs {@code body} to {@code path} with retries; parses a 2xx body with {@code parse} (a parse
   * failure counts as a malformed, retryable response). Cancelling the result aborts the attempt
   * in flight and stops retrying.
   */
  <T> CompletableFuture<T> post(String path, ObjectNode body, Function<JsonNode, T> parse) {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialise a request", e);
    }
    calls.incrementAndGet();
    Call<T> call = new Call<>(path, bytes, parse);
    call.result.whenComplete(
        (r, e) -> {
          if (call.result.isCancelled()) {
            failed.incrementAndGet();
            CompletableFuture<?> f = call.current.get();
            if (f != null) {
              f.cancel(true);
            }
          }
        });
    call.attempt(0);
    return call.result;
  }

  private final class Call<T> {
    final String path;
    final byte[] body;
    final Function<JsonNode, T> parse;
    final CompletableFuture<T> result = new CompletableFuture<>();
    final AtomicReference<CompletableFuture<?>> current = new AtomicReference<>();

    Call(String path, byte[] body, Function<JsonNode, T> parse) {
      this.path = path;
      this.body = body;
      this.parse = parse;
    }

    /** Counts, then completes: the counters are current when callers see the result. */
    void succeed(T value) {
      if (!result.isDone()) {
        succeeded.incrementAndGet();
        if (!result.complete(value)) {
          succeeded.decrementAndGet(); // lost a race with cancellation
        }
      }
    }

    void fail(ProviderException e) {
      if (!result.isDone()) {
        failed.incrementAndGet();
        if (!result.completeExceptionally(e)) {
          failed.decrementAndGet(); // lost a race with cancellation (counted there)
        }
      }
    }

    void attempt(int n) {
      if (result.isDone()) {
        return;
      }
      EndpointState ep = chooseEndpoint();
      long waitNanos = ep.coolingUntilNanos - clock.millis() * 1_000_000L;
      if (waitNanos > 0) {
        // Every endpoint is cooling down: wait for the first to become ready (not a retry).
        schedule(() -> attempt(n), waitNanos);
        return;
      }
      URI uri = ep.endpoint.resolve(path);
      HttpRequest.Builder rb = HttpRequest.newBuilder(uri)
          .timeout(config.requestTimeout())
          .header("Content-Type", "application/json")
          .header("Accept", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body));
      if ("http".equals(uri.getScheme())) {
        rb.version(HttpClient.Version.HTTP_1_1); // no h2c upgrade dance with plain-HTTP servers
      }
      if (ep.endpoint.apiKey() != null) {
        rb.header("Authorization", "Bearer " + ep.endpoint.apiKey());
      }
      httpRequests.incrementAndGet();
      CompletableFuture<HttpResponse<byte[]>> f;
      try {
        f = client.sendAsync(rb.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (RuntimeException e) {
        fail(new ProviderException.Permanent(
            "cannot send a request to " + uri + ": " + e.getClass().getSimpleName(), null));
        return;
      }
      // A backstop if the client's own timeout does not fire (it covers the response headers).
      CompletableFuture<HttpResponse<byte[]>> guarded =
          f.orTimeout(config.requestTimeout().toMillis() * 2, TimeUnit.MILLISECONDS);
      current.set(f);
      if (result.isDone()) {
        f.cancel(true);
        return;
      }
      guarded.whenComplete((resp, err) -> onResponse(n, ep, uri, f, resp, err));
    }

    void onResponse(int n, EndpointState ep, URI uri, CompletableFuture<?> f,
        HttpResponse<byte[]> resp, Throwable err) {
      if (result.isDone()) {
        return;
      }
      if (err != null) {
        Throwable c = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
        if (c instanceof CancellationException) {
          return;
        }
        f.cancel(true);
        String why;
        if (c instanceof HttpTimeoutException || c instanceof TimeoutException) {
          why = "timed out after " + config.requestTimeout().toMillis() + " ms";
        } else if (c instanceof ConnectException) {
          why = "connection refused";
        } else if (c instanceof IOException) {
          why = "connection failed (" + c.getClass().getSimpleName() + ")";
        } else {
          fail(new ProviderException.Permanent(
              "request to " + uri + " failed: " + c.getClass().getSimpleName(), null));
          return;
        }
        retryOrFail(n, uri, why, Optional.empty());
        return;
      }
      int status = resp.statusCode();
      if (status >= 200 && status < 300) {
        T value;
        try {
          JsonNode tree = JSON.readTree(resp.body());
          if (tree == null || !tree.isObject()) {
            throw new MalformedResponse("not a JSON object");
          }
          value = parse.apply(tree);
          countUsage(tree.path("usage"));
        } catch (IncompatibleResponse e) {
          fail(new ProviderException.Permanent(
              e.getMessage() + " from " + uri + " (not retried)", null));
          return;
        } catch (IOException | RuntimeException e) {
          // Malformed JSON from a proxy or a truncated body: worth another try.
          retryOrFail(n, uri, "malformed response body (HTTP " + status + ")", Optional.empty());
          return;
        }
        succeed(value);
        return;
      }
      Optional<Duration> retryAfter = retryAfter(resp);
      String why = "HTTP " + status + errorFields(resp.body());
      if (status == 429) {
        rateLimited.incrementAndGet();
      }
      if (status == 429 || retryAfter.isPresent()) {
        // Retry-After speaks for the endpoint: no request goes there before it has passed.
        Duration cool = retryAfter.orElse(config.initialBackoff());
        if (cool.compareTo(config.maxRetryAfter()) <= 0) {
          ep.coolDown(clock.millis() * 1_000_000L + cool.toNanos());
        }
      }
      if (status == 429 || status == 408 || status == 409 || status >= 500) {
        retryOrFail(n, uri, why, retryAfter);
      } else {
        fail(new ProviderException.Permanent(
            why + " from " + uri + " (not retried)", null));
      }
    }

    void retryOrFail(int n, URI uri, String why, Optional<Duration> retryAfter) {
      if (n >= config.maxRetries()) {
        fail(new ProviderException.Retryable(
            why + " from " + uri + "; gave up after " + (n + 1) + " attempts", null));
        return;
      }
      if (retryAfter.isPresent() && retryAfter.get().compareTo(config.maxRetryAfter()) > 0) {
        fail(new ProviderException.Retryable(
            why + " from " + uri + "; server asked to wait " + retryAfter.get().toSeconds()
                + " s, more than maxRetryAfter " + config.maxRetryAfter().toSeconds() + " s", null));
        return;
      }
      long ceiling = backoffCeilingNanos(n, config.initialBackoff().toNanos(), config.maxBackoff().toNanos());
      // The Retry-After wait itself is enforced by the endpoint's cool-down in attempt(): the
      // retry goes to another endpoint at once if one is ready, else waits for the first ready.
      long delay = ThreadLocalRandom.current().nextLong(Math.max(1, ceiling));
      retries.incrementAndGet();
      LOG.log(System.Logger.Level.DEBUG, () -> "retrying after " + why + " from " + uri
          + " (attempt " + (n + 2) + ")");
      schedule(() -> attempt(n + 1), delay);
    }
  }

  /**
   * The full-jitter ceiling before retry {@code attempt + 1}: {@code min(max, initial * 2^attempt)},
   * computed without overflow.
   */
  static long backoffCeilingNanos(int attempt, long initialNanos, long maxNanos) {
    long c = Math.min(initialNanos, maxNanos);
    for (int i = 0; i < attempt && c < maxNanos; i++) {
      c = c > maxNanos / 2 ? maxNanos : c * 2;
    }
    return c;
  }

  private void schedule(Runnable r, long nanos) {
    CompletableFuture.delayedExecutor(Math.max(0, nanos), TimeUnit.NANOSECONDS).execute(r);
  }

  private EndpointState chooseEndpoint() {
    long now = clock.millis() * 1_000_000L;
    int k = endpoints.length;
    EndpointState soonest = null;
    for (int i = 0; i < k; i++) {
      EndpointState e = endpoints[Math.floorMod(next.getAndIncrement(), k)];
      if (e.coolingUntilNanos <= now) {
        return e;
      }
      if (soonest == null || e.coolingUntilNanos < soonest.coolingUntilNanos) {
        soonest = e;
      }
    }
    return soonest;
  }

  private void countUsage(JsonNode usage) {
    if (usage.isObject()) {
      promptTokens.addAndGet(Math.max(0, usage.path("prompt_tokens").asLong(0)));
      completionTokens.addAndGet(Math.max(0, usage.path("completion_tokens").asLong(0)));
    }
  }

  /** {@code Retry-After} (delta-seconds or HTTP-date) or {@code retry-after-ms}. */
  Optional<Duration> retryAfter(HttpResponse<?> resp) {
    Optional<String> ms = resp.headers().firstValue("retry-after-ms");
    if (ms.isPresent()) {
      try {
        return Optional.of(Duration.ofMillis(Math.max(0, (long) Double.parseDouble(ms.get().trim()))));
      } catch (NumberFormatException ignored) {
        // fall through to Retry-After
      }
    }
    return resp.headers().firstValue("retry-after").flatMap(v -> parseRetryAfter(v, clock));
  }

  static Optional<Duration> parseRetryAfter(String value, Clock clock) {
    String v = value.trim();
    if (v.matches("\\d{1,9}")) {
      return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration d = Duration.between(clock.instant(), at.toInstant());
      return Optional.of(d.isNegative() ? Duration.ZERO : d);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** The {@code error.type} and {@code error.code} of an error body, if they look like identifiers. */
  private static String errorFields(byte[] body) {
    try {
      JsonNode err = JSON.readTree(body).path("error");
      StringBuilder sb = new StringBuilder();
      for (String f : List.of("type", "code")) {
        String v = err.path(f).asText("");
        if (v.matches("[A-Za-z0-9_.\\-]{1,64}")) {
          sb.append(sb.length() == 0 ? " (" : ", ").append(f).append('=').append(v);
        }
      }
      return sb.length() == 0 ? "" : sb.append(')').toString();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  @Override
  public void close() {
    // The JDK 17 HttpClient has no close(); its threads end when it becomes unreachable.
  }

  /** Thrown by parsers for a 2xx body that lacks what the wire format promises. */
  static final class MalformedResponse extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedResponse(String what) {
      super(what, null, false, false);
    }
  }

  /** Thrown by parsers for a well-formed response that can never suit us (a wrong dimension). */
  static final class IncompatibleResponse extends RuntimeException {
    private static final long serialVersionUID = 1L;

    IncompatibleResponse(String what) {
      super(what, null, false, false);
    }
  }

  private static final class EndpointState {
    final Endpoint endpoint;
    volatile long coolingUntilNanos;

    EndpointState(Endpoint endpoint) {
      this.endpoint = endpoint;
    }

    synchronized void coolDown(long untilNanos) {
      if (untilNanos > coolingUntilNanos) {
        coolingUntilNanos = untilNanos;
      }
    }
  }
}
