package dev.secpe.llm.langchain4j;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.BlockingSettings;
import dev.secpe.llm.spi.BlockingTextEmbedder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Any LangChain4j {@link EmbeddingModel} (a vendor's embedding endpoint, or an in-process ONNX model
 * such as LangChain4j's {@code AllMiniLmL6V2EmbeddingModel}) as a SecPE {@link TextEmbedder}.
 *
 * <pre>{@code
 * EmbeddingModel model = new AllMiniLmL6V2EmbeddingModel();   // in this process
 * try (TextEmbedder emb = LangChain4jTextEmbedder.builder(model).locality(Locality.LOCAL).build()) {
 *   // SecPE.builder().embedder(emb) ...
 * }
 * }</pre>
 *
 * <p><b>Locality</b> is {@link Locality#REMOTE} unless the builder says {@link Locality#LOCAL}:
 * LangChain4j cannot tell where a model runs. An embedder sees <em>private</em> text, and the
 * evolution builders refuse a remote one unless the caller allows it ({@code
 * allowRemoteEmbedding()}); declare {@code LOCAL} only for a model in this process or on this host.
 *
 * <p><b>Batching and concurrency.</b> The texts of one {@link #embed} are sent in batches of
 * {@link BlockingTextEmbedder.Settings#batchSize(int) batchSize} (default 32; one {@link
 * EmbeddingModel#embedAll} each), run on the builder's {@link BlockingSettings#executor(Executor)
 * executor} (by default threads of the embedder's own), at most {@link
 * BlockingSettings#maxConcurrency(int) maxConcurrency} (default 2) batches at a time across all
 * callers. A batch that takes longer than {@link BlockingSettings#timeout(Duration) timeout}
 * (default 2 minutes) is cancelled (interrupted) and fails the call with a {@link
 * ProviderException.Retryable}; so does an interrupt of the calling thread, which also cancels the
 * other batches.
 *
 * <p><b>Vectors</b> are L2-normalised here, so {@link #normalized()} is true; the dimension is the
 * builder's or, by default, {@link EmbeddingModel#dimension()} (which may embed a fixed public
 * probe text once). LangChain4j refuses blank text: a blank text is embedded as {@value
 * #BLANK_STAND_IN}.
 *
 * <p><b>Errors</b> never carry text: a model's exception (whose message may quote the private
 * text) becomes a {@link ProviderException} naming only its type and HTTP status; a wrong number of
 * vectors or a wrong dimension is a {@link ProviderFault}. The model is the caller's: {@link
 * #close()} leaves it open. Thread-safe.
 */
public final class LangChain4jTextEmbedder extends BlockingTextEmbedder {

  /** What a blank text is embedded as (LangChain4j's {@code TextSegment} refuses blank text). */
  public static final String BLANK_STAND_IN = "(empty)";

  private final EmbeddingModel model;

  private LangChain4jTextEmbedder(Builder b) {
    super(b, LangChain4jTextGenerator.defaultName(b.model.provider()));
    this.model = b.model;
  }

  /** A builder for an embedder of {@code model}. */
  public static Builder builder(EmbeddingModel model) {
    return new Builder(model);
  }

  /** An embedder of {@code model} with the defaults (remote; batches of 32, 2 at once). */
  public static LangChain4jTextEmbedder of(EmbeddingModel model) {
    return builder(model).build();
  }

  /** The LangChain4j model this embedder calls. */
  public EmbeddingModel model() {
    return model;
  }

  /** Embeds one batch with the framework's model, on the caller's thread. */
  @Override
  protected List<float[]> call(List<String> batch) {
    List<TextSegment> segments = new ArrayList<>(batch.size());
    for (String t : batch) {
      segments.add(TextSegment.from(t.isBlank() ? BLANK_STAND_IN : t));
    }
    Response<List<Embedding>> response = model.embedAll(segments);
    List<Embedding> got = response == null ? null : response.content();
    if (got == null) {
      return List.of();
    }
    List<float[]> out = new ArrayList<>(got.size());
    for (Embedding e : got) {
      out.add(e == null ? null : e.vector());
    }
    return out;
  }

  /** Asks the framework's model for its dimension (once, when the embedder is built). */
  @Override
  protected int askDimension() {
    return model.dimension();
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
   * Settings of a {@link LangChain4jTextEmbedder} ({@link BlockingTextEmbedder.Settings}: name,
   * locality, batchSize, maxConcurrency, dimension, executor, timeout); a second call keeps the last value. {@link
   * #build()} leaves the builder reusable (every embedder built has its own threads).
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

    /**
     * The embedder. Its name, unless set, is "langchain4j-" and the model's LangChain4j provider, or
     * "langchain4j" when the model names none.
     */
    public LangChain4jTextEmbedder build() {
      return new LangChain4jTextEmbedder(this);
    }
  }
}
