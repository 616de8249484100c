package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PiiDetectorTest {

  private static List<SecretMatch> find(PiiKind kind, String text) {
    return PiiDetector.of(EnumSet.of(kind)).detect(text);
  }

  private static List<String> values(PiiKind kind, String text) {
    return find(kind, text).stream().map(SecretMatch::value).toList();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Mail Chris.Garrigues@DeepEddy.Com today | chris.garrigues@deepeddy.com",
        "<cwg-dated-1030377287.06fa6d@deepeddy.com> | cwg-dated-1030377287.06fa6d@deepeddy.com",
        "(me+tag@sub.example.co.uk). | me+tag@sub.example.co.uk",
        "x_y%z@a-b.io, | x_y%z@a-b.io",
      })
  void emailPositives(String text, String value) {
    assertThat(values(PiiKind.EMAIL, text)).containsExactly(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"user@localhost", "@example.com", "a@b", "price 5@3.50", "foo@bar.c"})
  void emailNegatives(String text) {
    assertThat(find(PiiKind.EMAIL, text)).isEmpty();
  }

  /**
   * Values are E.164, worked by hand from each country's plan: the trunk 0 of a national number
   * (Berlin's (0)30, London's 020) is not part of it, the country code is.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Call (212) 555-0142 now | +12125550142",
        "Call 212-555-0142. | +12125550142",
        "tel 212.555.0142 | +12125550142",
        "tel: 212 555 0142 | +12125550142",
        "Toll free 1-800-555-0199! | +18005550199",
        "US +1 212 555 0142 | +12125550142",
        "London +44 20 7946 0958 | +442079460958",
        "Berlin +49 (0)30 1234567 | +49301234567",
        "Paris +33 1 23 45 67 89 | +33123456789",
        "Compact +4915112345678 | +4915112345678",
        // Issue 50, case 5: what the regular expressions missed.
        "Call me on 4155550134 any time | +14155550134",
        "London office 020 7946 0958 | +442079460958",
        "Berlin 0049 30 1234567 | +49301234567",
        "Berlin 030/1234567 | +49301234567",
        "Office: 415-555-0134 ext. 12 | +14155550134",
        "from the US dial 011 44 20 7946 0958 | +442079460958",
        "Call ４１５-５５５-０１３４ | +14155550134",
        "Call 415–555–0134 | +14155550134",
        // A local number has no area code: its value is its seven digits, no country.
        "Call me on 555-0142 if anything is off. | 5550142",
      })
  void phonePositives(String text, String value) {
    assertThat(values(PiiKind.PHONE, text)).containsExactly(value);
  }

  /** One number is one secret however it is written. */
  @Test
  void oneNumberOneValue() {
    List<String> london =
        List.of("+44 20 7946 0958", "020 7946 0958", "0044 20 7946 0958", "+44.20.7946.0958", "+442079460958");
    for (String s : london) {
      assertThat(values(PiiKind.PHONE, "call " + s + " today")).as(s).containsExactly("+442079460958");
    }
    List<String> sf =
        List.of("4155550134", "415-555-0134", "(415) 555-0134", "415.555.0134", "+1 415 555 0134", "1-415-555-0134");
    for (String s : sf) {
      assertThat(values(PiiKind.PHONE, "call " + s + " today")).as(s).containsExactly("+14155550134");
    }
  }

  /**
   * Recall first (issue 50): a bare 10-digit number that fits the North American plan is a phone
   * number, so "order 2125550142" is flagged (it was not before); so is a 9-digit group that is a
   * Polish number ("123-456-789") and "(012) 555-0142", a valid British number (01255 is Clacton).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "In 2002 we had 1999 members and 20000 dollars",
        "Date: Wed, 21 Aug 2002 10:54:46 -0500",
        "ip 192.168.100.200 here",
        "version 1.2.3",
        "+1 23", // too few digits
        "4111 1111 1111 1111",
        "Due 2024-03-15.",
        "Shipped on 15/03/2024.",
        "Filed 03.15.2024 by the clerk",
        "served 1999-2005",
        "Order #1234567 shipped", // seven digits, but no North American exchange starts with 1
        "at 37.7749, -122.4194",
        // Digits inside URLs and identifiers, and columns of decimals (bundled e-mails).
        "see http://news.bbc.co.uk/1/hi/world/africa/2240487.stm today",
        "http://www.zdnet.co.uk/story/0,,t269-s2121250,00.html",
        "Link: http://boingboing.net/#85483723",
        "click http://www.newsisfree.com/click/-1,8640496,1440/",
        "scores 0.455 2.727 and 0.14 0.18 0.17",
        "total false pos 4 0.363636363636",
      })
  void phoneNegatives(String text) {
    assertThat(find(PiiKind.PHONE, text)).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "see http://www.example.com/a?b=1. | http://www.example.com/a?b=1",
        "(https://Example.org/Path) | https://example.org/path",
        "visit www.spamassassin.org, now | www.spamassassin.org",
        "ftp://ftp.rpmfind.net/linux | ftp://ftp.rpmfind.net/linux",
      })
  void urlPositives(String text, String value) {
    assertThat(values(PiiKind.URL, text)).containsExactly(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"http:// nothing", "a www. b", "mailto user", "example.com alone"})
  void urlNegatives(String text) {
    assertThat(find(PiiKind.URL, text)).isEmpty();
  }

  @Test
  void ipv4() {
    assertThat(values(PiiKind.IPV4, "from 192.168.0.1 and 10.0.0.255.")).containsExactly("192.168.0.1", "10.0.0.255");
    assertThat(find(PiiKind.IPV4, "256.1.1.1 1.2.3 1.2.3.4.5 01.2.3.4 2002.08.21.10")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "addr 2001:db8::1 ok | 2001:0db8:0000:0000:0000:0000:0000:0001",
        "FE80:0:0:0:202:B3FF:FE1E:8329 | fe80:0000:0000:0000:0202:b3ff:fe1e:8329",
        "mapped ::ffff:192.0.2.128 | 0000:0000:0000:0000:0000:ffff:c000:0280",
        "2001:db8:85a3::8a2e:370:7334. | 2001:0db8:85a3:0000:0000:8a2e:0370:7334",
      })
  void ipv6Positives(String text, String value) {
    assertThat(values(PiiKind.IPV6, text)).containsExactly(value);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "at 10:54:46 -0500",
        "ratio 1:2:3",
        "a::b::c",
        "12345::1",
        "1:2:3:4:5:6:7:8:9",
        "deadbeef:cafe",
        "foo::",
      })
  void ipv6Negatives(String text) {
    assertThat(find(PiiKind.IPV6, text)).isEmpty();
  }

  /** Published test card numbers (PayPal/Braintree/Stripe documentation): all Luhn-valid. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Visa 4111 1111 1111 1111 | 4111111111111111",
        "Visa 4012888888881881 | 4012888888881881",
        "MC 5555-5555-5555-4444 | 5555555555554444",
        "MC 5105105105105100 | 5105105105105100",
        "MC2 2223003122003222 | 2223003122003222",
        "Amex 3782 822463 10005 | 378282246310005",
        "Amex 371449635398431 | 371449635398431",
        "Discover 6011111111111117 | 6011111111111117",
        "Discover 6011 0009 9013 9424 | 6011000990139424",
        "Diners 30569309025904 | 30569309025904",
        "JCB 3530111333300000 | 3530111333300000",
      })
  void cardPositives(String text, String digits) {
    assertThat(values(PiiKind.CREDIT_CARD, text)).containsExactly(digits);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "4111 1111 1111 1112", // Luhn fails
        "5555555555554440", // Luhn fails
        "378282246310006",
        "4111-1111 1111-1111", // mixed separators
        "411111111111", // 12 digits: too short
        "1111111111111117", // starts with 1
        "99999999999999999995",
      })
  void cardNegatives(String text) {
    assertThat(find(PiiKind.CREDIT_CARD, text)).isEmpty();
  }

  @Test
  void allKindsTogetherAreSortedAndRedactedInToString() {
    String text =
        "Mail bob@example.org or see http://10.1.2.3/x, call +1 (415) 555-0100, card 4111111111111111";
    List<SecretMatch> all = PiiDetector.all().detect(text);
    assertThat(all).extracting(SecretMatch::kind).containsExactly("email", "url", "ipv4", "phone", "card");
    for (int i = 1; i < all.size(); i++) {
      assertThat(all.get(i).start()).isGreaterThanOrEqualTo(all.get(i - 1).start());
    }
    for (SecretMatch m : all) {
      assertThat(text.substring(m.start(), m.end()).toLowerCase()).isNotEmpty();
      assertThat(m.toString()).doesNotContain("bob").doesNotContain("4111").doesNotContain("555");
    }
  }
}
