package dev.secpe.core.secret;

import dev.secpe.llm.Locality;
import java.util.List;
import java.util.Objects;

/**
 * SPI for an external PII recogniser (e.g. Microsoft Presidio, an AI4Privacy model served over
 * HTTP, a cloud DLP API). Adapt one to a {@link SecretDetector} with {@link
 * SecretDetectors#fromPiiService(PiiService)}.
 *
 * <p>An implementation receives PRIVATE text. If it sends the text anywhere outside this process
 * its {@link #locality()} must be {@link Locality#REMOTE}; the library then refuses to call it
 * unless the caller's {@link dev.secpe.core.PrivacyGuard} explicitly allows remote secret
 * detection. Implementations must not log the text or put it into exception messages; they
 * return spans only, and the value of each secret is cut from the text locally.
 */
public interface PiiService {

  /** A short name, e.g. "presidio". */
  String name();

  /** Where the text is processed. */
  Locality locality();

  /** The PII spans found in {@code text}. */
  List<PiiSpan> find(String text);

  /**
   * One entity found by a {@link PiiService}.
   *
   * @param type the entity type, e.g. "EMAIL_ADDRESS", "PERSON"; becomes the secret kind
   *     (lower-cased)
   * @param start first char of the entity in the text
   * @param end one past its last char
   */
  record PiiSpan(String type, int start, int end) {

    /** Validates eagerly. */
    public PiiSpan {
      Objects.requireNonNull(type, "type");
      if (type.isBlank()) {
        throw new IllegalArgumentException("PII span type must not be blank");
      }
      if (start < 0 || end <= start) {
        throw new IllegalArgumentException(
            "PII span must satisfy 0 <= start < end, got start=" + start + " end=" + end);
      }
    }
  }
}
