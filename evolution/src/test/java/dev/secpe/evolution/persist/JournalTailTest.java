package dev.secpe.evolution.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal's last line without its newline is repaired only where it is what a crash leaves, a
 * strict prefix of the one entry being written (issue 50, case 1). Before, any tail was cut off as
 * "an entry a crash left half-written": NUL bytes over acknowledged entries (a limit, a finished
 * run) were cut off and the run went on without the limit, and a zeroed file was "repaired" into a
 * journal with no dataset line.
 */
class JournalTailTest {

  private static final String KEY = "k".repeat(64);

  /** A journal of three entries (dataset, limit, charge-like), its bytes. */
  private static Path journal(Path root) throws Exception {
    try (JournalFile f = JournalFile.openLocked(root, KEY, Duration.ZERO, "test")) {
      f.append(JournalFile.json().createObjectNode().put("type", "dataset").put("key", KEY).put("records", 3));
      f.append(JournalFile.json().createObjectNode().put("type", "limit").put("by", "Zoë 日本").put("epsilon", 1.0));
      f.append(JournalFile.json().createObjectNode().put("type", "end").put("status", "finished"));
    }
    return JournalFile.dirOf(root, KEY).resolve(JournalFile.FILE);
  }

  /** The line (without newline) of entry {@code seq} (1-based). */
  private static byte[] line(byte[] journal, int seq) {
    int start = 0;
    for (int n = 1; ; n++) {
      int end = start;
      while (journal[end] != '\n') {
        end++;
      }
      if (n == seq) {
        return Arrays.copyOfRange(journal, start, end);
      }
      start = end + 1;
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void everyStrictPrefixOfTheNextEntryIsWhatACrashLeaves(@TempDir Path dir) throws Exception {
    byte[] all = Files.readAllBytes(journal(dir));
    // Entry 3 as the crash met it: after entries 1 and 2, seq 3, prev = the digest of line 2.
    byte[] third = line(all, 3);
    String prev = JournalFile.sha256(line(all, 2));
    // Entry 2 holds multi-byte characters: a cut inside one is a prefix too.
    byte[] second = line(all, 2);
    String prevOfSecond = JournalFile.sha256(line(all, 1));
    for (int cut = 1; cut < third.length; cut++) {
      assertThat(JournalTail.damage(Arrays.copyOf(third, cut), 3, prev)).as("cut at %d", cut).isEqualTo(-1);
    }
    for (int cut = 1; cut < second.length; cut++) {
      assertThat(JournalTail.damage(Arrays.copyOf(second, cut), 2, prevOfSecond)).as("cut at %d", cut).isEqualTo(-1);
    }
  }

  @Test
  void anythingElseIsDamageAtItsFirstByteThatCannotBeThere() throws Exception {
    String prev = "ab".repeat(32);
    byte[] head = ("{\"seq\":7,\"time\":\"2026-12-02T01:46:12.5Z\",\"prev\":\"" + prev + "\",").getBytes(StandardCharsets.UTF_8);
    byte[] entry = concat(head, "\"type\":\"limit\",\"by\":\"x\"}".getBytes(StandardCharsets.UTF_8));
    // NUL bytes where the entry should start (a zeroed region), or inside it.
    assertThat(JournalTail.damage(new byte[100], 7, prev)).isZero();
    byte[] nulInside = Arrays.copyOf(entry, entry.length - 1);
    nulInside[head.length + 3] = 0;
    assertThat(JournalTail.damage(nulInside, 7, prev)).isEqualTo(head.length + 3);
    // Another sequence number: {"seq":7 vs {"seq":9, the 8th byte.
    assertThat(JournalTail.damage(Arrays.copyOf(entry, 20), 9, prev)).isEqualTo(7);
    // Another chain: the prev digest differs at its first character.
    int prevAt = head.length - prev.length() - 2;
    assertThat(JournalTail.damage(entry, 7, "cd".repeat(32))).isEqualTo(prevAt);
    // A tail written as the old tests did, not as the journal writes: "type" right after "seq".
    byte[] old = "{\"seq\":7,\"type\":\"limit\",\"eps".getBytes(StandardCharsets.UTF_8);
    assertThat(JournalTail.damage(old, 7, prev)).isEqualTo(11);
    // A byte that is not UTF-8 in the body.
    byte[] notUtf8 = concat(head, new byte[] {'"', 't', (byte) 0xFF, 'x'});
    assertThat(JournalTail.damage(notUtf8, 7, prev)).isEqualTo(head.length + 2);
    // A complete entry with more after it (two entries glued, no newline).
    byte[] glued = concat(entry, "{\"seq\":8".getBytes(StandardCharsets.UTF_8));
    assertThat(JournalTail.damage(glued, 7, prev)).isEqualTo(entry.length);
    // JSON broken inside the body: a bare word where a value must be.
    byte[] word = concat(head, "\"type\":limit".getBytes(StandardCharsets.UTF_8));
    assertThat(JournalTail.damage(word, 7, prev)).isGreaterThanOrEqualTo(head.length + 7);
    // A time with a character no Instant holds.
    byte[] time = "{\"seq\":7,\"time\":\"2026-12-02 01".getBytes(StandardCharsets.UTF_8);
    assertThat(JournalTail.damage(time, 7, prev)).isEqualTo(27);
  }

  @Test
  void aTornEntryIsCutOffAndJournalledAsARepair(@TempDir Path dir) throws Exception {
    Path file = journal(dir);
    byte[] all = Files.readAllBytes(file);
    String prev = JournalFile.sha256(line(all, 3));
    byte[] torn = ("{\"seq\":4,\"time\":\"2026-12-02T01:46:12Z\",\"prev\":\"" + prev + "\",\"type\":\"lim")
        .getBytes(StandardCharsets.UTF_8);
    Files.write(file, concat(all, torn));
    try (JournalFile f = JournalFile.openLocked(dir, KEY, Duration.ZERO, "test")) {
      assertThat(f.repairs()).singleElement().asString().contains("cut off " + torn.length + " bytes");
      List<ObjectNode> entries = f.entries();
      assertThat(entries).hasSize(4);
      assertThat(entries.get(3).path("type").asText()).isEqualTo("repair");
    }
    assertThat(Arrays.copyOf(Files.readAllBytes(file), all.length)).isEqualTo(all);
  }

  @Test
  void nulBytesAfterTheFirstLineStopReadsAndRunsNamingTheOffset(@TempDir Path dir) throws Exception {
    Path file = journal(dir);
    byte[] all = Files.readAllBytes(file);
    int firstLine = line(all, 1).length + 1;
    byte[] damaged = all.clone();
    Arrays.fill(damaged, firstLine, damaged.length, (byte) 0);
    Files.write(file, damaged);
    assertThatThrownBy(() -> JournalFile.read(dir, KEY))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged from byte " + firstLine + " on (of " + all.length + " bytes)")
        .hasMessageContaining("NUL bytes")
        .hasMessageContaining("restore the journal from a backup");
    assertThatThrownBy(() -> JournalFile.openLocked(dir, KEY, Duration.ZERO, "test"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged from byte " + firstLine)
        .hasMessageContaining("nothing was drawn");
    assertThat(Files.readAllBytes(file)).isEqualTo(damaged);
  }

  @Test
  void aZeroedJournalIsRefusedNeverRepairedIntoOneWithoutItsDatasetLine(@TempDir Path dir) throws Exception {
    Path file = journal(dir);
    byte[] zero = new byte[(int) Files.size(file)];
    Files.write(file, zero);
    assertThatThrownBy(() -> JournalFile.openLocked(dir, KEY, Duration.ZERO, "test"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged from byte 0 on");
    assertThatThrownBy(() -> JournalFile.read(dir, KEY)).hasMessageContaining("damaged from byte 0 on");
    assertThat(Files.readAllBytes(file)).isEqualTo(zero);
  }

  @Test
  void aDamagedCompleteLineNamesItsOffset(@TempDir Path dir) throws Exception {
    Path file = journal(dir);
    byte[] all = Files.readAllBytes(file);
    int second = line(all, 1).length + 1;
    byte[] edited = all.clone();
    edited[second + 3] = 'X';
    Files.write(file, edited);
    assertThatThrownBy(() -> JournalFile.read(dir, KEY))
        .hasMessageContaining("damaged from byte " + second + " on")
        .hasMessageContaining("damaged or was edited at entry 2");
  }
}
