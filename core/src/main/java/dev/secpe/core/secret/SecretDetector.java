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
}
