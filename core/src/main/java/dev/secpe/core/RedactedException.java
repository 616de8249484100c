package dev.secpe.core;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Stands in for an exception thrown while a provider worked on private text: it names the
 * original exception's class and carries its stack trace (frames name code, never data), and
 * redacts its causes and suppressed exceptions the same way, but withholds every message, because
 * a message may quote the text. The library attaches it as the cause of the exception it throws
 * from its privacy gates ({@link PrivateTexts}), so a user debugging their own embedder or secret
 * detector sees which exception was thrown where.
 */
public final class RedactedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String originalClassName;

  private RedactedException(String originalClassName) {
    super(originalClassName + " (message withheld: it may quote private text)");
    this.originalClassName = originalClassName;
  }

  /** {@code t}'s class and stack trace, and those of its causes and suppressed exceptions. */
  public static RedactedException of(Throwable t) {
    return redact(t, Collections.newSetFromMap(new IdentityHashMap<>()));
  }

  private static RedactedException redact(Throwable t, Set<Throwable> seen) {
    seen.add(t);
    RedactedException r = new RedactedException(t.getClass().getName());
    r.setStackTrace(t.getStackTrace());
    Throwable cause = t.getCause();
    if (cause != null && !seen.contains(cause)) {
      r.initCause(redact(cause, seen));
    }
    for (Throwable s : t.getSuppressed()) {
      if (!seen.contains(s)) {
        r.addSuppressed(redact(s, seen));
      }
    }
    return r;
  }

  /** The class of the exception this one stands in for, e.g. {@code java.io.IOException}. */
  public String originalClassName() {
    return originalClassName;
  }
}
