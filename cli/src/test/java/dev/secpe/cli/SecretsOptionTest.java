package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.PublicCorpus;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretMatch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --secrets names} (issue 50, case 6): person names, alone or with {@code pii}. */
class SecretsOptionTest {

  private static final String TICKET = "Hi Ann, the March invoice is attached. Call me on 555-0142.";

  private static List<String> kinds(String spec) {
    SecretDetector d = SecretsOption.build(SecretsOption.parse(spec), PublicCorpus.ofTexts(List.of()));
    return d.detect(TICKET).stream().map(SecretMatch::kind).toList();
  }

  @Test
  void namesIsAnEntryOfItsOwnAndPiiDoesNotIncludeIt() {
    assertThat(kinds("names")).containsExactly("name");
    assertThat(kinds("pii")).containsExactly("phone");
    assertThat(kinds("pii,names")).containsExactly("name", "phone");
  }

  @Test
  void anUnknownEntryListsNames() {
    assertThatThrownBy(() -> SecretsOption.parse("person"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names");
  }
}
