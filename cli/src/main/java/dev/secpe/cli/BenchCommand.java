package dev.secpe.cli;

import dev.secpe.cli.bench.KernelBenchmark;
import dev.secpe.cli.bench.VoteBenchmark;
import dev.secpe.clustering.Metric;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code secpe bench ...}: benchmark harnesses that print ratios against a reference run in the
 * same process (see {@code docs/clustering-performance.md}).
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks that print ratios against a reference measured in the same run.",
    subcommands = {BenchCommand.Kernel.class, BenchCommand.Vote.class, BenchCommand.Spark.class,
        BenchCommand.Split.class, BenchCommand.Accounting.class})
final class BenchCommand {

  /**
   * A benchmark: its {@code --json} flag and how it prints its figures (one JSON object, or
   * {@code key: value} lines), declared once for every {@code bench} command.
   */
  @Command(mixinStandardHelpOptions = true)
  abstract static class Benchmark implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--json", description = "print one JSON object (default: key: value lines)")
    boolean json;

    /** Checks the options, runs the benchmark and returns its figures, in print order. */
    abstract Map<String, Object> run() throws Exception;

    @Override
    public final Integer call() throws Exception {
      Map<String, Object> result = run();
      if (json) {
        return JsonOut.print(spec, result);
      }
      PrintWriter out = spec.commandLine().getOut();
      result.forEach((k, v) -> out.println(k + ": " + v));
      out.flush();
      return 0;
    }
  }

  /** {@code bench kernel}: nearest-neighbour kernel GFLOP/s vs numpy on the same data. */
  @Command(
      name = "kernel",
      description = "Kernel GFLOP/s (OpenBLAS GEMM + exact top-1) against numpy on the same data, "
          + "plus the plain-Java backend.")
  static final class Kernel extends Benchmark {
    @Option(names = "--m", defaultValue = "20000", description = "rows of A (default ${DEFAULT-VALUE})")
    int m;

    @Option(names = "--n", defaultValue = "5000", description = "rows of B (default ${DEFAULT-VALUE})")
    int n;

    @Option(names = "--d", defaultValue = "384", description = "dimension (default ${DEFAULT-VALUE})")
    int d;

    @Option(names = "--metric", defaultValue = "COSINE", description = "COSINE or L2")
    Metric metric;

    @Option(names = "--reps", defaultValue = "5",
        description = "repetitions (each Java one paired with a numpy one; default ${DEFAULT-VALUE})")
    int reps;

    @Option(names = "--java-rows", defaultValue = "1000",
        description = "rows of A for the plain-Java backend (default ${DEFAULT-VALUE})")
    int javaRows;

    @Option(names = "--threads", defaultValue = "0", description = "kernel threads (0 = cores)")
    int threads;

    @Option(names = "--block-rows", defaultValue = "0", description = "rows per block (0 = auto)")
    int blockRows;

    @Option(names = "--python", defaultValue = "python3",
        description = "python with numpy for the reference; empty to skip")
    String python;

    @Option(names = "--sweep",
        description = "also time kernel configurations (workers x BLAS threads, block rows)")
    boolean sweep;

    @Override
    Map<String, Object> run() throws Exception {
      if (m < 1 || n < 1 || d < 1 || reps < 1 || javaRows < 1) {
        throw new IllegalArgumentException("m, n, d, reps and java-rows must be >= 1, got m=" + m
            + " n=" + n + " d=" + d + " reps=" + reps + " java-rows=" + javaRows);
      }
      return KernelBenchmark.run(new KernelBenchmark.Config(
          m, n, d, metric, reps, javaRows, threads, blockRows, python, 1, sweep));
    }
  }

  /** {@code bench vote}: Aug-PE vote vs SecPE representative vote. */
  @Command(
      name = "vote",
      description = "Aug-PE nearest-neighbour vote vs SecPE representative vote on synthetic "
          + "Gaussian-mixture embeddings (small: 100k private, K=100, 5k candidates; yelp: "
          + "1.9M private, K=800, 35k candidates; d=384).")
  static final class Vote extends Benchmark {
    @Option(names = "--scale", defaultValue = "small", description = "small (default) or yelp")
    String scale;

    @Option(names = "--threads", defaultValue = "0", description = "kernel threads (0 = cores)")
    int threads;

    @Option(names = "--private-rows", defaultValue = "0",
        description = "override the scale's number of private rows (0 = the scale's own); "
            + "both votes' private-side cost is linear in it")
    long privateRows;

    @Override
    Map<String, Object> run() {
      VoteBenchmark.Config c = switch (scale) {
        case "small" -> VoteBenchmark.Config.small();
        case "yelp" -> VoteBenchmark.Config.yelp();
        default -> throw new IllegalArgumentException(
            "scale must be small or yelp, got scale=" + scale);
      };
      if (privateRows < 0 || privateRows > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "private-rows must be in 0.." + Integer.MAX_VALUE + ", got private-rows=" + privateRows);
      }
      if (threads != 0 || privateRows != 0) {
        c = new VoteBenchmark.Config(c.name(), privateRows == 0 ? c.privateRows() : privateRows,
            c.k(), c.candidates(), c.d(), c.publicRows(), c.components(), c.kmeansIterations(),
            threads == 0 ? c.threads() : threads, c.seed());
      }
      return VoteBenchmark.run(c);
    }
  }

  /** {@code bench spark}: the private-data work of a round on Spark vs the in-memory store. */
  @Command(
      name = "spark",
      description = "Embedding (int8 MiniLM, real e-mails) and Aug-PE's vote count on Spark against the "
          + "in-memory store, same data, one run: seconds, ratio, rows per second per core.")
  static final class Spark extends Benchmark {
    @Option(names = "--master", defaultValue = "local[2]", description = "Spark master (default ${DEFAULT-VALUE})")
    String master;

    @Option(names = "--partitions", defaultValue = "4", description = "partitions of the private data (default ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--embed-rows", defaultValue = "600", description = "e-mails embedded on each path (default ${DEFAULT-VALUE})")
    int embedRows;

    @Option(names = "--vote-rows", defaultValue = "200000", description = "private vectors in the vote (default ${DEFAULT-VALUE})")
    int voteRows;

    @Option(names = "--candidates", defaultValue = "2000", description = "candidates in the vote (default ${DEFAULT-VALUE})")
    int candidates;

    @Option(names = "--d", defaultValue = "384", description = "dimension of the vote's vectors (default ${DEFAULT-VALUE})")
    int d;

    @Override
    Map<String, Object> run() {
      if (partitions < 1 || embedRows < 2 || voteRows < 1 || candidates < 1 || d < 1) {
        throw new IllegalArgumentException("partitions, vote-rows, candidates and d must be >= 1 and embed-rows"
            + " >= 2, got partitions=" + partitions + " embed-rows=" + embedRows + " vote-rows=" + voteRows
            + " candidates=" + candidates + " d=" + d);
      }
      if (!SparkRun.available()) {
        throw new IllegalStateException(
            "bench spark needs Apache Spark on the class path: run it through bin/secpe (which adds"
                + " cli/target/spark-libs, built by ./mvnw package)");
      }
      return SparkBench.run(
          new SparkBench.Config(master, partitions, embedRows, voteRows, candidates, d));
    }
  }

  /** {@code bench split}: SecPE's dataset split at scale against Aug-PE, in memory and on Spark. */
  @Command(
      name = "split",
      description = "SecPE's dataset split in its own regime (synthetic embedded records, a share holding an e-mail"
          + " address) against Aug-PE on the same records, in memory and on Spark: round 0's one-off work, each"
          + " round's vote, the time inside the store, peak heap, and the ratios of docs/split-at-scale.md.")
  static final class Split extends Benchmark {
    @Option(names = "--records", defaultValue = "100000", description = "private records (default ${DEFAULT-VALUE})")
    int records;

    @Option(names = "--secret-share", defaultValue = "0.25",
        description = "share of the records that hold an e-mail address (default ${DEFAULT-VALUE})")
    double secretShare;

    @Option(names = "--synthetic-size", defaultValue = "2000", description = "N_syn (default ${DEFAULT-VALUE})")
    int syntheticSize;

    @Option(names = "--variations", defaultValue = "3", description = "L (default ${DEFAULT-VALUE})")
    int variations;

    @Option(names = "--iterations", defaultValue = "3", description = "T (default ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--d", defaultValue = "384", description = "dimension (default ${DEFAULT-VALUE})")
    int d;

    @Option(names = "--topics", defaultValue = "200",
        description = "topics the records' vectors cluster around (default ${DEFAULT-VALUE})")
    int topics;

    @Option(names = "--stores", split = ",", defaultValue = "memory,spark",
        description = "memory and/or spark (default ${DEFAULT-VALUE})")
    List<String> stores;

    @Option(names = "--modes", split = ",", defaultValue = "paper,votes,augpe",
        description = "paper (the split, the paper's vote), votes (the split, secret-free votes), augpe"
            + " (default ${DEFAULT-VALUE})")
    List<String> modes;

    @Option(names = "--master", defaultValue = "local[2]", description = "Spark master (default ${DEFAULT-VALUE})")
    String master;

    @Option(names = "--partitions", defaultValue = "8", description = "partitions on Spark (default ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--secret-cap", defaultValue = "0",
        description = "SecPE's contribution cap K (default 0: the paper's SECRETNOISE)")
    int secretCap;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the records and the run (default ${DEFAULT-VALUE})")
    long seed;

    @Override
    Map<String, Object> run() throws Exception {
      if (records < 1 || syntheticSize < 1 || variations < 1 || iterations < 1 || d < 1 || topics < 1
          || partitions < 1 || secretCap < 0) {
        throw new IllegalArgumentException("records, synthetic-size, variations, iterations, d, topics and partitions"
            + " must be >= 1 and secret-cap >= 0, got records=" + records + " synthetic-size=" + syntheticSize
            + " variations=" + variations + " iterations=" + iterations + " d=" + d + " topics=" + topics
            + " partitions=" + partitions + " secret-cap=" + secretCap);
      }
      if (!(secretShare > 0 && secretShare < 1)) {
        throw new IllegalArgumentException("secret-share must be in (0, 1), got secret-share=" + secretShare);
      }
      for (String s : stores) {
        if (!Set.of("memory", "spark").contains(s)) {
          throw new IllegalArgumentException("--stores must name memory or spark, got " + s);
        }
      }
      for (String m : modes) {
        if (!Set.of("paper", "votes", "augpe").contains(m)) {
          throw new IllegalArgumentException("--modes must name paper, votes or augpe, got " + m);
        }
      }
      return SplitBench.run(new SplitBench.Config(
          new dev.secpe.cli.bench.TopicRows.Config(records, secretShare, d, topics, seed), syntheticSize, variations,
          iterations, stores, modes, master, partitions, secretCap));
    }
  }

  /** {@code bench accounting}: the refined PLD accountant's bounds and time per query. */
  @Command(
      name = "accounting",
      description = "The PLD accountant on the PRV accountant's reference cases and DP-SGD: upper and "
          + "lower bound, their gap, the interval chosen, the fixed-interval value, seconds per query.")
  static final class Accounting extends Benchmark {
    @Option(names = "--grid", description = "sweep q, sigma, steps and delta over issue 14's grid "
        + "(450 queries, several minutes) and report the points whose bounds are more than 1%% apart")
    boolean grid;

    @Option(names = "--progress", description = "with --grid: print each point to stderr as it is done")
    boolean progress;

    @Option(names = "--q", split = ",", description = "with --grid: only these sampling rates (e.g. 1,0.01)")
    double[] qs;

    @Option(names = "--max-steps", description = "with --grid: only the step counts up to this "
        + "(the grid's are 1, 10, 100, 1000, 10000, 100000)")
    Integer maxSteps;

    @Option(names = "--min-steps", description = "with --grid: only the step counts from this up")
    Integer minSteps;

    @Option(names = "--peer", description = "run Google's dp_accounting PLD accountant from this "
        + "local checkout of google/differential-privacy (or its python/dp_accounting) on the same "
        + "DP-SGD queries, side by side: both answers, both times, the speed-up")
    Path peer;

    @Option(names = "--peer-sets", split = ",", defaultValue = "issue,ctcl,plan,prv",
        description = "with --peer: the query sets (issue, ctcl, plan, prv; default all)")
    Set<String> peerSets;

    @Option(names = "--python", defaultValue = "python3", description = "with --peer: the Python "
        + "interpreter (numpy, scipy, attrs; absl is stood in for where missing)")
    String python;

    @Override
    Map<String, Object> run() {
      if (qs != null) {
        for (double q : qs) {
          if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("--q must hold sampling rates in (0, 1], got " + q);
          }
        }
      }
      if (maxSteps != null && maxSteps < 1) {
        throw new IllegalArgumentException("--max-steps must be at least 1, got " + maxSteps);
      }
      if (minSteps != null && minSteps < 1) {
        throw new IllegalArgumentException("--min-steps must be at least 1, got " + minSteps);
      }
      if (peer != null) {
        for (String set : peerSets) {
          if (!Set.of("issue", "ctcl", "plan", "prv").contains(set)) {
            throw new IllegalArgumentException(
                "--peer-sets must name issue, ctcl, plan or prv, got " + set);
          }
        }
        if (!Files.isDirectory(peer)) {
          throw new IllegalArgumentException("--peer must be a directory, got " + peer);
        }
        return AccountingPeerBench.run(peer, python, peerSets, System.err);
      }
      return grid
          ? AccountingBench.grid(progress, qs, minSteps == null ? 1 : minSteps,
              maxSteps == null ? Integer.MAX_VALUE : maxSteps)
          : AccountingBench.run();
    }
  }
}
