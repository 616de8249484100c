package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DictionaryDetectorTest {

  @Test
  void caseInsensitiveWholeWordsWithNormalisedValues() {
    DictionaryDetector d = DictionaryDetector.of("project", List.of("Falcon", "Project  Blue Sky", "ÉCOLE"));
    List<SecretMatch> m =
        d.detect("FALCON launch; falconry no; project blue\n sky yes; malfalcon no; école oui; falcon_x no");
    assertThat(m).extracting(SecretMatch::value).containsExactly("falcon", "project blue sky", "école");
    assertThat(m).extracting(SecretMatch::kind).containsOnly("project");
    assertThat(m.get(0).start()).isZero();
    assertThat(d.toString()).doesNotContain("falcon");
  }

  @Test
  void longerTermsWinOverlaps() {
    DictionaryDetector d = DictionaryDetector.of(List.of("new", "new york"));
    assertThat(d.detect("New York and new")).extracting(SecretMatch::value).containsExactly("new york", "new");
  }

  @Test
  void regexMetacharactersAreLiteral() {
    DictionaryDetector d = DictionaryDetector.of(List.of("a.b", "c+"));
    assertThat(d.detect("axb a.b c+ cc")).extracting(SecretMatch::value).containsExactly("a.b", "c+");
  }

  @Test
  void validation() {
    assertThatThrownBy(() -> DictionaryDetector.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dictionary needs at least one term");
    assertThatThrownBy(() -> DictionaryDetector.of(List.of("ok", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dictionary term 1 is blank");
    // A term of invisible characters only is no term in the view the detector matches on.
    assertThatThrownBy(() -> DictionaryDetector.of(List.of("ok", "\u200B\u00AD")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dictionary term 1 is blank once invisible characters are removed");
  }
}
