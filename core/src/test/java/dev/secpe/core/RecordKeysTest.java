package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecordKeysTest {

  @Test
  void aKeyDependsOnTheRecordAndTheSeedNotOnItsPosition() {
    PrivateRecord a = PrivateRecord.of("a", "alpha text", Label.of("ham"));
    PrivateRecord b = PrivateRecord.of("b", "bravo text", Label.of("ham"));
    PrivateRecord c = PrivateRecord.of("c", "charlie text", Label.of("spam"));
    long[] abc = PrivateTexts.recordKeys(PrivateDataset.of(List.of(a, b, c)), 5);
    long[] cb = PrivateTexts.recordKeys(PrivateDataset.of(List.of(c, b)), 5);
    // With a removed and the order changed, b and c keep their keys.
    assertThat(cb[0]).isEqualTo(abc[2]);
    assertThat(cb[1]).isEqualTo(abc[1]);
    assertThat(abc[0]).isNotEqualTo(abc[1]);
    // The label is part of the record; the seed is the key.
    long[] relabelled = PrivateTexts.recordKeys(PrivateDataset.of(List.of(PrivateRecord.of("a", "alpha text", Label.of("spam")))), 5);
    assertThat(relabelled[0]).isNotEqualTo(abc[0]);
    assertThat(PrivateTexts.recordKeys(PrivateDataset.of(List.of(a)), 6)[0]).isNotEqualTo(abc[0]);
  }
}
