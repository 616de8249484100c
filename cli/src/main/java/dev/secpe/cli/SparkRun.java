package dev.secpe.cli;

import dev.secpe.evolution.PrivateStore;
import dev.secpe.llm.embedded.MiniLmEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import dev.secpe.spark.EmbedderFactory;
import dev.secpe.spark.PrivateRows;
import dev.secpe.spark.SparkPrivateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * {@code --spark MASTER}: the private records stay on Spark executors ({@link SparkPrivateStore}).
 * Loaded only when the option is given, so that the command line runs without Spark otherwise;
 * {@code bin/secpe} puts Spark (cli/target/spark-libs) on the class path when it sees the option,
 * and {@code spark-submit} brings its own.
 */
final class SparkRun implements AutoCloseable {

  private final JavaSparkContext sc;
  private final SparkPrivateStore store;

  private SparkRun(JavaSparkContext sc, SparkPrivateStore store) {
    this.sc = sc;
    this.store = store;
  }

  /** Whether Spark is on the class path. */
  static boolean available() {
    try {
      Class.forName("org.apache.spark.SparkContext", false, SparkRun.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Starts (or joins, under spark-submit) a Spark context and opens the private JSONL file there:
   * a URI as given (hdfs://, s3a://, file://), a local path as an absolute one. Under spark-submit
   * its --master wins over {@code master}.
   */
  static SparkRun open(
      String master, String privateArg, String textField, String labelField, String embedderName,
      Map<String, String> providerOptions) {
    if (!available()) {
      throw new IllegalStateException(
          "--spark needs Apache Spark on the class path: run through bin/secpe (which adds"
              + " cli/target/spark-libs, built by ./mvnw package) or spark-submit");
    }
    SparkConf conf = new SparkConf().setAppName("secpe").setIfMissing("spark.master", master);
    JavaSparkContext sc = new JavaSparkContext(conf);
    try {
      // A URI (hdfs://, s3a://, file://) as given; a local path absolute, as a file: URI on a
      // cluster (every executor must then see the same file).
      String path = privateArg;
      if (!privateArg.matches("^[a-zA-Z][a-zA-Z0-9+.-]+://.*")) {
        Path local = Path.of(privateArg).toAbsolutePath();
        if (!Files.isReadable(local)) {
          throw new IllegalArgumentException("--private " + privateArg + ": no such readable file");
        }
        path = master.startsWith("local") ? local.toString() : local.toUri().toString();
      }
      SparkPrivateStore store = SparkPrivateStore.builder()
          .records(PrivateRows.jsonLines(sc, path, textField, labelField))
          .embedder(embedders(embedderName, new HashMap<>(providerOptions)))
          .build();
      return new SparkRun(sc, store);
    } catch (RuntimeException e) {
      sc.stop();
      throw unwrap(e);
    } catch (Exception e) {
      // Hadoop's input errors (a path that does not exist, a permission) reach here undeclared
      // from Scala; their messages name the path, not the content.
      sc.stop();
      throw new IllegalArgumentException("--private " + privateArg + ": cannot read it ("
          + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
    }
  }

  /** The executors' embedder: the same provider the driver uses. */
  private static EmbedderFactory embedders(String name, HashMap<String, String> options) {
    return () -> name == null
        ? MiniLmEmbedder.create()
        : Providers.installed().createEmbedder(name, ProviderConfig.of(options));
  }

  PrivateStore store() {
    return store;
  }

  /**
   * A failed Spark job as the error that failed it: an executor's bad-input error (a malformed
   * line, a label outside the set) surfaces with its own message (positions and field names,
   * never text) and exit code.
   */
  static RuntimeException unwrap(RuntimeException e) {
    if (!e.getClass().getName().startsWith("org.apache.spark.")) {
      return e;
    }
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      if (c instanceof IllegalArgumentException || c instanceof IllegalStateException) {
        return (RuntimeException) c;
      }
    }
    return new IllegalStateException("a Spark job failed (" + e.getClass().getSimpleName() + "); see the executors' logs");
  }

  @Override
  public void close() {
    try {
      store.close();
    } finally {
      sc.stop();
    }
  }
}
