package dev.secpe.llm.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A SecPE run whose generator is LangChain4j's OpenAI client (against the loopback stub) and whose
 * embedder is LangChain4j's in-process MiniLM, both through the adapters, on a slice of the bundled
 * e-mails.
 */
class SecPeEndToEndTest {

  @Test
  void secpeRunsThroughBothAdaptersAndTheReportNamesThem() throws Exception {
    BundledCorpus corpus = BundledCorpus.spamAssassin();
    List<PrivateRecord> priv = new ArrayList<>(corpus.privatePart().records());
    Collections.shuffle(priv, new Random(1));
    List<PublicRecord> pub = new ArrayList<>(corpus.publicPart().records());
    Collections.shuffle(pub, new Random(2));
    try (StubOpenAiServer server = new StubOpenAiServer();
        LangChain4jTextGenerator gen = LangChain4jTextGenerator.of(Models.openAi(server));
        LangChain4jTextEmbedder emb = LangChain4jTextEmbedder.builder(Models.miniLm())
            .name("langchain4j-all-minilm-l6-v2")
            .locality(Locality.LOCAL)
            .build()) {
      RunResult result = SecPE.builder()
          .privateData(PrivateDataset.of(priv.subList(0, 40)))
          .publicData(PublicCorpus.of(pub.subList(0, 40)))
          .labels(LabelSet.toBeReleased(List.of(BundledCorpus.HAM, BundledCorpus.SPAM)))
          .generator(gen)
          .embedder(emb)
          .secrets(PiiDetector.all())
          .budget(SecretBudget.ofRatio(1e-4, 10))
          .clusters(4)
          .syntheticSize(10)
          .variations(2)
          .iterations(2)
          .seed(3)
          .build()
          .run();

      assertThat(result.dataset().size()).isEqualTo(10);
      assertThat(result.dataset().texts()).allSatisfy(t -> assertThat(t).isNotBlank());
      assertThat(server.bodies).as("the generator's requests reached the chat model").isNotEmpty();
      assertThat(result.report().providers())
          .extracting(ProviderInfo::role, ProviderInfo::name, ProviderInfo::locality)
          .contains(
              org.assertj.core.groups.Tuple.tuple("generator", "langchain4j-open-ai", Locality.REMOTE),
              org.assertj.core.groups.Tuple.tuple("embedder", "langchain4j-all-minilm-l6-v2", Locality.LOCAL));
      assertThat(result.report().noise().isPrivate()).isTrue();
    }
  }
}
