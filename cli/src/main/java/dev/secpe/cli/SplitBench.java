package dev.secpe.cli;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.noise.NoiseSources;
import dev.secpe.cli.bench.TimedStore;
import dev.secpe.cli.bench.TopicRows;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.report.Phase;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.evolution.AugPE;
import dev.secpe.evolution.EvolutionBuilder;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.SecPE;
import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * {@code bench split}: SecPE's dataset split at scale, in SecPE's regime (many records, a minority
 * holding a secret), against Aug-PE on the same records, in memory and on Spark, in one run.
 * Records are {@link TopicRows}: synthetic texts whose embeddings a seeded stand-in embedder gives
 * (the embedder is not what is measured). For each store and mode (the split with the paper's
 * representative vote, the split with secret-free votes, Aug-PE): the one-off embedding, round 0's
 * one-off work (SecPE: detection, SECRETNOISE, the k-means of the secret-free records and the
 * release), each round's vote and selection, the time spent inside the store's calls (where the
 * records live) and the peak heap; then the ratios the goals name.
 */
final class SplitBench {

  private SplitBench() {}

  /** The names of the heap's memory pools. */
  private static final java.util.Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
      .map(java.lang.management.MemoryPoolMXBean::getName)
      .collect(java.util.stream.Collectors.toUnmodifiableSet());

  /**
   * Settings.
   *
   * @param rows the records
   * @param syntheticSize N_syn
   * @param variations L
   * @param iterations T
   * @param stores memory and/or spark
   * @param modes paper, votes and/or augpe
   * @param master the Spark master
   * @param partitions partitions of the records on Spark
   * @param secretCap SecPE's contribution cap (0: the paper's SECRETNOISE)
   */
  record Config(TopicRows.Config rows, int syntheticSize, int variations, int iterations, List<String> stores,
      List<String> modes, String master, int partitions, int secretCap) {}

  /** What one run measured. */
  private record Measured(double embed, double round0, List<Double> votes, Map<String, Double> storeSeconds,
      Map<String, Integer> storeCalls, long peakHeap, long peakLive) {}

  static Map<String, Object> run(Config c) throws Exception {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("records", c.rows().records());
    out.put("secret_share", c.rows().secretShare());
    out.put("synthetic_size", c.syntheticSize());
    out.put("variations", c.variations());
    out.put("iterations", c.iterations());
    out.put("dimension", c.rows().dim());
    out.put("topics", c.rows().topics());
    out.put("max_heap_mb", Runtime.getRuntime().maxMemory() >> 20);
    out.put("cores", Runtime.getRuntime().availableProcessors());
    SplitBenchSpark spark = c.stores().contains("spark") ? SplitBenchSpark.start(c.master()) : null;
    try {
      if (spark != null) {
        out.put("spark_master", spark.master());
        out.put("spark_partitions", c.partitions());
      }
      Map<String, Measured> all = new LinkedHashMap<>();
      for (String store : c.stores()) {
        for (String mode : c.modes()) {
          Measured m = measure(c, store, mode, spark);
          all.put(store + "_" + mode, m);
          String k = store + "_" + mode + "_";
          out.put(k + "embed_seconds", round(m.embed()));
          out.put(k + "round0_seconds", round(m.round0()));
          for (int t = 0; t < m.votes().size(); t++) {
            out.put(k + "round" + t + "_vote_seconds", round(m.votes().get(t)));
          }
          m.storeSeconds().forEach((call, s) -> out.put(k + "store_" + call + "_seconds", round(s)));
          m.storeCalls().forEach((call, n) -> {
            if (n > 1) {
              out.put(k + "store_" + call + "_calls", n);
            }
          });
          out.put(k + "peak_heap_mb", m.peakHeap() >> 20);
          out.put(k + "peak_live_heap_mb", m.peakLive() >> 20);
        }
        Measured aug = all.get(store + "_augpe");
        if (aug == null) {
          continue;
        }
        double augRound = later(aug.votes());
        for (String mode : List.of("paper", "votes")) {
          Measured m = all.get(store + "_" + mode);
          if (m != null) {
            out.put(store + "_" + mode + "_later_round_to_augpe_round", round(later(m.votes()) / augRound));
            out.put(store + "_" + mode + "_round0_to_augpe_round", round(m.round0() / augRound));
          }
        }
      }
      return out;
    } finally {
      if (spark != null) {
        spark.close();
      }
    }
  }

  /** The mean vote time of the rounds after round 0 (round 0's when there is no other). */
  private static double later(List<Double> votes) {
    List<Double> l = votes.size() > 1 ? votes.subList(1, votes.size()) : votes;
    return l.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  private static double round(double v) {
    return Double.parseDouble(String.format(Locale.ROOT, "%.4g", v));
  }

  private static Measured measure(Config c, String store, String mode, SplitBenchSpark spark) throws Exception {
    System.gc();
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    AtomicLong peak = new AtomicLong(memory.getHeapMemoryUsage().getUsed());
    Thread sampler = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "bench-heap-sampler");
    sampler.setDaemon(true);
    sampler.start();
    // The live heap: the most the heap held just after a collection (what the run needs, without
    // the garbage the sampled peak includes).
    AtomicLong live = new AtomicLong();
    NotificationListener afterGc = (n, h) -> {
      if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
        long used = 0;
        for (var u : GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcInfo()
            .getMemoryUsageAfterGc().entrySet()) {
          if (HEAP_POOLS.contains(u.getKey())) {
            used += u.getValue().getUsed();
          }
        }
        live.accumulateAndGet(used, Math::max);
      }
    };
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(afterGc, null, null);
    }
    List<RunEvent.PhaseFinished> phases = new ArrayList<>();
    TimedStore timed;
    try {
      PrivateStore inner = store.equals("memory") ? memoryStore(c.rows()) : spark.store(c.rows(), c.partitions());
      timed = new TimedStore(inner);
      try {
        EvolutionBuilder<?> b = mode.equals("augpe")
            ? AugPE.builder().privateStore(timed).budget(new DpBudget(4, 1e-6))
            : secpe(timed, mode, c.secretCap());
        b.generator(new TopicRows.Generator(c.rows().topics(), c.rows().seed()))
            .embedder(new TopicRows.Embedder(c.rows().dim(), c.rows().seed()))
            .syntheticSize(c.syntheticSize())
            .variations(c.variations())
            .iterations(c.iterations())
            .seed(c.rows().seed())
            .noise(NoiseSources.reproducibleForTests(c.rows().seed()))
            .listener(e -> {
              if (e instanceof RunEvent.PhaseFinished p) {
                phases.add(p);
              }
            });
        if (b instanceof SecPE.Builder s) {
          s.build().run();
        } else {
          ((AugPE.Builder) b).build().run();
        }
      } finally {
        inner.close();
      }
    } finally {
      sampler.interrupt();
      sampler.join();
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        ((NotificationEmitter) gc).removeNotificationListener(afterGc);
      }
    }
    // Round 0: the one-off embedding, the method's one-off work, the initial population, its
    // embedding and vote; every later round: generation, embedding, vote.
    double embed = Double.NaN;
    double round0 = Double.NaN;
    List<Double> votes = new ArrayList<>();
    for (RunEvent.PhaseFinished p : phases) {
      double s = p.elapsed().toNanos() / 1e9;
      if (p.round() == 0 && p.phase() == Phase.EMBEDDING && Double.isNaN(embed)) {
        embed = s;
      } else if (p.round() == 0 && p.phase() == Phase.SELECTION && Double.isNaN(round0)) {
        round0 = s;
      } else if (p.phase() == Phase.SELECTION) {
        votes.add(s);
      }
    }
    return new Measured(embed, round0, votes, timed.seconds(), timed.calls(), peak.get(), live.get());
  }

  private static SecPE.Builder secpe(PrivateStore store, String mode, int secretCap) {
    SecPE.Builder b = SecPE.builder().privateStore(store)
        .secrets(PiiDetector.all())
        .budget(SecretBudget.ofRatio(1e-4, 10))
        .secretFreeAsPublic(true)
        .secretFreeVotes(mode.equals("votes"));
    return secretCap > 0 ? b.secretCap(secretCap) : b;
  }

  private static PrivateStore memoryStore(TopicRows.Config rows) {
    List<PrivateRecord> records = new ArrayList<>(rows.records());
    for (int i = 0; i < rows.records(); i++) {
      records.add(PrivateRecord.of("r" + i, TopicRows.text(rows, i)));
    }
    return PrivateStore.inMemory(PrivateDataset.of(records));
  }
}
