package dev.secpe.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.core.PublicRecord;
import dev.secpe.core.io.BundledCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The small, fast {@code secpe run} of the fault tests: 40 private and 40 public e-mails, Aug-PE,
 * 8 synthetic texts, 2 rounds, the hash embedder, its own journal directory. About a second.
 */
final class FaultRun {

  static final ObjectMapper JSON = new ObjectMapper();

  final Path dir;
  final Path privateFile;
  final Path publicFile;
  final Path journal;

  FaultRun(Path dir) throws Exception {
    this.dir = dir;
    this.privateFile = dir.resolve("private.jsonl");
    this.publicFile = dir.resolve("public.jsonl");
    this.journal = dir.resolve("journal");
    List<PublicRecord> mails = BundledCorpus.spamAssassin().publicPart().records();
    List<String> priv = new ArrayList<>();
    List<String> pub = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      (i < 40 ? priv : pub).add(JSON.createObjectNode().put("text", mails.get(i).text())
          .put("label", i % 3 == 0 ? "spam" : "ham").toString());
    }
    Files.write(privateFile, priv);
    Files.write(publicFile, pub);
  }

  /** The run's arguments; an option in {@code extra} replaces the same option of the defaults. */
  List<String> args(String... extra) {
    List<String> base = new ArrayList<>(List.of("run", "--method", "augpe",
        "--private", privateFile.toString(), "--public", publicFile.toString(),
        "--synthetic-size", "8", "--iterations", "2", "--epsilon", "2", "--delta", "1e-5",
        "--embedder", "test-hash-embedder", "--seed", "3", "--journal", journal.toString(),
        "--out", dir.resolve("synthetic.jsonl").toString(), "--report", dir.resolve("report.json").toString()));
    List<String> given = List.of(extra);
    for (int i = 1; i < base.size(); ) {
      if (base.get(i).startsWith("--") && given.contains(base.get(i))) {
        base.remove(i);
        base.remove(i);
      } else {
        i += base.get(i).startsWith("--") ? 2 : 1;
      }
    }
    base.add("--quiet");
    base.addAll(given);
    return base;
  }

  /** The same run with SecPE: a (p, r) budget instead of (epsilon, delta), 4 public clusters. */
  List<String> secpe(String... extra) {
    List<String> a = args(extra);
    int at = a.indexOf("--epsilon");
    a.subList(at, at + 4).clear(); // --epsilon 2 --delta 1e-5
    a.set(a.indexOf("--method") + 1, "secpe");
    a.addAll(List.of("--p", "1e-4", "--r", "1e-3", "--clusters", "4"));
    return a;
  }

  /** The same run with CTCL (no --iterations; 4 topics, 20 steps). */
  List<String> ctcl(String... extra) {
    List<String> a = args(extra);
    int at = a.indexOf("--iterations");
    a.subList(at, at + 2).clear();
    a.set(a.indexOf("--method") + 1, "ctcl");
    for (String[] o : new String[][] {{"--topics", "4"}, {"--steps", "20"}}) {
      if (!a.contains(o[0])) {
        a.addAll(List.of(o));
      }
    }
    return a;
  }

  CliRun.Outcome run(String... extra) {
    return CliRun.execute(args(extra));
  }

  /** {@code secpe privacy spent} on the private file, as JSON. */
  JsonNode spent() throws Exception {
    CliRun.Outcome spent = CliRun.execute("privacy", "spent", "--private", privateFile.toString(), "--journal",
        journal.toString());
    if (spent.code() != 0) {
      throw new AssertionError("privacy spent exited " + spent.code());
    }
    return spent.json();
  }

  /**
   * Every release charged to the dataset, over all runs; none where no run ever created the
   * journal directory ({@code privacy spent} refuses a missing one: "no journal at").
   */
  List<String> charged() throws Exception {
    List<String> ids = new ArrayList<>();
    if (!Files.exists(journal)) {
      return ids;
    }
    for (JsonNode r : spent().path("runs")) {
      r.path("releases").forEach(x -> ids.add(x.path("id").asText()));
    }
    return ids;
  }

  /** The names of the files in {@code dir}, sorted: what a run that failed or was stopped left there. */
  static List<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** The runs the journal recorded (run entries); none where there is no journal directory yet. */
  int runs() throws Exception {
    return Files.exists(journal) ? spent().path("runs").size() : 0;
  }
}
