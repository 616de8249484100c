package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.llm.ChatMessage;
import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.TextEmbedderProvider;
import dev.secpe.llm.spi.TextGeneratorProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProvidersTest {

  @Test
  void bothProvidersAreDiscoveredWithServiceLoader() {
    List<String> generators = new ArrayList<>();
    ServiceLoader.load(TextGeneratorProvider.class).forEach(p -> {
      generators.add(p.name());
      if (p.name().equals("embedded-ngram")) {
        assertThat(p.locality()).isEqualTo(Locality.LOCAL);
      }
    });
    List<String> embedders = new ArrayList<>();
    ServiceLoader.load(TextEmbedderProvider.class).forEach(p -> {
      embedders.add(p.name());
      if (p.name().startsWith("all-minilm-l6-v2")) {
        assertThat(p.locality()).isEqualTo(Locality.LOCAL);
      }
    });
    assertThat(generators).contains("embedded-ngram", "embedded-splice", "embedded-guided-splice");
    assertThat(embedders).contains("all-minilm-l6-v2", "all-minilm-l6-v2-q");
  }

  @Test
  void ngramProviderTrainsOnAJsonlCorpus(@TempDir Path dir) throws IOException {
    Path corpus = dir.resolve("public.jsonl");
    List<String> lines = new ArrayList<>();
    List<String> texts = TestCorpus.texts(40, 8);
    List<String> labels = TestCorpus.labels(40, 8);
    for (int i = 0; i < texts.size(); i++) {
      lines.add("{\"body\": \"" + texts.get(i) + "\", \"kind\": \"" + labels.get(i) + "\"}");
    }
    Files.write(corpus, lines, StandardCharsets.UTF_8);
    TextGeneratorProvider p = new NgramTextGeneratorProvider();
    try (TextGenerator g = p.create(ProviderConfig.of(Map.of(
        "corpus", corpus.toString(), "text-field", "body", "label-field", "kind", "order", "3",
        "threads", "1")))) {
      assertThat(g.locality()).isEqualTo(Locality.LOCAL);
      assertThat(((NgramTextGenerator) g).labels()).containsExactly("food", "tech");
      assertThat(((NgramTextGenerator) g).order()).isEqualTo(3);
      var r = g.generate(List.of(new GenerationRequest(List.of(ChatMessage.user("x")),
          new GenerationTask.Random("tech", List.of(), 10), GenerationParams.defaults().withSeed(1))));
      assertThat(r.get(0).text()).isNotBlank();
      // Plain text: one document per line; and a saved model.
      Path txt = dir.resolve("public.txt");
      Files.write(txt, texts, StandardCharsets.UTF_8);
      try (TextGenerator plain = p.create(ProviderConfig.of(Map.of("corpus", txt.toString())))) {
        assertThat(((NgramTextGenerator) plain).labels()).isEmpty();
        Path saved = dir.resolve("m.gz");
        ((NgramTextGenerator) plain).save(saved);
        try (TextGenerator loaded = p.create(ProviderConfig.of(Map.of("model", saved.toString())))) {
          assertThat(((NgramTextGenerator) loaded).vocabularySize())
              .isEqualTo(((NgramTextGenerator) plain).vocabularySize());
        }
      }
    }
  }

  @Test
  void ngramProviderRejectsBadConfigurationNamingTheKey(@TempDir Path dir) throws IOException {
    TextGeneratorProvider p = new NgramTextGeneratorProvider();
    assertThatThrownBy(() -> p.create(ProviderConfig.empty()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'corpus'");
    assertThatThrownBy(() -> p.create(ProviderConfig.of(Map.of("corpus", dir.resolve("nope.jsonl").toString()))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("corpus=");
    Path corpus = dir.resolve("c.jsonl");
    Files.writeString(corpus, "{\"text\": \"secret words here\"}\n{not json\n");
    assertThatThrownBy(() -> p.create(ProviderConfig.of(Map.of("corpus", corpus.toString()))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 2")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> p.create(ProviderConfig.of(Map.of("corpus", corpus.toString(), "order", "four"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("order=four");
  }

  @Test
  void embedderProviderHonoursConfiguration() {
    TextEmbedderProvider p = new MiniLmEmbedderProvider();
    assertThatThrownBy(() -> p.create(ProviderConfig.of(Map.of("threads", "0"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads=0");
    try (TextEmbedder e = p.create(ProviderConfig.of(Map.of("threads", "1", "batch-size", "4")))) {
      assertThat(e.name()).isEqualTo("all-minilm-l6-v2");
      assertThat(((MiniLmEmbedder) e).batchSize()).isEqualTo(4);
      assertThat(e.embed(List.of("hello world"))[0]).hasSize(384);
    }
  }

  @Test
  void spliceProviderTrainsOnAJsonlCorpusAndNeedsOne(@TempDir Path dir) throws IOException {
    Path corpus = dir.resolve("public.jsonl");
    List<String> lines = new ArrayList<>();
    List<String> texts = TestCorpus.texts(40, 8);
    List<String> labels = TestCorpus.labels(40, 8);
    for (int i = 0; i < texts.size(); i++) {
      lines.add("{\"body\": \"" + texts.get(i) + "\", \"kind\": \"" + labels.get(i) + "\"}");
    }
    Files.write(corpus, lines, StandardCharsets.UTF_8);
    TextGeneratorProvider p = new SpliceTextGeneratorProvider();
    try (TextGenerator g = p.create(ProviderConfig.of(Map.of(
        "corpus", corpus.toString(), "text-field", "body", "label-field", "kind", "line-mask-scale", "1")))) {
      assertThat(g.name()).isEqualTo("embedded-splice");
      assertThat(((SpliceTextGenerator) g).labels()).containsExactly("food", "tech");
      var r = g.generate(List.of(new GenerationRequest(List.of(ChatMessage.user("x")),
          new GenerationTask.Random("tech", List.of(), 10), GenerationParams.defaults().withSeed(1))));
      // A fresh sample is made of the training lines of its label.
      String text = r.get(0).text();
      assertThat(text).isNotBlank();
      for (String line : text.split("\n")) {
        assertThat(texts.stream().filter(t -> t.contains(line.strip())).count()).isPositive();
      }
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.create(ProviderConfig.of(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'corpus'");
  }

  @Test
  void guidedSpliceProviderTrainsOnAJsonlCorpus(@TempDir Path dir) throws IOException {
    Path corpus = dir.resolve("public.jsonl");
    List<String> lines = new ArrayList<>();
    List<String> texts = TestCorpus.texts(40, 8);
    for (String t : texts) {
      lines.add("{\"text\": \"" + t + "\"}");
    }
    Files.write(corpus, lines, StandardCharsets.UTF_8);
    TextGeneratorProvider p = new GuidedSpliceGeneratorProvider();
    try (TextGenerator g = p.create(ProviderConfig.of(Map.of("corpus", corpus.toString(), "candidates", "3")))) {
      assertThat(g.name()).isEqualTo("embedded-guided-splice");
      assertThat(((GuidedSpliceGenerator) g).candidates()).isEqualTo(3);
      assertThat(((GuidedSpliceGenerator) g).fineTuned()).isFalse();
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> p.create(ProviderConfig.of(Map.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'corpus'");
  }
}
