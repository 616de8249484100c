package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class LuhnTest {

  /**
   * An independent Luhn implementation (ISO/IEC 7812-1 Annex B, table form): from the right,
   * every second digit is replaced by its doubled digit sum via a lookup table.
   */
  static boolean referenceLuhn(String digits) {
    int[] doubled = {0, 2, 4, 6, 8, 1, 3, 5, 7, 9};
    int sum = 0;
    for (int pos = 0; pos < digits.length(); pos++) {
      int d = digits.charAt(digits.length() - 1 - pos) - '0';
      sum += (pos % 2 == 1) ? doubled[d] : d;
    }
    return digits.length() >= 2 && sum % 10 == 0;
  }

  /** The unique digit making payload + d valid, found by trying all ten with the reference. */
  static String completeWithReference(String payload) {
    for (char d = '0'; d <= '9'; d++) {
      if (referenceLuhn(payload + d)) {
        return payload + d;
      }
    }
    throw new AssertionError("no check digit");
  }

  @Provide
  Arbitrary<String> payloads() {
    return Arbitraries.strings().numeric().ofMinLength(12).ofMaxLength(18);
  }

  @Test
  void publishedTestNumbers() {
    for (String valid :
        List.of("4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "79927398713")) {
      assertThat(Luhn.isValid(valid)).as(valid).isTrue();
    }
    for (String invalid : List.of("4111111111111112", "79927398710", "1234567812345678")) {
      assertThat(Luhn.isValid(invalid)).as(invalid).isFalse();
    }
    assertThat(Luhn.checkDigit("7992739871")).isEqualTo(3); // the Wikipedia example
  }

  @Property(tries = 500)
  void agreesWithTheReference(@ForAll("payloads") String digits) {
    assertThat(Luhn.isValid(digits)).isEqualTo(referenceLuhn(digits));
    String full = completeWithReference(digits);
    assertThat(Luhn.checkDigit(digits)).isEqualTo(full.charAt(full.length() - 1) - '0');
  }

  @Property(tries = 500)
  void anySingleDigitChangeInvalidatesAValidNumber(
      @ForAll("payloads") String payload,
      @ForAll @IntRange(min = 0, max = 18) int position,
      @ForAll @IntRange(min = 1, max = 9) int delta) {
    String valid = completeWithReference(payload);
    int pos = position % valid.length();
    char changed = (char) ('0' + (valid.charAt(pos) - '0' + delta) % 10);
    String broken = valid.substring(0, pos) + changed + valid.substring(pos + 1);
    assertThat(Luhn.isValid(valid)).isTrue();
    assertThat(Luhn.isValid(broken)).isFalse();
  }

  @Property(tries = 300)
  void detectorFindsValidCardsWithSeparatorsAndRejectsBrokenOnes(
      @ForAll @IntRange(min = 2, max = 6) int first,
      @ForAll("payloads") String rest,
      @ForAll @IntRange(min = 0, max = 2) int separatorKind) {
    String valid = completeWithReference(first + rest.substring(1));
    String sep = separatorKind == 0 ? "" : separatorKind == 1 ? " " : "-";
    StringBuilder grouped = new StringBuilder();
    for (int i = 0; i < valid.length(); i++) {
      if (i > 0 && i % 4 == 0) {
        grouped.append(sep);
      }
      grouped.append(valid.charAt(i));
    }
    PiiDetector cards = PiiDetector.of(EnumSet.of(PiiKind.CREDIT_CARD));
    List<SecretMatch> found = cards.detect("pay with " + grouped + " today");
    assertThat(found).extracting(SecretMatch::value).containsExactly(valid);
    String last = valid.substring(valid.length() - 1);
    String wrong = valid.substring(0, valid.length() - 1) + (char) ('0' + (last.charAt(0) - '0' + 1) % 10);
    assertThat(cards.detect("pay with " + wrong + " today")).isEmpty();
  }
}
