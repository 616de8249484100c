package dev.secpe.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.Batches;
import dev.secpe.llm.spi.ConcurrencyLimiter;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link TextEmbedder} for OpenAI-compatible {@code /embeddings} endpoints.
 *
 * <p><b>{@link Locality#REMOTE}:</b> the texts it embeds are sent over the network. Private
 * records go to it only when the caller explicitly allows it (the evolution builders refuse
 * otherwise); the texts never appear in a log line or an exception message of this class.
 *
 * <p>Texts are sent in batches of {@link OpenAiConfig#embeddingBatchSize()}, at most {@link
 * OpenAiConfig#maxConcurrency()} batches in flight, with the retries {@link OpenAiConfig}
 * describes. Vectors are L2-normalised here (a no-op for OpenAI's models, which already are), so
 * {@link #normalized()} is always true. The dimension is the configured one or, when 0, learnt from
 * the first response (probing with a fixed public string if asked before any call). Thread-safe.
 */
public final class OpenAiTextEmbedder implements TextEmbedder {

  private static final String PROBE = "dimension probe";

  private final OpenAiConfig config;
  private final OpenAiHttp http;
  private final ConcurrencyLimiter limiter;
  private volatile int dimension;

  private OpenAiTextEmbedder(OpenAiConfig config, Clock clock) {
    this.config = Objects.requireNonNull(config, "config");
    this.http = new OpenAiHttp(config, clock);
    this.limiter = new ConcurrencyLimiter(config.maxConcurrency());
    this.dimension = config.dimension();
  }

  /** An embedder for {@code config}. */
  public static OpenAiTextEmbedder create(OpenAiConfig config) {
    return new OpenAiTextEmbedder(config, Clock.systemUTC());
  }

  @Override
  public String name() {
    return OpenAiProvider.NAME;
  }

  @Override
  public int dimension() {
    int d = dimension;
    if (d == 0) {
      embed(List.of(PROBE));
      d = dimension;
    }
    return d;
  }

  @Override
  public boolean normalized() {
    return true;
  }

  @Override
  public Locality locality() {
    return Locality.REMOTE;
  }

  /** Request, retry and token counters. */
  public OpenAiStats stats() {
    return http.stats();
  }

  @Override
  public float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (String t : texts) {
      Objects.requireNonNull(t, "texts must not contain null");
    }
    CompletableFuture<List<float[][]>> all = limiter.mapAsync(Batches.of(texts, config.embeddingBatchSize()), this::batch);
    // The batches fail with ProviderExceptions of OpenAiHttp's; anything else is named by its type
    // only, since its message may quote the texts.
    List<float[][]> parts = Batches.await(all,
        () -> new ProviderException.Retryable("interrupted while embedding", null),
        e -> new ProviderException.Permanent("embedding failed: " + e.getClass().getSimpleName(), null));
    return Batches.join(parts, texts.size());
  }

  private CompletableFuture<float[][]> batch(List<String> texts) {
    ObjectNode body = OpenAiHttp.JSON.createObjectNode();
    body.put("model", config.model());
    ArrayNode input = body.putArray("input");
    texts.forEach(input::add);
    body.put("encoding_format", "float");
    if (config.sendDimensions()) {
      body.put("dimensions", config.dimension());
    }
    return http.post("/embeddings", body, tree -> parse(tree, texts.size()));
  }

  private float[][] parse(JsonNode tree, int n) {
    JsonNode data = tree.path("data");
    if (!data.isArray() || data.size() != n) {
      throw new OpenAiHttp.MalformedResponse("expected " + n + " embeddings");
    }
    float[][] out = new float[n][];
    for (int i = 0; i < n; i++) {
      JsonNode item = data.get(i);
      int index = item.path("index").asInt(i);
      JsonNode emb = item.path("embedding");
      if (index < 0 || index >= n || out[index] != null || !emb.isArray() || emb.size() == 0) {
        throw new OpenAiHttp.MalformedResponse("bad embedding item");
      }
      float[] v = new float[emb.size()];
      double sq = 0;
      for (int j = 0; j < v.length; j++) {
        JsonNode x = emb.get(j);
        if (!x.isNumber()) {
          throw new OpenAiHttp.MalformedResponse("non-numeric component");
        }
        v[j] = x.floatValue();
        sq += (double) v[j] * v[j];
      }
      if (!(sq > 0) || !Double.isFinite(sq)) {
        throw new OpenAiHttp.MalformedResponse("zero or non-finite vector");
      }
      float inv = (float) (1 / Math.sqrt(sq));
      for (int j = 0; j < v.length; j++) {
        v[j] *= inv;
      }
      out[index] = v;
    }
    int d = dimension;
    for (float[] v : out) {
      if (d == 0) {
        synchronized (this) {
          if (dimension == 0) {
            dimension = v.length;
          }
          d = dimension;
        }
      }
      if (v.length != d) {
        throw new OpenAiHttp.IncompatibleResponse("endpoint returned a vector of length " + v.length
            + ", expected dimension " + d);
      }
    }
    return out;
  }

  @Override
  public void close() {
    http.close();
  }

  @Override
  public String toString() {
    return "OpenAiTextEmbedder{model=" + config.model() + ", endpoints=" + config.endpoints() + "}";
  }
}
