package dev.secpe.llm.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.report.ProviderInfo;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.SecPE;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A SecPE run whose generator is LangChain4j's OpenAI client (against the loopback stub) and whose
 * embedder is LangChain4j's in-process MiniLM, both through the adapters, on 40 of the bundled
 * e-mails; {@link #secpe} is the code docs/guide/langchain4j.md shows.
 */
class SecPeEndToEndTest {

  static RunResult secpe(String baseUrl, String apiKey, PrivateDataset priv, PublicCorpus pub, int n) {
    // @start region="langchain4j"
    ChatModel chat = OpenAiChatModel.builder()
        .baseUrl(baseUrl).apiKey(apiKey).modelName("gpt-4o-mini").maxRetries(0).build();
    EmbeddingModel embedding = new AllMiniLmL6V2EmbeddingModel(); // runs in this process
    try (TextGenerator gen = LangChain4jTextGenerator.builder(chat) // REMOTE: sees public text only
            .maxConcurrency(4)
            .build();
        TextEmbedder emb = LangChain4jTextEmbedder.builder(embedding)
            .name("all-minilm-l6-v2 (langchain4j)")
            .locality(Locality.LOCAL)                            // declared: private text goes to it
            .build()) {
      return SecPE.builder()
          .privateData(priv)
          .publicData(pub)
          .labels(LabelSet.toBeReleased(List.of(BundledCorpus.HAM, BundledCorpus.SPAM)))
          .generator(gen)
          .embedder(emb)
          .secrets(PiiDetector.all())
          .budget(SecretBudget.ofRatio(1e-4, 10))
          .clusters(4)
          .syntheticSize(n)
          .iterations(2)
          .build()
          .run();
    }
    // @end region="langchain4j"
  }

  @Test
  void secpeRunsThroughBothAdaptersAndTheReportNamesThem() throws Exception {
    BundledCorpus corpus = BundledCorpus.spamAssassin();
    List<PrivateRecord> priv = new ArrayList<>(corpus.privatePart().records());
    Collections.shuffle(priv, new Random(1));
    List<PublicRecord> pub = new ArrayList<>(corpus.publicPart().records());
    Collections.shuffle(pub, new Random(2));
    try (StubOpenAiServer server = new StubOpenAiServer()) {
      RunResult result = secpe(server.baseUrl(), "test-key",
          PrivateDataset.of(priv.subList(0, 40)), PublicCorpus.of(pub.subList(0, 40)), 10);

      assertThat(result.dataset().size()).isEqualTo(10);
      assertThat(result.dataset().texts()).allSatisfy(t -> assertThat(t).isNotBlank());
      assertThat(server.bodies).as("the generator's requests reached the chat model").isNotEmpty();
      assertThat(result.report().providers())
          .extracting(ProviderInfo::role, ProviderInfo::name, ProviderInfo::locality)
          .contains(
              tuple("generator", "langchain4j-open-ai", Locality.REMOTE),
              tuple("embedder", "all-minilm-l6-v2 (langchain4j)", Locality.LOCAL));
      assertThat(result.report().noise().isPrivate()).isTrue();
    }
  }

  /**
   * The guide's code block after "From `SecPeEndToEndTest.secpe`" (the one after its imports) is
   * the region above, line for line.
   */
  @Test
  void theGuideShowsTheTestedCode() throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).getParent(); // llm-langchain4j/ -> repository
    List<String> guide = Files.readAllLines(root.resolve("docs/guide/langchain4j.md"));
    List<String> source = Files.readAllLines(
        Path.of("src/test/java/dev/secpe/llm/langchain4j/SecPeEndToEndTest.java"));
    int marker = indexOf(guide, "and the code, given", indexOf(guide, "From `SecPeEndToEndTest.secpe`", 0));
    int open = indexOf(guide, "```java", marker);
    List<String> shown = guide.subList(open + 1, indexOf(guide, "```", open + 1));
    int start = indexOf(source, "// @start region=\"langchain4j\"", 0);
    List<String> tested = source.subList(start + 1, indexOf(source, "// @end region=\"langchain4j\"", start));
    assertThat(dedent(shown)).isEqualTo(dedent(tested));
  }

  private static int indexOf(List<String> lines, String needle, int from) {
    for (int i = from; i < lines.size(); i++) {
      if (lines.get(i).contains(needle)) {
        return i;
      }
    }
    throw new AssertionError("'" + needle + "' not found after line " + (from + 1));
  }

  private static String dedent(List<String> lines) {
    int indent = lines.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent).stripTrailing())
        .collect(Collectors.joining("\n"));
  }
}
