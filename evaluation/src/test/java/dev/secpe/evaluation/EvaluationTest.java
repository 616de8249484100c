package dev.secpe.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.core.Label;
import dev.secpe.core.PublicRecord;
import dev.secpe.llm.Locality;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EvaluationTest {

  private static final String[] SPAM_WORDS = {"win", "cash", "prize", "free", "offer", "click"};
  private static final String[] HAM_WORDS = {"meeting", "report", "lunch", "project", "notes", "team"};

  private static List<PublicRecord> records(String prefix, int n, long seed, boolean labelled) {
    SplittableRandom r = new SplittableRandom(seed);
    List<PublicRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boolean spam = r.nextBoolean();
      String[] words = spam ? SPAM_WORDS : HAM_WORDS;
      StringBuilder sb = new StringBuilder();
      int len = 3 + r.nextInt(6);
      for (int w = 0; w < len; w++) {
        sb.append(words[r.nextInt(words.length)]).append(' ');
      }
      String text = sb.toString().trim();
      out.add(labelled
          ? PublicRecord.of(prefix + i, text, Label.of(spam ? "spam" : "ham"))
          : PublicRecord.of(prefix + i, text));
    }
    return out;
  }

  @Test
  void labelledRecordsGetEveryMetric() {
    Evaluation e = Evaluation.builder(new HashEmbedder(Locality.LOCAL)).build();
    EvaluationReport r = e.evaluateRecords(records("s", 60, 1, true), records("r", 80, 2, true));
    assertThat(r.syntheticCount()).isEqualTo(60);
    assertThat(r.realCount()).isEqualTo(80);
    assertThat(r.embedder()).isEqualTo("hash-16");
    assertThat(r.fid()).isGreaterThanOrEqualTo(0.0).isLessThan(0.5);
    assertThat(r.mauve().mauve()).isGreaterThan(0.5);
    assertThat(r.mauve().clusters()).isEqualTo(6);
    assertThat(r.downstream()).isPresent();
    assertThat(r.downstream().get().accuracy()).isGreaterThan(0.95); // disjoint vocabularies
    assertThat(r.downstream().get().total()).isEqualTo(80);
  }

  @Test
  void identicalTextsScorePerfectly() {
    List<String> texts = records("x", 50, 3, false).stream().map(PublicRecord::text).toList();
    EvaluationReport r =
        Evaluation.builder(new HashEmbedder(Locality.LOCAL)).build().evaluate(texts, texts);
    assertThat(r.fid()).isCloseTo(0.0, within(1e-6));
    assertThat(r.precisionRecall().precision()).isEqualTo(1.0);
    assertThat(r.precisionRecall().recall()).isEqualTo(1.0);
    assertThat(r.mauve().mauve()).isCloseTo(1.0, within(1e-12));
    assertThat(r.length().wasserstein1()).isZero();
    assertThat(r.selfSimilaritySynthetic()).isEqualTo(r.selfSimilarityReal());
    assertThat(r.downstream()).isEmpty();
  }

  @Test
  void remoteEmbedderNeedsConsent() {
    HashEmbedder remote = new HashEmbedder(Locality.REMOTE);
    assertThatThrownBy(() -> Evaluation.builder(remote).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("REMOTE");
    assertThat(Evaluation.builder(remote).allowRemoteEmbedder(true).build()).isNotNull();
  }

  @Test
  void partlyLabelledRecordsAreRejected() {
    List<PublicRecord> mixed = new ArrayList<>(records("s", 10, 1, true));
    mixed.add(PublicRecord.of("odd-one", "no label here"));
    Evaluation e = Evaluation.builder(new HashEmbedder(Locality.LOCAL)).build();
    assertThatThrownBy(() -> e.evaluateRecords(mixed, records("r", 10, 2, true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("record 'odd-one' has no label");
  }

  @Test
  void tooFewTextsAreRejected() {
    Evaluation e = Evaluation.builder(new HashEmbedder(Locality.LOCAL)).build();
    assertThatThrownBy(() -> e.evaluate(List.of("a", "b", "c"), List.of("a", "b", "c", "d")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 4 texts")
        .hasMessageContaining("synthetic=3 real=4");
    assertThatThrownBy(() -> Evaluation.builder(new HashEmbedder(Locality.LOCAL)).batchSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batchSize=0");
  }
}
