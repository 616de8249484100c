package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class PrivateTextTest {

  private static final String PLANTED = "Alice's diagnosis: XK-4471 (do not share)";

  @Test
  void toStringIsRedactedAndShowsOnlyTheLength() {
    PrivateText t = PrivateText.of(PLANTED);
    assertThat(t.toString()).isEqualTo("PrivateText[redacted, " + PLANTED.length() + " chars]");
    assertThat(String.valueOf(t)).doesNotContain("Alice").doesNotContain("XK-4471");
    assertThat("record: " + t).doesNotContain("Alice");
    assertThat(String.format("%s", t)).doesNotContain("Alice");
  }

  @Test
  void recordsAndDatasetsDoNotPrintTheText() {
    PrivateRecord r = PrivateRecord.of("r1", PLANTED, Label.of("ham"));
    assertThat(r.toString()).contains("r1").contains("redacted").doesNotContain("Alice");
    assertThat(PrivateDataset.of(List.of(r)).toString()).doesNotContain("Alice");
    assertThat(List.of(r).toString()).doesNotContain("Alice");
  }

  // fault: `PrivateDataset.of` with a null record
  // holds: `IllegalArgumentException` naming the record's index (before: a bare `NullPointerException`)
  @Test
  void aNullRecordIsRefusedNamingItsIndex() {
    // Before: a bare NullPointerException from List.copyOf.
    java.util.List<PrivateRecord> records = new java.util.ArrayList<>();
    records.add(PrivateRecord.of("r1", PLANTED));
    records.add(null);
    assertThatThrownBy(() -> PrivateDataset.of(records))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("private dataset: record at index 1 is null");
  }

  @Test
  void exceptionMessagesBuiltFromARecordDoNotLeak() {
    PrivateRecord r = PrivateRecord.of("r1", PLANTED);
    IllegalStateException e = new IllegalStateException("cannot process " + r);
    assertThat(e.getMessage()).doesNotContain("Alice").doesNotContain("XK-4471");
    // A library validation failure on a dataset names the id and position only.
    assertThatThrownBy(() -> PrivateDataset.of(List.of(r, PrivateRecord.of("r1", "other text"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duplicate record id 'r1'")
        .hasMessageNotContaining("Alice");
  }

  @Test
  void jacksonCannotSerialiseTheText() {
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    PrivateRecord r = PrivateRecord.of("r1", PLANTED);
    String out;
    try {
      out = json.writeValueAsString(r);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      out = String.valueOf(e.getMessage());
    }
    assertThat(out).doesNotContain("Alice").doesNotContain("XK-4471");
  }

  @Test
  void blankTextIsRejectedWithoutEchoingIt() {
    assertThatThrownBy(() -> PrivateText.of("   \n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("private text must not be blank");
  }

  @Test
  void equalsAndHashCodeCompareContent() {
    assertThat(PrivateText.of("same")).isEqualTo(PrivateText.of("same"));
    assertThat(PrivateText.of("same").hashCode()).isEqualTo(PrivateText.of("same").hashCode());
    assertThat(PrivateText.of("same")).isNotEqualTo(PrivateText.of("Same"));
  }

  @Test
  void containedTermsReportsIndicesOfWholeWordMatchesOnly() {
    PrivateText t = PrivateText.of("The Falcon project shipped; falconry is unrelated. Red fox!");
    int[] hits = t.containedTerms(List.of("fox", "falcon", "eagle", "red fox", "project shipped", "fal"));
    assertThat(hits).containsExactly(0, 1, 3, 4);
    assertThat(t.wordCount()).isEqualTo(9); // The Falcon project shipped falconry is unrelated Red fox
  }

  @Test
  void mixedLabellingAndEmptyDatasetsAreRejected() {
    assertThatThrownBy(() -> PrivateDataset.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
    assertThatThrownBy(
            () ->
                PrivateDataset.of(
                    List.of(
                        PrivateRecord.of("a", "x", Label.of("spam")),
                        new PrivateRecord("b", PrivateText.of("y"), Optional.empty()))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 of 2 records are labelled");
  }

  @Property(tries = 300)
  void redactionNeverLeaksAnyText(@ForAll @StringLength(min = 6, max = 200) String text) {
    Assume.that(!text.isBlank());
    PrivateRecord r = new PrivateRecord("id-1", PrivateText.of(text), Optional.of(Label.of("l")));
    String template =
        "PrivateRecord[id=id-1, text=PrivateText[redacted, " + text.length() + " chars], label=Optional[l]]"
            + "PrivateDataset[1 records, labelled]";
    // A string that is part of our own fixed wording would be "found" without any leak.
    Assume.that(!template.contains(text));
    assertThat(r.text().toString()).doesNotContain(text);
    assertThat(String.valueOf(r)).doesNotContain(text);
    assertThat("x" + r + "y").doesNotContain(text);
    assertThat(PrivateDataset.of(List.of(r)).toString()).doesNotContain(text);
    assertThat(new RuntimeException("failed on " + r).getMessage()).doesNotContain(text);
  }
}
