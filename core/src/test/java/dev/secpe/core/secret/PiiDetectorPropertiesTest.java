package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class PiiDetectorPropertiesTest {

  /** Text over an alphabet rich in the characters the patterns care about. */
  @Provide
  Arbitrary<String> noisyText() {
    return Arbitraries.strings()
        .withChars("0123456789abcdefABCDEF.:-+@/() _%\nwhtpsx")
        .ofMaxLength(300);
  }

  @Property(tries = 500)
  void spansAreInsideTheTextSortedAndDeterministic(@ForAll("noisyText") String text) {
    List<SecretMatch> a = PiiDetector.all().detect(text);
    List<SecretMatch> b = PiiDetector.all().detect(text);
    assertThat(a).isEqualTo(b);
    for (int i = 0; i < a.size(); i++) {
      SecretMatch m = a.get(i);
      assertThat(m.start()).isBetween(0, text.length());
      assertThat(m.end()).isBetween(m.start() + 1, text.length());
      assertThat(m.value()).isNotEmpty();
      if (i > 0) {
        assertThat(m.start()).isGreaterThanOrEqualTo(a.get(i - 1).start());
      }
    }
  }

  @Property(tries = 300)
  void aPlantedAddressIsFoundBetweenSpaces(
      @ForAll("noisyText") String before, @ForAll("noisyText") String after) {
    String address = "jane.doe@example.org";
    String text = before + " " + address + " " + after;
    assertThat(PiiDetector.all().detect(text))
        .anySatisfy(
            m -> {
              assertThat(m.kind()).isEqualTo("email");
              assertThat(m.value()).isEqualTo(address);
            });
  }
}
