package dev.secpe.llm.springai;

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
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * Any Spring AI {@link ChatModel} (the OpenAI, Anthropic, Ollama, Bedrock... starters' beans) as a
 * SecPE {@link TextGenerator}, in the shape of {@code LangChain4jTextGenerator}.
 *
 * <pre>{@code
 * @Bean TextGenerator secpeGenerator(ChatModel chatModel) {
 *   return SpringAiTextGenerator.builder(chatModel).maxConcurrency(8).build();
 * }
 * }</pre>
 *
 * <p><b>Locality</b> is {@link Locality#REMOTE} unless the builder says {@link Locality#LOCAL}.
 * <b>Batching:</b> each request is one blocking {@link ChatModel#call(Prompt)} on the builder's
 * executor (by default {@code maxConcurrency} daemon threads of the generator's own), at most
 * {@code maxConcurrency} at a time across all callers, results in request order.
 * <b>Cancellation and timeouts:</b> cancelling the future of {@link #generateAsync} interrupts the
 * calls in flight and keeps queued ones from starting; a call longer than the timeout is cancelled
 * the same way and fails the batch with a {@link ProviderException.Retryable}. <b>Parameters:</b>
 * temperature, top-p, {@code maxTokens} and stop sequences become {@link ChatOptions} (see {@link
 * #standardOptions}); Spring AI has no provider-neutral seed, so it is dropped unless {@link
 * Builder#options(Function)} maps it to a model's own options. <b>Errors</b> are {@link
 * ProviderException}s naming the exception's type only. The model is the caller's: {@link
 * #close()} leaves it open. Thread-safe.
 */
public final class SpringAiTextGenerator implements TextGenerator {

  /** The default {@link Builder#timeout(Duration)}: 2 minutes per call. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /** The default {@link Builder#maxConcurrency(int)}: 4 calls at once. */
  public static final int DEFAULT_CONCURRENCY = 4;

  private final ChatModel model;
  private final String name;
  private final Locality locality;
  private final Duration timeout;
  private final Function<GenerationParams, ChatOptions> options;
  private final ConcurrencyLimiter limiter;
  private final Executor executor;
  private final @Nullable ExecutorService ownPool;
  private volatile boolean closed;

  private SpringAiTextGenerator(Builder b) {
    this.model = b.model;
    this.name = b.name != null ? b.name : "spring-ai";
    this.locality = b.locality != null ? b.locality : Locality.REMOTE;
    this.timeout = b.timeout != null ? b.timeout : DEFAULT_TIMEOUT;
    this.options = b.options != null ? b.options : SpringAiTextGenerator::standardOptions;
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
  public static SpringAiTextGenerator of(ChatModel model) {
    return builder(model).build();
  }

  /**
   * The standard mapping of SecPE's sampling parameters to Spring AI's: temperature, top-p, {@code
   * maxTokens}, and the stop sequences when there are any (the model's default options fill in the
   * rest).
   */
  public static ChatOptions standardOptions(GenerationParams p) {
    ChatOptions.Builder<?> b = ChatOptions.builder()
        .temperature(p.temperature())
        .topP(p.topP())
        .maxTokens(p.maxTokens());
    if (!p.stop().isEmpty()) {
      b.stopSequences(p.stop());
    }
    return b.build();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Locality locality() {
    return locality;
  }

  /** The Spring AI model this generator calls. */
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
    List<Prompt> prompts = new ArrayList<>(requests.size());
    for (GenerationRequest r : requests) {
      prompts.add(toPrompt(Objects.requireNonNull(r, "requests must not contain null")));
    }
    if (closed) {
      return CompletableFuture.failedFuture(ProviderFault.closed(name));
    }
    String what = "chat model '" + name + "'";
    return limiter.mapAsync(
        prompts, p -> Calls.start(executor, () -> toResult(model.call(p), what), timeout, what, name));
  }

  Prompt toPrompt(GenerationRequest r) {
    List<Message> messages = new ArrayList<>();
    for (ChatMessage m : r.messages()) {
      messages.add(switch (m.role()) {
        case "system" -> new SystemMessage(m.content());
        case "user" -> new UserMessage(m.content());
        case "assistant" -> new AssistantMessage(m.content());
        default -> throw new IllegalArgumentException(
            "role must be \"system\", \"user\" or \"assistant\", got role=\"" + m.role() + "\"");
      });
    }
    return new Prompt(messages,
        Objects.requireNonNull(options.apply(r.params()), "options mapping returned null"));
  }

  private static GenerationResult toResult(@Nullable ChatResponse response, String what) {
    Generation g = response == null ? null : response.getResult();
    String text = g == null || g.getOutput() == null ? null : g.getOutput().getText();
    if (response == null || g == null || text == null) {
      throw new ProviderException.Permanent(
          what + " returned no text (no response, a tool call or an empty message)", null);
    }
    String finish = g.getMetadata() == null ? null : g.getMetadata().getFinishReason();
    GenerationResult.FinishReason reason = switch (finish == null ? "" : finish.toLowerCase(Locale.ROOT)) {
      case "stop", "end_turn", "stop_sequence" -> GenerationResult.FinishReason.STOP;
      case "length", "max_tokens" -> GenerationResult.FinishReason.LENGTH;
      case "content_filter", "safety" -> GenerationResult.FinishReason.CONTENT_FILTER;
      default -> GenerationResult.FinishReason.OTHER;
    };
    Usage usage = response.getMetadata() == null ? null : response.getMetadata().getUsage();
    return new GenerationResult(text, reason,
        usage == null ? 0 : count(usage.getPromptTokens()),
        usage == null ? 0 : count(usage.getCompletionTokens()));
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
    return "SpringAiTextGenerator{name=" + name + ", locality=" + locality + ", maxConcurrency="
        + limiter.maxInFlight() + ", timeout=" + timeout + ", model=" + model.getClass().getName() + "}";
  }

  /**
   * Settings of a {@link SpringAiTextGenerator}; each may be set once. {@link #build()} leaves the
   * builder reusable (every generator built has its own threads).
   */
  public static final class Builder {
    private final ChatModel model;
    private @Nullable String name;
    private @Nullable Locality locality;
    private @Nullable Integer maxConcurrency;
    private @Nullable Executor executor;
    private @Nullable Duration timeout;
    private @Nullable Function<GenerationParams, ChatOptions> options;

    private Builder(ChatModel model) {
      this.model = Objects.requireNonNull(model, "model");
    }

    /** The name in reports and messages; default "spring-ai". */
    public Builder name(String name) {
      Calls.once(this.name, "name");
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank, got name=\"" + name + "\"");
      }
      this.name = name;
      return this;
    }

    /** Where the model runs; default {@link Locality#REMOTE}. */
    public Builder locality(Locality locality) {
      Calls.once(this.locality, "locality");
      this.locality = Objects.requireNonNull(locality, "locality");
      return this;
    }

    /** The most calls in flight at once, across all callers, >= 1; default {@value SpringAiTextGenerator#DEFAULT_CONCURRENCY}. */
    public Builder maxConcurrency(int maxConcurrency) {
      Calls.once(this.maxConcurrency, "maxConcurrency");
      this.maxConcurrency = Calls.atLeastOne(maxConcurrency, "maxConcurrency");
      return this;
    }

    /**
     * The executor the blocking calls run on; default: a pool of {@code maxConcurrency} daemon
     * threads that {@link #close()} stops. A caller's executor is never shut down by the generator.
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

    /** How a request's {@link GenerationParams} become Spring AI options; default {@link #standardOptions}. */
    public Builder options(Function<GenerationParams, ChatOptions> mapping) {
      Calls.once(this.options, "options");
      this.options = Objects.requireNonNull(mapping, "options");
      return this;
    }

    /** The generator. */
    public SpringAiTextGenerator build() {
      return new SpringAiTextGenerator(this);
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder("SpringAiTextGenerator.Builder{model=").append(model.getClass().getName());
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
      if (options != null) {
        s.append(", options=custom");
      }
      return s.append('}').toString();
    }
  }
}
