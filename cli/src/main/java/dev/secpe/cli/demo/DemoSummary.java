package dev.secpe.cli.demo;

import dev.secpe.core.report.Phase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The demo's runs of one method at one r/p, summarised over seeds: mean and sample standard
 * deviation of every figure, so method gaps can be read against run-to-run spread.
 *
 * @param method the method
 * @param ratio r/p (infinity = non-private)
 * @param runs the runs summarised (one per seed)
 */
public record DemoSummary(String method, double ratio, List<DemoResult> runs) {

  /** Copies the list. */
  public DemoSummary {
    runs = List.copyOf(runs);
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a summary needs at least one run");
    }
  }

  /** Mean and sample standard deviation (0 for one run). */
  public record Stat(double mean, double sd, int n) {
    /** "mean ± sd" with the given decimals; the mean alone from one value; "–" when NaN. */
    public String format(int decimals) {
      if (Double.isNaN(mean)) {
        return "–";
      }
      String f = "%." + decimals + "f";
      if (n == 1) {
        return String.format(Locale.ROOT, f, mean);
      }
      return String.format(Locale.ROOT, f + " ± " + f, mean, sd);
    }

    /** Mean and sample standard deviation of {@code xs}. */
    public static Stat of(double[] xs) {
      double m = 0;
      for (double x : xs) {
        m += x;
      }
      m /= xs.length;
      double ss = 0;
      for (double x : xs) {
        ss += (x - m) * (x - m);
      }
      return new Stat(m, xs.length > 1 ? Math.sqrt(ss / (xs.length - 1)) : 0.0, xs.length);
    }
  }

  /** Groups runs by (method, r/p), keeping the order in which each pair first appears. */
  public static List<DemoSummary> of(List<DemoResult> results) {
    Map<String, List<DemoResult>> by = new LinkedHashMap<>();
    for (DemoResult r : results) {
      by.computeIfAbsent(r.method() + "@" + r.ratioLabel(), k -> new ArrayList<>()).add(r);
    }
    List<DemoSummary> out = new ArrayList<>();
    for (List<DemoResult> rs : by.values()) {
      out.add(new DemoSummary(rs.get(0).method(), rs.get(0).ratio(), rs));
    }
    return out;
  }

  /** "2", "10" or "inf". */
  public String ratioLabel() {
    return runs.get(0).ratioLabel();
  }

  /** Any figure of the runs. */
  public Stat stat(ToDoubleFunction<DemoResult> f) {
    return Stat.of(runs.stream().mapToDouble(f).toArray());
  }

  /** sigma (NaN for the non-private baseline). */
  public Stat sigma() {
    return stat(DemoResult::sigma);
  }

  /** FID of the first round's survivors. */
  public Stat firstFid() {
    return stat(DemoResult::firstFid);
  }

  /** FID of the final synthetic set. */
  public Stat fid() {
    return stat(DemoResult::fid);
  }

  /** MAUVE of the final synthetic set. */
  public Stat mauve() {
    return stat(DemoResult::mauve);
  }

  /** Downstream accuracy. */
  public Stat accuracy() {
    return stat(DemoResult::accuracy);
  }

  /** Length distance (1-Wasserstein, words) to the held-out real records. */
  public Stat lengthW1() {
    return stat(DemoResult::lengthW1);
  }

  /** Seconds spent in a phase. */
  public Stat seconds(Phase phase) {
    return stat(r -> r.report().timing().seconds(phase));
  }

  /** Mean and sd of the FID of each round (the rounds all runs have). */
  public List<Stat> fidPerRound() {
    return perRound(DemoResult::fidPerRound);
  }

  /** Mean and sd of the fidelity (survivor to nearest private record) of each round. */
  public List<Stat> fidelityPerRound() {
    return perRound(DemoResult::fidelityPerRound);
  }

  /** Mean and sd of the coverage (private record to nearest survivor) of each round. */
  public List<Stat> coveragePerRound() {
    return perRound(DemoResult::coveragePerRound);
  }

  /** Mean and sd of the KID (unbiased, full dimension) of each round. */
  public List<Stat> kidPerRound() {
    return perRound(DemoResult::kidPerRound);
  }

  /** KID of the final synthetic set. */
  public Stat kid() {
    return stat(DemoResult::kid);
  }

  /** The share of candidate embeddings answered from the cache (survivors are not re-embedded). */
  public Stat candidateHitRate() {
    return stat(r -> r.report().embedding().map(e -> e.candidateHitRate()).orElse(Double.NaN));
  }

  /** Fidelity of the first round's survivors. */
  public Stat firstFidelity() {
    return stat(DemoResult::firstFidelity);
  }

  /** Fidelity of the final synthetic set. */
  public Stat fidelity() {
    return stat(DemoResult::fidelity);
  }

  /** Distinct texts in the final synthetic set. */
  public Stat distinct() {
    return stat(DemoResult::distinct);
  }

  /** Near-duplicates in the final synthetic set. */
  public Stat nearDuplicates() {
    return stat(DemoResult::nearDuplicates);
  }

  /** Coverage of the final synthetic set. */
  public Stat coverage() {
    return stat(DemoResult::coverage);
  }

  private List<Stat> perRound(Function<DemoResult, List<Double>> series) {
    int rounds = runs.stream().mapToInt(r -> series.apply(r).size()).min().orElse(0);
    List<Stat> out = new ArrayList<>();
    for (int t = 0; t < rounds; t++) {
      final int tt = t;
      out.add(stat(r -> series.apply(r).get(tt)));
    }
    return out;
  }

  /**
   * Two-sided 95 % quantiles of Student's t with 1 to 30 degrees of freedom (the standard table,
   * e.g. the NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2); 1.96 beyond.
   */
  private static final double[] T_975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042
  };

  /** The 97.5 % quantile of Student's t with {@code df} >= 1 degrees of freedom. */
  static double t975(int df) {
    return df <= T_975.length ? T_975[df - 1] : 1.96;
  }

  /**
   * Per seed, the last round's value of {@code series} less the first round's: mean and sample
   * sd over seeds (the change paired by seed, so a seed's own level cancels); NaN without two
   * rounds.
   */
  public Stat firstToLast(Function<DemoResult, List<Double>> series) {
    return stat(r -> {
      List<Double> v = series.apply(r);
      return v.size() < 2 ? Double.NaN : v.get(v.size() - 1) - v.get(0);
    });
  }

  /**
   * What the seeds say of a change from the first round to the last: "falls" or "rises" where
   * the 95 % confidence interval of the mean paired change (Student's t over the seeds) excludes
   * zero, "no clear change" where it does not, "no verdict from one seed" for a single run (its
   * noise alone can turn the sign: the quick demo's FID went 0.0757 to 0.0764 in one run and
   * 0.0768 to 0.0740 in the next), and "–" without rounds.
   */
  public static String verdict(Stat change) {
    if (Double.isNaN(change.mean())) {
      return "–";
    }
    if (change.n() < 2) {
      return "no verdict from one seed";
    }
    double half = t975(change.n() - 1) * change.sd() / Math.sqrt(change.n());
    if (change.mean() + half < 0) {
      return "falls";
    }
    if (change.mean() - half > 0) {
      return "rises";
    }
    return "no clear change";
  }


  /**
   * Whether the mean FID falls from every round to the next: the demo JSON's {@code
   * fid_falls_every_round}, kept for scripts; with few seeds it is decided by noise, so the tables
   * show {@link #verdict} of {@link #firstToLast} instead.
   */
  public boolean fidFallsEveryRound() {
    return monotone(fidPerRound(), -1);
  }

  /** Whether the mean KID falls from every round to the next (the JSON's, as {@link #fidFallsEveryRound}). */
  public boolean kidFallsEveryRound() {
    return monotone(kidPerRound(), -1);
  }

  /** Whether the mean fidelity rises from every round to the next (the JSON's, as {@link #fidFallsEveryRound}). */
  public boolean fidelityRisesEveryRound() {
    return monotone(fidelityPerRound(), +1);
  }

  /** Whether the means move strictly in {@code direction} (+1 up, -1 down) from round to round. */
  private static boolean monotone(List<Stat> f, int direction) {
    for (int t = 1; t < f.size(); t++) {
      if (!(direction * (f.get(t).mean() - f.get(t - 1).mean()) > 0)) {
        return false;
      }
    }
    return true;
  }
}
