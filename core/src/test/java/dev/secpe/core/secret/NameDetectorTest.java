package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NameDetectorTest {

  private static final NameDetector NAMES = NameDetector.create();

  private static List<String> values(String text) {
    return NAMES.detect(text).stream().map(SecretMatch::value).toList();
  }

  /** Values by the class's rule: given name and surname, lower-cased; middle names, titles dropped. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Hi Ann, the March invoice is attached. | ann",
        "Priya Patel reported the outage. | priya patel",
        "Please ask Mr. Smith to call back. | smith",
        "Dr Jane Okafor signed the form. | jane okafor",
        "John F. Kennedy airport | john kennedy",
        "Mary Ellen Parker called twice. | mary parker",
        "Smith, John (account owner) | john smith",
        "Anne-Marie van der Berg wrote back | anne-marie van der berg",
        "CUSTOMER: JOHN SMITH | john smith",
        "José García paid | josé garcía",
        "Will Smith called | will smith",
        "Dear Okonkwo, thanks for writing. | okonkwo",
        "Thanks, Mark | mark",
      })
  void names(String text, String value) {
    assertThat(values(text)).containsExactly(value);
  }

  @Test
  void signatures() {
    assertThat(values("See you there.\nBest regards,\nTom Becker")).containsExactly("tom becker");
    assertThat(values("That is all.\n-- Karl")).containsExactly("karl");
  }

  /** A name's span is the name as written, title included. */
  @Test
  void spans() {
    String text = "Please ask Mr. Smith to call back.";
    SecretMatch m = NAMES.detect(text).get(0);
    assertThat(text.substring(m.start(), m.end())).isEqualTo("Mr. Smith");
    assertThat(m.kind()).isEqualTo("name");
    assertThat(m.toString()).doesNotContain("mith");
  }

  /** Ambiguous given names (common words), months and capitalised phrases are not names alone. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "Will you send it today?",
        "May I ask what happened?",
        "Grace period ends in April.",
        "We stayed at the Rose Garden Hotel.",
        "Chase Bank statement attached",
        "Mark the ticket as resolved.",
        "Dear Customer, your order has shipped.",
        "Hi Team, the deploy is done.",
        "The Summer Sale starts June 3.",
        "Mail Chris.Garrigues@DeepEddy.Com today",
        "the server is down again",
      })
  void notNames(String text) {
    assertThat(NAMES.detect(text)).isEmpty();
  }

  @Test
  void serializesAndFindsTheSameAfterwards() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(NAMES);
    }
    SecretDetector back;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      back = (SecretDetector) in.readObject();
    }
    String text = "Priya Patel reported the outage.";
    assertThat(back.detect(text)).isEqualTo(NAMES.detect(text));
  }

  @Test
  void itsConfigurationNamesItsListsAndIsNotPiis() {
    assertThat(NAMES.configuration()).startsWith("names[").contains("rules=" + NameDetector.RULES_VERSION);
    assertThat(SecretDetectors.digest(NAMES)).isEqualTo(SecretDetectors.digest(NameDetector.create()));
    assertThat(SecretDetectors.digest(NAMES)).isNotEqualTo(SecretDetectors.digest(PiiDetector.all()));
  }
}
