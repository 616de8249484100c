package dev.secpe.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ConcurrencyLimiter;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link TextGenerator} for OpenAI-compatible {@code /chat/completions} or {@code /completions}
 * endpoints (OpenAI, vLLM, Ollama, LiteLLM and similar gateways). {@link Locality#REMOTE}: the
 * text it is sent leaves the process, which is fine because generators only ever see public or
 * synthetic text.
 *
 * <p>Each request is one HTTP call (with {@code n = 1}); at most {@link
 * OpenAiConfig#maxConcurrency()} are in flight; failures are retried as {@link OpenAiConfig}
 * describes; results come back in request order. Thread-safe.
 */
public final class OpenAiTextGenerator implements TextGenerator {

  private final OpenAiConfig config;
  private final OpenAiHttp http;
  private final ConcurrencyLimiter limiter;

  private OpenAiTextGenerator(OpenAiConfig config, Clock clock) {
    this.config = Objects.requireNonNull(config, "config");
    this.http = new OpenAiHttp(config, clock);
    this.limiter = new ConcurrencyLimiter(config.maxConcurrency());
  }

  /** A generator for {@code config}. */
  public static OpenAiTextGenerator create(OpenAiConfig config) {
    return new OpenAiTextGenerator(config, Clock.systemUTC());
  }

  @Override
  public String name() {
    return OpenAiProvider.NAME;
  }

  @Override
  public Locality locality() {
    return Locality.REMOTE;
  }

  /** The configuration (its {@code toString} shows no keys). */
  public OpenAiConfig config() {
    return config;
  }

  /** Request, retry and token counters. */
  public OpenAiStats stats() {
    return http.stats();
  }

  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    return limiter.mapAsync(requests, this::one);
  }

  private CompletableFuture<GenerationResult> one(GenerationRequest request) {
    ObjectNode body = OpenAiHttp.JSON.createObjectNode();
    body.put("model", config.model());
    if (config.api() == OpenAiConfig.Api.CHAT) {
      ArrayNode msgs = body.putArray("messages");
      for (ChatMessage m : request.messages()) {
        msgs.addObject().put("role", m.role()).put("content", m.content());
      }
    } else {
      StringBuilder prompt = new StringBuilder();
      for (ChatMessage m : request.messages()) {
        if (prompt.length() > 0) {
          prompt.append("\n\n");
        }
        prompt.append(m.content());
      }
      body.put("prompt", prompt.toString());
    }
    GenerationParams p = request.params();
    body.put("temperature", p.temperature());
    body.put("top_p", p.topP());
    body.put("max_tokens", p.maxTokens());
    body.put("n", 1);
    if (!p.stop().isEmpty()) {
      ArrayNode stop = body.putArray("stop");
      p.stop().forEach(stop::add);
    }
    p.seed().ifPresent(s -> body.put("seed", s));
    String path = config.api() == OpenAiConfig.Api.CHAT ? "/chat/completions" : "/completions";
    return http.post(path, body, this::parse);
  }

  private GenerationResult parse(JsonNode tree) {
    JsonNode choice = tree.path("choices").path(0);
    JsonNode text = config.api() == OpenAiConfig.Api.CHAT
        ? choice.path("message").path("content")
        : choice.path("text");
    if (!text.isTextual()) {
      throw new OpenAiHttp.MalformedResponse("no choices[0] text");
    }
    GenerationResult.FinishReason reason = switch (choice.path("finish_reason").asText("")) {
      case "stop" -> GenerationResult.FinishReason.STOP;
      case "length" -> GenerationResult.FinishReason.LENGTH;
      case "content_filter" -> GenerationResult.FinishReason.CONTENT_FILTER;
      default -> GenerationResult.FinishReason.OTHER;
    };
    JsonNode usage = tree.path("usage");
    return new GenerationResult(text.asText(), reason,
        Math.max(0, usage.path("prompt_tokens").asInt(0)),
        Math.max(0, usage.path("completion_tokens").asInt(0)));
  }

  @Override
  public void close() {
    http.close();
  }

  @Override
  public String toString() {
    return "OpenAiTextGenerator{model=" + config.model() + ", endpoints=" + config.endpoints() + "}";
  }
}
