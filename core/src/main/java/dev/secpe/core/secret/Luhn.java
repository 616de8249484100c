package dev.secpe.core.secret;

/**
 * The Luhn (mod 10) check used by payment card numbers (ISO/IEC 7812-1); internal to the PII
 * detector.
 */
final class Luhn {

  private Luhn() {}

  /**
   * Whether {@code digits} (ASCII digits only, at least 2) passes the Luhn check.
   *
   * @throws IllegalArgumentException if a char is not an ASCII digit
   */
  public static boolean isValid(CharSequence digits) {
    if (digits.length() < 2) {
      return false;
    }
    return sum(digits, digits.length(), false) % 10 == 0;
  }

  /**
   * The check digit to append to {@code payload} (ASCII digits, at least 1) to make it valid.
   */
  public static int checkDigit(CharSequence payload) {
    if (payload.length() < 1) {
      throw new IllegalArgumentException("Luhn payload must have >= 1 digit");
    }
    return (10 - sum(payload, payload.length(), true) % 10) % 10;
  }

  /** Sum over digits with doubling; the rightmost digit is doubled iff doubleRightmost. */
  private static int sum(CharSequence digits, int n, boolean doubleRightmost) {
    int s = 0;
    boolean dbl = doubleRightmost;
    for (int i = n - 1; i >= 0; i--) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        throw new IllegalArgumentException("Luhn input must be ASCII digits; index " + i + " is not one");
      }
      int d = c - '0';
      if (dbl) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      s += d;
      dbl = !dbl;
    }
    return s;
  }
}
