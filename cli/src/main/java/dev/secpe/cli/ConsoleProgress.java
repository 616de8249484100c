package dev.secpe.cli;

import dev.secpe.core.report.Phase;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import java.io.PrintStream;
import java.text.DecimalFormat;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Draws a progress bar per phase on stderr (stdout stays clean for JSON), with the count, the rate
 * and the time left, and a line per finished round. The one-off embedding of the private (and
 * public) records is a bar of its own. Never prints text: only counts, phases and timings.
 */
final class ConsoleProgress implements RunListener {

  private final PrintStream err;
  private ProgressBar bar;
  private Phase barPhase;
  private int barRound = -1;

  ConsoleProgress(PrintStream err) {
    this.err = err;
  }

  @Override
  public synchronized void onEvent(RunEvent event) {
    if (event instanceof RunEvent.RunStarted s) {
      err.printf("%s: %d rounds%s%n", s.method(), s.totalRounds(),
          s.resumedFromRound() > 0 ? ", resuming at round " + s.resumedFromRound() : "");
    } else if (event instanceof RunEvent.Progress p) {
      if (bar == null || p.phase() != barPhase || p.round() != barRound || p.total() != bar.getMax()
          || p.done() < bar.getCurrent()) {
        close();
        // Counts, the rate and the time left; embedding counts texts, generation requests.
        String unit = p.phase() == Phase.EMBEDDING ? " texts" : "";
        bar =
            new ProgressBarBuilder()
                .setTaskName("round " + p.round() + " " + p.phase().name().toLowerCase(Locale.ROOT))
                .setInitialMax(p.total())
                .setStyle(ProgressBarStyle.ASCII)
                .setUnit(unit, 1)
                .showSpeed(new DecimalFormat("0.0"))
                .setSpeedUnit(ChronoUnit.SECONDS)
                .setConsumer(new ConsoleProgressBarConsumer(err))
                .build();
        barPhase = p.phase();
        barRound = p.round();
      }
      bar.stepTo(p.done());
    } else if (event instanceof RunEvent.RoundFinished f) {
      close();
      err.printf(
          "round %d done: generation %.2fs, embedding %.2fs, selection %.2fs, population %d%n",
          f.round(),
          f.timings().seconds(Phase.GENERATION),
          f.timings().seconds(Phase.EMBEDDING),
          f.timings().seconds(Phase.SELECTION),
          f.populationSize());
    } else if (event instanceof RunEvent.ReleaseCharged r) {
      err.printf("release charged: %s (%s)%n", r.release().id(), r.release().mechanism());
    } else if (event instanceof RunEvent.RunFinished) {
      close();
    }
  }

  private void close() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }
}
