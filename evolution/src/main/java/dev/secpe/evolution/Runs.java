package dev.secpe.evolution;

import dev.secpe.evolution.engine.Inputs;
import dev.secpe.evolution.engine.Method;
import dev.secpe.evolution.engine.Runner;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A single-use run: {@link #run()} may be called once; {@link #cancel()} stops it at the next
 * batch boundary (the last checkpoint stays resumable).
 */
abstract class Runs<C extends RunConfig> {

  private final C config;
  final Inputs inputs;

  Runs(C config, Inputs inputs) {
    this.config = config;
    this.inputs = inputs;
  }

  /** The configuration (immutable). */
  public C config() {
    return config;
  }

  /**
   * Runs the method once: single-use, since a run spends privacy budget (build a new run, with
   * {@code resume(true)}, to continue from its checkpoint).
   */
  public RunResult run() {
    start();
    return Runner.execute(newMethod(), describe(), config.settings(), inputs, cancelled);
  }

  /** The method's steps for this run (a fresh instance: it holds the run's state). */
  abstract Method newMethod();

  /** The method's configuration as the checkpoint fingerprint and the report see it. */
  abstract String describe();

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
