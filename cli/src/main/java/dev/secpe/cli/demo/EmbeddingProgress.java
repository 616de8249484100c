package dev.secpe.cli.demo;

import dev.secpe.llm.ForwardingTextEmbedder;
import dev.secpe.llm.TextEmbedder;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * The demo's embedder with a {@link ThroughputLine} for the stretch announced by {@link #expect}:
 * the e-mails the demo embeds once before its runs. Outside a stretch it only forwards.
 */
public final class EmbeddingProgress extends ForwardingTextEmbedder {

  private final PrintStream out;
  private ThroughputLine line; // or null

  /** Forwards to {@code delegate}, reporting on {@code out}. */
  public EmbeddingProgress(TextEmbedder delegate, PrintStream out) {
    super(delegate);
    this.out = out;
  }

  /** The next {@code texts} texts embedded are the stretch {@code what}; 0 ends it. */
  public synchronized void expect(String what, long texts) {
    line = texts > 0 ? new ThroughputLine(out, what, texts, Duration.ofSeconds(5)) : null;
  }

  @Override
  public float[][] embed(List<String> texts) {
    float[][] rows = delegate().embed(texts);
    ThroughputLine l;
    synchronized (this) {
      l = line;
    }
    if (l != null) {
      l.advance(texts.size());
    }
    return rows;
  }
}
