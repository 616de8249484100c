package dev.secpe.cli;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextEmbedderProvider;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code --embedder test-blocking-embedder}: every request waits until the embedder is closed and
 * then fails, as a remote embedder that never answers does; for the tests of a signal that comes
 * while the run probes its providers.
 */
public final class TestBlockingEmbedderProvider implements TextEmbedderProvider {

  /** For {@link java.util.ServiceLoader}. */
  public TestBlockingEmbedderProvider() {}

  @Override
  public String name() {
    return "test-blocking-embedder";
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public TextEmbedder create(ProviderConfig config) {
    CountDownLatch closed = new CountDownLatch(1);
    return new TextEmbedder() {
      @Override
      public String name() {
        return "test-blocking-embedder";
      }

      @Override
      public int dimension() {
        return 32;
      }

      @Override
      public boolean normalized() {
        return true;
      }

      @Override
      public Locality locality() {
        return Locality.LOCAL;
      }

      @Override
      public float[][] embed(List<String> texts) {
        try {
          closed.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("the embedder was closed");
      }

      @Override
      public void close() {
        closed.countDown();
      }
    };
  }

  @Override
  public java.util.Optional<java.util.Set<String>> options() {
    return java.util.Optional.of(java.util.Set.of());
  }
}
