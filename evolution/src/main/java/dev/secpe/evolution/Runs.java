package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.evolution.engine.Inputs;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.RunKind;
import dev.secpe.evolution.engine.Runner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A single-use run: {@link #run()} may be called once; {@link #cancel()} stops it at the next
 * batch boundary (the last checkpoint stays resumable).
 */
abstract class Runs<C extends RunConfig> {

  private final C config;
  final Inputs inputs;
  private final PrivacyPlan plan;

  Runs(C config, Inputs inputs, PrivacyPlan plan) {
    this.config = config;
    this.inputs = inputs;
    this.plan = plan;
  }

  /** The configuration (immutable). */
  public C config() {
    return config;
  }

  /**
   * The privacy plan solved when this run was built, before any private record was read: every
   * release the run will make, each with its mechanism, sensitivity and noise (or, for SecPE in
   * the paper's mode, the releases whose noise SECRETNOISE solves from the private data), and the
   * budget they compose within. A non-private run's plan releases nothing. The run charges a
   * ledger that admits exactly these releases.
   */
  public PrivacyPlan privacyPlan() {
    return plan;
  }

  /**
   * Runs the method once: single-use, since a run spends privacy budget (build a new run, with
   * {@code resume(true)}, to continue from its checkpoint).
   */
  public RunResult run() {
    start();
    Method method = newMethod();
    return Runner.execute(method, describe(), kind(method), config.settings(), inputs, cancelled);
  }

  /**
   * Settings that make this run's output weak, known before it starts, each a sentence saying
   * what would help (public facts only: the noise, the number of private records, the number of
   * candidates): for example vote noise above the average vote a candidate receives, as a tiny
   * epsilon gives. Empty when none applies. The report lists the same warnings, with those only
   * a run can know. {@code bin/secpe run} prints them before it starts. A private run whose
   * delta is not below 1/N (N private records) is warned about here too.
   */
  public final List<String> warnings() {
    List<String> out = new ArrayList<>();
    if (plan.isPrivate()) {
      // the delta the report will state, as the run's method gives it (its steps hold no state yet)
      double delta = newMethod().reportDelta();
      DpBudget.deltaAboveOneOverN(delta, inputs.privateData().size()).ifPresent(out::add);
      DpBudget.defaultDeltaTooLarge(delta, inputs.privateData().size()).ifPresent(out::add);
    }
    out.addAll(methodWarnings());
    return List.copyOf(out);
  }

  /** The method's own warnings for {@link #warnings()}; none by default. */
  List<String> methodWarnings() {
    return List.of();
  }

  /** The method's steps for this run (a fresh instance: it holds the run's state). */
  abstract Method newMethod();

  /** The method's configuration as the checkpoint fingerprint and the report see it. */
  abstract String describe();

  /**
   * What the run's checkpoint, journal entries and report say of it beyond {@link #describe()}: by
   * default a method of record-level DP with one mode, its name, and no secret detector.
   */
  RunKind kind(Method method) {
    return RunKind.recordLevel(method.name());
  }

  private final AtomicBoolean started = new AtomicBoolean();
  final AtomicBoolean cancelled = new AtomicBoolean();

  /** Marks the run started; a second start is an {@link IllegalStateException}. */
  final void start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException(
          "this run was already started: a run spends privacy budget and is single-use; build a"
              + " new one (with resume(true) to continue from its checkpoint)");
    }
  }

  /** Requests cancellation. */
  public void cancel() {
    cancelled.set(true);
  }

}
