package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.clustering.ClusterAggregate;
import dev.secpe.core.EmbeddingMatrix;
import dev.secpe.core.Label;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretIndex;
import dev.secpe.evolution.secpe.ClustersPerGroup;
import dev.secpe.llm.TextEmbedder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * SecPE's dataset split ({@code secretFreeAsPublic}): the private records holding no secret are its
 * public part, never sampled or noised; only the secret-holding ones take part in the release.
 */
class SecretFreeSplitTest {

  /** Even records: spam holding an e-mail address; odd records: ham holding none. */
  static PrivateDataset onlySpamHoldsSecrets(int n) {
    List<PrivateRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i % 2 == 0
          ? PrivateRecord.of("s" + i, "Buy cheap watches now, offer " + i + ": write to seller" + i
              + "@shop.example today", BundledCorpus.SPAM)
          : PrivateRecord.of("h" + i, "Meeting notes for the weekly team sync, item " + i
              + ", about the project schedule and plans", BundledCorpus.HAM));
    }
    return PrivateDataset.of(out);
  }

  /** Every record of both labels; a third of them hold an e-mail address. */
  static PrivateDataset aThirdHoldSecrets(int n) {
    List<PrivateRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Label label = i % 2 == 0 ? BundledCorpus.SPAM : BundledCorpus.HAM;
      out.add(i % 3 == 0
          ? PrivateRecord.of("s" + i, "Reply about order " + i + " to buyer" + i + "@shop.example please", label)
          : PrivateRecord.of("f" + i, "A note about order number " + i + " and its delivery schedule", label));
    }
    return PrivateDataset.of(out);
  }

  private static SecPE.Builder base(PrivateStore store) {
    return bare(store).publicData(Fixtures.publicData(80)).labels(Fixtures.released()).noise(new Fixtures.CountingNoise(3));
  }

  /** The small SecPE run of these tests without public data, labels or noise source. */
  static SecPE.Builder bare(PrivateStore store) {
    return SecPE.builder()
        .privateStore(store)
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .secrets(PiiDetector.all())
        .budget(SecretBudget.ofRatio(1e-4, 10))
        .syntheticSize(20)
        .variations(2)
        .iterations(2)
        .seed(5);
  }

  // fault: one label's private records hold no secret (SecPE with `--secrets pii` where only the spam records hold an e-mail address)
  // holds: the run finishes in both modes; that label group's release shifts no secret and costs nothing on the ledger (before: `sigma must be finite and > 0, got sigma=Infinity` after every private record was embedded, exit 2)
  @Test
  void aLabelWhoseRecordsHoldNoSecretRunsInBothModes() {
    // Before: the ham group's release shifts no secret (mu = 0), and the ledger's Gaussian check
    // divided by it: "sigma must be finite and > 0, got sigma=Infinity".
    for (boolean split : new boolean[] {false, true}) {
      RunResult result =
          base(PrivateStore.inMemory(onlySpamHoldsSecrets(40))).clusters(8).secretFreeAsPublic(split).build().run();
      assertThat(result.dataset().size()).isEqualTo(20);
      assertThat(result.report().mechanisms()).extracting(Release::id)
          .containsExactly("secpe/secret-clustering/label-0", "secpe/secret-clustering/label-1");
    }
  }

  @Test
  void onlySecretHoldingRecordsAreSampledAndTheReportSaysWhatWasUsedWithoutNoise() {
    PrivateDataset data = aThirdHoldSecrets(90);
    SecretIndex index = SecretIndex.scan(data, PiiDetector.all(), PrivacyGuard.localOnly());
    Set<Integer> holders = new TreeSet<>();
    for (int i = 0; i < data.size(); i++) {
      if (index.secretsOf(i).length > 0) {
        holders.add(i);
      }
    }
    assertThat(holders).hasSize(30);
    RecordingStore store = new RecordingStore(data);
    RunResult result = base(store).clusters(6).secretFreeAsPublic(true).build().run();
    assertThat(result.dataset().size()).isEqualTo(20);
    // Sampled into the noisy shift: secret holders only (rho = 1 for one-record secrets here).
    assertThat(store.sampled).isNotEmpty().isSubsetOf(holders);
    assertThat(store.sampled).containsExactlyInAnyOrderElementsOf(holders);
    // The ledger's mixture covers the 30 holders only: one shift probability per secret, 1 each.
    for (Release r : result.report().mechanisms()) {
      double[][] probs = ((PrivacyCost.SecretMixture) r.cost()).shiftProbsPerSecret();
      assertThat(Arrays.stream(probs).mapToInt(p -> p.length).sum()).isEqualTo(15);
    }
    String deviations = String.join("\n", result.report().deviations());
    assertThat(deviations).contains("without noise as SecPE's public part").contains("not membership")
        .contains("misses is released without noise");
  }

  @Test
  void withoutTheSplitEverySecretFreeRecordIsSampledToo() {
    RecordingStore store = new RecordingStore(aThirdHoldSecrets(90));
    base(store).clusters(6).build().run();
    // The paper's SECRETNOISE over all records gives those without a secret w = 1, so rho = 1: all
    // 60 are sampled; a one-record secret's w is capped at eta = mu = 0.629 at r/p = 10, so its
    // holder is sampled with rho = 0.629 (in the split, the holders' own maximum is that w: rho = 1).
    List<Integer> free = IntStream.range(0, 90).filter(i -> i % 3 != 0).boxed().toList();
    assertThat(store.sampled).containsAll(free);
    assertThat(store.sampled.size()).isLessThan(90);
  }

  @Test
  void whenEveryRecordHoldsASecretTheClustersFallBackToThePublicCorpus() {
    List<PrivateRecord> all = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      all.add(PrivateRecord.of("s" + i, "Reply to buyer" + i + "@shop.example about order " + i,
          i % 2 == 0 ? BundledCorpus.SPAM : BundledCorpus.HAM));
    }
    RunResult result =
        base(PrivateStore.inMemory(PrivateDataset.of(all))).clusters(8).secretFreeAsPublic(true).build().run();
    assertThat(result.dataset().size()).isEqualTo(20);
    assertThat(String.join("\n", result.report().deviations()))
        .contains("2 label group(s) had no private record without a secret");
  }

  /** Per label group 3 records hold no secret and 27 hold one (e-mail addresses). */
  private static PrivateDataset threeSecretFreePerGroup() {
    List<PrivateRecord> out = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Label label = i % 2 == 0 ? BundledCorpus.SPAM : BundledCorpus.HAM;
      out.add(i < 6
          ? PrivateRecord.of("f" + i, "A note about order number " + i + " and its delivery schedule", label)
          : PrivateRecord.of("s" + i, "Reply about order " + i + " to buyer" + i + "@shop.example please", label));
    }
    return PrivateDataset.of(out);
  }

  @Test
  void clustersOfOneSecretFreeRecordRun() {
    // K = 6 asks 3 clusters of each group, one per secret-free record (n_k = 1, so centre noise
    // 2 sigma per coordinate), and the run finishes with the size asked for.
    RunResult result =
        base(PrivateStore.inMemory(threeSecretFreePerGroup())).clusters(6).secretFreeAsPublic(true).build().run();
    assertThat(result.dataset().size()).isEqualTo(20);
    assertThat(result.report().mechanisms()).hasSize(2);
  }

  // fault: a K the caller gave asks a label group for more clusters than its secret-free records in the split (`--clusters 20 --secret-free-public`, issue 50 "Also")
  // holds: refused before anything is drawn, as the plain mode refuses K larger than a group's public set, naming K, the group, its size and the largest K that fits (before: K was lowered to 3 in silence)
  @Test
  void aGivenKLargerThanAGroupsPublicPartIsRefusedInBothModes() {
    // K = 20 asks 10 clusters of each group; the split's ham group has 3 secret-free records.
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(3);
    SecPE split = base(PrivateStore.inMemory(threeSecretFreePerGroup())).clusters(20).secretFreeAsPublic(true)
        .noise(noise).build();
    assertThatThrownBy(split::run)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusters K=20 asks for 10 clusters in label group ham")
        .hasMessageContaining("(3 records)")
        .hasMessageContaining("give K <= 6 (K is split evenly over the 2 label groups)")
        .hasMessageContaining("leave K out");
    assertThat(noise.draws.get()).isZero();
    // The plain mode refuses the same case when the run is built: 4 public records per label.
    List<dev.secpe.core.PublicRecord> pub = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      pub.add(dev.secpe.core.PublicRecord.of("p" + i, "public note number " + i + " about an order",
          i % 2 == 0 ? BundledCorpus.SPAM : BundledCorpus.HAM));
    }
    assertThatThrownBy(() -> base(PrivateStore.inMemory(threeSecretFreePerGroup()))
            .publicData(dev.secpe.core.PublicCorpus.of(pub)).clusters(20).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusters K=20 asks for 10 clusters in label group ham")
        .hasMessageContaining("(4 records)")
        .hasMessageContaining("give K <= 8");
  }

  /** {@link #base} without a public corpus. */
  private static SecPE.Builder withoutPublic(PrivateStore store) {
    return bare(store).labels(Fixtures.released());
  }

  // fault: the split without a public corpus (`SecPE.builder()...secretFreeAsPublic(true)` with no `publicData`, issue 50 case 9)
  // holds: it runs, its clusters built on the secret-free records alone, with the same releases as with one (before: "required settings missing: publicData (SecPE's clusters are built on public data only)")
  @Test
  void theSplitNeedsNoPublicCorpus() {
    for (boolean votes : new boolean[] {false, true}) {
      RunResult result = withoutPublic(PrivateStore.inMemory(aThirdHoldSecrets(90))).noise(new Fixtures.CountingNoise(3))
          .secretFreeAsPublic(true).secretFreeVotes(votes).build().run();
      assertThat(result.dataset().size()).isEqualTo(20);
      assertThat(result.report().mechanisms()).extracting(Release::id)
          .containsExactly("secpe/secret-clustering/label-0", "secpe/secret-clustering/label-1");
      // Both labels get survivors, in shares from the noisy counts.
      assertThat(result.dataset().records()).extracting(t -> t.label().orElseThrow())
          .contains(BundledCorpus.HAM, BundledCorpus.SPAM);
    }
    // Declared public label proportions need no public corpus either: 3 of 4 survivors ham.
    RunResult declared = withoutPublic(PrivateStore.inMemory(aThirdHoldSecrets(90))).noise(new Fixtures.CountingNoise(3))
        .labels(new dev.secpe.core.LabelSet.DeclaredPublic(java.util.Map.of(BundledCorpus.HAM, 0.75, BundledCorpus.SPAM, 0.25)))
        .secretFreeAsPublic(true).build().run();
    assertThat(declared.dataset().records().stream().filter(t -> t.label().orElseThrow().equals(BundledCorpus.HAM)))
        .hasSize(15);
  }

  @Test
  void withoutAPublicCorpusAGroupWithNoSecretFreeRecordIsRefusedBeforeAnythingIsDrawn() {
    // Every spam record holds a secret: its clusters would fall back to a public corpus there is not.
    List<PrivateRecord> out = new ArrayList<>(onlySpamHoldsSecrets(40).records());
    Fixtures.CountingNoise noise = new Fixtures.CountingNoise(3);
    SecPE run = withoutPublic(PrivateStore.inMemory(PrivateDataset.of(out))).noise(noise).secretFreeAsPublic(true).build();
    assertThatThrownBy(run::run)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("label group spam has no private record without a secret and no public record")
        .hasMessageContaining("publicData / --public");
    assertThat(noise.draws.get()).isZero();
  }

  @Test
  void withoutTheSplitOrWithThePublicCorpusJoiningAPublicCorpusIsRequired() {
    assertThatThrownBy(() -> withoutPublic(PrivateStore.inMemory(aThirdHoldSecrets(30))).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("publicData (SecPE's clusters are built on public data only; secretFreeAsPublic(true)"
            + " builds them on the private records that hold no secret)");
    assertThatThrownBy(() -> withoutPublic(PrivateStore.inMemory(aThirdHoldSecrets(30))).secretFreeAsPublic(true)
            .publicJoinsClusters(true).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("publicJoinsClusters(true) needs publicData");
  }

  @Test
  void whenNoRecordHoldsASecretTheRunRefusesInBothModes() {
    List<PrivateRecord> plain = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      plain.add(PrivateRecord.of("p" + i, "nothing identifying in message number " + i,
          i % 2 == 0 ? BundledCorpus.SPAM : BundledCorpus.HAM));
    }
    for (boolean split : new boolean[] {false, true}) {
      assertThatThrownBy(
              () -> base(PrivateStore.inMemory(PrivateDataset.of(plain))).clusters(4).secretFreeAsPublic(split)
                  .build().run())
          .isInstanceOf(SecPE.NoSecretsException.class)
          .hasMessageContaining("no secrets were detected");
    }
  }

  @Test
  void theNonPrivateSplitClustersEveryPrivateRecordAndReleasesNothing() {
    RunResult result =
        SecPE.builder()
            .privateData(aThirdHoldSecrets(60))
            .publicData(Fixtures.publicData(40))
            .labels(Fixtures.released())
            .generator(Fixtures.generator())
            .embedder(Fixtures.embedder())
            .nonPrivate()
            .secretFreeAsPublic(true)
            .secretFreeVotes(true)
            .syntheticSize(20)
            .variations(2)
            .iterations(2)
            .build()
            .run();
    assertThat(result.dataset().size()).isEqualTo(20);
    assertThat(result.report().mechanisms()).extracting(Release::cost)
        .allSatisfy(c -> assertThat(c).isNotInstanceOf(PrivacyCost.SecretMixture.class));
  }

  @Test
  void secretFreeVotesRunWithTheSameReleasesAsThePaperRule() {
    RunResult result =
        base(PrivateStore.inMemory(aThirdHoldSecrets(90))).clusters(6).secretFreeAsPublic(true)
            .secretFreeVotes(true).build().run();
    assertThat(result.dataset().size()).isEqualTo(20);
    assertThat(result.dataset().records().stream().map(t -> t.text()).distinct().count()).isEqualTo(20);
    assertThat(result.report().mechanisms()).extracting(Release::id)
        .containsExactly("secpe/secret-clustering/label-0", "secpe/secret-clustering/label-1");
    assertThat(String.join("\n", result.report().deviations())).contains("Secret-free votes");
  }

  @Test
  void optionsThatNeedTheSplitAreRefusedWithoutIt() {
    assertThatThrownBy(() -> base(PrivateStore.inMemory(aThirdHoldSecrets(30))).secretFreeVotes(true).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("secretFreeVotes(true) needs secretFreeAsPublic(true)");
    assertThatThrownBy(() -> base(PrivateStore.inMemory(aThirdHoldSecrets(30))).publicJoinsClusters(true).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("publicJoinsClusters(true) applies to secretFreeAsPublic(true) only");
  }

  // fault: the split on a store that keeps its records to itself (a SparkPrivateStore; `bin/secpe run --spark ... --secret-free-public`, issue 52)
  // holds: it runs, with the same synthetic data and releases as on the in-memory store; only a sample of secret-free records' embeddings leaves the store, and what it uses without noise is secret-free records only (before: refused by build(), "secretFreeAsPublic(true) clusters the secret-free private records in this JVM: it needs privateData(PrivateDataset)")
  @Test
  void theSplitRunsOnAStoreThatKeepsItsRecordsWithTheSameOutput() {
    PrivateDataset data = aThirdHoldSecrets(90);
    Set<Integer> holders = new TreeSet<>();
    for (int i = 0; i < data.size(); i += 3) {
      holders.add(i); // i % 3 == 0 holds an e-mail address
    }
    for (boolean votes : new boolean[] {false, true}) {
      RecordingStore remote = new RecordingStore(data);
      RunResult there = base(remote).clusters(6).secretFreeAsPublic(true).secretFreeVotes(votes).build().run();
      RunResult here = base(PrivateStore.inMemory(data)).clusters(6).secretFreeAsPublic(true).secretFreeVotes(votes)
          .build().run();
      assertThat(there.dataset().records()).isEqualTo(here.dataset().records());
      assertThat(there.report().mechanisms()).isEqualTo(here.report().mechanisms());
      assertThat(remote.handedOut).isNotEmpty().doesNotContainAnyElementsOf(holders);
      assertThat(remote.exactlyUsed).hasSize(60).doesNotContainAnyElementsOf(holders);
      assertThat(remote.sampled).isNotEmpty().isSubsetOf(holders);
    }
  }

  @Test
  void aStoreRefusesASecretFreeRequestNamingARecordThatHoldsASecret() {
    PrivateStore store = PrivateStore.inMemory(aThirdHoldSecrets(30));
    store.groups(List.copyOf(Fixtures.released().labels()));
    store.embed(Fixtures.embedder(), PrivacyGuard.localOnly());
    // Before any scan every record is public data (a non-private run).
    assertThat(store.secretFreeEmbeddings(new int[] {0, 1}).rows()).isEqualTo(2);
    store.secrets(PiiDetector.all(), PrivacyGuard.localOnly());
    EmbeddingMatrix centres = store.secretFreeEmbeddings(new int[] {1, 2});
    assertThat(centres.rows()).isEqualTo(2);
    for (Runnable request : List.<Runnable>of(
        () -> store.secretFreeEmbeddings(new int[] {1, 3}),
        () -> store.secretFreeAggregate(new int[] {3}, centres),
        () -> store.secretFreeNearest(new int[] {3}, centres),
        () -> store.secretFreeVotes(new int[] {1, 2, 3}, new int[] {0, 1, 0}, centres, null))) {
      assertThatThrownBy(request::run)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("private record at index 3 holds a detected secret: only records that hold none may be used"
              + " without noise");
    }
    assertThatThrownBy(() -> store.secretFreeEmbeddings(new int[] {2, 1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("records must be ascending indices below 30, got 1 at position 1");
    assertThatThrownBy(() -> store.secretFreeAggregate(new int[] {30}, centres))
        .hasMessage("records must be ascending indices below 30, got 30 at position 0");
  }

  @Test
  void kChosenFromTheDataFollowsItsRule() {
    // min(ceil(N_syn / groups), base / 3), at least 1.
    assertThat(ClustersPerGroup.autoClusters(150, 2, 3000)).isEqualTo(75);
    assertThat(ClustersPerGroup.autoClusters(150, 2, 120)).isEqualTo(40);
    assertThat(ClustersPerGroup.autoClusters(101, 2, 3000)).isEqualTo(51);
    assertThat(ClustersPerGroup.autoClusters(100, 1, 5)).isEqualTo(1);
    assertThat(ClustersPerGroup.autoClusters(100, 2, 187)).isEqualTo(50); // the bundled e-mails' spam
    RunResult result = base(PrivateStore.inMemory(aThirdHoldSecrets(90))).build().run();
    // The report names the choice.
    assertThat(String.join("\n", result.report().deviations())).contains("K was chosen from the data");
  }

  /**
   * The in-memory store behind a store's face only (no records, no embeddings in this JVM, as a
   * Spark store), recording which records the release sampled and which the split used.
   */
  static class RecordingStore implements PrivateStore {
    final PrivateStore inner;
    final List<Integer> sampled = new ArrayList<>();
    /** The records whose embeddings the store handed out (the split's seeding sample). */
    final Set<Integer> handedOut = new TreeSet<>();
    /** The records the store used exactly, without noise (the split's k-means steps and votes). */
    final Set<Integer> exactlyUsed = new TreeSet<>();

    RecordingStore(PrivateDataset data) {
      this.inner = PrivateStore.inMemory(data);
    }

    @Override
    public int size() {
      return inner.size();
    }

    @Override
    public boolean isLabelled() {
      return inner.isLabelled();
    }

    @Override
    public String contentHash() {
      return inner.contentHash();
    }

    @Override
    public int[] groups(List<Label> labels) {
      return inner.groups(labels);
    }

    @Override
    public void embed(TextEmbedder embedder, PrivacyGuard guard) {
      inner.embed(embedder, guard);
    }

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public long[] nearestCounts(int group, EmbeddingMatrix candidates, float[] centre, int k) {
      return inner.nearestCounts(group, candidates, centre, k);
    }

    @Override
    public ClusterAggregate clusterAggregate(int[] rows, EmbeddingMatrix publicCentres) {
      IntStream.of(rows).forEach(sampled::add);
      return inner.clusterAggregate(rows, publicCentres);
    }

    @Override
    public EmbeddingMatrix secretFreeEmbeddings(int[] records) {
      IntStream.of(records).forEach(handedOut::add);
      return inner.secretFreeEmbeddings(records);
    }

    @Override
    public ClusterAggregate secretFreeAggregate(int[] records, EmbeddingMatrix centres) {
      IntStream.of(records).forEach(exactlyUsed::add);
      return inner.secretFreeAggregate(records, centres);
    }

    @Override
    public int[] secretFreeNearest(int[] records, EmbeddingMatrix centres) {
      IntStream.of(records).forEach(exactlyUsed::add);
      return inner.secretFreeNearest(records, centres);
    }

    @Override
    public ClusterVotes secretFreeVotes(int[] records, int[] clusters, EmbeddingMatrix candidates, float[] centre) {
      IntStream.of(records).forEach(exactlyUsed::add);
      return inner.secretFreeVotes(records, clusters, candidates, centre);
    }

    @Override
    public SecretIndex secrets(SecretDetector detector, PrivacyGuard guard) {
      return inner.secrets(detector, guard);
    }

    @Override
    public long[] recordKeys(long key) {
      return inner.recordKeys(key);
    }

    @Override
    public Optional<PrivateDataset> inMemory() {
      return Optional.empty();
    }
  }
}
