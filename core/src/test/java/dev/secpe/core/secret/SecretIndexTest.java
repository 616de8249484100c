package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.llm.Locality;
import dev.secpe.llm.spi.ProviderConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SecretIndexTest {

  private static final byte[] KEY = "0123456789abcdef0123".getBytes(StandardCharsets.UTF_8);

  private static PrivateDataset data() {
    return PrivateDataset.of(
        List.of(
            PrivateRecord.of("r0", "write to alice@example.org or bob@example.org"),
            PrivateRecord.of("r1", "nothing here"),
            PrivateRecord.of("r2", "Bob@Example.org, call 212-555-0142, again bob@example.org"),
            PrivateRecord.of("r3", "only (212) 555-0142")));
  }

  @Test
  void theDigestNamesTheSecretsInIndexOrderAndTheKeyDecidesWhetherRunsAgree() throws Exception {
    SecretIndex idx =
        SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly(),
            SecretIndex.Granularity.VALUE, SecretIds.withKey(KEY));
    // By hand: SHA-256 of each id and a newline, in index order.
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    for (Secret s : idx.secrets()) {
      md.update((s.id() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    assertThat(idx.digest()).isEqualTo(HexFormat.of().formatHex(md.digest()));
    // The same records and key give the same name; another key, or other secrets, another.
    assertThat(SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly(),
            SecretIndex.Granularity.VALUE, SecretIds.withKey(KEY)).digest()).isEqualTo(idx.digest());
    assertThat(SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly()).digest()).isNotEqualTo(idx.digest());
    assertThat(SecretIndex.scan(data(), PiiDetector.of(Set.of(PiiKind.EMAIL)), PrivacyGuard.localOnly(),
            SecretIndex.Granularity.VALUE, SecretIds.withKey(KEY)).digest()).isNotEqualTo(idx.digest());
    // It names, it does not reveal: no secret's value is in it.
    assertThat(idx.digest()).doesNotContain("bob").hasSize(64);
  }

  @Test
  void shapeIsWhatSecretNoiseTakes() {
    SecretIndex idx =
        SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly(),
            SecretIndex.Granularity.VALUE, SecretIds.withKey(KEY));
    // First occurrence order: alice 0, bob 1, phone 2.
    List<int[]> rows = idx.secretsOfRecord();
    assertThat(rows).hasSize(4);
    assertThat(rows.get(0)).containsExactly(0, 1);
    assertThat(rows.get(1)).isEmpty();
    assertThat(rows.get(2)).containsExactly(1, 2); // ascending, no repeats
    assertThat(rows.get(3)).containsExactly(2);
    assertThat(idx.secretCount()).isEqualTo(3);
    assertThat(idx.recordsWithSecrets()).isEqualTo(3);
    assertThat(idx.holderCounts()).containsExactly(1, 2, 2);
    for (int[] r : rows) {
      for (int j : r) {
        assertThat(j).isBetween(0, idx.secretCount() - 1);
      }
    }
    // Defensive copies.
    rows.get(0)[0] = 42;
    assertThat(idx.secretsOf(0)).containsExactly(0, 1);
  }

  @Test
  void idsAreKeyedHashesAndNeverShowValues() {
    SecretIds ids = SecretIds.withKey(KEY);
    SecretIndex a =
        SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly(), SecretIndex.Granularity.VALUE, ids);
    SecretIndex b =
        SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly(), SecretIndex.Granularity.VALUE,
            SecretIds.withKey(KEY));
    SecretIndex c =
        SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly(), SecretIndex.Granularity.VALUE,
            SecretIds.withKey("another-key-of-16+bytes".getBytes(StandardCharsets.UTF_8)));
    assertThat(a.secrets()).isEqualTo(b.secrets());
    assertThat(a.secret(0).id()).isNotEqualTo(c.secret(0).id());
    assertThat(a.secret(0).id()).isEqualTo(ids.idOf("email", "alice@example.org"));
    assertThat(a.secret(0).id()).matches("email:[0-9a-f]{16}");
    // Independent value: python3 -c "import hmac,hashlib; print(hmac.new(
    //   b'0123456789abcdef0123', b'email\x00alice@example.org', hashlib.sha256).hexdigest()[:16])"
    assertThat(a.secret(0).id()).isEqualTo("email:b4397e75be6bfae6");
    String printed = a.secrets() + " " + a + " " + ids;
    assertThat(printed).doesNotContain("alice").doesNotContain("bob").doesNotContain("555");
    assertThat(printed).doesNotContain("0123456789abcdef");
    assertThatThrownBy(() -> SecretIds.withKey(new byte[8]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("secret id key must have >= 16 bytes, got 8");
  }

  @Test
  void kindGranularityMakesOneSecretPerKind() {
    SecretIndex idx =
        SecretIndex.scan(data(), PiiDetector.all(), PrivacyGuard.localOnly(), SecretIndex.Granularity.KIND,
            SecretIds.randomKey());
    assertThat(idx.secrets()).containsExactly(new Secret("email", "email"), new Secret("phone", "phone"));
    assertThat(idx.secretsOf(2)).containsExactly(0, 1);
  }

  @Test
  void remoteDetectorsAreRefusedUnlessAllowed() {
    PiiService remote =
        new PiiService() {
          @Override
          public String name() {
            return "cloud-dlp";
          }

          @Override
          public Locality locality() {
            return Locality.REMOTE;
          }

          @Override
          public List<PiiSpan> find(String text) {
            int at = text.indexOf("alice");
            return at < 0 ? List.of() : List.of(new PiiSpan("PERSON", at, at + 5));
          }
        };
    SecretDetector composite = SecretDetectors.composite(PiiDetector.all(), SecretDetectors.fromPiiService(remote));
    assertThat(composite.locality()).isEqualTo(Locality.REMOTE);
    assertThatThrownBy(() -> SecretIndex.scan(data(), composite, PrivacyGuard.localOnly()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("secret detector 'composite[pii-regex, cloud-dlp]' is REMOTE");
    SecretIndex idx =
        SecretIndex.scan(data(), composite, PrivacyGuard.localOnly().withRemoteSecretDetectionAllowed());
    assertThat(idx.secrets()).extracting(Secret::kind).containsExactly("person", "email", "email", "phone"); // sorted by start, then end
  }

  @Test
  void serviceSpansOutsideTheTextAreReportedWithoutText() {
    PiiService broken =
        new PiiService() {
          @Override
          public String name() {
            return "broken";
          }

          @Override
          public Locality locality() {
            return Locality.LOCAL;
          }

          @Override
          public List<PiiSpan> find(String text) {
            return List.of(new PiiSpan("X", 0, 10_000));
          }
        };
    assertThatThrownBy(
            () -> SecretIndex.scan(data(), SecretDetectors.fromPiiService(broken), PrivacyGuard.localOnly()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("secret detector 'broken' failed")
        .hasMessageNotContaining("alice");
  }

  @Test
  void providersAreFoundByServiceLoader() {
    assertThat(SecretDetectors.providers()).extracting(SecretDetectorProvider::name)
        .containsExactly("dictionary", "names", "pii-regex");
    assertThat(SecretDetectors.provider("names").create(ProviderConfig.of(Map.of())).detect("Hi Ann,"))
        .extracting(SecretMatch::kind)
        .containsExactly(NameDetector.KIND);
    SecretDetector emailsOnly =
        SecretDetectors.provider("pii-regex").create(ProviderConfig.of(Map.of("kinds", "email, ipv4")));
    assertThat(((PiiDetector) emailsOnly).kinds()).containsExactlyInAnyOrder(PiiKind.EMAIL, PiiKind.IPV4);
    SecretDetector dict =
        SecretDetectors.provider("dictionary").create(ProviderConfig.of(Map.of("terms", "falcon,blue sky")));
    assertThat(dict.detect("Blue Sky")).hasSize(1);
    assertThatThrownBy(() -> SecretDetectors.provider("presidio"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no secret detector provider named 'presidio'; found: [dictionary, names, pii-regex]");
    assertThatThrownBy(
            () -> SecretDetectors.provider("pii-regex").create(ProviderConfig.of(Map.of("kinds", "ssn"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown kind 'ssn'");
  }
}
