package dev.secpe.core.secret;

import dev.secpe.llm.Locality;
import java.util.List;

/**
 * Finds secrets in a text. Implementations receive private text: one whose {@link #locality()} is
 * {@link Locality#REMOTE} (e.g. a call to an external PII service) is refused by {@link
 * dev.secpe.core.PrivateTexts#detect} unless the caller's {@link dev.secpe.core.PrivacyGuard}
 * explicitly allows remote secret detection. Implementations must never log or put into an
 * exception message the text they scan.
 *
 * <p>Implementations are thread-safe and deterministic (the same text gives the same matches),
 * so that a resumed run rebuilds the same secret table.
 */
public interface SecretDetector {

  /** A short name, e.g. "pii-regex". */
  String name();

  /** Where the detection runs; {@link Locality#LOCAL} unless private text leaves the process. */
  Locality locality();

  /** The secrets found in {@code text}, in order of start position. */
  List<SecretMatch> detect(String text);

  /**
   * Everything that decides which secrets this detector finds, as one string: two detectors give
   * the same string only if they find the same secrets, with the same values, in every text. It
   * names the class, the version of its matching rules, and every setting (terms, kinds, patterns,
   * options). SecPE binds a run's checkpoint and its privacy-journal entries to {@link
   * SecretDetectors#digest} of it, so that a resume with another detector (another terms file under
   * the same name, say) is refused before anything is drawn.
   *
   * <p>It may hold the detector's terms, which can be sensitive themselves: it is only ever hashed,
   * never printed, logged or written. The default, the class name and {@link #name()}, is right only
   * for a detector whose whole configuration its name states; any other must override it.
   */
  default String configuration() {
    return getClass().getName() + "|" + name();
  }
}
