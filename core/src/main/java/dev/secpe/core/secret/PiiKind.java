package dev.secpe.core.secret;

/** The kinds of PII {@link PiiDetector} recognises; {@link #kind()} is the secret kind. */
public enum PiiKind {
  /** E-mail addresses; value lower-cased. */
  EMAIL("email"),
  /**
   * Phone numbers, through Google's libphonenumber ({@code PhoneNumbers}): written with {@code +}
   * or an international prefix ({@code 00}, {@code 011}) for any country; North American numbers
   * also bare ({@code 4155550134}) or local ({@code 555-0142}); national numbers with their trunk
   * prefix ({@code 020 7946 0958}) valid in one of 23 other regions; any grouping, Unicode dashes
   * and digits, an extension. Recall first: an order number that fits the North American plan is
   * flagged too. Value: E.164 ({@code +442079460958}); a local number's seven digits alone.
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
