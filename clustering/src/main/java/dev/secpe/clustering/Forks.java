package dev.secpe.clustering;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Fork-join over the kernel's shared pool: task 0 on the calling thread, the others on the pool. */
final class Forks {

  private Forks() {}

  /** One unit of parallel work, by its index. */
  @FunctionalInterface
  interface Task {
    void run(int i);
  }

  /**
   * Runs {@code task(0 .. n-1)}, {@code task(0)} on this thread; returns when all have finished.
   * The first failure is rethrown as it was (unchecked); the other tasks are then cancelled.
   */
  static void run(ExecutorService pool, int n, Task task) {
    if (n == 1) {
      task.run(0);
      return;
    }
    Future<?>[] fs = new Future<?>[n - 1];
    try {
      for (int i = 1; i < n; i++) {
        final int t = i;
        fs[i - 1] = pool.submit(() -> task.run(t));
      }
      task.run(0);
      for (Future<?> f : fs) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException re) {
        throw re;
      }
      if (c instanceof Error er) {
        throw er;
      }
      throw new IllegalStateException(c);
    } finally {
      for (Future<?> f : fs) {
        if (f != null) {
          f.cancel(true); // no-op for finished tasks; stops the others after a failure
        }
      }
    }
  }
}
