package dev.secpe.core.secret;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.secpe.llm.Locality;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The digest that binds a checkpoint and the journal to a detector's whole configuration. */
class DetectorDigestTest {

  @Test
  void digestIsTheTaggedSha256OfTheConfiguration() throws Exception {
    SecretDetector d = DictionaryDetector.of(List.of("falcon"));
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    byte[] expected =
        md.digest(("secpe-secret-detector-configuration-v1\n" + d.configuration()).getBytes(StandardCharsets.UTF_8));
    assertEquals("sha256:" + HexFormat.of().formatHex(expected), SecretDetectors.digest(d));
  }

  @Test
  void sameNameAndTermCountButOtherTermsDiffer() {
    // Issue 50, case 2: two terms files of one name and length were one detector to a resume.
    SecretDetector a = DictionaryDetector.of(List.of("alpha", "bravo", "charlie"));
    SecretDetector b = DictionaryDetector.of(List.of("alpha", "bravo", "delta"));
    assertEquals(a.name(), b.name());
    assertNotEquals(SecretDetectors.digest(a), SecretDetectors.digest(b));
  }

  @Test
  void termOrderAndSpellingOfTheSameTermsDoNotMatter() {
    SecretDetector a = DictionaryDetector.of(List.of("Project  Falcon", "bravo"));
    SecretDetector b = DictionaryDetector.of(List.of("bravo", "project falcon"));
    assertEquals(SecretDetectors.digest(a), SecretDetectors.digest(b));
  }

  @Test
  void kindChangesTheDigest() {
    assertNotEquals(
        SecretDetectors.digest(DictionaryDetector.of("client", List.of("falcon"))),
        SecretDetectors.digest(DictionaryDetector.of("project", List.of("falcon"))));
  }

  @Test
  void piiKindsChangeTheDigest() {
    assertNotEquals(
        SecretDetectors.digest(PiiDetector.all()),
        SecretDetectors.digest(PiiDetector.of(EnumSet.of(PiiKind.EMAIL))));
    assertEquals(SecretDetectors.digest(PiiDetector.all()), SecretDetectors.digest(PiiDetector.all()));
  }

  @Test
  void compositeDependsOnEveryPartAndTheirOrderDoesNot() {
    SecretDetector terms = DictionaryDetector.of(List.of("falcon"));
    SecretDetector other = DictionaryDetector.of(List.of("eagle"));
    String ab = SecretDetectors.digest(SecretDetectors.composite(PiiDetector.all(), terms));
    assertNotEquals(ab, SecretDetectors.digest(SecretDetectors.composite(PiiDetector.all(), other)));
    assertNotEquals(ab, SecretDetectors.digest(terms));
  }

  @Test
  void everyBuiltInNamesTheTextViewItMatchesOn() {
    // A change of the view changes what every built-in finds: it must change their digests.
    String view = "view=" + TextView.VERSION;
    SecretDetector words =
        RandomWordSecrets.builder().publicTexts(List.of("alpha bravo charlie")).count(1).build();
    for (SecretDetector d : List.of(PiiDetector.all(), DictionaryDetector.of(List.of("falcon")), words)) {
      assertTrue(d.configuration().contains(view), d.name());
    }
  }

  @Test
  void configurationNeverReachesToStringOrTheDigestsText() {
    SecretDetector d = DictionaryDetector.of(List.of("zanzibar"));
    assertTrue(d.configuration().contains("zanzibar"));
    assertFalse(d.toString().contains("zanzibar"));
    assertFalse(SecretDetectors.digest(d).contains("zanzibar"));
  }

  @Test
  void defaultConfigurationNamesTheClassAndName() {
    SecretDetector custom =
        new SecretDetector() {
          @Override
          public String name() {
            return "mine";
          }

          @Override
          public Locality locality() {
            return Locality.LOCAL;
          }

          @Override
          public List<SecretMatch> detect(String text) {
            return List.of();
          }
        };
    assertEquals(custom.getClass().getName() + "|mine", custom.configuration());
  }

  @Test
  void configurationOfCannotBeConfusedByPartsThatHoldTheSeparator() {
    assertNotEquals(
        SecretDetectors.configurationOf("k", List.of("a;b")),
        SecretDetectors.configurationOf("k", List.of("a", "b")));
  }
}
