package dev.secpe.accounting.pld;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Runs two independent computations at once where the machine has a second core: the two adjacency
 * directions of a PLD (discretised, composed) share nothing, and on two cores they take the time of
 * the slower one. Package-private; the pool's threads are daemons, so they never keep a JVM alive.
 */
final class Parallel {

  private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "secpe-pld");
    t.setDaemon(true);
    return t;
  });

  private Parallel() {}

  /** The pair of results; the second is computed on another thread where a second core exists. */
  record Pair<A, B>(A first, B second) {}

  /**
   * {@code first} on this thread and {@code second} (null: none) on a pool thread, joined; an
   * exception or error of either is rethrown as it was thrown.
   */
  static <A, B> Pair<A, B> both(Supplier<A> first, Supplier<B> second) {
    if (second == null) {
      return new Pair<>(first.get(), null);
    }
    if (Runtime.getRuntime().availableProcessors() < 2) {
      A a = first.get();
      return new Pair<>(a, second.get());
    }
    Future<B> f = POOL.submit(second::get);
    A a;
    try {
      a = first.get();
    } catch (RuntimeException | Error e) {
      f.cancel(true);
      throw e;
    }
    try {
      return new Pair<>(a, f.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      throw new IllegalStateException("interrupted while composing a privacy-loss distribution", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException r) {
        throw r;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(c);
    }
  }
}
