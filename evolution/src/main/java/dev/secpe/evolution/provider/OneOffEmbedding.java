package dev.secpe.evolution.provider;

import dev.secpe.core.report.Phase;
import dev.secpe.core.report.RunEvent;
import dev.secpe.core.report.RunListener;
import dev.secpe.llm.ForwardingTextEmbedder;
import dev.secpe.llm.TextEmbedder;
import java.util.List;

/**
 * The run's embedder as the one-off work sees it (the private records, then the public ones): each
 * batch it embeds is reported as {@link RunEvent.Progress} of the embedding phase, counted against
 * the total set by {@link #expect}, so a listener can show texts per second and the time left. The
 * events carry counts only. Outside an expected stretch it only forwards.
 *
 * <p>The events are sent from inside an embedding call, which the privacy gate guards: an
 * exception there loses its message and type (it might quote private text). So an exception the
 * listener throws is held and rethrown by {@link #expect} when the stretch ends, as it is; a
 * listener that cancels the run stops it at the next batch as usual.
 */
public final class OneOffEmbedding extends ForwardingTextEmbedder {

  private final RunListener listener;
  private final int round;
  private long total;
  private long done;

  /**
   * Embeds through {@code delegate}, reporting progress to {@code listener} as part of {@code
   * round}.
   */
  public OneOffEmbedding(TextEmbedder delegate, RunListener listener, int round) {
    super(delegate);
    this.listener = listener;
    this.round = round;
  }

  private RuntimeException listenerFailure; // or null

  /**
   * The next {@code texts} texts embedded are one stretch of progress; 0 ends reporting.
   *
   * @throws RuntimeException what the listener threw during the stretch that ends here
   */
  public void expect(long texts) {
    RuntimeException failure;
    synchronized (this) {
      total = texts;
      done = 0;
      failure = listenerFailure;
      listenerFailure = null;
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public float[][] embed(List<String> texts) {
    float[][] rows = delegate().embed(texts);
    RunEvent.Progress event;
    synchronized (this) {
      if (total <= 0) {
        return rows;
      }
      done = Math.min(total, done + texts.size());
      event = new RunEvent.Progress(round, Phase.EMBEDDING, done, total);
    }
    try {
      listener.onEvent(event);
    } catch (RuntimeException e) {
      synchronized (this) {
        if (listenerFailure == null) {
          listenerFailure = e;
        }
      }
    }
    return rows;
  }

  /** The delegate belongs to the run: closing this view closes nothing. */
  @Override
  public void close() {}
}
