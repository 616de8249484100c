package dev.secpe.llm.spi;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.ProviderException;
import dev.secpe.llm.ProviderFault;
import dev.secpe.llm.TextGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TextGenerator} over a client library whose calls block (LangChain4j's and Spring AI's
 * chat models, a vendor's SDK): a subclass turns a request into the library's form ({@link
 * #prepare}), makes one blocking call ({@link #call}) and redacts the library's failures ({@link
 * #redact}); this class does the rest the contract asks for.
 *
 * <p>Each request is one call, run on the {@link BlockingSettings#executor(Executor) executor} of the
 * caller's choosing (by default a pool of {@code maxConcurrency} daemon threads of the generator's
 * own), at most {@link BlockingSettings#maxConcurrency(int) maxConcurrency} at a time across all callers;
 * results come back in request order. Cancelling the future of {@link #generateAsync} interrupts the
 * calls in flight and keeps queued ones from starting; a call longer than {@link
 * BlockingSettings#timeout(Duration) timeout} is interrupted the same way and fails its batch with a {@link
 * ProviderException.Retryable}. Thread-safe.
 *
 * @param <P> the library's form of one request
 */
public abstract class BlockingTextGenerator<P> implements TextGenerator {

  /** The default {@link BlockingSettings#timeout(Duration)}: 2 minutes per call. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /** The default {@link BlockingSettings#maxConcurrency(int)}: 4 calls at once. */
  public static final int DEFAULT_CONCURRENCY = 4;

  private final BlockingModel model;

  /**
   * A generator with {@code settings}.
   *
   * @param defaultName the name when the settings set none
   */
  protected BlockingTextGenerator(BlockingSettings<?> settings, String defaultName) {
    this.model = new BlockingModel(settings, defaultName, "chat model", DEFAULT_CONCURRENCY, this::redact);
  }

  /**
   * The library's form of {@code request}, made on the caller's thread before anything is sent;
   * throws {@link IllegalArgumentException} for a request the library cannot take.
   */
  protected abstract P prepare(GenerationRequest request);

  /** One blocking call; interrupted when cancelled or timed out. */
  protected abstract GenerationResult call(P prepared) throws Exception;

  /**
   * The exception the caller sees for the library's {@code failure} of {@code what} ("chat model
   * 'name'"): a {@link ProviderException} whose message must not quote the failure's message, which
   * may quote the request. Not called for {@link ProviderException}s and {@link ProviderFault}s,
   * which pass through.
   */
  protected abstract RuntimeException redact(String what, Throwable failure);

  @Override
  public final String name() {
    return model.name;
  }

  @Override
  public final Locality locality() {
    return model.locality;
  }

  /** The longest a call may take. */
  public final Duration timeout() {
    return model.timeout;
  }

  /** The most calls in flight at once. */
  public final int maxConcurrency() {
    return model.limiter.maxInFlight();
  }

  /**
   * The library's messages for {@code request}'s: roles "system", "user" and "assistant" become
   * what {@code system}, {@code user} and {@code assistant} make of the content, in order; a null
   * is left out (for a message the library refuses, such as a blank system message); another role
   * is an {@link IllegalArgumentException} naming it.
   *
   * @param <M> the library's message type
   */
  protected static <M> List<M> messages(GenerationRequest request,
      Function<String, ? extends @Nullable M> system, Function<String, ? extends M> user,
      Function<String, ? extends M> assistant) {
    List<M> out = new ArrayList<>(request.messages().size());
    for (ChatMessage m : request.messages()) {
      M made = switch (m.role()) {
        case "system" -> system.apply(m.content());
        case "user" -> user.apply(m.content());
        case "assistant" -> assistant.apply(m.content());
        default -> throw new IllegalArgumentException(
            "role must be \"system\", \"user\" or \"assistant\", got role=\"" + m.role() + "\"");
      };
      if (made != null) {
        out.add(made);
      }
    }
    return out;
  }

  /**
   * The failure of a call whose answer holds no text (no response, a tool call or an empty
   * message): a {@link ProviderException.Permanent} that names this model.
   */
  protected final ProviderException noText() {
    return new ProviderException.Permanent(
        model.what + " returned no text (no response, a tool call or an empty message)", null);
  }

  /** A token count the library reports, 0 when it reports none (null) or a negative one. */
  protected static int tokens(@Nullable Integer count) {
    return count == null ? 0 : Math.max(0, count);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException for a request the library cannot take (before anything is
   *     sent)
   */
  @Override
  public final CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    List<P> prepared = new ArrayList<>(requests.size());
    for (GenerationRequest r : requests) {
      prepared.add(prepare(Objects.requireNonNull(r, "requests must not contain null")));
    }
    if (model.closed()) {
      return CompletableFuture.failedFuture(ProviderFault.closed(model.name));
    }
    return model.map(prepared, this::call);
  }

  /**
   * Stops this generator: later calls fail with {@link ProviderFault#closed}; its own threads (if
   * it was given no executor) are interrupted. A caller's executor and the library's model stay
   * open.
   */
  @Override
  public void close() {
    model.close();
  }

  @Override
  public String toString() {
    return model.describe(this, "");
  }
}
