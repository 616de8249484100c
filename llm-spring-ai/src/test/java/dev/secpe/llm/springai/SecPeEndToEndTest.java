package dev.secpe.llm.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * A SecPE run whose generator and embedder are Spring AI models (the stubs of {@link StubModels},
 * which run here), both through the adapters, on 40 of the bundled e-mails: the run completes,
 * the report names both providers with their localities, and the chat model, REMOTE by default,
 * is never sent a private record.
 */
class SecPeEndToEndTest {

  @Test
  void secpeRunsThroughBothAdaptersAndTheRemoteModelSeesNoPrivateRecord() throws Exception {
    BundledCorpus corpus = BundledCorpus.spamAssassin();
    List<PrivateRecord> priv = new ArrayList<>(corpus.privatePart().records());
    Collections.shuffle(priv, new Random(1));
    List<PublicRecord> pub = new ArrayList<>(corpus.publicPart().records());
    Collections.shuffle(pub, new Random(2));
    // A canary among the private records: the one text this test knows to be private.
    String canary = "CANARY-7f3a9 call me at 212-555-0142 about the private matter";
    List<PrivateRecord> records = new ArrayList<>(priv.subList(0, 39));
    records.add(PrivateRecord.of("canary", canary, BundledCorpus.HAM));
    PrivateDataset privateData = PrivateDataset.of(records);
    StubModels.Chat chat = new StubModels.Chat();
    StubModels.Embeddings embeddings = new StubModels.Embeddings();
    RunResult result;
    try (TextGenerator gen = SpringAiTextGenerator.builder(chat).maxConcurrency(4).build();
        TextEmbedder emb = SpringAiTextEmbedder.builder(embeddings)
            .name("stub-embeddings (spring-ai)")
            .locality(Locality.LOCAL)
            .build()) {
      result = SecPE.builder()
          .privateData(privateData)
          .publicData(PublicCorpus.of(pub.subList(0, 40)))
          .labels(LabelSet.toBeReleased(List.of(BundledCorpus.HAM, BundledCorpus.SPAM)))
          .generator(gen)
          .embedder(emb)
          .secrets(PiiDetector.all())
          .budget(SecretBudget.ofRatio(1e-4, 10))
          .clusters(4)
          .syntheticSize(10)
          .iterations(2)
          .build()
          .run();
    }

    assertThat(result.dataset().size()).isEqualTo(10);
    assertThat(result.dataset().texts()).allSatisfy(t -> assertThat(t).isNotBlank());
    assertThat(chat.prompts).as("the generator's requests reached the chat model").isNotEmpty();
    assertThat(embeddings.batches).as("the embedder's requests reached the embedding model").isNotEmpty();
    assertThat(result.report().providers())
        .extracting(ProviderInfo::role, ProviderInfo::name, ProviderInfo::locality)
        .contains(
            tuple("generator", "spring-ai", Locality.REMOTE),
            tuple("embedder", "stub-embeddings (spring-ai)", Locality.LOCAL));
    assertThat(result.report().noise().isPrivate()).isTrue();
    // The REMOTE model sees public text and synthetic text only: never the canary.
    List<String> sent = new ArrayList<>();
    for (Prompt p : chat.prompts) {
      for (Message m : p.getInstructions()) {
        sent.add(m.getText());
      }
    }
    assertThat(sent).isNotEmpty().noneMatch(t -> t.contains("CANARY-7f3a9"));
  }
}
