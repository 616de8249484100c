package dev.secpe.cli.demo;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The demo's results for one corpus as a Markdown table: for every method and r/p, FID (in the
 * held-out records' leading components) and KID of the first round's survivors and of the output,
 * the paired change of FID from the first round to the output, distinct texts and near-duplicates,
 * and whether the output is closer to the held-out private records than the same-size random public
 * sample and than its own first round. {@code bin/utility-table} joins the three corpora's tables
 * into docs/utility.md.
 *
 * <p>A verdict tests each reading (FID, KID) at the two-sided 5% level, so that a difference within
 * the seeds' spread is not read as a gain or a loss: against the first round on the paired
 * differences of the seeds (Student's t, n - 1 degrees of freedom), against the public sample on
 * the two sets of seeds (Welch's t). "yes": both readings lower; "**no**": either higher; "FID only"
 * or "KID only": one lower, the other level; "level": neither differs. With one seed there is no
 * spread to test against and the means decide.
 */
public final class UtilityTable {

  private UtilityTable() {}

  /** The two-sided level of every verdict's test. */
  static final double LEVEL = 0.05;

  /** How one reading compares: lower, level (within the test's spread) or higher. */
  enum Reading {
    LOWER, LEVEL, HIGHER
  }

  /**
   * What a table says beside the runs: the share of private records holding a secret (NaN when no
   * run protects secrets), the secret-free sample's baseline (empty without split-mode runs) and
   * the downstream accuracy of the same classifier trained on as many real private records as the
   * synthetic sets hold (its ceiling).
   *
   * @param secretShare share of the voting private records in which the detector finds a secret
   * @param secretFree what releasing N_syn secret-free private records scores, one per seed
   * @param accuracyCeiling accuracy when trained on N_syn real private records
   */
  public record Extras(double secretShare, List<DemoRunner.Baseline> secretFree, double accuracyCeiling) {

    /** Copies the list. */
    public Extras {
      secretFree = List.copyOf(secretFree);
    }

    /** None (the tables before the split mode). */
    static Extras none() {
      return new Extras(Double.NaN, List.of(), Double.NaN);
    }

    /** One paragraph on these figures, for N_syn = {@code n}. */
    public String describe(int n) {
      StringBuilder sb = new StringBuilder();
      if (!Double.isNaN(secretShare)) {
        sb.append(String.format(Locale.ROOT, "The detector finds a secret in %.1f%% of the private records that vote. ",
            100 * secretShare));
      }
      if (!secretFree.isEmpty()) {
        sb.append(String.format(Locale.ROOT,
            "%d random secret-free private records (public data under this guarantee: what a team could release"
                + " with no method at all) score FID %s and KID×10³ %s; the split mode's runs are judged against"
                + " them too. ",
            n, DemoSummary.Stat.of(secretFree.stream().mapToDouble(DemoRunner.Baseline::fid).toArray()).format(4),
            scaled(DemoSummary.Stat.of(secretFree.stream().mapToDouble(DemoRunner.Baseline::kid).toArray())).format(3)));
      }
      if (!Double.isNaN(accuracyCeiling)) {
        sb.append(String.format(Locale.ROOT,
            "Downstream accuracy (a linear classifier trained on the output, tested on the held-out records):"
                + " %.3f when trained on %d real private records (the ceiling).", accuracyCeiling, n));
      }
      return sb.toString().strip();
    }
  }

  /** {@link #markdown(String, String, List, List, double, int, Extras)} with no extras. */
  public static String markdown(
      String corpus, String command, List<DemoSummary> summary, List<DemoRunner.Baseline> baseline, double realFid,
      int syntheticSize) {
    return markdown(corpus, command, summary, baseline, realFid, syntheticSize, Extras.none());
  }

  /**
   * The table with its heading.
   *
   * @param corpus the corpus's one-line description
   * @param command the command that produced it
   * @param summary the runs, by method and r/p
   * @param baseline the public-sample baseline, one per seed
   * @param realFid FID of as many real private records (of those that vote) as the synthetic sets
   * @param syntheticSize N_syn
   * @param extras the secret share, the secret-free baseline and the accuracy ceiling
   */
  public static String markdown(
      String corpus, String command, List<DemoSummary> summary, List<DemoRunner.Baseline> baseline, double realFid,
      int syntheticSize, Extras extras) {
    double[] freeFidSeeds = extras.secretFree().stream().mapToDouble(DemoRunner.Baseline::fid).toArray();
    double[] freeKidSeeds = extras.secretFree().stream().mapToDouble(DemoRunner.Baseline::kid).toArray();
    double[] pubFidSeeds = baseline.stream().mapToDouble(DemoRunner.Baseline::fid).toArray();
    double[] pubKidSeeds = baseline.stream().mapToDouble(DemoRunner.Baseline::kid).toArray();
    DemoSummary.Stat pubFid = DemoSummary.Stat.of(pubFidSeeds);
    DemoSummary.Stat pubKid = scaled(DemoSummary.Stat.of(pubKidSeeds));
    StringBuilder sb = new StringBuilder();
    sb.append("### ").append(corpus).append("\n\n");
    sb.append("`").append(command).append("`\n\n");
    sb.append(String.format(Locale.ROOT,
        "Against the held-out private records, %d random public records score FID %s and KID×10³ %s (the baseline"
            + " every method must beat); %d real private records score FID %.4f (the floor).%n%n",
        syntheticSize, pubFid.format(4), pubKid.format(3), syntheticSize, realFid));
    String extra = extras.describe(syntheticSize);
    if (!extra.isEmpty()) {
      sb.append(extra).append("\n\n");
    }
    boolean free = freeFidSeeds.length > 0;
    sb.append("| method | r/p | FID first round | FID output | change (paired, ± se) | KID×10³ first | KID×10³ output"
        + " | accuracy | distinct | near-dup. | beats public | beats first round |" + (free ? " beats secret-free sample |" : "") + "\n");
    sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|" + (free ? "---|" : "") + "\n");
    for (DemoSummary s : summary) {
      boolean rounds = s.fidPerRound().size() >= 2;
      DemoSummary.Stat kidFirst = s.kidPerRound().get(0);
      double[] fid = values(s, DemoResult::fid);
      double[] kid = values(s, DemoResult::kid);
      String beatsPublic = verdict(unpaired(fid, pubFidSeeds), unpaired(kid, pubKidSeeds));
      String beatsFirst = "– (no rounds)";
      String change = "–";
      if (rounds) {
        double[] dFid = difference(fid, values(s, DemoResult::firstFid));
        double[] dKid = difference(kid, values(s, r -> r.kidPerRound().get(0)));
        beatsFirst = verdict(paired(dFid), paired(dKid));
        DemoSummary.Stat d = DemoSummary.Stat.of(dFid);
        change = String.format(Locale.ROOT, "%+.4f ± %.4f", d.mean(), d.sd() / Math.sqrt(d.n()));
      }
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%s%n",
          s.method(), s.ratioLabel(),
          rounds ? s.firstFid().format(4) : "–",
          s.fid().format(4),
          change,
          rounds ? scaled(kidFirst).format(3) : "–",
          scaled(s.kid()).format(3),
          s.accuracy().format(3),
          s.distinct().format(1),
          s.nearDuplicates().format(1),
          beatsPublic,
          beatsFirst,
          free ? " " + verdict(unpaired(fid, freeFidSeeds), unpaired(kid, freeKidSeeds)) + " |" : ""));
    }
    return sb.toString();
  }

  /** output - first, seed by seed. */
  private static double[] difference(double[] output, double[] first) {
    double[] d = new double[output.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = output[i] - first[i];
    }
    return d;
  }

  private static double[] values(DemoSummary s, ToDoubleFunction<DemoResult> f) {
    return s.runs().stream().mapToDouble(f).toArray();
  }

  /**
   * Paired differences (output - first round): their mean against Student's t with n - 1 degrees
   * of freedom at {@link #LEVEL}; the sign of the mean alone with one seed.
   */
  static Reading paired(double[] d) {
    DemoSummary.Stat s = DemoSummary.Stat.of(d);
    if (d.length < 2) {
      return sign(s.mean());
    }
    return test(s.mean(), s.sd() / Math.sqrt(d.length), d.length - 1);
  }

  /**
   * Two independent sets of seeds (the method's {@code a}, the public sample's {@code b}): the
   * difference of their means against Welch's t (Welch–Satterthwaite degrees of freedom) at {@link
   * #LEVEL}; the sign of the difference alone when either has one seed.
   */
  static Reading unpaired(double[] a, double[] b) {
    DemoSummary.Stat x = DemoSummary.Stat.of(a);
    DemoSummary.Stat y = DemoSummary.Stat.of(b);
    double diff = x.mean() - y.mean();
    if (a.length < 2 || b.length < 2) {
      return sign(diff);
    }
    double va = x.sd() * x.sd() / a.length;
    double vb = y.sd() * y.sd() / b.length;
    double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
    return test(diff, Math.sqrt(va + vb), df);
  }

  private static Reading test(double diff, double se, double df) {
    if (!(se > 0)) {
      return sign(diff); // no spread (identical seeds): the sign decides
    }
    double critical = TDistribution.of(df).inverseCumulativeProbability(1 - LEVEL / 2);
    double t = diff / se;
    return t < -critical ? Reading.LOWER : t > critical ? Reading.HIGHER : Reading.LEVEL;
  }

  private static Reading sign(double diff) {
    return diff < 0 ? Reading.LOWER : diff > 0 ? Reading.HIGHER : Reading.LEVEL;
  }

  private static DemoSummary.Stat scaled(DemoSummary.Stat s) {
    return new DemoSummary.Stat(1e3 * s.mean(), 1e3 * s.sd(), s.n());
  }

  /** "yes" when both readings are lower, "**no**" when either is higher, else which one is lower, or "level". */
  static String verdict(Reading fid, Reading kid) {
    if (fid == Reading.HIGHER || kid == Reading.HIGHER) {
      return "**no**";
    }
    if (fid == Reading.LOWER && kid == Reading.LOWER) {
      return "yes";
    }
    return fid == Reading.LOWER ? "FID only" : kid == Reading.LOWER ? "KID only" : "level";
  }
}
