package dev.secpe.llm.springai;

import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.BlockingSettings;
import dev.secpe.llm.spi.BlockingTextGenerator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;
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
 * {@code maxConcurrency} (default 4) at a time across all callers, results in request order.
 * <b>Cancellation and timeouts:</b> cancelling the future of {@link #generateAsync} interrupts the
 * calls in flight and keeps queued ones from starting; a call longer than the timeout is cancelled
 * the same way and fails the batch with a {@link ProviderException.Retryable}. <b>Parameters:</b>
 * temperature, top-p, {@code maxTokens} and stop sequences become {@link ChatOptions} (see {@link
 * #standardOptions}); Spring AI has no provider-neutral seed, so it is dropped unless {@link
 * Builder#options(Function)} maps it to a model's own options. <b>Errors</b> are {@link
 * ProviderException}s naming the exception's type only. The model is the caller's: {@link
 * #close()} leaves it open. Thread-safe.
 */
public final class SpringAiTextGenerator extends BlockingTextGenerator<Prompt> {

  private final ChatModel model;
  private final Function<GenerationParams, ChatOptions> options;

  private SpringAiTextGenerator(Builder b) {
    super(b, "spring-ai");
    this.model = b.model;
    this.options = b.options != null ? b.options : SpringAiTextGenerator::standardOptions;
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

  /** The Spring AI model this generator calls. */
  public ChatModel model() {
    return model;
  }

  /** The prompt: roles "system", "user" and "assistant" become Spring AI's messages; another role is refused. */
  @Override
  protected Prompt prepare(GenerationRequest r) {
    List<Message> messages = messages(r, SystemMessage::new, UserMessage::new, AssistantMessage::new);
    return new Prompt(messages,
        Objects.requireNonNull(options.apply(r.params()), "options mapping returned null"));
  }

  /** Sends one prepared prompt to the framework's chat model, on the caller's thread. */
  @Override
  protected GenerationResult call(Prompt prompt) {
    ChatResponse response = model.call(prompt);
    Generation g = response == null ? null : response.getResult();
    String text = g == null || g.getOutput() == null ? null : g.getOutput().getText();
    if (response == null || g == null || text == null) {
      throw noText();
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
        usage == null ? 0 : tokens(usage.getPromptTokens()),
        usage == null ? 0 : tokens(usage.getCompletionTokens()));
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
   * Settings of a {@link SpringAiTextGenerator}: those of every blocking generator ({@link
   * BlockingSettings}: name, default "spring-ai"; locality; maxConcurrency; executor; timeout) and
   * the options mapping; a second call keeps the last value. {@link #build()} leaves the builder reusable.
   */
  public static final class Builder extends BlockingSettings<Builder> {
    private final ChatModel model;
    private @Nullable Function<GenerationParams, ChatOptions> options;

    private Builder(ChatModel model) {
      super(model);
      this.model = model;
    }

    /** This builder. */
    @Override
    protected Builder self() {
      return this;
    }

    /** How a request's {@link GenerationParams} become Spring AI options; default {@link #standardOptions}. */
    public Builder options(Function<GenerationParams, ChatOptions> mapping) {
      this.options = Objects.requireNonNull(mapping, "options");
      return this;
    }

    /** The generator. */
    public SpringAiTextGenerator build() {
      return new SpringAiTextGenerator(this);
    }

    /** Adds this adapter's own settings, those that were set, to {@code toString()}. */
    @Override
    protected void describe(StringJoiner set) {
      add(set, "options", options == null ? null : "custom");
    }
  }
}
