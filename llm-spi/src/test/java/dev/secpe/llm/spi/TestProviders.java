package dev.secpe.llm.spi;

import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** Tiny providers for registry tests; public with no-arg constructors for ServiceLoader. */
public final class TestProviders {
  static final AtomicInteger CONSTRUCTED = new AtomicInteger();

  private TestProviders() {}

  static TextGenerator generator(String name, Locality locality) {
    return new TextGenerator() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Locality locality() {
        return locality;
      }

      @Override
      public CompletableFuture<List<GenerationResult>> generateAsync(List<dev.secpe.llm.GenerationRequest> r) {
        return CompletableFuture.completedFuture(List.of());
      }
    };
  }

  /** A generator provider with a given name. */
  public static class Gen implements TextGeneratorProvider {
    private final String name;

    public Gen() {
      this("alpha");
    }

    Gen(String name) {
      this.name = name;
      CONSTRUCTED.incrementAndGet();
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public TextGenerator create(ProviderConfig config) {
      return generator(name, Locality.LOCAL);
    }
  }

  /** Another provider class that is also named "alpha" (a duplicate when both are installed). */
  public static final class GenAlphaToo extends Gen {
    public GenAlphaToo() {
      super("alpha");
    }
  }

  /** A provider named "beta". */
  public static final class GenBeta extends Gen {
    public GenBeta() {
      super("beta");
    }
  }

  /** An embedder provider named "emb". */
  public static final class Emb implements TextEmbedderProvider {
    public Emb() {
      CONSTRUCTED.incrementAndGet();
    }

    @Override
    public String name() {
      return "emb";
    }

    @Override
    public Locality locality() {
      return Locality.REMOTE;
    }

    @Override
    public TextEmbedder create(ProviderConfig config) {
      throw new IllegalArgumentException("not needed");
    }
  }
}
