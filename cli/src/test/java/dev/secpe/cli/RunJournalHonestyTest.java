package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.evolution.persist.CheckpointStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The privacy journal is right about what it holds (issue 43, a hostile-but-honest sweep of
 * {@code secpe run} / {@code privacy spent} / {@code privacy limit}): seeded noise counts as
 * unbounded, a resume cannot switch noise modes, another dataset's journal is refused, an
 * append-only journal works, an unreadable journal is never read as "nothing spent", and totals
 * that cannot be composed say why.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunJournalHonestyTest {

  private static CliRun.Outcome spent(FaultRun f, String... extra) {
    List<String> a = new ArrayList<>(List.of("privacy", "spent", "--private", f.privateFile.toString()));
    if (!List.of(extra).contains("--journal")) {
      a.addAll(List.of("--journal", f.journal.toString()));
    }
    a.addAll(List.of(extra));
    return CliRun.execute(a);
  }

  private static CliRun.Outcome limit(FaultRun f, String... budget) {
    List<String> a = new ArrayList<>(List.of("privacy", "limit", "--private", f.privateFile.toString(),
        "--journal", f.journal.toString()));
    a.addAll(List.of(budget));
    return CliRun.execute(a);
  }

  /** The dataset's journal file, as {@code privacy spent} names it. */
  private static Path journalFile(FaultRun f) throws Exception {
    return Path.of(f.spent().path("journal").asText());
  }

  // fault: releases drawn with seeded, non-private noise (`secpe run --reproducible-noise 7` on the private data) counted as finite budget
  // holds: they count as unbounded: `privacy spent` and the run's report say `"bounded": false` with `epsilon` null and the number of `unprotected_releases`, and a warning on stderr; a dataset with a lifetime limit refuses such a run before it starts (exit 2, naming `--reproducible-noise`, nothing journalled), and a limit set after one refuses every later run (before: the journal's total said epsilon 2.0 of limit 5 and the seeded run exited 0)
  @Test
  void seededNoiseCountsAsUnboundedAndALimitedDatasetRefusesIt(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    CliRun.Outcome seeded = f.run("--reproducible-noise", "7");
    assertThat(seeded.code()).as(seeded.err()).isZero();
    assertThat(seeded.err()).contains("reproducible (seeded) noise").contains("unbounded");
    JsonNode spent = f.spent().path("spent");
    assertThat(spent.path("releases").asInt()).isPositive();
    assertThat(spent.path("bounded").asBoolean(true)).isFalse();
    assertThat(spent.path("epsilon").isNull()).isTrue();
    assertThat(spent.path("unprotected_releases").asInt()).isEqualTo(spent.path("releases").asInt());
    assertThat(spent.path("record_level").path("epsilon").isNull()).isTrue();
    JsonNode report = FaultRun.JSON.readTree(dir.resolve("report.json").toFile()).path("journal").path("spent");
    assertThat(report.path("bounded").asBoolean(true)).isFalse();
    assertThat(report.path("epsilon").isNull()).isTrue();

    // A limit set afterwards is passed already: said at once, and every later run is refused.
    CliRun.Outcome limited = limit(f, "--epsilon", "5", "--delta", "1e-5");
    assertThat(limited.code()).as(limited.err()).isZero();
    assertThat(limited.err()).contains("passes its lifetime limit");
    assertThat(f.spent().path("spent").path("over_limit").asBoolean(false)).isTrue();
    CliRun.Outcome secure = f.run("--out", dir.resolve("b.jsonl").toString(), "--report", dir.resolve("b.json").toString());
    assertThat(secure.code()).as(secure.err()).isEqualTo(2);
    assertThat(secure.err()).contains("already spent").contains("reproducible (seeded) noise").contains("nothing was drawn");

    // A dataset with a limit refuses a seeded run before it starts.
    FaultRun g = new FaultRun(Files.createDirectory(dir.resolve("limited")));
    assertThat(limit(g, "--epsilon", "5", "--delta", "1e-5").code()).isZero();
    CliRun.Outcome refused = g.run("--reproducible-noise", "7");
    assertThat(refused.code()).as(refused.err()).isEqualTo(2);
    assertThat(refused.err()).contains("lifetime budget (epsilon 5.0 at delta 1.0E-5)").contains("--reproducible-noise")
        .contains("nothing was drawn");
    assertThat(g.runs()).isZero();
    assertThat(g.spent().path("spent").path("bounded").asBoolean(false)).isTrue();
  }

  // fault: a resume that switches noise modes: a run with `--reproducible-noise 7 --checkpoint CK` resumed without it (its report then said `"noise": "secure", "private": true` over seeded releases), or a secure run resumed with it
  // holds: exit 2 before anything is drawn, naming both noise modes and `--reproducible-noise`; the checkpoint records its noise mode, and a checkpoint written before it did is refused by the journal, which records each run's noise; the same noise mode still resumes
  @Test
  void aResumeCannotSwitchNoiseModes(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    String ck = dir.resolve("ck").toString();
    assertThat(f.run("--reproducible-noise", "7", "--checkpoint", ck).code()).isZero();
    List<String> charged = f.charged();
    CliRun.Outcome secure = f.run("--checkpoint", ck, "--resume");
    assertThat(secure.code()).as(secure.err()).isEqualTo(2);
    assertThat(secure.err()).contains("drawn with reproducible (not private) noise").contains("--reproducible-noise")
        .contains("nothing was drawn");

    // A checkpoint that does not record its noise (written before it did): the journal knows.
    Path file = dir.resolve("ck").resolve(CheckpointStore.FILE);
    ObjectNode root = (ObjectNode) FaultRun.JSON.readTree(file.toFile());
    assertThat(root.remove("noise")).isNotNull();
    root.remove("integrity");
    root.put("integrity", HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-256").digest(FaultRun.JSON.writeValueAsBytes(root))));
    Files.write(file, FaultRun.JSON.writeValueAsBytes(root));
    CliRun.Outcome old = f.run("--checkpoint", ck, "--resume");
    assertThat(old.code()).as(old.err()).isEqualTo(2);
    assertThat(old.err()).contains("drawn with reproducible (not private) noise").contains("--reproducible-noise");
    assertThat(f.run("--checkpoint", ck, "--resume", "--reproducible-noise", "7").code()).isZero();

    // The reverse: a secure run resumed with seeded noise.
    String ck2 = dir.resolve("ck2").toString();
    assertThat(f.run("--checkpoint", ck2).code()).isZero();
    charged = f.charged();
    CliRun.Outcome seeded = f.run("--checkpoint", ck2, "--resume", "--reproducible-noise", "7");
    assertThat(seeded.code()).as(seeded.err()).isEqualTo(2);
    assertThat(seeded.err()).contains("drawn with secure noise").contains("part private, part reproducible");
    assertThat(f.charged()).isEqualTo(charged);
    assertThat(f.run("--checkpoint", ck2, "--resume").code()).isZero();
  }

  // fault: another dataset's journal over this one's: dataset A's `journal.jsonl` copied or symlinked into dataset B's directory (the wrong backup restored)
  // holds: `privacy spent` and `run` on B exit 2, "belongs to another dataset", naming the first 12 characters of both dataset keys; nothing is appended to A's journal (before: B used A's limit and history and appended B's runs to it)
  @Test
  void anotherDatasetsJournalIsRefusedNamingBothKeys(@TempDir Path dir) throws Exception {
    FaultRun a = new FaultRun(dir);
    assertThat(a.run().code()).isZero();
    FaultRun b = new FaultRun(Files.createDirectory(dir.resolve("b")));
    Files.write(b.privateFile, Files.readAllLines(b.privateFile).subList(0, 30));
    List<String> onA = List.of("--journal", a.journal.toString());
    assertThat(CliRun.execute(b.args(onA.toArray(new String[0]))).code()).isZero();
    Path aFile = journalFile(a);
    CliRun.Outcome bSpent = CliRun.execute("privacy", "spent", "--private", b.privateFile.toString(),
        "--journal", a.journal.toString());
    Path bFile = Path.of(bSpent.json().path("journal").asText());
    String aKey = aFile.getParent().getFileName().toString();
    String bKey = bFile.getParent().getFileName().toString();
    assertThat(aKey).isNotEqualTo(bKey);
    byte[] aBytes = Files.readAllBytes(aFile);

    for (boolean link : new boolean[] {false, true}) {
      Files.delete(bFile);
      if (link) {
        Files.createSymbolicLink(bFile, aFile);
      } else {
        Files.copy(aFile, bFile, StandardCopyOption.REPLACE_EXISTING);
      }
      CliRun.Outcome spent = CliRun.execute("privacy", "spent", "--private", b.privateFile.toString(),
          "--journal", a.journal.toString());
      assertThat(spent.code()).as(spent.err()).isEqualTo(2);
      assertThat(spent.err()).contains("belongs to another dataset").contains(aKey.substring(0, 12))
          .contains(bKey.substring(0, 12));
      CliRun.Outcome run = CliRun.execute(b.args(onA.toArray(new String[0])));
      assertThat(run.code()).as(run.err()).isEqualTo(2);
      assertThat(run.err()).contains("belongs to another dataset").contains("nothing was drawn");
      assertThat(Files.readAllBytes(aFile)).isEqualTo(aBytes);
    }
  }

  private static boolean chattr(String flag, Path file) throws Exception {
    Process p = new ProcessBuilder("chattr", flag, file.toString()).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
  }

  // fault: the hardening the threat model recommends: `chattr +a` (append-only) on `journal.jsonl`, which made every run fail with "cannot open the privacy journal … Operation not permitted"
  // holds: the journal is opened for appending only, so runs go on and the file cannot be rewritten; write access is asked for only to cut off a half-written last line, and where the file is append-only that is refused with what to do ("chattr -a"); a repair is said on stderr ("warning: privacy journal: cut off …") and journalled (skipped where `chattr +a` cannot be set: not root, or a file system without the flag)
  @Test
  void anAppendOnlyJournalWorksAndARepairIsSaid(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run().code()).isZero();
    Path file = journalFile(f);
    assumeTrue(chattr("+a", file), "cannot set chattr +a here (needs root and a file system with the flag)");
    try {
      CliRun.Outcome second = f.run();
      assertThat(second.code()).as(second.err()).isZero();
      assertThat(f.runs()).isEqualTo(2);
      assertThatThrownBy(() -> Files.write(file, "{}\n".getBytes(StandardCharsets.UTF_8)))
          .isInstanceOf(java.io.IOException.class);
      // A half-written last line must be cut off, which an append-only file refuses: say what to do.
      Files.write(file, "{\"seq\":".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
      CliRun.Outcome torn = f.run();
      assertThat(torn.code()).as(torn.err()).isEqualTo(2);
      assertThat(torn.err()).contains("half-written").contains("chattr -a").contains("nothing was drawn");
    } finally {
      chattr("-a", file);
    }
    CliRun.Outcome repaired = f.run();
    assertThat(repaired.code()).as(repaired.err()).isZero();
    assertThat(repaired.err()).contains("warning: privacy journal: cut off 7 bytes");
    assertThat(f.runs()).isEqualTo(3);
    assertThat(Files.readString(file)).contains("\"type\":\"repair\"");
  }

  // fault: `privacy spent` on a journal it cannot read: `--journal` a regular file or a path that does not exist (a typo), `journal.jsonl` a directory or a symbolic link to `/dev/null`
  // holds: exit 2 naming the path and the reason ("no journal at PATH", "is a regular file, not the directory of the privacy journals", "is a directory", "is a symbolic link to /dev/null") (before: exit 0 with `"releases": 0`)
  @Test
  void aJournalThatCannotBeReadIsNeverNothingSpent(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run().code()).isZero();
    Path file = journalFile(f);
    CliRun.Outcome typo = spent(f, "--journal", dir.resolve("jounral").toString());
    assertThat(typo.code()).isEqualTo(2);
    assertThat(typo.err()).contains("no journal at " + dir.resolve("jounral"));
    CliRun.Outcome regular = spent(f, "--journal", f.privateFile.toString());
    assertThat(regular.code()).isEqualTo(2);
    assertThat(regular.err()).contains("is a regular file, not the directory of the privacy journals");

    Files.move(file, dir.resolve("saved.jsonl"));
    Files.createDirectory(file);
    CliRun.Outcome directory = spent(f);
    assertThat(directory.code()).isEqualTo(2);
    assertThat(directory.err()).contains(file.toString()).contains("is a directory");
    Files.delete(file);
    Files.createSymbolicLink(file, Path.of("/dev/null"));
    CliRun.Outcome devNull = spent(f);
    assertThat(devNull.code()).isEqualTo(2);
    assertThat(devNull.err()).contains("is a symbolic link to /dev/null");
    CliRun.Outcome run = f.run();
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("is a symbolic link to /dev/null");
    Files.delete(file);
    Files.move(dir.resolve("saved.jsonl"), file);
    assertThat(spent(f).code()).isZero();
  }

  // fault: a journal damaged past what a crash leaves: every byte after its first line overwritten with NUL (it held a lifetime limit and a finished run), or the whole file zeroed
  // holds: `privacy spent`, `privacy limit` and `run` exit 2 naming the byte offset where the damage starts and saying to restore the journal from a backup; the file is left as it was and nothing is drawn (before: `privacy spent` printed `"limit": null` and no run, exit 0; the next run, which the intact journal refused, "cut off" the NULs as "an entry a crash left half-written" and ran to the end; a zeroed file was "repaired" into a journal with no dataset line)
  @Test
  void aJournalDamagedPastATornLastEntryStopsEveryCommandNamingTheOffset(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run().code()).isZero();
    assertThat(limit(f, "--epsilon", "2.5", "--delta", "1e-5").code()).isZero();
    CliRun.Outcome intact = f.run("--out", dir.resolve("b.jsonl").toString(), "--report", dir.resolve("b.json").toString());
    assertThat(intact.code()).as("the intact journal refuses the run").isEqualTo(2);
    assertThat(intact.err()).contains("past its lifetime budget");
    Path file = journalFile(f);
    byte[] good = Files.readAllBytes(file);
    int firstLine = indexOf(good, (byte) '\n') + 1;
    byte[] nul = good.clone();
    java.util.Arrays.fill(nul, firstLine, nul.length, (byte) 0);
    Files.write(file, nul);

    CliRun.Outcome spent = spent(f);
    assertThat(spent.code()).as(spent.out() + spent.err()).isEqualTo(2);
    assertThat(spent.err()).contains(file.toString()).contains("damaged from byte " + firstLine)
        .contains("NUL").contains("restore the journal from a backup");
    CliRun.Outcome run = f.run("--out", dir.resolve("b.jsonl").toString(), "--report", dir.resolve("b.json").toString());
    assertThat(run.code()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains("damaged from byte " + firstLine).contains("nothing was drawn")
        .doesNotContain("cut off");
    assertThat(dir.resolve("b.jsonl")).doesNotExist();
    CliRun.Outcome setLimit = limit(f, "--epsilon", "9", "--delta", "1e-5");
    assertThat(setLimit.code()).as(setLimit.err()).isEqualTo(2);
    assertThat(setLimit.err()).contains("damaged from byte " + firstLine);
    assertThat(Files.readAllBytes(file)).as("left as it was").isEqualTo(nul);

    byte[] zero = new byte[good.length];
    Files.write(file, zero);
    CliRun.Outcome zeroed = f.run("--out", dir.resolve("b.jsonl").toString(), "--report", dir.resolve("b.json").toString());
    assertThat(zeroed.code()).as(zeroed.err()).isEqualTo(2);
    assertThat(zeroed.err()).contains("damaged from byte 0").contains("restore the journal from a backup");
    assertThat(spent(f).code()).isEqualTo(2);
    assertThat(Files.readAllBytes(file)).as("never repaired into a journal without its dataset line").isEqualTo(zero);

    Files.write(file, good);
    assertThat(f.spent().path("limit").path("epsilon").asDouble()).as("the backup restored").isEqualTo(2.5);
  }

  /**
   * The start of the entry that would follow the journal's last line, {@code body} after its
   * header, as a crash while it was written leaves it: its sequence number, a time and the SHA-256
   * of the line before, then {@code body} (no newline).
   */
  private static byte[] tornNextEntry(Path file, String body) throws Exception {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    String prev = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(lines.get(lines.size() - 1).getBytes(StandardCharsets.UTF_8)));
    return ("{\"seq\":" + (lines.size() + 1) + ",\"time\":\"2026-12-02T01:46:12.123456Z\",\"prev\":\"" + prev + "\","
        + body).getBytes(StandardCharsets.UTF_8);
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  // fault: two SecPE runs on one dataset that protected different secrets (`--secrets pii`, then `random-words:10`): `privacy spent` exited 2 with "release 3/secpe/… covers 1 secrets but earlier releases cover 40", and under a limit every later run was refused with that message
  // holds: `privacy spent` exits 0 listing every run and release; `spent.bounded` is false with `not_composable` saying in words why ("SecPE runs on this dataset protected different secret sets (N vs M secrets): their (p, r) guarantees cannot be added … Protect the same --secrets"); a limited dataset's next run is refused (exit 2) with the same reason
  @Test
  void secpeRunsOverDifferentSecretsAreListedAndSaidNotComposable(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    CliRun.Outcome pii = CliRun.execute(f.secpe("--secrets", "pii"));
    assertThat(pii.code()).as(pii.err()).isZero();
    CliRun.Outcome words = CliRun.execute(f.secpe("--secrets", "random-words:10"));
    assertThat(words.code()).as(words.err()).isZero();
    CliRun.Outcome spent = spent(f);
    assertThat(spent.code()).as(spent.err()).isZero();
    JsonNode j = spent.json();
    assertThat(j.path("runs")).hasSize(2);
    j.path("runs").forEach(r -> assertThat(r.path("releases").size()).isPositive());
    assertThat(j.path("spent").path("bounded").asBoolean(true)).isFalse();
    assertThat(j.path("spent").path("epsilon").isNull()).isTrue();
    assertThat(j.path("spent").path("not_composable").asText())
        .containsPattern("protected different secret sets \\(\\d+ vs \\d+ secrets\\)")
        .contains("cannot be added").contains("--secrets").doesNotContain("earlier releases cover");
    assertThat(spent.err()).contains("not composable");

    assertThat(limit(f, "--p", "1e-4", "--r", "1e-2").code()).isZero();
    CliRun.Outcome next = CliRun.execute(f.secpe("--secrets", "pii", "--out", dir.resolve("c.jsonl").toString()));
    assertThat(next.code()).as(next.err()).isEqualTo(2);
    assertThat(next.err()).contains("cannot be checked").contains("different secret sets").contains("nothing was drawn");
  }

  // fault: two SecPE runs on one dataset that protected the same number of different secrets (`--secrets terms:A`, then `terms:B`, one word each: "you", "with"): the journal composed them secret by secret, as if A's word were B's, and printed a total (p, r) that neither word had
  // holds: each release names its secret set (a digest of the secrets' ids, keyed by the records themselves); the same `--secrets` twice composes to one total, a third run over another word makes `spent.bounded` false with `not_composable` saying "not the same ones"
  @Test
  void secpeRunsOverAsManyButOtherSecretsAreNotComposed(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    Files.write(dir.resolve("a.txt"), List.of("you"));
    Files.write(dir.resolve("b.txt"), List.of("with"));
    for (int i = 0; i < 2; i++) {
      CliRun.Outcome same = CliRun.execute(f.secpe("--secrets", "terms:" + dir.resolve("a.txt"),
          "--out", dir.resolve("a" + i + ".jsonl").toString()));
      assertThat(same.code()).as(same.err()).isZero();
    }
    JsonNode twice = spent(f).json();
    assertThat(twice.path("runs")).hasSize(2);
    assertThat(twice.path("spent").path("not_composable").isMissingNode() || twice.path("spent").path("not_composable").isNull())
        .as(twice.toString()).isTrue();
    assertThat(twice.path("spent").path("bounded").asBoolean(false)).as(twice.toString()).isTrue();
    twice.path("runs").forEach(r -> r.path("releases").forEach(x -> {
      if (x.path("kind").asText().equals("per-secret")) {
        assertThat(x.path("cost").path("secretSet").asText()).hasSize(64);
      }
    }));

    CliRun.Outcome other = CliRun.execute(f.secpe("--secrets", "terms:" + dir.resolve("b.txt"),
        "--out", dir.resolve("b.jsonl").toString()));
    assertThat(other.code()).as(other.err()).isZero();
    JsonNode j = spent(f).json();
    assertThat(j.path("runs")).hasSize(3);
    assertThat(j.path("spent").path("bounded").asBoolean(true)).isFalse();
    assertThat(j.path("spent").path("not_composable").asText())
        .contains("protected different secret sets (1 secrets each, but not the same ones)")
        .contains("cannot be added").doesNotContain("you").doesNotContain("with");
  }

  // fault: `--journal-wait 99999999999`
  // holds: exit 2 before anything is read: "--journal-wait must be in [0, 604800] seconds (at most a week)" (before: `internal error: ArithmeticException: long overflow`, exit 1)
  @Test
  void aJournalWaitPastAWeekIsRefusedNamingTheOption(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    CliRun.Outcome o = f.run("--journal-wait", "99999999999");
    assertThat(o.code()).as(o.err()).isEqualTo(2);
    assertThat(o.err()).contains("--journal-wait must be in [0, 604800] seconds").doesNotContain("internal error");
  }

  // fault: the same texts in Unicode NFC and NFD (composed and decomposed accents, as some systems write them) made two datasets, each with a fresh budget
  // holds: the dataset key hashes each text in NFC, so both files are one dataset with one journal and one budget (`DatasetKeyTest` checks the key by hand)
  @Test
  void theSameTextsInNfcAndNfdAreOneDataset(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    List<String> nfc = new ArrayList<>();
    List<String> nfd = new ArrayList<>();
    for (String line : Files.readAllLines(f.privateFile)) {
      ObjectNode n = (ObjectNode) FaultRun.JSON.readTree(line);
      String text = n.path("text").asText() + " Café déjà vu, naïve señor.";
      nfc.add(n.put("text", Normalizer.normalize(text, Normalizer.Form.NFC)).toString());
      nfd.add(n.put("text", Normalizer.normalize(text, Normalizer.Form.NFD)).toString());
    }
    assertThat(nfd).isNotEqualTo(nfc);
    Files.write(f.privateFile, nfd);
    assertThat(f.run().code()).isZero();
    Files.write(f.privateFile, nfc);
    assertThat(f.runs()).as("the NFC file finds the NFD file's journal").isEqualTo(1);
  }

  // fault: `--resume` with the same records reordered (or re-exported as CSV), which the dataset key calls one dataset, refused only as "the private or public records differ"
  // holds: exit 2 saying which inputs changed ("the private records differ, in content or in order: resume with the files, in the order and format, the run started with"); the file the run started from still resumes
  @Test
  void aResumeWithReorderedRecordsSaysWhichInputChanged(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    String ck = dir.resolve("ck").toString();
    assertThat(f.run("--checkpoint", ck).code()).isZero();
    List<String> lines = new ArrayList<>(Files.readAllLines(f.privateFile));
    Collections.reverse(lines);
    Path reversed = dir.resolve("reversed.jsonl");
    Files.write(reversed, lines);
    CliRun.Outcome o = f.run("--checkpoint", ck, "--resume", "--private", reversed.toString());
    assertThat(o.code()).as(o.err()).isEqualTo(2);
    assertThat(o.err()).contains("the private records differ, in content or in order").doesNotContain("public records differ");
    assertThat(f.run("--checkpoint", ck, "--resume").code()).isZero();
  }

  // fault: a `limit` line whose final newline is removed (a crash while `privacy limit` wrote it), or a limit raised (5 → 50) or set below what is already spent, without a word
  // holds: a complete last entry that lost its newline counts (`privacy spent` reads it) and is completed, never cut off: the limit stays and the next run past it is refused; every repair is listed (`repairs`), and a limit cut short, which was never set, is cut off with a warning saying so; `privacy limit` prints the change and what is spent on stderr ("epsilon 5.0 at delta 1.0E-5 -> epsilon 50.0 …; spent so far …"), gives the `previous` limit and `spent` in its JSON, and a total above the limit is flagged (`over_limit`, "passes its lifetime limit") (before: the limit was silently repaired away and the run exited 0)
  @Test
  void aLimitIsNeverDroppedOrChangedWithoutAWord(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run().code()).isZero();
    CliRun.Outcome five = limit(f, "--epsilon", "5", "--delta", "1e-5");
    assertThat(five.err()).contains("none -> epsilon 5.0 at delta 1.0E-5").contains("spent so far over 1 run(s)");
    CliRun.Outcome fifty = limit(f, "--epsilon", "50", "--delta", "1e-5");
    assertThat(fifty.code()).isZero();
    assertThat(fifty.err()).contains("epsilon 5.0 at delta 1.0E-5 -> epsilon 50.0 at delta 1.0E-5");
    assertThat(fifty.json().path("previous").path("epsilon").asDouble()).isEqualTo(5.0);
    assertThat(fifty.json().path("spent").path("over_limit").asBoolean(true)).isFalse();
    CliRun.Outcome one = limit(f, "--epsilon", "1", "--delta", "1e-5");
    assertThat(one.err()).contains("passes its lifetime limit (epsilon 1.0 at delta 1.0E-5)");
    assertThat(f.spent().path("spent").path("over_limit").asBoolean(false)).isTrue();

    Path file = journalFile(f);
    byte[] bytes = Files.readAllBytes(file);
    assertThat(bytes[bytes.length - 1]).isEqualTo((byte) '\n');
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 1));
    assertThat(f.spent().path("limit").path("epsilon").asDouble()).as("read without the lock").isEqualTo(1.0);
    CliRun.Outcome run = f.run();
    assertThat(run.code()).as(run.err()).isEqualTo(2);
    assertThat(run.err()).contains("lifetime budget of this dataset (epsilon 1.0 at delta 1.0E-5)");
    assertThat(f.spent().path("limit").path("epsilon").asDouble()).isEqualTo(1.0);
    assertThat(Files.readString(file)).contains("completed entry");
    assertThat(f.spent().path("repairs").get(0).asText()).contains("completed entry").contains("(limit)");
    // A limit cut short by a crash was never set: cut off, and `privacy limit` says so. What a
    // crash leaves is the start of the next entry of the chain, as the journal writes it.
    Files.write(file, tornNextEntry(file, "\"type\":\"limit\",\"by\":\"x\",\"eps"), StandardOpenOption.APPEND);
    CliRun.Outcome again = limit(f, "--epsilon", "1", "--delta", "1e-5");
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.err()).contains("warning: privacy journal repaired").contains("was never set");
  }

  // fault: `privacy spent` added SecPE's per-secret releases and record-level DP releases into one epsilon
  // holds: `spent` keeps its keys and adds `record_level` (releases, epsilon, delta, mu) and `per_secret` (releases, mu, secrets, and (p, r) at `--p`) apart, and each release says its `kind`; with a SecPE run on the dataset `record_level` is unbounded (SecPE protects secrets, not records: issue 50) and what the Aug-PE releases alone spent is `record_level.releases_alone`
  @Test
  void perSecretAndRecordLevelReleasesAreTotalledApart(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(f.run().code()).isZero();
    int augpe = f.spent().path("spent").path("releases").asInt();
    CliRun.Outcome secpe = CliRun.execute(f.secpe("--secrets", "pii"));
    assertThat(secpe.code()).as(secpe.err()).isZero();
    CliRun.Outcome out = spent(f, "--p", "1e-4");
    JsonNode s = out.json().path("spent");
    int all = s.path("releases").asInt();
    assertThat(s.path("record_level").path("releases").asInt()).isEqualTo(augpe);
    assertThat(s.path("per_secret").path("releases").asInt()).isEqualTo(all - augpe).isPositive();
    assertThat(s.path("per_secret").path("secrets").asInt()).isPositive();
    assertThat(s.path("per_secret").path("r").asDouble()).isGreaterThan(1e-4);
    assertThat(s.path("record_level").path("epsilon").isNull()).as("no record-level bound after a SecPE run").isTrue();
    assertThat(s.path("record_level").path("secret_noise_runs").asInt()).isEqualTo(1);
    assertThat(s.path("record_level").path("releases_alone").path("epsilon").asDouble()).isPositive()
        .isLessThan(s.path("epsilon").asDouble());
    List<String> kinds = new ArrayList<>();
    out.json().path("runs").get(1).path("releases").forEach(r -> kinds.add(r.path("kind").asText()));
    assertThat(kinds).contains("per-secret");
    out.json().path("runs").get(0).path("releases").forEach(r -> assertThat(r.path("kind").asText()).isEqualTo("record-level"));
  }

  // fault: invalid UTF-8 in a private record, silently replaced with U+FFFD and the run charged for it
  // holds: exit 2 before anything is drawn, naming the file and the line ("line 3: holds bytes that are not valid UTF-8 (nothing of it is shown)"), never its text; nothing is journalled
  @Test
  void invalidUtf8IsRefusedNamingTheLineNotTheText(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    List<String> lines = Files.readAllLines(f.privateFile);
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      byte[] line = lines.get(i).getBytes(StandardCharsets.UTF_8);
      if (i == 2) {
        int at = lines.get(i).indexOf("\"text\":\"") + 8;
        b.write(line, 0, at);
        b.write(new byte[] {'s', 'e', 'c', 'r', 'e', 't', (byte) 0xC3, '('});
        b.write(line, at, line.length - at);
      } else {
        b.write(line);
      }
      b.write('\n');
    }
    Files.write(f.privateFile, b.toByteArray());
    CliRun.Outcome o = f.run();
    assertThat(o.code()).as(o.err()).isEqualTo(2);
    assertThat(o.err()).contains("line 3: holds bytes that are not valid UTF-8").doesNotContain("secret");
    assertThat(Files.exists(f.journal) ? spent(f).json().path("runs").size() : 0).isZero();
  }

  // fault: `--provider-timeout 0` or `-1` (accepted, then reported as a provider failing its probe), `--secret-cap 0` (answered with the builder's "secretCap must be >= 1"), `privacy spent` on a file whose format its name does not tell ("or set format")
  // holds: exit 2 before anything is read, naming the option and its range: "--provider-timeout must be in [1, 86400] seconds", "--secret-cap must be >= 1", "give --format jsonl or --format csv"; a failed output write names its option and path (`RunOutputPathsTest`)
  @Test
  void optionsAreNamedAsTheUserGaveThem(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    for (String t : new String[] {"0", "-1"}) {
      CliRun.Outcome o = f.run("--provider-timeout", t);
      assertThat(o.code()).isEqualTo(2);
      assertThat(o.err()).contains("--provider-timeout must be in [1, 86400] seconds").doesNotContain("probe");
    }
    CliRun.Outcome cap = CliRun.execute(f.secpe("--secret-cap", "0"));
    assertThat(cap.code()).isEqualTo(2);
    assertThat(cap.err()).contains("--secret-cap must be >= 1").doesNotContain("secretCap");
    Path txt = dir.resolve("private.txt");
    Files.copy(f.privateFile, txt);
    CliRun.Outcome spent = CliRun.execute("privacy", "spent", "--private", txt.toString(),
        "--journal", f.journal.toString());
    assertThat(spent.code()).isEqualTo(2);
    assertThat(spent.err()).contains("give --format jsonl or --format csv").doesNotContain("set format");
  }
}
