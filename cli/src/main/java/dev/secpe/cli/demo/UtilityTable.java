package dev.secpe.cli.demo;

import java.util.List;
import java.util.Locale;

/**
 * The demo's results for one corpus as a Markdown table: for every method and r/p, FID (in the
 * held-out records' leading components) and KID of the first round's survivors and of the output,
 * distinct texts and near-duplicates, and whether the output is closer to the held-out private
 * records than the same-size random public sample and than its own first round (on the means over
 * seeds, FID and KID both). {@code bin/utility-table} joins the three corpora's tables into
 * docs/utility.md.
 */
public final class UtilityTable {

  private UtilityTable() {}

  /**
   * The table with its heading.
   *
   * @param corpus the corpus's one-line description
   * @param command the command that produced it
   * @param summary the runs, by method and r/p
   * @param baseline the public-sample baseline, one per seed
   * @param realFid FID of as many real private records (of those that vote) as the synthetic sets
   * @param syntheticSize N_syn
   */
  public static String markdown(
      String corpus, String command, List<DemoSummary> summary, List<DemoRunner.Baseline> baseline, double realFid,
      int syntheticSize) {
    DemoSummary.Stat pubFid = DemoSummary.Stat.of(baseline.stream().mapToDouble(DemoRunner.Baseline::fid).toArray());
    DemoSummary.Stat pubKid =
        DemoSummary.Stat.of(baseline.stream().mapToDouble(b -> 1e3 * b.kid()).toArray());
    StringBuilder sb = new StringBuilder();
    sb.append("### ").append(corpus).append("\n\n");
    sb.append("`").append(command).append("`\n\n");
    sb.append(String.format(Locale.ROOT,
        "Against the held-out private records, %d random public records score FID %s and KID×10³ %s (the baseline"
            + " every method must beat); %d real private records score FID %.4f (the floor).%n%n",
        syntheticSize, pubFid.format(4), pubKid.format(3), syntheticSize, realFid));
    sb.append("| method | r/p | FID first round | FID output | KID×10³ first | KID×10³ output | distinct | near-dup."
        + " | beats public | beats first round |\n");
    sb.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (DemoSummary s : summary) {
      boolean rounds = s.fidPerRound().size() >= 2;
      DemoSummary.Stat kidFirst = s.kidPerRound().get(0);
      DemoSummary.Stat kid = s.kid();
      boolean beatsPublic = s.fid().mean() < pubFid.mean() && 1e3 * kid.mean() < pubKid.mean();
      boolean beatsFirst = s.fid().mean() < s.firstFid().mean() && kid.mean() < kidFirst.mean();
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
          s.method(), s.ratioLabel(),
          rounds ? s.firstFid().format(4) : "–",
          s.fid().format(4),
          rounds ? scaled(kidFirst).format(3) : "–",
          scaled(kid).format(3),
          s.distinct().format(1),
          s.nearDuplicates().format(1),
          verdict(beatsPublic, s.fid().mean() < pubFid.mean(), 1e3 * kid.mean() < pubKid.mean()),
          rounds ? verdict(beatsFirst, s.fid().mean() < s.firstFid().mean(), kid.mean() < kidFirst.mean())
              : "– (no rounds)"));
    }
    return sb.toString();
  }

  private static DemoSummary.Stat scaled(DemoSummary.Stat s) {
    return new DemoSummary.Stat(1e3 * s.mean(), 1e3 * s.sd(), s.n());
  }

  /** "yes" on both readings, "no" on neither, else which one holds. */
  private static String verdict(boolean both, boolean fid, boolean kid) {
    return both ? "yes" : fid ? "FID only" : kid ? "KID only" : "**no**";
  }
}
