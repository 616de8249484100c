package dev.secpe.llm.openai;

import dev.secpe.llm.spi.ProviderConfig;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Immutable settings of the OpenAI-compatible generator and embedder. Build with {@link
 * #builder()} or, from string settings, {@link #fromProviderConfig(ProviderConfig, String)}.
 *
 * <p>Retries: a request that fails with HTTP 429, 408 or 5xx, a timeout, a reset connection or a
 * malformed success body is tried again, at most {@code maxRetries} times, after a delay drawn
 * uniformly from {@code [0, min(maxBackoff, initialBackoff * 2^attempt))} ("full jitter"). A 429
 * (or any response with {@code Retry-After}, in seconds or as an HTTP-date) puts its endpoint on a
 * cool-down for the {@code Retry-After} period (for a 429 without one: {@code initialBackoff}),
 * during which no request is sent there: the retry goes to another endpoint that is ready, or
 * waits until the first cooling endpoint is ready. Other 4xx statuses fail at once with {@link
 * dev.secpe.llm.ProviderException.Permanent}.
 *
 * @param endpoints one or more endpoints, balanced round robin
 * @param model the model name sent with every request
 * @param api chat completions or legacy completions (generator only)
 * @param maxConcurrency the most HTTP requests in flight per generator or embedder
 * @param maxRetries retries after the first attempt, >= 0
 * @param initialBackoff the first backoff ceiling
 * @param maxBackoff the largest backoff ceiling
 * @param maxRetryAfter a {@code Retry-After} longer than this fails the request instead of waiting
 * @param requestTimeout the limit for one HTTP attempt (until the response arrives)
 * @param connectTimeout the limit for opening a connection
 * @param embeddingBatchSize texts per embeddings request
 * @param dimension the embedding dimension, or 0 to learn it from the first response
 * @param sendDimensions whether to send {@code "dimensions"} (models that can shorten vectors)
 */
public record OpenAiConfig(
    List<Endpoint> endpoints,
    String model,
    Api api,
    int maxConcurrency,
    int maxRetries,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration maxRetryAfter,
    Duration requestTimeout,
    Duration connectTimeout,
    int embeddingBatchSize,
    int dimension,
    boolean sendDimensions) {

  /** Which generation endpoint to call. */
  public enum Api {
    /** {@code POST /chat/completions} with the messages. */
    CHAT,
    /** {@code POST /completions} with the messages joined into one prompt. */
    COMPLETIONS
  }

  /** Validates eagerly. */
  public OpenAiConfig {
    endpoints = List.copyOf(endpoints);
    if (endpoints.isEmpty()) {
      throw new IllegalArgumentException("endpoints must not be empty");
    }
    Objects.requireNonNull(model, "model");
    if (model.isBlank()) {
      throw new IllegalArgumentException("model must not be blank");
    }
    Objects.requireNonNull(api, "api");
    positive("maxConcurrency", maxConcurrency);
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be >= 0, got maxRetries=" + maxRetries);
    }
    positive("initialBackoff", initialBackoff);
    positive("maxBackoff", maxBackoff);
    positive("maxRetryAfter", maxRetryAfter);
    positive("requestTimeout", requestTimeout);
    positive("connectTimeout", connectTimeout);
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalStateException("maxBackoff must be >= initialBackoff, got initialBackoff="
          + initialBackoff + " maxBackoff=" + maxBackoff);
    }
    positive("embeddingBatchSize", embeddingBatchSize);
    if (dimension < 0) {
      throw new IllegalArgumentException("dimension must be >= 0 (0 = learn it), got dimension=" + dimension);
    }
    if (sendDimensions && dimension == 0) {
      throw new IllegalStateException("sendDimensions needs a dimension, got dimension=0");
    }
  }

  private static void positive(String field, int v) {
    if (v < 1) {
      throw new IllegalArgumentException(field + " must be >= 1, got " + field + "=" + v);
    }
  }

  private static void positive(String field, Duration d) {
    Objects.requireNonNull(d, field);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(field + " must be > 0, got " + field + "=" + d);
    }
  }

  /** A builder with the defaults listed on its setters. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads string settings: {@code base-url} (comma separated for several; default {@code
   * https://api.openai.com/v1}), {@code api-key} (comma separated: one per URL, one for all, or
   * several for a single URL), else the environment variable named by {@code api-key-env} (default
   * {@code OPENAI_API_KEY}; none is fine for servers without keys), {@code model}, {@code api}
   * ({@code chat} or {@code completions}), {@code concurrency}, {@code max-retries}, {@code
   * initial-backoff-ms}, {@code max-backoff-ms}, {@code max-retry-after-ms}, {@code timeout-ms},
   * {@code connect-timeout-ms}, {@code batch-size}, {@code dimension}, {@code send-dimensions}.
   *
   * @param defaultModel the model when {@code model} is not set
   */
  public static OpenAiConfig fromProviderConfig(ProviderConfig config, String defaultModel) {
    return fromProviderConfig(config, defaultModel, System::getenv);
  }

  /** The keys {@link #fromProviderConfig(ProviderConfig, String)} reads. */
  static final Set<String> OPTIONS = Set.of(
      "base-url", "api-key", "api-key-env", "model", "api", "concurrency", "max-retries", "initial-backoff-ms",
      "max-backoff-ms", "max-retry-after-ms", "timeout-ms", "connect-timeout-ms", "batch-size", "dimension",
      "send-dimensions");

  static OpenAiConfig fromProviderConfig(
      ProviderConfig config, String defaultModel, Function<String, String> env) {
    Objects.requireNonNull(config, "config");
    Builder b = builder().model(config.get("model").orElse(defaultModel));
    List<String> urls = split(config.get("base-url").orElse("https://api.openai.com/v1"));
    List<String> keys;
    if (config.get("api-key").isPresent()) {
      keys = split(config.get("api-key").get());
    } else {
      String var = config.get("api-key-env").orElse("OPENAI_API_KEY");
      String v = env.apply(var);
      keys = v == null || v.isBlank() ? List.of() : split(v);
    }
    List<Endpoint> eps = new ArrayList<>();
    if (keys.size() <= 1) {
      String key = keys.isEmpty() ? null : keys.get(0);
      urls.forEach(u -> eps.add(new Endpoint(uri(u), key)));
    } else if (urls.size() == 1) {
      keys.forEach(k -> eps.add(new Endpoint(uri(urls.get(0)), k)));
    } else if (urls.size() == keys.size()) {
      for (int i = 0; i < urls.size(); i++) {
        eps.add(new Endpoint(uri(urls.get(i)), keys.get(i)));
      }
    } else {
      // Never print the keys themselves.
      throw new IllegalArgumentException("base-url lists " + urls.size() + " endpoints but api-key lists "
          + keys.size() + " keys; give one key, one per endpoint, or several for one endpoint");
    }
    b.endpoints(eps);
    config.get("api").ifPresent(a -> b.api(switch (a.trim().toLowerCase(Locale.ROOT)) {
      case "chat" -> Api.CHAT;
      case "completions" -> Api.COMPLETIONS;
      default -> throw new IllegalArgumentException("api must be chat or completions, got api=" + a);
    }));
    config.get("concurrency").ifPresent(v -> b.maxConcurrency(integer("concurrency", v)));
    config.get("max-retries").ifPresent(v -> b.maxRetries(integer("max-retries", v)));
    config.get("initial-backoff-ms").ifPresent(v -> b.initialBackoff(millis("initial-backoff-ms", v)));
    config.get("max-backoff-ms").ifPresent(v -> b.maxBackoff(millis("max-backoff-ms", v)));
    config.get("max-retry-after-ms").ifPresent(v -> b.maxRetryAfter(millis("max-retry-after-ms", v)));
    config.get("timeout-ms").ifPresent(v -> b.requestTimeout(millis("timeout-ms", v)));
    config.get("connect-timeout-ms").ifPresent(v -> b.connectTimeout(millis("connect-timeout-ms", v)));
    config.get("batch-size").ifPresent(v -> b.embeddingBatchSize(integer("batch-size", v)));
    config.get("dimension").ifPresent(v -> b.dimension(integer("dimension", v)));
    config.get("send-dimensions").ifPresent(v -> b.sendDimensions(Boolean.parseBoolean(v.trim())));
    return b.build();
  }

  private static URI uri(String s) {
    try {
      return URI.create(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("base-url is not a URL, got base-url=" + s, e);
    }
  }

  private static List<String> split(String s) {
    List<String> out = new ArrayList<>();
    for (String p : s.split(",")) {
      if (!p.isBlank()) {
        out.add(p.trim());
      }
    }
    return out;
  }

  private static int integer(String key, String v) {
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer, got " + key + "=" + v);
    }
  }

  private static Duration millis(String key, String v) {
    return Duration.ofMillis(integer(key, v));
  }

  /**
   * Configures an {@link OpenAiConfig}; reusable. Each setter rejects an out-of-range value at
   * once; {@link #build()} checks combinations (e.g. {@code maxBackoff >= initialBackoff}).
   */
  public static final class Builder {
    private List<Endpoint> endpoints = List.of();
    private String model = "gpt-4o-mini";
    private Api api = Api.CHAT;
    private int maxConcurrency = 16;
    private int maxRetries = 6;
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private Duration maxRetryAfter = Duration.ofSeconds(120);
    private Duration requestTimeout = Duration.ofSeconds(120);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private int embeddingBatchSize = 64;
    private int dimension;
    private boolean sendDimensions;

    private Builder() {}

    /** The endpoints (required). */
    public Builder endpoints(List<Endpoint> value) {
      this.endpoints = List.copyOf(value);
      return this;
    }

    /** A single endpoint. */
    public Builder endpoint(Endpoint value) {
      return endpoints(List.of(value));
    }

    /** The model; default "gpt-4o-mini". */
    public Builder model(String value) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException("model must not be blank, got model=" + value);
      }
      this.model = value;
      return this;
    }

    /** The generation API; default CHAT. */
    public Builder api(Api value) {
      this.api = Objects.requireNonNull(value, "api");
      return this;
    }

    /** Requests in flight at once; default 16. */
    public Builder maxConcurrency(int value) {
      positive("maxConcurrency", value);
      this.maxConcurrency = value;
      return this;
    }

    /** Retries after the first attempt; default 6. */
    public Builder maxRetries(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("maxRetries must be >= 0, got maxRetries=" + value);
      }
      this.maxRetries = value;
      return this;
    }

    /** The first backoff ceiling; default 500 ms. */
    public Builder initialBackoff(Duration value) {
      positive("initialBackoff", value);
      this.initialBackoff = value;
      return this;
    }

    /** The largest backoff ceiling; default 30 s. */
    public Builder maxBackoff(Duration value) {
      positive("maxBackoff", value);
      this.maxBackoff = value;
      return this;
    }

    /** The longest {@code Retry-After} honoured by waiting; default 120 s. */
    public Builder maxRetryAfter(Duration value) {
      positive("maxRetryAfter", value);
      this.maxRetryAfter = value;
      return this;
    }

    /** The limit per HTTP attempt; default 120 s. */
    public Builder requestTimeout(Duration value) {
      positive("requestTimeout", value);
      this.requestTimeout = value;
      return this;
    }

    /** The connect limit; default 10 s. */
    public Builder connectTimeout(Duration value) {
      positive("connectTimeout", value);
      this.connectTimeout = value;
      return this;
    }

    /** Texts per embeddings request; default 64. */
    public Builder embeddingBatchSize(int value) {
      positive("embeddingBatchSize", value);
      this.embeddingBatchSize = value;
      return this;
    }

    /** The embedding dimension; default 0 (learnt from the first response). */
    public Builder dimension(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("dimension must be >= 0 (0 = learn it), got dimension=" + value);
      }
      this.dimension = value;
      return this;
    }

    /** Whether to send {@code "dimensions"} with embeddings requests; default false. */
    public Builder sendDimensions(boolean value) {
      this.sendDimensions = value;
      return this;
    }

    /** Validates and builds. */
    public OpenAiConfig build() {
      return new OpenAiConfig(endpoints, model, api, maxConcurrency, maxRetries, initialBackoff,
          maxBackoff, maxRetryAfter, requestTimeout, connectTimeout, embeddingBatchSize, dimension,
          sendDimensions);
    }
  }
}
