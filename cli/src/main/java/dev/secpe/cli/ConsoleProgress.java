package dev.secpe.cli;

import dev.secpe.core.report.Phase;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import java.io.PrintStream;
import java.text.DecimalFormat;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a run on stderr (stdout stays clean for JSON): the count, the rate and the time per
 * phase, a line per finished round, and a line per charged release. On a terminal each phase is a
 * progress bar; elsewhere (a log file, CI) each phase is one line when it finishes, as bars
 * redrawn with carriage returns are noise there. Every other message is a line of its own (a bar
 * is finished first). The one-off embedding of the private records, and of the public ones for
 * SecPE, is labelled as such, not as round 0's. Never prints text: only counts, phases and timings.
 */
final class ConsoleProgress implements RunListener {

  /** Set by {@code bin/secpe} when stderr is a terminal ({@code [ -t 2 ]}). */
  static final String TERMINAL_ENV = "SECPE_STDERR_TTY";

  private final PrintStream err;
  private final boolean terminal;
  private ProgressBar bar;
  // The stretch of progress now under way (bar or line).
  private String stretch;
  private Phase stretchPhase;
  private int stretchRound = -1;
  private long stretchTotal = -1;
  private long stretchDone;
  private long stretchStart;
  private boolean roundsStarted;
  // When the last stretch, round or message ended: a stretch reported in one batch (done = total
  // at its first event) started then, not at its first event.
  private long boundary = System.nanoTime();
  private int oneOffStretches;

  /** On the terminal when {@code bin/secpe} says stderr is one. */
  ConsoleProgress(PrintStream err) {
    this(err, "1".equals(System.getenv(TERMINAL_ENV)));
  }

  ConsoleProgress(PrintStream err, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
  }

  @Override
  public synchronized void onEvent(RunEvent event) {
    handle(event);
    if (!(event instanceof RunEvent.Progress)) {
      boundary = System.nanoTime();
    }
  }

  private void handle(RunEvent event) {
    if (event instanceof RunEvent.RunStarted s) {
      err.printf("%s: %d rounds%s%n", s.method(), s.totalRounds(),
          s.resumedFromRound() > 0 ? ", resuming at round " + s.resumedFromRound() : "");
    } else if (event instanceof RunEvent.RoundStarted) {
      finishStretch();
      roundsStarted = true;
    } else if (event instanceof RunEvent.Progress p) {
      if (stretch == null || p.phase() != stretchPhase || p.round() != stretchRound || p.total() != stretchTotal
          || p.done() < stretchDone) {
        finishStretch();
        startStretch(p);
      }
      stretchDone = p.done();
      if (bar != null) {
        bar.stepTo(p.done());
      } else if (!terminal && p.done() >= p.total()) {
        finishStretch();
      }
    } else if (event instanceof RunEvent.RoundFinished f) {
      finishStretch();
      err.printf(
          "round %d done: generation %.2fs, embedding %.2fs, selection %.2fs, population %d%n",
          f.round(),
          f.timings().seconds(Phase.GENERATION),
          f.timings().seconds(Phase.EMBEDDING),
          f.timings().seconds(Phase.SELECTION),
          f.populationSize());
    } else if (event instanceof RunEvent.ReleaseCharged r) {
      finishStretch();
      err.printf("release charged: %s (%s)%n", r.release().id(), r.release().mechanism());
    } else if (event instanceof RunEvent.RunFinished) {
      finishStretch();
    }
  }

  private void startStretch(RunEvent.Progress p) {
    String phase = p.phase().name().toLowerCase(Locale.ROOT);
    if (!roundsStarted && p.phase() == Phase.EMBEDDING) {
      // Before round 0 the engine embeds the private records, then (SecPE) the public ones.
      stretch = (oneOffStretches++ == 0 ? "private" : "public") + " records embedding";
    } else {
      stretch = "round " + p.round() + " " + phase;
    }
    stretchPhase = p.phase();
    stretchRound = p.round();
    stretchTotal = p.total();
    stretchDone = 0;
    stretchStart = boundary;
    if (terminal) {
      // Counts, the rate and the time left; embedding counts texts, generation requests.
      bar =
          new ProgressBarBuilder()
              .setTaskName(stretch)
              .setInitialMax(p.total())
              .setStyle(ProgressBarStyle.ASCII)
              .setUnit(unit(p.phase()), 1)
              .showSpeed(new DecimalFormat("0.0"))
              .setSpeedUnit(ChronoUnit.SECONDS)
              .setConsumer(new Line(err))
              .build();
    }
  }

  private static String unit(Phase phase) {
    return phase == Phase.EMBEDDING ? " texts" : "";
  }

  /** Ends the stretch under way: closes its bar, or prints its one line off a terminal. */
  private void finishStretch() {
    if (stretch == null) {
      return;
    }
    if (bar != null) {
      bar.close();
      bar = null;
      // The bar's own consumer ends its line from the bar's thread, if at all (a message printed
      // next was glued onto it): end it here, before anything else is printed.
      err.println();
      err.flush();
    } else {
      double seconds = (System.nanoTime() - stretchStart) / 1e9;
      String what = stretchPhase == Phase.EMBEDDING ? " texts" : " requests";
      err.printf(Locale.ROOT, "%s: %d%s%s in %.1f s%s%n", stretch, stretchDone, what,
          stretchDone < stretchTotal ? " of " + stretchTotal : "", seconds,
          seconds >= 0.1 ? String.format(Locale.ROOT, ", %.1f/s", stretchDone / seconds) : "");
    }
    stretch = null;
    stretchTotal = -1;
    stretchDone = 0;
    boundary = System.nanoTime();
  }

  /** Draws a bar on one line of stderr, redrawn with a carriage return; the line is ended by {@link #finishStretch}. */
  private static final class Line implements ProgressBarConsumer {
    private final PrintStream out;

    Line(PrintStream out) {
      this.out = out;
    }

    @Override
    public int getMaxRenderedLength() {
      return 120;
    }

    @Override
    public void accept(String rendered) {
      out.print('\r' + rendered);
      out.flush();
    }

    @Override
    public void close() {
      // the line is ended synchronously by the listener
    }
  }
}
