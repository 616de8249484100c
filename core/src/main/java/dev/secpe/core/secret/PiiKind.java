package dev.secpe.core.secret;

/** The kinds of PII {@link PiiDetector} recognises; {@link #kind()} is the secret kind. */
public enum PiiKind {
  /** E-mail addresses; value lower-cased. */
  EMAIL("email"),
  /**
   * Phone numbers: international ({@code +} country code, 8 to 15 digits in all) and North
   * American ({@code (212) 555-0123}, {@code 212-555-0123}, {@code 212.555.0123}, {@code +1 212 555
   * 0123}; a separator or parentheses are required, so a bare 10-digit number is not a phone).
   * Value: the digits, North American numbers prefixed with 1.
   */
  PHONE("phone"),
  /** URLs with a scheme (http, https, ftp) or starting with {@code www.}; value lower-cased. */
  URL("url"),
  /** Dotted-quad IPv4 addresses (each octet 0-255, no leading zeros). */
  IPV4("ipv4"),
  /** IPv6 addresses (full, compressed with {@code ::}, or with an embedded IPv4); value expanded. */
  IPV6("ipv6"),
  /**
   * Payment card numbers: 13 to 19 digits starting with 2 to 6, optionally grouped by single
   * spaces or hyphens, passing the Luhn check. Value: the digits.
   */
  CREDIT_CARD("card");

  private final String kind;

  PiiKind(String kind) {
    this.kind = kind;
  }

  /** The secret kind string, e.g. "email". */
  public String kind() {
    return kind;
  }
}
