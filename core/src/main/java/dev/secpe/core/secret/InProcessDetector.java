package dev.secpe.core.secret;

import dev.secpe.llm.Locality;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the built-in detectors share, written once: they run in this JVM ({@link Locality#LOCAL}),
 * are serializable (a Spark executor runs them where the records are), and {@link #detect} checks
 * its text, builds its {@link TextView} (the normalised view every built-in detector matches on:
 * NFKC, full case folding, default-ignorable code points removed, any whitespace an ASCII one, any
 * decimal digit an ASCII one), lets {@link #find} match on the view only, and returns an
 * unmodifiable copy of what it found with every span mapped back to the scanned text. No built-in
 * detector sees the raw text.
 */
abstract class InProcessDetector implements SecretDetector, Serializable {

  private static final long serialVersionUID = 1L;

  private final String name;

  InProcessDetector(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Locality locality() {
    return Locality.LOCAL;
  }

  /**
   * The secrets in {@code text}: those {@code find} finds in its {@link TextView}, with their
   * spans in {@code text} (a span that begins or ends inside one character's expansion, one "f" of
   * "ﬁ", covers that whole character).
   */
  @Override
  public final List<SecretMatch> detect(String text) {
    Objects.requireNonNull(text, "text");
    return detect(TextView.of(text));
  }

  /** {@link #detect(String)} of the text {@code view} was built from (a composite builds it once). */
  final List<SecretMatch> detect(TextView view) {
    List<SecretMatch> found = new ArrayList<>();
    find(view, found);
    List<SecretMatch> out = new ArrayList<>(found.size());
    for (SecretMatch m : found) {
      out.add(view.toText(m));
    }
    return List.copyOf(out);
  }

  /**
   * Adds the secrets found in {@code view}, a {@link TextView}'s text, to {@code out}, in order
   * of start position, with spans in the view.
   */
  abstract void find(String view, List<SecretMatch> out);

  /**
   * {@link #find(String, List)} of the view's text; a detector that needs what the view folds away
   * (the case of a word, for names) overrides this and reads it through {@link TextView#original},
   * still matching on the view.
   */
  void find(TextView view, List<SecretMatch> out) {
    find(view.text(), out);
  }

  /** The parts of every built-in's configuration that name the view: "view=" and its version. */
  static String viewConfiguration() {
    return "view=" + TextView.VERSION;
  }
}
