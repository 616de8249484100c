package dev.secpe.cli;

import dev.secpe.cli.bench.TopicRows;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.spark.PrivateRow;
import dev.secpe.spark.SparkPrivateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The Spark side of {@code bench split}, apart so that the benchmark runs in memory without Spark
 * on the class path: a context, and stores whose records are generated on the executors (record i
 * of {@link TopicRows}, partition by partition, in order), never on the driver.
 */
final class SplitBenchSpark implements AutoCloseable {

  private final JavaSparkContext sc;

  private SplitBenchSpark(JavaSparkContext sc) {
    this.sc = sc;
  }

  static SplitBenchSpark start(String master) {
    if (!SparkRun.available()) {
      throw new IllegalStateException(
          "bench split --stores spark needs Apache Spark on the class path: run it through bin/secpe (which adds"
              + " cli/target/spark-libs, built by ./mvnw package)");
    }
    SparkConf conf = new SparkConf().setAppName("secpe-bench-split").setIfMissing("spark.master", master)
        .set("spark.ui.enabled", "false");
    JavaSparkContext sc = new JavaSparkContext(conf);
    sc.setLogLevel("WARN");
    return new SplitBenchSpark(sc);
  }

  String master() {
    return sc.master();
  }

  /** A store over the records of {@code rows}, in {@code partitions} partitions. */
  PrivateStore store(TopicRows.Config rows, int partitions) {
    int n = rows.records();
    List<Integer> parts = IntStream.range(0, partitions).boxed().toList();
    JavaRDD<PrivateRow> rdd = sc.parallelize(new ArrayList<>(parts), partitions).flatMap(p -> {
      long from = (long) n * p / partitions;
      long to = (long) n * (p + 1) / partitions;
      List<PrivateRow> out = new ArrayList<>((int) (to - from));
      for (long i = from; i < to; i++) {
        out.add(PrivateRow.of(TopicRows.text(rows, i)));
      }
      return out.iterator();
    });
    int dim = rows.dim();
    long seed = rows.seed();
    return SparkPrivateStore.builder().records(rdd).embedder(() -> new TopicRows.Embedder(dim, seed)).build();
  }

  @Override
  public void close() {
    sc.stop();
  }
}
