package dev.secpe.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.Locality;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpenAiConfigTest {

  @Test
  void keysComeFromConfigOrEnvironmentAndAreNeverPrinted() {
    OpenAiConfig fromEnv = OpenAiConfig.fromProviderConfig(
        ProviderConfig.of(Map.of("base-url", "http://a/v1, http://b/v1", "api-key-env", "MY_KEY")),
        "m", var -> var.equals("MY_KEY") ? "sk-env-secret" : null);
    assertThat(fromEnv.endpoints()).extracting(Endpoint::apiKey).containsOnly("sk-env-secret");
    assertThat(fromEnv.endpoints()).hasSize(2);
    assertThat(fromEnv.toString()).doesNotContain("sk-env-secret");

    OpenAiConfig oneUrlManyKeys = OpenAiConfig.fromProviderConfig(
        ProviderConfig.of(Map.of("base-url", "http://a/v1/", "api-key", "k1,k2,k3")), "m", v -> null);
    assertThat(oneUrlManyKeys.endpoints()).extracting(Endpoint::apiKey).containsExactly("k1", "k2", "k3");
    assertThat(oneUrlManyKeys.endpoints().get(0).baseUrl().toString()).isEqualTo("http://a/v1");

    ProviderConfig pc = ProviderConfig.of(Map.of("api-key", "sk-secret", "model", "x"));
    assertThat(pc.toString()).doesNotContain("sk-secret").contains("model=x");
  }

  @Test
  void badSettingsNameTheFieldAndNeverTheKey() {
    assertThatThrownBy(() -> OpenAiConfig.fromProviderConfig(
            ProviderConfig.of(Map.of("base-url", "http://a,http://b,http://c", "api-key", "k1,k2")), "m", v -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3 endpoints")
        .hasMessageNotContaining("k1");
    assertThatThrownBy(() -> OpenAiConfig.fromProviderConfig(
            ProviderConfig.of(Map.of("concurrency", "lots")), "m", v -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("concurrency=lots");
    assertThatThrownBy(() -> Endpoint.of("https://user:sk-in-url@example.com/v1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("user info")
        .hasMessageNotContaining("sk-in-url");
    assertThatThrownBy(() -> OpenAiConfig.builder().endpoint(Endpoint.of("ftp://x")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("baseUrl");
    assertThatThrownBy(() -> OpenAiConfig.builder().endpoint(Endpoint.of("http://x"))
            .initialBackoff(Duration.ofSeconds(5)).maxBackoff(Duration.ofSeconds(1)).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("maxBackoff");
    assertThatThrownBy(() -> OpenAiConfig.builder().endpoint(Endpoint.of("http://x")).maxConcurrency(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConcurrency=0");
  }

  @Test
  void retryAfterParsesSecondsAndHttpDates() {
    Clock clock = Clock.fixed(Instant.parse("2026-11-21T10:00:00Z"), ZoneOffset.UTC);
    assertThat(OpenAiHttp.parseRetryAfter("7", clock)).contains(Duration.ofSeconds(7));
    assertThat(OpenAiHttp.parseRetryAfter("Sat, 21 Nov 2026 10:00:30 GMT", clock))
        .contains(Duration.ofSeconds(30));
    assertThat(OpenAiHttp.parseRetryAfter("Sat, 21 Nov 2026 09:00:00 GMT", clock))
        .as("a date in the past means now").contains(Duration.ZERO);
    assertThat(OpenAiHttp.parseRetryAfter("soon", clock)).isEqualTo(Optional.empty());
    assertThat(OpenAiHttp.parseRetryAfter("-3", clock)).isEqualTo(Optional.empty());
  }

  @Test
  void bothProvidersAreInstalledAsRemote() {
    Providers providers = Providers.installed();
    assertThat(providers.generator("openai").locality()).isEqualTo(Locality.REMOTE);
    assertThat(providers.embedder("openai").locality()).isEqualTo(Locality.REMOTE);
    assertThat(providers.generator("openai")).isInstanceOf(OpenAiGeneratorProvider.class);
    assertThat(providers.embedder("openai")).isInstanceOf(OpenAiEmbedderProvider.class);
  }
}
