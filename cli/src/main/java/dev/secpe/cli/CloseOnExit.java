package dev.secpe.cli;

/**
 * Closes resources (the embedder, the generator) when the JVM is stopped by SIGTERM or SIGINT
 * during a command, before the JVM halts. An embedder that holds a native session waits there for
 * the batch it is running, so the native library is never torn down under a running call (one
 * SIGTERM during embedding crashed the JVM inside ONNX Runtime). When the command ends normally
 * the hook is removed and the command's own try-with-resources closes them.
 */
final class CloseOnExit implements AutoCloseable {

  private final Thread hook;

  CloseOnExit(AutoCloseable... resources) {
    this.hook =
        new Thread(
            () -> {
              for (AutoCloseable r : resources) {
                try {
                  r.close();
                } catch (Exception e) {
                  // The JVM is stopping: nothing useful to do with a failure to close.
                }
              }
            },
            "secpe-close-on-exit");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Removes the hook (the command ended normally and closes its resources itself). */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // Already stopping: the hook runs.
    }
  }
}
