package dev.secpe.llm;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.cache.CachingEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrivateTextPolicyTest {

  static TextEmbedder embedder(Locality locality) {
    return new TextEmbedder() {
      @Override
      public String name() {
        return "e-" + locality;
      }

      @Override
      public int dimension() {
        return 2;
      }

      @Override
      public boolean normalized() {
        return false;
      }

      @Override
      public Locality locality() {
        return locality;
      }

      @Override
      public float[][] embed(List<String> texts) {
        return new float[texts.size()][2];
      }
    };
  }

  @Test
  void remoteEmbeddersNeedAnExplicitAllowanceEvenBehindACache() {
    TextEmbedder remote = CachingEmbedder.inMemory(embedder(Locality.REMOTE), 10);
    assertThatThrownBy(() -> PrivateTextPolicy.LOCAL_ONLY.checkEmbedder(remote))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'e-REMOTE' is REMOTE")
        .hasMessageContaining("ALLOW_REMOTE");
    assertThatCode(() -> PrivateTextPolicy.ALLOW_REMOTE.checkEmbedder(remote)).doesNotThrowAnyException();
    assertThatCode(() -> PrivateTextPolicy.LOCAL_ONLY.checkEmbedder(embedder(Locality.LOCAL)))
        .doesNotThrowAnyException();
  }

  @Test
  void providerConfigRedactsSecrets() {
    String shown = ProviderConfig.of(Map.of("api-key", "A1", "auth-header", "A2", "db-password", "A3",
        "bearer-token", "A4", "model", "gpt")).toString();
    org.assertj.core.api.Assertions.assertThat(shown)
        .doesNotContain("A1").doesNotContain("A2").doesNotContain("A3").doesNotContain("A4")
        .contains("model=gpt");
  }
}
