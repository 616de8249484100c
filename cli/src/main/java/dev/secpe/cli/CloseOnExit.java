package dev.secpe.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Stops a command cleanly on SIGTERM or SIGINT (exit 143 or 130): the resources it registered (the
 * embedder, the generator) are closed first, then the JVM exits. An embedder that holds a native
 * session waits there for the batch it is running, so the native library is never torn down under
 * a running call.
 *
 * <p>This is a signal handler rather than a shutdown hook because shutdown hooks run all at once:
 * ONNX Runtime registers its own, which releases its environment, and on SIGTERM it ran while a
 * {@code minilm-embed-N} thread was still inside the model (a SIGSEGV, exit 134 and an {@code
 * hs_err} file). Here the handler closes the embedder (waiting for its batch) before the JVM starts
 * its shutdown, so ONNX Runtime's hook finds nothing running. A resource being created when the
 * signal comes (the model loading) is finished, then closed. A run in progress ({@link
 * #whileRunning}) is cancelled first and given time to journal its end as cancelled. Where the JVM
 * does not let the signals be handled, a shutdown hook does the closing, as before.
 */
final class CloseOnExit implements AutoCloseable {

  /** The command whose resources a signal closes now, or null. */
  private static volatile CloseOnExit current;

  private static boolean installed;

  /** The signal (TERM or INT) that is stopping the JVM, or null. */
  private static volatile String signalled;

  /** How long a signal waits for a cancelled run to journal its end before the JVM stops. */
  private static final long CANCEL_WAIT_SECONDS = 30;

  /** The run in progress: how to cancel it, and a latch counted down when it has ended. */
  private record Running(Runnable cancel, CountDownLatch ended) {}

  private Running running; // guarded by this

  private final List<AutoCloseable> resources = new ArrayList<>();
  private final Thread hook; // null where signals are handled
  private boolean stopping;

  /** Closes {@code resources} (and those {@link #open}ed later) on SIGTERM or SIGINT. */
  CloseOnExit(AutoCloseable... resources) {
    this.resources.addAll(List.of(resources));
    if (install()) {
      this.hook = null;
      current = this;
    } else {
      this.hook = new Thread(this::closeAll, "secpe-close-on-exit");
      Runtime.getRuntime().addShutdownHook(hook);
    }
  }

  /**
   * Creates a resource and registers it, both under this object's lock: a signal that comes while
   * it is created waits for it, then closes it.
   *
   * @throws CancellationException if the command is already stopping
   */
  synchronized <T extends AutoCloseable> T open(Supplier<T> create) {
    if (stopping) {
      throw new CancellationException("stopping on a signal");
    }
    T t = create.get();
    resources.add(t);
    return t;
  }

  /**
   * Runs {@code body} (a run that spends budget) so that a signal cancels it and waits up to {@value
   * #CANCEL_WAIT_SECONDS} s for it to end before the resources are closed: the run then journals
   * its end as cancelled (before, a run stopped by SIGTERM journalled no end and stayed
   * "unfinished").
   *
   * @throws CancellationException if the command is already stopping
   */
  <T> T whileRunning(Runnable cancel, Supplier<T> body) {
    Running r = new Running(cancel, new CountDownLatch(1));
    synchronized (this) {
      if (stopping) {
        throw new CancellationException("stopping on a signal");
      }
      running = r;
    }
    try {
      return body.get();
    } catch (RuntimeException | Error e) {
      if (signalled != null) {
        // Cancelled by the signal: the run has journalled its end. The handler closes the
        // resources and ends the JVM; this thread must not close them under it.
        end(r);
        awaitExit();
      }
      throw e;
    } finally {
      end(r);
    }
  }

  private void end(Running r) {
    r.ended().countDown();
    synchronized (this) {
      running = null;
    }
  }

  /** Cancels the run in progress, if any, and waits a while for it to end. */
  private void cancelRunning() {
    Running r;
    synchronized (this) {
      r = running;
    }
    if (r == null) {
      return;
    }
    r.cancel().run();
    try {
      r.ended().await(CANCEL_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The signal (TERM or INT) stopping the JVM, or null while none came. */
  static String signalled() {
    return signalled;
  }

  /** Blocks the calling thread for good: the signal handler is ending the JVM. */
  static void awaitExit() {
    while (true) {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        // the JVM is stopping; keep out of its way
      }
    }
  }

  private synchronized void closeAll() {
    stopping = true;
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        // The JVM is stopping: nothing useful to do with a failure to close.
      }
    }
    resources.clear();
  }

  /** Handles TERM and INT once per JVM; false where the JVM does not allow it. */
  private static synchronized boolean install() {
    if (installed) {
      return true;
    }
    try {
      handle("TERM", 143);
      handle("INT", 130);
      installed = true;
      return true;
    } catch (IllegalArgumentException | LinkageError | SecurityException e) {
      return false; // signal in use by the JVM (-Xrs), or sun.misc.Signal absent
    }
  }

  @SuppressWarnings("removal")
  private static void handle(String name, int exitCode) {
    sun.misc.Signal signal = new sun.misc.Signal(name);
    sun.misc.SignalHandler before = sun.misc.Signal.handle(signal, s -> {
      signalled = name;
      CloseOnExit c = current;
      if (c != null) {
        c.cancelRunning();
        c.closeAll();
      }
      System.exit(exitCode);
    });
    if (before == sun.misc.SignalHandler.SIG_IGN) {
      // Ignored when the JVM started (nohup, a background job): it stays ignored.
      sun.misc.Signal.handle(signal, sun.misc.SignalHandler.SIG_IGN);
    }
  }

  /** The command ended normally and closes its resources itself: signals close nothing of it. */
  @Override
  public void close() {
    if (hook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // Already stopping: the hook runs.
      }
    } else if (current == this) {
      current = null;
    }
  }
}
