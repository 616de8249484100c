package dev.secpe.llm.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.Locality;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProvidersTest {

  @TempDir Path dir;

  /** A class loader whose META-INF/services lists the given generator and embedder classes. */
  private ClassLoader servicesLoader(List<Class<?>> generators, List<Class<?>> embedders) throws IOException {
    Path services = Files.createDirectories(dir.resolve("META-INF/services"));
    Files.write(services.resolve(TextGeneratorProvider.class.getName()),
        generators.stream().map(Class::getName).toList());
    Files.write(services.resolve(TextEmbedderProvider.class.getName()),
        embedders.stream().map(Class::getName).toList());
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
  }

  @Test
  void installedProvidersAreFoundLazilyAndListedSortedAndUnmodifiable() throws Exception {
    ClassLoader cl = servicesLoader(List.of(TestProviders.GenBeta.class, TestProviders.Gen.class),
        List.of(TestProviders.Emb.class));
    int before = TestProviders.CONSTRUCTED.get();
    Providers p = Providers.installed(cl);
    assertThat(TestProviders.CONSTRUCTED.get()).as("nothing loaded before the first query").isEqualTo(before);
    assertThat(p.generators()).extracting(TextGeneratorProvider::name).containsExactly("alpha", "beta");
    assertThat(p.embedders()).extracting(TextEmbedderProvider::name).containsExactly("emb");
    assertThat(p.embedder("emb").locality()).isEqualTo(Locality.REMOTE);
    assertThatThrownBy(() -> p.generators().clear()).isInstanceOf(UnsupportedOperationException.class);
    int after = TestProviders.CONSTRUCTED.get();
    p.generators();
    p.generator("beta");
    assertThat(TestProviders.CONSTRUCTED.get()).as("discovered once").isEqualTo(after);
  }

  @Test
  void aFailedLookupListsWhatIsInstalled() throws Exception {
    Providers p = Providers.installed(servicesLoader(
        List.of(TestProviders.GenBeta.class, TestProviders.Gen.class), List.of()));
    assertThatThrownBy(() -> p.generator("x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no text generator named 'x'; installed: [alpha, beta]");
    assertThatThrownBy(() -> p.createEmbedder("openai", ProviderConfig.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no text embedder named 'openai'; installed: []");
  }

  @Test
  void twoInstalledProvidersWithOneNameAreRejectedNamingBothClasses() throws Exception {
    Providers p = Providers.installed(servicesLoader(
        List.of(TestProviders.Gen.class, TestProviders.GenAlphaToo.class), List.of()));
    assertThatThrownBy(p::generators)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'alpha'")
        .hasMessageContaining(TestProviders.Gen.class.getName())
        .hasMessageContaining(TestProviders.GenAlphaToo.class.getName());
  }

  @Test
  void explicitInstancesAreAcceptedAndReplaceInstalledOnes() throws Exception {
    TextGeneratorProvider mine = new TestProviders.Gen("alpha");
    Providers p = Providers.builder()
        .addInstalled(servicesLoader(List.of(TestProviders.Gen.class, TestProviders.GenBeta.class), List.of()))
        .add(mine)
        .add(new TestProviders.Gen("gamma"))
        .build();
    assertThat(p.generator("alpha")).isSameAs(mine);
    assertThat(p.generators()).extracting(TextGeneratorProvider::name).containsExactly("alpha", "beta", "gamma");
    assertThat(p.createGenerator("gamma", ProviderConfig.empty()).name()).isEqualTo("gamma");
  }

  @Test
  void twoExplicitInstancesWithOneNameAreRejected() {
    Providers.Builder b = Providers.builder().add(new TestProviders.Gen("same"));
    assertThatThrownBy(() -> b.add(new TestProviders.Gen("same")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duplicate text generator provider name 'same'");
    assertThatThrownBy(() -> b.add(new TestProviders.Gen(" ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blank");
  }

  @Test
  void aBrokenInstalledProviderIsReportedByName() throws Exception {
    ClassLoader cl = servicesLoader(List.of(ProvidersTest.class), List.of()); // not a provider
    assertThatThrownBy(() -> Providers.installed(cl).generators())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TextGeneratorProvider")
        .hasMessageContaining("ProvidersTest");
  }

  @Test
  void registriesAreIndependent() {
    Providers a = Providers.builder().add(new TestProviders.Gen("a")).build();
    Providers b = Providers.builder().build();
    assertThat(a.generators()).hasSize(1);
    assertThat(b.generators()).isEmpty();
  }
}
