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
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.BlockingSettings;
import dev.secpe.llm.spi.BlockingTextGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.Executor;
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
 * run on the builder's {@link BlockingSettings#executor(Executor) executor} (by default a pool of
 * {@code maxConcurrency} daemon threads of this generator's own), at most {@link
 * BlockingSettings#maxConcurrency(int) maxConcurrency} (default 4) at a time across all callers;
 * results come back in request order.
 *
 * <p><b>Cancellation and timeouts.</b> Cancelling the future of {@link #generateAsync} interrupts
 * the calls in flight and keeps the queued ones from starting; a call that takes longer than
 * {@link BlockingSettings#timeout(Duration) timeout} (default 2 minutes) is cancelled the same way
 * and fails the batch with a {@link ProviderException.Retryable}. LangChain4j's own clients have
 * their own timeouts and retries ({@code maxRetries}); this adapter does not retry.
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
public final class LangChain4jTextGenerator extends BlockingTextGenerator<ChatRequest> {

  private final ChatModel model;
  private final Function<GenerationParams, ChatRequestParameters> parameters;

  private LangChain4jTextGenerator(Builder b) {
    super(b, defaultName(b.model.provider()));
    this.model = b.model;
    this.parameters = b.parameters != null ? b.parameters : LangChain4jTextGenerator::standardParameters;
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

  /** The LangChain4j model this generator calls. */
  public ChatModel model() {
    return model;
  }

  /**
   * The chat request: roles "system", "user" and "assistant" become LangChain4j's messages (a blank
   * system message, which LangChain4j refuses, is left out); another role is refused.
   */
  @Override
  protected ChatRequest prepare(GenerationRequest r) {
    List<dev.langchain4j.data.message.ChatMessage> messages = messages(r,
        text -> text.isBlank() ? null : SystemMessage.from(text), UserMessage::from, AiMessage::from);
    return ChatRequest.builder()
        .messages(messages)
        .parameters(Objects.requireNonNull(parameters.apply(r.params()), "parameters mapping returned null"))
        .build();
  }

  /** Sends one prepared request to the framework's chat model, on the caller's thread. */
  @Override
  protected GenerationResult call(ChatRequest request) {
    ChatResponse response = model.chat(request);
    AiMessage message = response == null ? null : response.aiMessage();
    String text = message == null ? null : message.text();
    if (response == null || text == null) {
      throw noText();
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
        usage == null ? 0 : tokens(usage.inputTokenCount()),
        usage == null ? 0 : tokens(usage.outputTokenCount()));
  }

  /**
   * The framework's failure without its message (it may quote the texts), as a ProviderException
   * that keeps whether it is worth retrying.
   */
  @Override
  protected RuntimeException redact(String what, Throwable failure) {
    return Failures.redact(what, failure);
  }

  /**
   * Settings of a {@link LangChain4jTextGenerator}: those of every blocking generator ({@link
   * BlockingSettings}: name, locality, maxConcurrency, executor, timeout) and the parameter mapping;
   * a second call keeps the last value. {@link #build()} leaves the builder reusable (every generator built has
   * its own threads).
   */
  public static final class Builder extends BlockingSettings<Builder> {
    private final ChatModel model;
    private @Nullable Function<GenerationParams, ChatRequestParameters> parameters;

    private Builder(ChatModel model) {
      super(model);
      this.model = model;
    }

    /** This builder. */
    @Override
    protected Builder self() {
      return this;
    }

    /**
     * How a request's {@link GenerationParams} become LangChain4j parameters; default {@link
     * #standardParameters}. The model's default parameters fill in what the result leaves unset.
     */
    public Builder parameters(Function<GenerationParams, ChatRequestParameters> mapping) {
      this.parameters = Objects.requireNonNull(mapping, "parameters");
      return this;
    }

    /**
     * The generator. Its name, unless set, is "langchain4j-" and the model's LangChain4j provider
     * ("langchain4j-open-ai"), or "langchain4j" when the model names none.
     */
    public LangChain4jTextGenerator build() {
      return new LangChain4jTextGenerator(this);
    }

    /** Adds this adapter's own settings, those that were set, to {@code toString()}. */
    @Override
    protected void describe(StringJoiner set) {
      add(set, "parameters", parameters == null ? null : "custom");
    }
  }
}
