package dev.secpe.llm.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.DefaultChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.BlockingCalls;
import dev.secpe.llm.spi.ConcurrencyLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Any LangChain4j {@link ChatModel} (OpenAI, Anthropic, Gemini, Ollama, Bedrock, a local model...)
 * as a SecPE {@link TextGenerator}.
 *
 * <pre>{@code
 * ChatModel model = OpenAiChatModel.builder().apiKey(key).modelName("gpt-4o-mini").build();
 * try (TextGenerator gen = LangChain4jTextGenerator.builder(model).maxConcurrency(8).build()) {
 *   // SecPE.builder().generator(gen) ...
 * }
 * }</pre>
 *
 * <p><b>Locality</b> is {@link Locality#REMOTE} unless the builder says {@link Locality#LOCAL} (a
 * model in this process or on this host): LangChain4j cannot tell. A generator only ever sees
 * public or synthetic text, so this is informational for generators; it appears in the run's
 * report.
 *
 * <p><b>Batching and concurrency.</b> Each request is one blocking {@link ChatModel#chat(ChatRequest)},
 * run on the builder's {@link Builder#executor(Executor) executor} (by default a pool of {@link
 * Builder#maxConcurrency(int)} daemon threads of this generator's own), at most {@code
 * maxConcurrency} at a time across all callers; results come back in request order.
 *
 * <p><b>Cancellation and timeouts.</b> Cancelling the future of {@link #generateAsync} interrupts
 * the calls in flight and keeps the queued ones from starting; a call that takes longer than
 * {@link Builder#timeout(Duration)} is cancelled the same way and fails the batch with a {@link
 * ProviderException.Retryable}. LangChain4j's own clients have their own timeouts and retries
 * ({@code maxRetries}); this adapter does not retry.
 *
 * <p><b>Parameters.</b> {@link GenerationParams} become {@link ChatRequestParameters}: temperature,
 * top-p, {@code maxOutputTokens} and stop sequences (see {@link #standardParameters}). LangChain4j
 * has no provider-neutral seed, so the seed is dropped unless {@link Builder#parameters(Function)}
 * maps it to a model's own parameters (for example {@code OpenAiChatRequestParameters.seed}).
 *
 * <p><b>Errors</b> are {@link ProviderException}s (retryable for rate limits, timeouts and server
 * errors) whose message names the exception's type and HTTP status, never its message. The model
 * is the caller's: {@link #close()} stops this generator's own threads and leaves the model open.
 * Thread-safe.
 */
public final class LangChain4jTextGenerator implements TextGenerator {

  /** The default {@link Builder#timeout(Duration)}: 2 minutes per call. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /** The default {@link Builder#maxConcurrency(int)}: 4 calls at once. */
  public static final int DEFAULT_CONCURRENCY = 4;

  private final ChatModel model;
  private final String name;
  private final Locality locality;
  private final Duration timeout;
  private final Function<GenerationParams, ChatRequestParameters> parameters;
  private final ConcurrencyLimiter limiter;
  private final Executor executor;
  private final @Nullable ExecutorService ownPool;
  private volatile boolean closed;

  private LangChain4jTextGenerator(Builder b) {
    this.model = b.model;
    this.name = b.name != null ? b.name : defaultName(model.provider());
    this.locality = b.locality != null ? b.locality : Locality.REMOTE;
    this.timeout = b.timeout != null ? b.timeout : DEFAULT_TIMEOUT;
    this.parameters = b.parameters != null ? b.parameters : LangChain4jTextGenerator::standardParameters;
    int concurrency = b.maxConcurrency != null ? b.maxConcurrency : DEFAULT_CONCURRENCY;
    this.limiter = new ConcurrencyLimiter(concurrency);
    if (b.executor != null) {
      this.executor = b.executor;
      this.ownPool = null;
    } else {
      this.ownPool = BlockingCalls.daemonPool(concurrency, "secpe-" + name);
      this.executor = ownPool;
    }
  }

  /** A builder for a generator of {@code model}. */
  public static Builder builder(ChatModel model) {
    return new Builder(model);
  }

  /** A generator of {@code model} with the defaults: remote, 4 calls at once, 2 minutes each. */
  public static LangChain4jTextGenerator of(ChatModel model) {
    return builder(model).build();
  }

  /**
   * The standard mapping of SecPE's sampling parameters to LangChain4j's: temperature, top-p,
   * {@code maxOutputTokens} = {@code maxTokens}, and the stop sequences when there are any (the
   * model's defaults fill in the rest). A {@link Builder#parameters(Function)} mapping can start
   * from it, e.g. {@code OpenAiChatRequestParameters.builder().overrideWith(standardParameters(p))
   * .seed(...)}.
   */
  public static ChatRequestParameters standardParameters(GenerationParams p) {
    DefaultChatRequestParameters.Builder<?> b = ChatRequestParameters.builder()
        .temperature(p.temperature())
        .topP(p.topP())
        .maxOutputTokens(p.maxTokens());
    if (!p.stop().isEmpty()) {
      b.stopSequences(p.stop());
    }
    return b.build();
  }

  static String defaultName(@Nullable ModelProvider provider) {
    return provider == null || provider == ModelProvider.OTHER
        ? "langchain4j"
        : "langchain4j-" + provider.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Locality locality() {
    return locality;
  }

  /** The LangChain4j model this generator calls. */
  public ChatModel model() {
    return model;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException for a message whose role is not "system", "user" or
   *     "assistant" (before anything is sent)
   */
  @Override
  public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    List<ChatRequest> chats = new ArrayList<>(requests.size());
    for (GenerationRequest r : requests) {
      chats.add(toChatRequest(Objects.requireNonNull(r, "requests must not contain null")));
    }
    if (closed) {
      return CompletableFuture.failedFuture(ProviderFault.closed(name));
    }
    String what = "chat model '" + name + "'";
    return limiter.mapAsync(
        chats, c -> Calls.start(executor, () -> toResult(model.chat(c), what), timeout, what, name));
  }

  ChatRequest toChatRequest(GenerationRequest r) {
    List<dev.langchain4j.data.message.ChatMessage> messages = new ArrayList<>();
    for (ChatMessage m : r.messages()) {
      switch (m.role()) {
        case "system" -> {
          // LangChain4j refuses a blank system message; it carries no instruction anyway.
          if (!m.content().isBlank()) {
            messages.add(SystemMessage.from(m.content()));
          }
        }
        case "user" -> messages.add(UserMessage.from(m.content()));
        case "assistant" -> messages.add(AiMessage.from(m.content()));
        default -> throw new IllegalArgumentException(
            "role must be \"system\", \"user\" or \"assistant\", got role=\"" + m.role() + "\"");
      }
    }
    return ChatRequest.builder()
        .messages(messages)
        .parameters(Objects.requireNonNull(parameters.apply(r.params()), "parameters mapping returned null"))
        .build();
  }

  private static GenerationResult toResult(@Nullable ChatResponse response, String what) {
    AiMessage message = response == null ? null : response.aiMessage();
    String text = message == null ? null : message.text();
    if (response == null || text == null) {
      throw new ProviderException.Permanent(
          what + " returned no text (no response, a tool call or an empty message)", null);
    }
    GenerationResult.FinishReason reason =
        response.finishReason() == null ? GenerationResult.FinishReason.OTHER : switch (response.finishReason()) {
          case STOP -> GenerationResult.FinishReason.STOP;
          case LENGTH -> GenerationResult.FinishReason.LENGTH;
          case CONTENT_FILTER -> GenerationResult.FinishReason.CONTENT_FILTER;
          default -> GenerationResult.FinishReason.OTHER;
        };
    TokenUsage usage = response.tokenUsage();
    return new GenerationResult(text, reason,
        usage == null ? 0 : count(usage.inputTokenCount()),
        usage == null ? 0 : count(usage.outputTokenCount()));
  }

  private static int count(@Nullable Integer n) {
    return n == null ? 0 : Math.max(0, n);
  }

  /**
   * Stops this generator: later calls fail with {@link ProviderFault#closed}; its own threads (if
   * the builder was given no executor) are interrupted. The model and a caller's executor stay
   * open.
   */
  @Override
  public void close() {
    closed = true;
    if (ownPool != null) {
      BlockingCalls.stop(ownPool);
    }
  }

  @Override
  public String toString() {
    return "LangChain4jTextGenerator{name=" + name + ", locality=" + locality + ", maxConcurrency="
        + limiter.maxInFlight() + ", timeout=" + timeout + ", model=" + model.getClass().getName() + "}";
  }

  /**
   * Settings of a {@link LangChain4jTextGenerator}; each may be set once. {@link #build()} leaves
   * the builder reusable (every generator built has its own threads).
   */
  public static final class Builder {
    private final ChatModel model;
    private @Nullable String name;
    private @Nullable Locality locality;
    private @Nullable Integer maxConcurrency;
    private @Nullable Executor executor;
    private @Nullable Duration timeout;
    private @Nullable Function<GenerationParams, ChatRequestParameters> parameters;

    private Builder(ChatModel model) {
      this.model = Objects.requireNonNull(model, "model");
    }

    /**
     * The name in reports and messages; default "langchain4j-" and the model's LangChain4j
     * provider ("langchain4j-open-ai"), or "langchain4j" when the model names none.
     */
    public Builder name(String name) {
      Calls.once(this.name, "name");
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank, got name=\"" + name + "\"");
      }
      this.name = name;
      return this;
    }

    /** Where the model runs; default {@link Locality#REMOTE}. Say {@link Locality#LOCAL} only for a model on this host. */
    public Builder locality(Locality locality) {
      Calls.once(this.locality, "locality");
      this.locality = Objects.requireNonNull(locality, "locality");
      return this;
    }

    /** The most calls in flight at once, across all callers, >= 1; default {@value LangChain4jTextGenerator#DEFAULT_CONCURRENCY}. */
    public Builder maxConcurrency(int maxConcurrency) {
      Calls.once(this.maxConcurrency, "maxConcurrency");
      this.maxConcurrency = Calls.atLeastOne(maxConcurrency, "maxConcurrency");
      return this;
    }

    /**
     * The executor the blocking calls run on (for example virtual threads, or a pool the
     * application manages); default: a pool of {@code maxConcurrency} daemon threads that {@link
     * #close()} stops. A caller's executor is never shut down by the generator.
     */
    public Builder executor(Executor executor) {
      Calls.once(this.executor, "executor");
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** How long one call may take before it is cancelled, > 0; default 2 minutes. */
    public Builder timeout(Duration timeout) {
      Calls.once(this.timeout, "timeout");
      this.timeout = Calls.positive(timeout, "timeout");
      return this;
    }

    /**
     * How a request's {@link GenerationParams} become LangChain4j parameters; default {@link
     * #standardParameters}. The model's default parameters fill in what the result leaves unset.
     */
    public Builder parameters(Function<GenerationParams, ChatRequestParameters> mapping) {
      Calls.once(this.parameters, "parameters");
      this.parameters = Objects.requireNonNull(mapping, "parameters");
      return this;
    }

    /** The generator. */
    public LangChain4jTextGenerator build() {
      return new LangChain4jTextGenerator(this);
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("LangChain4jTextGenerator.Builder{model=").append(model.getClass().getName());
      if (name != null) {
        s.append(", name=").append(name);
      }
      if (locality != null) {
        s.append(", locality=").append(locality);
      }
      if (maxConcurrency != null) {
        s.append(", maxConcurrency=").append(maxConcurrency);
      }
      if (executor != null) {
        s.append(", executor=").append(executor.getClass().getName());
      }
      if (timeout != null) {
        s.append(", timeout=").append(timeout);
      }
      if (parameters != null) {
        s.append(", parameters=custom");
      }
      return s.append('}').toString();
    }
  }
}
