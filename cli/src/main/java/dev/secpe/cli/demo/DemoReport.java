package dev.secpe.cli.demo;

import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.report.Phase;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The demo's self-contained HTML report: charts rendered to PNG by XChart and embedded as data
 * URIs, the privacy ledger of every run, and a few synthetic samples (never private text).
 */
public final class DemoReport {

  private static final int W = 760;
  private static final int H = 380;

  private DemoReport() {}

  /** Writes the report to {@code file}. */
  public static void write(Path file, List<DemoResult> results, int[] realLengths, String settings) {
    System.setProperty("java.awt.headless", "true");
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>SecPE demo report</title>")
        .append("<style>body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;color:#222}")
        .append("table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;")
        .append("font-size:13px;text-align:right}th{background:#f3f3f3}td.l{text-align:left}")
        .append("img{max-width:100%;border:1px solid #eee}.s{font-size:13px;background:#fafafa;")
        .append("border-left:3px solid #8ab;padding:6px 10px;margin:6px 0;white-space:pre-wrap}</style></head><body>");
    h.append("<h1>SecPE, Aug-PE, DPGA and CTCL on the bundled SpamAssassin sample</h1>");
    h.append("<p>").append(esc(settings)).append("</p>");
    h.append("<p><a href=\"#summary\">summary</a> · <a href=\"#fid\">FID per round</a> · <a href=\"#kid\">KID per round</a> · <a href=\"#utility\">")
        .append("privacy–utility</a> · <a href=\"#votes\">votes</a> · <a href=\"#lengths\">lengths</a> · ")
        .append("<a href=\"#ledgers\">ledgers</a> · <a href=\"#samples\">samples</a></p>");
    List<DemoSummary> summary = DemoSummary.of(results);
    long firstSeed = results.isEmpty() ? 0 : results.get(0).seed();
    List<DemoResult> firstRuns = results.stream().filter(r -> r.seed() == firstSeed).toList();
    int seeds = summary.isEmpty() ? 0 : summary.get(0).runs().size();
    h.append("<h2 id=\"summary\">Summary</h2><p>Mean ± sample standard deviation over ")
        .append(seeds).append(seeds == 1 ? " seed" : " seeds")
        .append(". A gap between methods smaller than the spread is not a finding. A change from the first round")
        .append(" to the last is paired by seed; it is called a fall or a rise only where its 95 % confidence")
        .append(" interval over the seeds excludes zero (one seed gives no verdict: its noise alone can turn the")
        .append(" sign; bin/secpe demo --seeds 5).</p>")
        .append(summaryTable(summary));
    h.append("<h2 id=\"fid\">FID per round</h2><p>Fréchet distance of each round's survivors to the real private set")
        .append(" in the private set's leading principal components (lower is better): mean over seeds, bars ± one")
        .append(" standard deviation; one chart per r/p.</p>");
    for (String ratio : summary.stream().map(DemoSummary::ratioLabel).distinct().toList()) {
      h.append(img(perRound(summary, ratio, "FID", DemoSummary::fidPerRound)));
    }
    h.append("<h2 id=\"kid\">KID per round</h2><p>Kernel distance (unbiased MMD², cubic kernel, all dimensions,")
        .append(" no projection; lower is better) of each round's survivors to the real private set, x 1000: a check on")
        .append(" the FID charts that needs neither a projection nor a bias correction.</p>");
    for (String ratio : summary.stream().map(DemoSummary::ratioLabel).distinct().toList()) {
      h.append(img(perRound(summary, ratio, "KID x 1000", s -> s.kidPerRound().stream()
          .map(x -> new DemoSummary.Stat(1e3 * x.mean(), 1e3 * x.sd(), x.n())).toList())));
    }
    h.append("<h2 id=\"fidelity\">Fidelity per round</h2><p>Mean cosine similarity of each round's survivors to")
        .append(" their nearest real private record (higher is closer): what private evolution optimises. FID can")
        .append(" rise while this rises, when the survivors spread out more than the private set (see docs/method-findings.md).")
        .append(" Mean over seeds, bars ± one standard deviation.</p>");
    for (String ratio : summary.stream().map(DemoSummary::ratioLabel).distinct().toList()) {
      h.append(img(perRound(summary, ratio, "Fidelity", DemoSummary::fidelityPerRound)));
    }
    h.append("<h2 id=\"utility\">Privacy–utility</h2><p>Final FID, MAUVE and downstream accuracy against r/p")
        .append(" (inf = non-private): mean over seeds, bars ± one standard deviation.</p>");
    h.append(img(utility(summary, "Final FID", DemoSummary::fid)))
        .append(img(utility(summary, "MAUVE", DemoSummary::mauve)))
        .append(img(utility(summary, "Downstream accuracy", DemoSummary::accuracy)));
    h.append("<h2 id=\"votes\">Vote distribution (SecPE Fig. 4)</h2><p>Last-round scores of the candidates, sorted, at the")
        .append(" tightest private budget: Aug-PE's noisy nearest-neighbour votes vs SecPE's representative votes.</p>");
    h.append(img(votes(firstRuns)));
    h.append("<h2 id=\"lengths\">Length distributions</h2><p>Words per text: real private records vs final synthetic sets.</p>");
    h.append(img(lengths(firstRuns, realLengths)));
    h.append("<h2 id=\"ledgers\">Privacy ledgers</h2><p>The runs of seed ").append(firstSeed)
        .append(" (the other seeds' ledgers differ only in their noise draws).</p>");
    for (DemoResult r : firstRuns) {
      h.append("<h3>").append(esc(r.method())).append(" at r/p = ").append(r.ratioLabel()).append("</h3>");
      h.append(ledger(r));
    }
    h.append("<h2 id=\"samples\">Synthetic samples</h2><p>The first final synthetic texts of each run of seed ")
        .append(firstSeed).append(" (synthetic only).</p>");
    for (DemoResult r : firstRuns) {
      h.append("<h3>").append(esc(r.method())).append(" at r/p = ").append(r.ratioLabel()).append("</h3>");
      for (String s : r.samples()) {
        h.append("<div class=\"s\">").append(esc(s.length() > 600 ? s.substring(0, 600) + " …" : s)).append("</div>");
      }
    }
    h.append("</body></html>");
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, h, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write report " + file, e);
    }
  }

  private static String summaryTable(List<DemoSummary> summary) {
    StringBuilder t = new StringBuilder("<table><tr><th>method</th><th>r/p</th><th>sigma</th><th>FID first round</th>")
        .append("<th>FID last round</th><th>KID x 1000, last round</th><th>fidelity first round</th><th>fidelity last round</th><th>coverage</th><th>MAUVE</th><th>downstream accuracy</th><th>length W1 (words)</th><th>selection s</th>")
        .append("<th>embedding s</th><th>FID, first to last round</th><th>KID x 1000, first to last round</th>")
        .append("<th>fidelity, first to last round</th></tr>");
    for (DemoSummary s : summary) {
      t.append("<tr><td class=\"l\">").append(s.method()).append("</td><td>").append(s.ratioLabel())
          .append("</td><td>").append(s.sigma().format(3)).append("</td><td>").append(s.firstFid().format(4))
          .append("</td><td>").append(s.fid().format(4)).append("</td><td>")
          .append(new DemoSummary.Stat(1e3 * s.kid().mean(), 1e3 * s.kid().sd(), s.kid().n()).format(3))
          .append("</td><td>").append(s.firstFidelity().format(4))
          .append("</td><td>").append(s.fidelity().format(4)).append("</td><td>").append(s.coverage().format(4))
          .append("</td><td>").append(s.mauve().format(3))
          .append("</td><td>").append(s.accuracy().format(3)).append("</td><td>")
          .append(s.lengthW1().format(1)).append("</td><td>")
          .append(s.seconds(Phase.SELECTION).format(2)).append("</td><td>")
          .append(s.seconds(Phase.EMBEDDING).format(1)).append("</td><td>")
          .append(change(s.firstToLast(DemoResult::fidPerRound), 1, 4)).append("</td><td>")
          .append(change(s.firstToLast(DemoResult::kidPerRound), 1e3, 3)).append("</td><td>")
          .append(change(s.firstToLast(DemoResult::fidelityPerRound), 1, 4))
          .append("</td></tr>");
    }
    return t.append("</table>").toString();
  }

  /** A change paired by seed, scaled, and what the seeds say of it: "-0.0031 ± 0.0012 (falls)". */
  static String change(DemoSummary.Stat c, double scale, int decimals) {
    if (Double.isNaN(c.mean())) {
      return "– (no rounds)";
    }
    return new DemoSummary.Stat(scale * c.mean(), scale * c.sd(), c.n()).format(decimals)
        + " (" + DemoSummary.verdict(c) + ")";
  }

  private static String ledger(DemoResult r) {
    if (r.report().mechanisms().isEmpty()) {
      return "<p>No releases: non-private baseline.</p>";
    }
    StringBuilder t = new StringBuilder("<table><tr><th>id</th><th>mechanism</th><th>protects</th>")
        .append("<th>sensitivity</th><th>noise scale</th></tr>");
    for (Release rel : r.report().mechanisms()) {
      t.append("<tr><td class=\"l\">").append(esc(rel.id())).append("</td><td class=\"l\">").append(esc(rel.mechanism()))
          .append("</td><td class=\"l\">").append(esc(rel.protects())).append("</td><td>").append(fmt(rel.sensitivity()))
          .append("</td><td>").append(fmt(rel.noiseScale())).append("</td></tr>");
    }
    t.append("</table><p>Composed: ");
    r.report().dp().ifPresent(d -> t.append("(epsilon, delta) = (").append(fmt(d.epsilon())).append(", ").append(sci(d.delta())).append(")"));
    r.report().mu().ifPresent(m -> t.append("; mu = ").append(fmt(m.mu())));
    r.report().secretBudget().ifPresent(b -> t.append("; (p, r) = (").append(sci(b.p())).append(", ").append(sci(b.r())).append(")"));
    t.append("</p><ul>");
    for (String d : r.report().deviations()) {
      t.append("<li>").append(esc(d)).append("</li>");
    }
    return t.append("</ul>").toString();
  }

  private static XYChart perRound(
      List<DemoSummary> summary, String ratio, String title,
      Function<DemoSummary, List<DemoSummary.Stat>> series) {
    XYChart c = new XYChartBuilder().width(W).height(H).title(title + " per round, r/p = " + ratio).xAxisTitle("round")
        .yAxisTitle(title).build();
    style(c);
    for (DemoSummary s : summary) {
      List<DemoSummary.Stat> f = series.apply(s);
      if (!s.ratioLabel().equals(ratio) || f.size() < 2) {
        continue;
      }
      double[] x = new double[f.size()];
      double[] y = new double[x.length];
      double[] e = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        x[i] = i;
        y[i] = f.get(i).mean();
        e[i] = f.get(i).sd();
      }
      c.addSeries(s.method(), x, y, e);
    }
    return c;
  }

  private static CategoryChart utility(
      List<DemoSummary> summary, String title, Function<DemoSummary, DemoSummary.Stat> f) {
    CategoryChart c =
        new CategoryChartBuilder().width(W).height(H).title(title + " vs r/p").xAxisTitle("r/p").yAxisTitle(title)
            .build();
    style(c);
    List<String> ratios = summary.stream().map(DemoSummary::ratioLabel).distinct().toList();
    for (String m : summary.stream().map(DemoSummary::method).distinct().toList()) {
      List<Double> ys = new ArrayList<>();
      List<Double> es = new ArrayList<>();
      for (String ratio : ratios) {
        DemoSummary.Stat st = summary.stream().filter(s -> s.method().equals(m) && s.ratioLabel().equals(ratio))
            .map(f).findFirst().orElse(new DemoSummary.Stat(Double.NaN, 0, 0));
        ys.add(st.mean());
        es.add(st.sd());
      }
      c.addSeries(m, ratios, ys, es);
    }
    return c;
  }

  private static XYChart votes(List<DemoResult> results) {
    XYChart c = new XYChartBuilder().width(W).height(H).title("Last-round votes, sorted").xAxisTitle("candidate rank")
        .yAxisTitle("score").build();
    style(c);
    String tight = results.stream().filter(r -> !Double.isInfinite(r.ratio())).map(DemoResult::ratioLabel).findFirst().orElse("inf");
    for (DemoResult r : results) {
      if (!r.ratioLabel().equals(tight) || r.method().equals("dpga") || r.finalVotes().length == 0) {
        continue;
      }
      double[] v = r.finalVotes().clone();
      Arrays.sort(v);
      double[] y = new double[v.length];
      double[] x = new double[v.length];
      for (int i = 0; i < v.length; i++) {
        y[i] = v[v.length - 1 - i];
        x[i] = i;
      }
      c.addSeries(r.method() + " r/p=" + r.ratioLabel(), x, y).setMarker(SeriesMarkers.NONE);
    }
    return c;
  }

  private static CategoryChart lengths(List<DemoResult> results, int[] realLengths) {
    int bins = 12;
    int max = Arrays.stream(realLengths).max().orElse(1);
    int width = Math.max(1, (int) Math.ceil((max + 1) / (double) bins));
    List<String> labels = new ArrayList<>();
    for (int b = 0; b < bins; b++) {
      labels.add(b * width + "-" + ((b + 1) * width - 1));
    }
    CategoryChart c = new CategoryChartBuilder().width(W).height(H).title("Length distribution (share of texts)")
        .xAxisTitle("words").yAxisTitle("share").build();
    style(c);
    c.getStyler().setXAxisLabelRotation(45);
    c.getStyler().setOverlapped(false);
    c.addSeries("real (private)", labels, histogram(realLengths, bins, width));
    String pick = results.stream().filter(r -> !Double.isInfinite(r.ratio())).map(DemoResult::ratioLabel).reduce((a, b) -> b).orElse("inf");
    for (DemoResult r : results) {
      if (r.ratioLabel().equals(pick)) {
        c.addSeries(r.method() + " r/p=" + pick, labels, histogram(r.syntheticLengths(), bins, width));
      }
    }
    return c;
  }

  private static List<Double> histogram(int[] values, int bins, int width) {
    double[] h = new double[bins];
    for (int v : values) {
      h[Math.min(bins - 1, v / width)]++;
    }
    List<Double> out = new ArrayList<>();
    for (double x : h) {
      out.add(values.length == 0 ? 0 : x / values.length);
    }
    return out;
  }

  private static void style(Chart<?, ?> c) {
    Styler s = c.getStyler();
    s.setChartBackgroundColor(Color.WHITE);
    s.setLegendPosition(Styler.LegendPosition.OutsideE);
    s.setAntiAlias(true);
  }

  private static String img(Chart<?, ?> chart) {
    try {
      byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
      return "<p><img alt=\"" + esc(chart.getTitle()) + "\" src=\"data:image/png;base64,"
          + Base64.getEncoder().encodeToString(png) + "\"></p>";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render chart " + chart.getTitle(), e);
    }
  }

  static String fmt(double x) {
    return Double.isNaN(x) ? "–" : String.format(Locale.ROOT, "%.3f", x);
  }

  static String sci(double x) {
    return String.format(Locale.ROOT, "%.4g", x);
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(ch);
      }
    }
    return b.toString();
  }
}
