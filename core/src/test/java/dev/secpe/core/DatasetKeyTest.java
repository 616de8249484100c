package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The journal's dataset key, against its written definition computed here with the JDK's SHA-256
 * alone, and the parts a store that keeps its records elsewhere (Spark) computes it from.
 */
class DatasetKeyTest {

  private static byte[] sha(byte[] b) throws Exception {
    return MessageDigest.getInstance("SHA-256").digest(b);
  }

  /** The SHA-256 of each text (given in NFC) as UTF-8, sorted as unsigned bytes. */
  private static List<byte[]> sortedDigests(List<String> texts) throws Exception {
    List<byte[]> each = new ArrayList<>();
    for (String t : texts) {
      each.add(sha(t.getBytes(StandardCharsets.UTF_8)));
    }
    each.sort(Arrays::compareUnsigned);
    return each;
  }

  /** By hand: sha256(len(tag) as 4 bytes | tag | count as 8 bytes | the sorted text digests). */
  private static byte[] byHand(String tagText, List<byte[]> sorted) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    byte[] tag = tagText.getBytes(StandardCharsets.UTF_8);
    md.update(new byte[] {0, 0, 0, (byte) tag.length});
    md.update(tag);
    md.update(new byte[] {0, 0, 0, 0, 0, 0, 0, (byte) sorted.size()});
    sorted.forEach(md::update);
    return md.digest();
  }

  @Test
  void theKeyIsTheDigestOfTheTagTheCountAndTheSortedTextDigests() throws Exception {
    List<String> texts = List.of("bravo", "alpha", "alpha", "Ünïcode");
    List<byte[]> each = sortedDigests(texts);
    String expected = HexFormat.of().formatHex(byHand("secpe-dataset-multiset-v1", each));

    assertThat(DatasetKey.of(texts)).isEqualTo(expected);
    List<PrivateRecord> records = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      records.add(PrivateRecord.of("r" + i, texts.get(i), Label.of(i % 2 == 0 ? "ham" : "spam")));
    }
    assertThat(PrivateDataset.of(records).datasetKey()).isEqualTo(expected);
    // Streamed from sorted parts, as a cluster gives them.
    assertThat(DatasetKey.ofSorted(4, each.iterator())).isEqualTo(expected);
    // One copy fewer is another dataset.
    assertThat(DatasetKey.of(List.of("bravo", "alpha", "Ünïcode"))).isNotEqualTo(expected);
  }

  @Test
  void theSecretIdKeyIsTheSameDigestUnderItsOwnTagAndAnyOrderGivesIt() throws Exception {
    // As the dataset key, with the tag "secpe-secret-id-key-v1", as raw bytes.
    List<String> texts = List.of("bravo", "alpha", "alpha", "charlie");
    List<byte[]> each = sortedDigests(texts);
    byte[] expected = byHand("secpe-secret-id-key-v1", each);

    assertThat(DatasetKey.keys(texts).secretIdKey()).isEqualTo(expected);
    assertThat(DatasetKey.keys(List.of("charlie", "alpha", "bravo", "alpha")).secretIdKey()).isEqualTo(expected);
    assertThat(DatasetKey.keysOfSorted(4, each.iterator()).secretIdKey()).isEqualTo(expected);
    // One pass gives both keys: the dataset key is the one of() gives.
    assertThat(DatasetKey.keys(texts).datasetKey()).isEqualTo(DatasetKey.of(texts));
    List<PrivateRecord> records = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      records.add(PrivateRecord.of("r" + i, texts.get(i), Label.of("ham")));
    }
    assertThat(PrivateDataset.of(records).secretIdKey()).isEqualTo(expected);
    // The dataset key, which names the journal, is another digest: it does not give this key.
    assertThat(HexFormat.of().formatHex(expected)).isNotEqualTo(DatasetKey.of(texts));
  }

  @Property(tries = 200)
  void sortingTheHexDigestsSortsTheDigestsAndAnyOrderGivesOneKey(@ForAll @Size(max = 12) List<String> texts) {
    List<String> hex = new ArrayList<>();
    texts.forEach(t -> hex.add(DatasetKey.textDigestHex(t)));
    Collections.sort(hex);
    List<byte[]> bytes = new ArrayList<>();
    hex.forEach(h -> bytes.add(HexFormat.of().parseHex(h)));
    String key = DatasetKey.ofSorted(texts.size(), bytes.iterator());
    assertThat(key).isEqualTo(DatasetKey.of(texts));
    List<String> shuffled = new ArrayList<>(texts);
    Collections.shuffle(shuffled, new Random(texts.size()));
    assertThat(DatasetKey.of(shuffled)).isEqualTo(key);
  }

  @Test
  void aTextIsDigestedInUnicodeNfcSoComposedAndDecomposedAccentsAreOneRecord() throws Exception {
    String composed = "caf\u00e9 na\u00efve";      // é and ï as one code point each (NFC)
    String decomposed = "cafe\u0301 nai\u0308ve";  // e + combining acute, i + combining diaeresis (NFD)
    assertThat(composed).isNotEqualTo(decomposed);
    // By hand: the SHA-256 of the composed form's UTF-8 bytes (c3 a9 for é, c3 af for ï).
    byte[] nfcBytes = {'c', 'a', 'f', (byte) 0xC3, (byte) 0xA9, ' ', 'n', 'a', (byte) 0xC3, (byte) 0xAF, 'v', 'e'};
    assertThat(DatasetKey.textDigest(decomposed)).isEqualTo(sha(nfcBytes));
    assertThat(DatasetKey.textDigest(composed)).isEqualTo(sha(nfcBytes));
    assertThat(DatasetKey.of(List.of(decomposed, "x"))).isEqualTo(DatasetKey.of(List.of("x", composed)));
  }

  @Test
  void streamedDigestsMustBeSortedWholeAndCounted() {
    byte[] a = DatasetKey.textDigest("a");
    byte[] b = DatasetKey.textDigest("b");
    byte[] lo = Arrays.compareUnsigned(a, b) < 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    assertThatThrownBy(() -> DatasetKey.ofSorted(2, List.of(hi, lo).iterator()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascending order, digest 1");
    assertThatThrownBy(() -> DatasetKey.ofSorted(3, List.of(lo, hi).iterator()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count=3 for 2");
    assertThatThrownBy(() -> DatasetKey.ofSorted(1, List.of(new byte[31]).iterator()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 31 bytes");
    assertThatThrownBy(() -> DatasetKey.ofSorted(-1, List.<byte[]>of().iterator()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count=-1");
  }
}
