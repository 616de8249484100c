package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A builder prints the settings it holds (a log line, a debugger), never a record's text. */
class BuilderToStringTest {

  @Test
  void showsTheSharedSettingsAndNoPrivateText() {
    String s = AugPE.builder()
        .privateData(Fixtures.privateData(40))
        .publicData(Fixtures.publicData(30))
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .syntheticSize(8)
        .iterations(2)
        .nonPrivate()
        .toString();
    assertThat(s).startsWith("AugPE.Builder{privateData=40 records, publicData=30 records, generator=")
        .contains("syntheticSize=8", "iterations=2", "nonPrivate");
    // Records appear as a count only: no record, id or text.
    assertThat(s).doesNotContain("PrivateText").doesNotContain("PrivateRecord");
  }
}
