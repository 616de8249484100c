package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.secret.DictionaryDetector;
import dev.secpe.core.secret.SecretIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** {@link PrivateTexts#capSecrets}: the bound SecPE's contribution-bounded calibration relies on. */
class CapSecretsTest {

  private static final List<String> TERMS = List.of("alpha", "bravo", "charlie", "delta", "echo", "zulu");
  private static final DictionaryDetector DETECTOR = DictionaryDetector.of(TERMS);
  private static final PrivacyGuard GUARD = PrivacyGuard.localOnly();

  private static List<String> texts(PrivateDataset d) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < d.size(); i++) {
      out.add(d.get(i).text().reveal());
    }
    return out;
  }

  private static PrivateDataset of(List<String> texts) {
    List<PrivateRecord> r = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      r.add(PrivateRecord.of("r" + i, texts.get(i)));
    }
    return PrivateDataset.of(r);
  }

  private static int differing(List<String> a, List<String> b) {
    int n = 0;
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).equals(b.get(i))) {
        n++;
      }
    }
    return n;
  }

  /**
   * Random records over five secret terms ("zulu" is the replacement value, absent at first); a
   * neighbour replaces one secret's occurrences by the placeholder or by "zulu". After capping,
   * every secret is held by at most k records and the two capped datasets differ in at most k
   * records: the bound sigma is calibrated for.
   */
  @Property(tries = 200)
  void aNeighbourChangesAtMostKCappedRecords(
      @ForAll @IntRange(min = 1, max = 30) int n,
      @ForAll @IntRange(min = 1, max = 4) int k,
      @ForAll boolean replaceByValue,
      @ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder b = new StringBuilder("note " + i);
      int held = rnd.nextInt(4);
      for (int h = 0; h < held; h++) {
        b.append(" about ").append(TERMS.get(rnd.nextInt(5))).append(" and more");
      }
      texts.add(b.toString());
    }
    String target = TERMS.get(rnd.nextInt(5));
    String with = replaceByValue ? "zulu" : "[term]";
    List<String> neighbour = texts.stream().map(t -> t.replaceAll("\\b" + target + "\\b", with)).toList();

    PrivateDataset capped = PrivateTexts.capSecrets(of(texts), DETECTOR, GUARD, k, 7);
    PrivateDataset cappedNeighbour = PrivateTexts.capSecrets(of(neighbour), DETECTOR, GUARD, k, 7);
    assertThat(differing(texts(capped), texts(cappedNeighbour))).isLessThanOrEqualTo(k);
    for (PrivateDataset d : List.of(capped, cappedNeighbour)) {
      SecretIndex index = SecretIndex.scan(d, DETECTOR, GUARD);
      int[] holders = new int[index.secretCount()];
      for (int[] s : index.secretsOfRecord()) {
        for (int j : s) {
          holders[j]++;
        }
      }
      assertThat(java.util.Arrays.stream(holders).max().orElse(0)).isLessThanOrEqualTo(k);
    }
  }

  @Test
  void keepsKRecordsOfAnOverHeldSecretAndRedactsTheRestOnly() {
    List<String> texts = List.of("alpha one", "alpha two", "alpha three bravo", "bravo four", "plain five");
    List<String> out = texts(PrivateTexts.capSecrets(of(texts), DETECTOR, GUARD, 2, 1));
    assertThat(out.stream().filter(t -> t.contains("alpha")).count()).isEqualTo(2);
    assertThat(out.stream().filter(t -> t.contains("[term]")).count()).isEqualTo(1);
    assertThat(out.get(3)).isEqualTo("bravo four"); // bravo is held twice: within the cap
    assertThat(out.get(4)).isEqualTo("plain five");
    // Nothing to cap: the very same dataset comes back.
    PrivateDataset small = of(List.of("alpha", "bravo"));
    assertThat(PrivateTexts.capSecrets(small, DETECTOR, GUARD, 1, 1)).isSameAs(small);
    assertThatThrownBy(() -> PrivateTexts.capSecrets(small, DETECTOR, GUARD, 0, 1)).hasMessage("secretCap must be >= 1, got secretCap=0");
  }
}
