package dev.secpe.llm.spi;

import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An immutable registry of generator and embedder providers: those installed (found with {@link
 * ServiceLoader}, from {@code module-info} {@code provides} clauses on the module path or {@code
 * META-INF/services} files on the class path) plus any instances the caller adds explicitly.
 *
 * <p>There is no static mutable registry: every registry is an instance the caller builds and
 * passes on. Installed providers are discovered lazily, on the first query, and only once per
 * registry.
 *
 * <p>Names are unique per kind. Two installed providers with the same name are a configuration
 * error ({@link IllegalStateException} naming both classes, raised on the first query); two
 * explicit instances with the same name are rejected by the builder ({@link
 * IllegalArgumentException}). An explicit instance always wins over an installed one of the same
 * name, so a user can replace a provider without touching the class path.
 *
 * <pre>{@code
 * Providers providers = Providers.builder().addInstalled().add(new MyGatewayProvider()).build();
 * TextGenerator gen = providers.createGenerator("my-gateway", ProviderConfig.empty());
 * }</pre>
 */
public final class Providers {

  private final Kind<TextGeneratorProvider> generators;
  private final Kind<TextEmbedderProvider> embedders;

  private Providers(Builder b) {
    this.generators = new Kind<>("text generator", b.installedGenerators, b.generators.values(),
        TextGeneratorProvider::name);
    this.embedders = new Kind<>("text embedder", b.installedEmbedders, b.embedders.values(),
        TextEmbedderProvider::name);
  }

  /**
   * The providers installed for the class loader that loaded this class (class path) or the boot
   * layer (module path).
   */
  public static Providers installed() {
    return builder().addInstalled().build();
  }

  /** The providers visible to {@code loader}. */
  public static Providers installed(ClassLoader loader) {
    Objects.requireNonNull(loader, "loader");
    return builder().addInstalled(loader).build();
  }

  /** A builder starting empty (no installed providers unless {@link Builder#addInstalled()}). */
  public static Builder builder() {
    return new Builder();
  }

  /** Every generator provider, sorted by name; the list is unmodifiable. */
  public List<TextGeneratorProvider> generators() {
    return List.copyOf(generators.byName().values());
  }

  /** Every embedder provider, sorted by name; the list is unmodifiable. */
  public List<TextEmbedderProvider> embedders() {
    return List.copyOf(embedders.byName().values());
  }

  /**
   * The generator provider named {@code name}.
   *
   * @throws IllegalArgumentException naming the installed providers when there is none
   */
  public TextGeneratorProvider generator(String name) {
    return generators.named(name);
  }

  /**
   * The embedder provider named {@code name}.
   *
   * @throws IllegalArgumentException naming the installed providers when there is none
   */
  public TextEmbedderProvider embedder(String name) {
    return embedders.named(name);
  }

  /** Shorthand for {@code generator(name).create(config)}. */
  public TextGenerator createGenerator(String name, ProviderConfig config) {
    return generator(name).create(Objects.requireNonNull(config, "config"));
  }

  /** Shorthand for {@code embedder(name).create(config)}. */
  public TextEmbedder createEmbedder(String name, ProviderConfig config) {
    return embedder(name).create(Objects.requireNonNull(config, "config"));
  }

  @Override
  public String toString() {
    return "Providers{generators=" + generators.byName().keySet() + ", embedders="
        + embedders.byName().keySet() + "}";
  }

  /**
   * The providers of one kind: the installed ones, found on the first query, merged once with the
   * explicit ones.
   */
  private static final class Kind<P> {
    private final String kind;
    private final Supplier<List<P>> installed;
    private final List<P> explicit;
    private final Function<P, String> nameOf;
    private volatile @Nullable Map<String, P> byName;

    Kind(String kind, Supplier<List<P>> installed, Collection<P> explicit, Function<P, String> nameOf) {
      this.kind = kind;
      this.installed = installed;
      this.explicit = List.copyOf(explicit);
      this.nameOf = nameOf;
    }

    Map<String, P> byName() {
      Map<String, P> m = byName;
      if (m == null) {
        synchronized (this) {
          m = byName;
          if (m == null) {
            m = merge(kind, installed.get(), explicit, nameOf);
            byName = m;
          }
        }
      }
      return m;
    }

    P named(String name) {
      Objects.requireNonNull(name, "name");
      P p = byName().get(name);
      if (p == null) {
        throw new IllegalArgumentException(
            "no " + kind + " named '" + name + "'; installed: " + byName().keySet());
      }
      return p;
    }
  }

  private static <P> Map<String, P> merge(
      String kind, List<P> installed, List<P> explicit, Function<P, String> nameOf) {
    Map<String, P> byName = new TreeMap<>();
    for (P p : installed) {
      String name = checkedName(kind, p, nameOf);
      P previous = byName.putIfAbsent(name, p);
      if (previous != null) {
        throw new IllegalStateException(
            "two installed " + kind + " providers are named '" + name + "': "
                + previous.getClass().getName() + " and " + p.getClass().getName()
                + "; remove one from the class path or module path");
      }
    }
    for (P p : explicit) {
      byName.put(nameOf.apply(p), p); // explicit instances replace installed ones
    }
    return Collections.unmodifiableMap(new LinkedHashMap<>(byName));
  }

  private static <P> String checkedName(String kind, P p, Function<P, String> nameOf) {
    String name = nameOf.apply(p);
    if (name == null || name.isBlank()) {
      throw new IllegalStateException(
          "the " + kind + " provider " + p.getClass().getName() + " has a blank name");
    }
    return name;
  }

  private static <P> List<P> load(Class<P> type, ClassLoader loader) {
    // With a loader, ServiceLoader finds providers in named modules defined to it (module-info
    // "provides") and in its unnamed module (META-INF/services).
    List<P> found = new ArrayList<>();
    try {
      ServiceLoader.load(type, loader).forEach(found::add);
    } catch (ServiceConfigurationError e) {
      // A provider that cannot be loaded or instantiated is a broken installation: say which.
      throw new IllegalStateException("cannot load an installed " + type.getSimpleName() + ": "
          + e.getMessage(), e);
    }
    return found;
  }

  /** Builds a {@link Providers}; reusable, each {@link #build()} returns an independent registry. */
  public static final class Builder {
    private Supplier<List<TextGeneratorProvider>> installedGenerators = List::of;
    private Supplier<List<TextEmbedderProvider>> installedEmbedders = List::of;
    private final Map<String, TextGeneratorProvider> generators = new LinkedHashMap<>();
    private final Map<String, TextEmbedderProvider> embedders = new LinkedHashMap<>();

    private Builder() {}

    /** Includes the providers installed for this library's class loader (found lazily). */
    public Builder addInstalled() {
      ClassLoader own = Providers.class.getClassLoader();
      ClassLoader loader = own != null ? own : ClassLoader.getSystemClassLoader();
      return addInstalled(loader);
    }

    /** Includes the providers visible to {@code loader} (found lazily). */
    public Builder addInstalled(ClassLoader loader) {
      Objects.requireNonNull(loader, "loader");
      installedGenerators = () -> load(TextGeneratorProvider.class, loader);
      installedEmbedders = () -> load(TextEmbedderProvider.class, loader);
      return this;
    }

    /**
     * Adds a generator provider instance; it replaces an installed provider of the same name.
     *
     * @throws IllegalArgumentException if another explicit generator provider has its name
     */
    public Builder add(TextGeneratorProvider provider) {
      Objects.requireNonNull(provider, "provider");
      return add(generators, "text generator", provider.name(), provider);
    }

    /**
     * Adds an embedder provider instance; it replaces an installed provider of the same name.
     *
     * @throws IllegalArgumentException if another explicit embedder provider has its name
     */
    public Builder add(TextEmbedderProvider provider) {
      Objects.requireNonNull(provider, "provider");
      return add(embedders, "text embedder", provider.name(), provider);
    }

    private <P> Builder add(Map<String, P> added, String kind, @Nullable String name, P provider) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException(kind + " provider name must not be blank, got name=" + name);
      }
      P previous = added.putIfAbsent(name, provider);
      if (previous != null) {
        throw new IllegalArgumentException(
            "duplicate " + kind + " provider name '" + name + "': "
                + previous.getClass().getName() + " was added before " + provider.getClass().getName());
      }
      return this;
    }

    /** An immutable registry of what was added so far. */
    public Providers build() {
      return new Providers(this);
    }
  }
}
