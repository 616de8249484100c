package dev.secpe.core.report;

import java.util.List;
import java.util.Objects;

/**
 * Receives {@link RunEvent}s as a run progresses (e.g. to draw a progress bar). Called on the
 * engine's thread: keep it quick and do not throw. Events carry no private data.
 */
@FunctionalInterface
public interface RunListener {

  /** Called for each event, in order. */
  void onEvent(RunEvent event);

  /** A listener that ignores every event. */
  static RunListener none() {
    return event -> {};
  }

  /** A listener that forwards each event to every listener, in order. */
  static RunListener all(List<RunListener> listeners) {
    List<RunListener> copy = List.copyOf(Objects.requireNonNull(listeners, "listeners"));
    return event -> {
      for (RunListener l : copy) {
        l.onEvent(event);
      }
    };
  }
}
