package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.BundledCorpus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SecPE's public clusters when the records they are built on hold fewer distinct texts than the
 * clusters asked of them (duplicates: boilerplate, copies of one notice): k-means cannot fill every
 * cluster, the empty ones are dropped before the release, and the report says how many per group.
 * Before, the run stopped after embedding with "public cluster sizes must be >= 1 (the centre noise
 * is 2R/n_k), got sizes[..]=0" (issue 50, case 8).
 */
class EmptyClustersTest {

  /** Four distinct ham texts, each repeated: 4 distinct embeddings however many records. */
  private static final List<String> HAM = List.of(
      "Meeting notes for the weekly team sync about the project schedule",
      "The printer on the second floor needs new toner again this week",
      "Lunch order for the quarterly review: sandwiches, salad and coffee",
      "Reminder: the build server restarts tonight for its kernel update");

  /**
   * 60 records: the 30 spam ones (even) each hold their own e-mail address and differ; the 30 ham
   * ones (odd) hold none and repeat the four texts of {@link #HAM}.
   */
  private static PrivateDataset hamRepeatsFourTexts() {
    List<PrivateRecord> out = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      out.add(i % 2 == 0
          ? PrivateRecord.of("s" + i, "Offer " + i + " on watches and bags: write to seller" + i
              + "@shop.example, item " + (i * 7) + " ships today", BundledCorpus.SPAM)
          : PrivateRecord.of("h" + i, HAM.get((i / 2) % HAM.size()), BundledCorpus.HAM));
    }
    return PrivateDataset.of(out);
  }

  /** 30 public records per label; the ham ones repeat the four texts, the spam ones differ. */
  private static PublicCorpus publicHamRepeats() {
    List<PublicRecord> out = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      out.add(i % 2 == 0
          ? PublicRecord.of("p" + i, "Cheap offer number " + i + " on shoes, bags and watch " + (i * 3), BundledCorpus.SPAM)
          : PublicRecord.of("p" + i, HAM.get((i / 2) % HAM.size()), BundledCorpus.HAM));
    }
    return PublicCorpus.of(out);
  }

  private static SecPE.Builder base(PublicCorpus pub) {
    return SecretFreeSplitTest.bare(PrivateStore.inMemory(hamRepeatsFourTexts()))
        .publicData(pub).labels(Fixtures.released()).noise(new Fixtures.CountingNoise(3));
  }

  // fault: SecPE with labels and the data-chosen K, where one label group's records hold fewer distinct texts than K (`bin/secpe run --label-field ... --secret-free-public`, issue 50 case 8)
  // holds: the run finishes with the size asked for and the same two releases; the report names the clusters kept per group (before: `public cluster sizes must be >= 1 (the centre noise is 2R/n_k), got sizes[4]=0` after embedding, exit 2)
  @Test
  void theSplitDropsClustersThatDuplicatesLeaveEmpty() {
    // ham: 30 secret-free records, 4 distinct texts; K = min(ceil(20 / 2), 30 / 3) = 10 per group,
    // so at most 4 clusters can hold a record and 6 are dropped; spam's 30 records all hold a
    // secret, so its clusters fall back to its 30 public records (30 distinct texts: 10 clusters).
    for (boolean votes : new boolean[] {false, true}) {
      RunResult r = base(publicHamRepeats()).secretFreeAsPublic(true).secretFreeVotes(votes).build().run();
      assertThat(r.dataset().size()).isEqualTo(20);
      assertThat(r.report().mechanisms()).extracting(Release::id)
          .containsExactly("secpe/secret-clustering/label-0", "secpe/secret-clustering/label-1");
      String deviations = String.join("\n", r.report().deviations());
      // Fixtures.released() orders ham before spam.
      assertThat(deviations)
          .contains("K was chosen from the data: [10, 10] clusters per label group")
          .contains("6 of them empty")
          .contains("[4, 10] clusters per label group were released");
    }
  }

  @Test
  void thePlainModeDropsThemToo() {
    // The public corpus forms the clusters: its ham part repeats 4 texts (30 records, K = 10).
    RunResult r = base(publicHamRepeats()).build().run();
    assertThat(r.dataset().size()).isEqualTo(20);
    assertThat(r.report().mechanisms()).hasSize(2);
    assertThat(String.join("\n", r.report().deviations()))
        .contains("6 of them empty")
        .contains("[4, 10] clusters per label group were released");
  }

  @Test
  void aGivenKIsDroppedToTheDistinctTextsToo() {
    // K = 16 asks 8 of each group; ham's 30 public records hold 4 distinct texts.
    RunResult r = base(publicHamRepeats()).clusters(16).build().run();
    assertThat(r.dataset().size()).isEqualTo(20);
    assertThat(String.join("\n", r.report().deviations()))
        .contains("[4, 8] clusters per label group were released");
  }

  @Test
  void unlabelledDataDropsThemToo() {
    List<PrivateRecord> priv = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      priv.add(i % 4 == 0
          ? PrivateRecord.of("s" + i, "Write to seller" + i + "@shop.example about order " + i)
          : PrivateRecord.of("h" + i, HAM.get(i % 3)));
    }
    // 30 secret-free records, 3 distinct texts; K = min(20, 30 / 3) = 10: 7 dropped.
    RunResult r = SecretFreeSplitTest.bare(PrivateStore.inMemory(PrivateDataset.of(priv)))
        .publicData(PublicCorpus.of(List.of(PublicRecord.of("p0", "public text the split does not cluster"))))
        .noise(new Fixtures.CountingNoise(3))
        .secretFreeAsPublic(true)
        .build()
        .run();
    assertThat(r.dataset().size()).isEqualTo(20);
    assertThat(r.report().mechanisms()).extracting(Release::id).containsExactly("secpe/secret-clustering/all");
    assertThat(String.join("\n", r.report().deviations()))
        .contains("7 of them empty")
        .contains("[3] clusters per label group were released");
  }
}
