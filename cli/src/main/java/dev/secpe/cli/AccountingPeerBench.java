package dev.secpe.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.pld.DpSgd;
import dev.secpe.accounting.pld.PldAccountant;
import dev.secpe.evolution.CTCL;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code bench accounting --peer PATH}: this library's PLD accountant and Google's dp_accounting
 * PLD accountant (imported by a Python script from a local checkout of google/differential-privacy
 * given on the command line; nothing of it is bundled) on the same DP-SGD queries, side by side in
 * one run: for each query ours, then the peer's, each timed in its own process after its imports
 * and one warm-up query, and the two answers. The peer runs at its defaults (interval 1e-4,
 * {@code calibrate_dp_mechanism}'s bracket search and tolerance).
 *
 * <p>The query sets: {@code issue} (issue 33's Yelp query: N = 1,939,290, batch 4096, 2,365 steps,
 * delta 3.56e-8; epsilon at sigma 0.6337 and sigma for epsilon 4), {@code ctcl} (the CTCL paper's
 * five data sets at batch 4096, 2,000 steps, delta = 1/(N ln N), epsilon 4, 2, 1: sigma for the
 * epsilon, then epsilon at the sigma found), {@code plan} (the same with CTCL's topic histogram,
 * sigma 10, composed first: CTCL's {@code build()} calibration), {@code prv} (the default
 * {@code bench accounting} cases).
 */
final class AccountingPeerBench {

  private static final ObjectMapper JSON = new ObjectMapper();

  private AccountingPeerBench() {}

  /** The CTCL paper's data sets (Table 7: training records). */
  static final String[] CTCL_NAMES = {"PubMed", "Chatbot Arena", "Multi-Session Chat", "Yelp", "OpenReview"};
  static final long[] CTCL_SIZES = {75_316, 180_000, 17_940, 1_939_290, 8_396};

  /** One query: an epsilon at sigma, or the least sigma for epsilon (with a histogram first). */
  record Query(String set, String name, String kind, long n, int batch, int steps, double sigma,
      double epsilon, double delta, double histogram) {
    double q() {
      return (double) batch / n;
    }
  }

  static Map<String, Object> run(Path peer, String python, Set<String> sets, PrintStream progress) {
    Path script = script();
    ProcessBuilder pb = new ProcessBuilder(python, script.toString(), peer.toString());
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process;
    try {
      process = pb.start();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot start " + python + " for the peer: " + e.getMessage(), e);
    }
    try (Writer toPeer = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        BufferedReader fromPeer = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      // warm-up on both sides: class loading and the JIT here, numpy's first transforms there
      Query warm = new Query("warm-up", "warm-up", "epsilon", 1_000_000, 1000, 1000, 1.5, 0, 1e-6, 0);
      ours(warm, warm.sigma());
      peer(warm, warm.sigma(), toPeer, fromPeer);
      List<Map<String, Object>> rows = new ArrayList<>();
      double worstRatio = Double.POSITIVE_INFINITY;
      double worstExcess = Double.NEGATIVE_INFINITY;
      double slowestEpsilon = 0;
      double slowestCalibration = 0;
      double lastSigma = Double.NaN; // ours, for the epsilon query that follows a calibration
      for (Query query : queries(sets)) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("set", query.set());
        row.put("query", query.name());
        double sigma = query.kind().equals("epsilon") ? query.sigma() : lastSigma;
        Result mine = ours(query, sigma);
        Result theirs = peer(query, sigma, toPeer, fromPeer);
        if (query.kind().equals("sigma")) {
          lastSigma = mine.value();
        }
        row.put("ours", mine.value());
        if (!Double.isNaN(mine.lower())) {
          row.put("ours_lower", mine.lower());
        }
        row.put("ours_seconds", mine.seconds());
        row.put("peer", theirs.value());
        row.put("peer_seconds", theirs.seconds());
        if (theirs.error() != null) {
          row.put("peer_error", theirs.error());
        }
        double ratio = theirs.seconds() / mine.seconds();
        double excess = (mine.value() - theirs.value()) / theirs.value();
        row.put("speedup", ratio);
        row.put("ours_above_peer", excess);
        if (query.kind().equals("sigma")) {
          double check = DpSgd.epsilon(query.n(), query.batch(), query.steps(), mine.value(),
              query.delta(), DpSgd.Accountant.PLD);
          row.put("ours_epsilon_at_ours", check);
          slowestCalibration = Math.max(slowestCalibration, mine.seconds());
        } else {
          slowestEpsilon = Math.max(slowestEpsilon, mine.seconds());
        }
        if (theirs.error() == null) {
          worstRatio = Math.min(worstRatio, ratio);
          worstExcess = Math.max(worstExcess, excess);
        }
        rows.add(row);
        if (progress != null) {
          progress.println(String.format(Locale.ROOT,
              "%-8s %-40s ours %.7g (%.2f s)  peer %.7g (%.2f s)  %.1fx  %+.4f %%",
              query.set(), query.name(), mine.value(), mine.seconds(), theirs.value(),
              theirs.seconds(), ratio, 100 * excess));
          progress.flush();
        }
      }
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("peer", peer.toString());
      out.put("queries", rows.size());
      out.put("least_speedup", worstRatio);
      out.put("most_above_peer", worstExcess);
      out.put("slowest_epsilon_query_seconds", slowestEpsilon);
      out.put("slowest_calibration_seconds", slowestCalibration);
      out.put("rows", rows);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("the peer process failed: " + e.getMessage(), e);
    } finally {
      process.destroy();
    }
  }

  /** The queries of the sets asked for, in order. */
  static List<Query> queries(Set<String> sets) {
    List<Query> out = new ArrayList<>();
    if (sets.contains("issue")) {
      double delta = 3.56e-8;
      out.add(new Query("issue", "Yelp 2365 steps: epsilon at sigma 0.6337", "epsilon",
          1_939_290, 4096, 2365, 0.6337, Double.NaN, delta, 0));
      out.add(new Query("issue", "Yelp 2365 steps: sigma for epsilon 4", "sigma",
          1_939_290, 4096, 2365, Double.NaN, 4, delta, 0));
    }
    for (String set : new String[] {"ctcl", "plan"}) {
      if (!sets.contains(set)) {
        continue;
      }
      for (int d = 0; d < CTCL_SIZES.length; d++) {
        long n = CTCL_SIZES[d];
        double delta = 1.0 / (n * Math.log(n));
        for (double eps : new double[] {4, 2, 1}) {
          String name = String.format(Locale.ROOT, "%s epsilon %s", CTCL_NAMES[d], (int) eps);
          out.add(new Query(set, name + (set.equals("plan") ? ": plan sigma" : ": sigma"), "sigma",
              n, 4096, 2000, Double.NaN, eps, delta, set.equals("plan") ? 10 : 0));
          if (set.equals("ctcl")) {
            out.add(new Query(set, name + ": epsilon at that sigma", "epsilon-at-previous",
                n, 4096, 2000, Double.NaN, Double.NaN, delta, 0));
          }
        }
      }
    }
    if (sets.contains("prv")) {
      for (double s : new double[] {0.8, 1.5, 3.0}) {
        out.add(new Query("prv", "q 0.001, 1000 steps, delta 1e-6: epsilon at sigma " + s,
            "epsilon", 1_000_000, 1000, 1000, s, Double.NaN, 1e-6, 0));
      }
      out.add(new Query("prv", "PubMed 2000 steps: epsilon at sigma 3.01", "epsilon",
          75_316, 4096, 2000, 3.01, Double.NaN, 1.0316e-6, 0));
    }
    return out;
  }

  /** A value (sigma or epsilon), our lower bound where one exists, and the seconds it took. */
  record Result(double value, double lower, double seconds, String error) {}

  /** Ours: the calibration, or the epsilon at {@code sigma} (the query's, or the last one found). */
  private static Result ours(Query query, double sigma) {
    long t0 = System.nanoTime();
    double value;
    double lower = Double.NaN;
    switch (query.kind()) {
      case "sigma" -> {
        DpBudget budget = new DpBudget(query.epsilon(), query.delta());
        value = query.histogram() > 0
            ? CTCL.calibrate(budget, query.histogram(), query.q(), query.steps()).noiseMultiplier()
            : DpSgd.noiseMultiplier(query.n(), query.batch(), query.steps(), budget, DpSgd.Accountant.PLD);
      }
      default -> {
        PldAccountant.Bounds b = DpSgd.epsilonBounds(
            query.n(), query.batch(), query.steps(), sigma, query.delta(), null);
        value = b.upper();
        lower = b.lower();
      }
    }
    return new Result(value, lower, (System.nanoTime() - t0) / 1e9, null);
  }

  private static Result peer(Query query, double sigma, Writer to, BufferedReader from)
      throws IOException {
    Map<String, Object> ask = new LinkedHashMap<>();
    boolean calibration = query.kind().equals("sigma");
    ask.put("kind", calibration ? "sigma" : "epsilon");
    ask.put("q", query.q());
    ask.put("steps", query.steps());
    ask.put("delta", query.delta());
    ask.put("histogram", query.histogram());
    if (calibration) {
      ask.put("epsilon", query.epsilon());
    } else {
      ask.put("sigma", sigma);
    }
    to.write(JSON.writeValueAsString(ask));
    to.write('\n');
    to.flush();
    String line = from.readLine();
    if (line == null) {
      throw new IOException("the peer process ended (is PATH a checkout of google/differential-privacy?)");
    }
    JsonNode answer = JSON.readTree(line);
    if (answer.has("error")) {
      return new Result(Double.NaN, Double.NaN, Double.NaN, answer.get("error").asText());
    }
    return new Result(answer.get("value").asDouble(), Double.NaN, answer.get("seconds").asDouble(), null);
  }

  /** The peer script, copied from the class path to a temporary file. */
  private static Path script() {
    try (InputStream in = AccountingPeerBench.class.getResourceAsStream("bench/dp_accounting_peer.py")) {
      if (in == null) {
        throw new IllegalStateException("missing resource bench/dp_accounting_peer.py");
      }
      Path file = Files.createTempFile("secpe-dp-accounting-peer", ".py");
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
