package dev.secpe.llm.springai;

import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.BlockingSettings;
import dev.secpe.llm.spi.BlockingTextEmbedder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import org.springframework.ai.embedding.EmbeddingModel;

/**
 * Any Spring AI {@link EmbeddingModel} as a SecPE {@link TextEmbedder}, in the shape of {@code
 * LangChain4jTextEmbedder}.
 *
 * <p><b>Locality</b> is {@link Locality#REMOTE} unless the builder says {@link Locality#LOCAL}:
 * Spring AI cannot tell where a model runs. An embedder sees <em>private</em> text, and the
 * evolution builders refuse a remote one unless the caller allows it ({@code
 * allowRemoteEmbedding()}); declare {@code LOCAL} only for a model in this process or on this host.
 *
 * <p><b>Batching and concurrency.</b> The texts of one {@link #embed} are sent in batches of
 * {@link BlockingTextEmbedder.Settings#batchSize(int) batchSize} (default 32) (one {@link EmbeddingModel#embed(List)} each), on the builder's
 * {@link BlockingSettings#executor(Executor) executor}, at most {@link BlockingSettings#maxConcurrency(int) maxConcurrency} (default 2) batches
 * at a time across all callers. A batch longer than {@link BlockingSettings#timeout(Duration) timeout} (default 2 minutes) is cancelled
 * (interrupted) and fails the call with a {@link ProviderException.Retryable}.
 *
 * <p><b>Vectors</b> are L2-normalised here, so {@link #normalized()} is true; the dimension is the
 * builder's or, by default, {@link EmbeddingModel#dimensions()} (which may embed a fixed public
 * probe text once).
 *
 * <p><b>Errors</b> never carry text: a model's exception becomes a {@link ProviderException} naming
 * only its type; a wrong number of vectors or a wrong dimension is a {@link ProviderFault}. The
 * model is the caller's: {@link #close()} leaves it open. Thread-safe.
 */
public final class SpringAiTextEmbedder extends BlockingTextEmbedder {

  private final EmbeddingModel model;

  private SpringAiTextEmbedder(Builder b) {
    super(b, "spring-ai");
    this.model = b.model;
  }

  /** A builder for an embedder of {@code model}. */
  public static Builder builder(EmbeddingModel model) {
    return new Builder(model);
  }

  /** An embedder of {@code model} with the defaults (remote; batches of 32, 2 at once). */
  public static SpringAiTextEmbedder of(EmbeddingModel model) {
    return builder(model).build();
  }

  /** The Spring AI model this embedder calls. */
  public EmbeddingModel model() {
    return model;
  }

  /** Embeds one batch with the framework's model, on the caller's thread. */
  @Override
  protected List<float[]> call(List<String> batch) {
    return model.embed(batch);
  }

  /** Asks the framework's model for its dimension (once, when the embedder is built). */
  @Override
  protected int askDimension() {
    return model.dimensions();
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
   * Settings of a {@link SpringAiTextEmbedder} ({@link BlockingTextEmbedder.Settings}: name, default
   * "spring-ai"; locality; batchSize; maxConcurrency; dimension; executor; timeout); each may be set
   * once. {@link #build()} leaves the builder reusable.
   */
  public static final class Builder extends BlockingTextEmbedder.Settings<Builder> {
    private final EmbeddingModel model;

    private Builder(EmbeddingModel model) {
      super(model);
      this.model = model;
    }

    /** This builder. */
    @Override
    protected Builder self() {
      return this;
    }

    /** The embedder. */
    public SpringAiTextEmbedder build() {
      return new SpringAiTextEmbedder(this);
    }
  }
}
