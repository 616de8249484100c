package dev.secpe.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.core.Label;
import dev.secpe.core.LabelSet;
import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.report.PrivacyReportJson;
import dev.secpe.core.secret.DictionaryDetector;
import dev.secpe.evolution.AugPE;
import dev.secpe.evolution.RunResult;
import dev.secpe.evolution.SecPE;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.testkit.FakeTextGenerator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * Nothing private leaks through Spark: with the event log on, a sentinel string planted in a
 * private record and a sentinel count (the size of one label group, a private statistic) appear
 * neither in the event log, nor in the driver log, nor in any exception, nor in the report of the
 * dataset split (SecPE's mode that uses the secret-free records exactly). A control in the same
 * application (an RDD name and a named accumulator, the two ways such values do reach the event
 * log) shows that the scan finds what is there.
 */
class SparkLeakTest {

  /** Planted in one private record's text (and in the failing embedder's message). */
  private static final String SENTINEL = "zqx-SENTINEL-7f3a91-qxz";

  /** The size of label group "a": released only with noise, so it must appear nowhere. */
  private static final int SENTINEL_COUNT = 577;

  private static final int N = 800;

  private static final String CONTROL_NAME = "CONTROL-rdd-name-4c21";
  private static final long CONTROL_COUNT = 8191;

  @Test
  void noSentinelReachesTheEventLogTheDriverLogOrAnException() throws Exception {
    Path eventLog = Files.createTempDirectory("secpe-spark-events");
    JavaSparkContext sc = new JavaSparkContext(new SparkConf()
        .setMaster("local[2]")
        .setAppName("secpe-spark-leak-test")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1")
        .set("spark.eventLog.enabled", "true")
        .set("spark.eventLog.dir", eventLog.toUri().toString()));
    List<String> exceptions = new ArrayList<>();
    List<String> reports = new ArrayList<>();
    try {
      List<PrivateRow> rows = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        String[] t = rawText(i);
        String text = i == 123 ? t[0] + " " + SENTINEL + " secret-token" : t[0];
        rows.add(PrivateRow.of(text, i < SENTINEL_COUNT ? "a" : "b"));
      }
      JavaRDD<PrivateRow> rdd = sc.parallelize(rows, 5);
      LabelSet labels = new LabelSet.ToBeReleased(new TreeSet<>(List.of(Label.of("a"), Label.of("b"))));
      PublicCorpus pub = publicData();
      try (SparkPrivateStore store =
          SparkPrivateStore.builder().records(rdd).embedder(SparkStoreTest::embedder).build()) {
        AugPE.builder().privateStore(store).publicData(pub).labels(labels)
            .generator(FakeTextGenerator.builder().build()).embedder(SparkStoreTest.embedder())
            .syntheticSize(20).variations(2).iterations(2).seed(3)
            .budget(new DpBudget(4.0, 1e-5)).build().run();
        SecPE.builder().privateStore(store).publicData(pub).labels(labels)
            .generator(FakeTextGenerator.builder().build()).embedder(SparkStoreTest.embedder())
            .secrets(DictionaryDetector.of("token", List.of("secret-token")))
            .clusters(6).syntheticSize(20).variations(2).iterations(2).seed(3)
            .budget(SecretBudget.ofRatio(1e-4, 10)).build().run();
        // The dataset split with its secret-free votes: the secret-free records' k-means steps,
        // counts, votes and seeding sample on the executors; the sentinel's record holds a secret.
        RunResult split = SecPE.builder().privateStore(store).publicData(pub).labels(labels)
            .generator(FakeTextGenerator.builder().build()).embedder(SparkStoreTest.embedder())
            .secrets(DictionaryDetector.of("token", List.of("secret-token")))
            .secretFreeAsPublic(true).secretFreeVotes(true).syntheticSize(20).variations(2).iterations(2).seed(3)
            .budget(SecretBudget.ofRatio(1e-4, 10)).build().run();
        reports.add(PrivacyReportJson.toJson(split.report()));
      }

      // An embedder that quotes the text it fails on: the executor's exception must not carry it.
      try (SparkPrivateStore failing = SparkPrivateStore.builder().records(rdd)
          .embedder(() -> new QuotingEmbedder()).build()) {
        failing.groups(List.of(Label.of("a"), Label.of("b")));
        assertThatThrownBy(() -> failing.embed(new QuotingEmbedder(), PrivacyGuard.localOnly()))
            .satisfies(e -> exceptions.add(stackTrace(e)));
      }

      // Control: the two ways private values would reach the event log.
      var acc = sc.sc().longAccumulator("control-accumulator");
      sc.parallelize(List.of(1, 2, 3), 1).setName(CONTROL_NAME)
          .foreach(x -> acc.add(x == 1 ? CONTROL_COUNT : 0));
    } finally {
      sc.stop();
    }

    String events = readAll(eventLog);
    String driverLog = Files.readString(Path.of("target", "spark-driver.log"));
    assertThat(events).as("event log was written").contains("SparkListenerApplicationEnd");
    assertThat(driverLog).as("driver log was written").contains("SparkContext");
    // The control shows the scan would find a leaked name or count.
    assertThat(events).contains(CONTROL_NAME);
    assertThat(number(CONTROL_COUNT).matcher(events).find()).isTrue();

    assertThat(exceptions).hasSize(1);
    assertThat(reports).hasSize(1);
    for (String where : List.of(events, driverLog, exceptions.get(0), reports.get(0))) {
      assertThat(where).doesNotContain(SENTINEL).doesNotContain("secret-token");
      assertThat(number(SENTINEL_COUNT).matcher(where).find())
          .as("sentinel count %d found", SENTINEL_COUNT).isFalse();
    }
    assertThat(exceptions.get(0)).contains("embedder 'quoting'");
  }

  /** A whole number, not part of a longer number or a decimal. */
  private static Pattern number(long n) {
    return Pattern.compile("(?<![0-9.])" + n + "(?![0-9])");
  }

  private static String[] rawText(int i) {
    return new String[] {"mail " + i + " about " + WORDS[i % WORDS.length] + " and " + WORDS[(i * 7) % WORDS.length]};
  }

  private static final String[] WORDS = {
    "meeting", "invoice", "offer", "server", "holiday", "lottery", "report", "update", "delivery", "account"
  };

  private static PublicCorpus publicData() {
    List<PublicRecord> out = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      out.add(PublicRecord.of("p" + i, "public note " + i + " on " + WORDS[(i * 3) % WORDS.length],
          Label.of(i % 2 == 0 ? "a" : "b")));
    }
    return PublicCorpus.of(out);
  }

  private static String readAll(Path dir) throws Exception {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        sb.append(Files.readString(f));
      }
    }
    return sb.toString();
  }

  private static String stackTrace(Throwable e) {
    StringWriter w = new StringWriter();
    e.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  /** Fails on every batch with the batch's first text in its message. */
  static final class QuotingEmbedder implements TextEmbedder {
    @Override
    public String name() {
      return "quoting";
    }

    @Override
    public int dimension() {
      return 8;
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public boolean normalized() {
      return false;
    }

    @Override
    public float[][] embed(List<String> texts) {
      for (String t : texts) {
        if (t.contains(SENTINEL)) {
          throw new IllegalStateException("cannot embed: " + t);
        }
      }
      float[][] out = new float[texts.size()][8];
      for (float[] r : out) {
        r[0] = 1;
      }
      return out;
    }
  }
}
