package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.spi.ProviderConfig;
import dev.secpe.llm.spi.Providers;
import dev.secpe.llm.spi.TextEmbedderProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvaluateCommandTest {

  @TempDir Path dir;

  /** Runs {@code secpe args...} in-process with an explicit embedder registry. */
  private CliRun.Outcome run(Providers providers, String... args) {
    return CliRun.execute(cl -> {
      EvaluateCommand cmd = cl.getSubcommands().get("evaluate").getCommand();
      cmd.providers = providers;
    }, args);
  }

  private static Providers hashOnly(Locality locality) {
    return Providers.builder().add(new HashProvider(locality)).build();
  }

  private Path jsonl(String name, int n, long seed, boolean labelled) throws IOException {
    String[] spam = {"win", "cash", "prize", "free", "offer", "click"};
    String[] ham = {"meeting", "report", "lunch", "project", "notes", "team"};
    SplittableRandom r = new SplittableRandom(seed);
    List<String> lines = new ArrayList<>();
    ObjectMapper m = new ObjectMapper();
    for (int i = 0; i < n; i++) {
      boolean isSpam = r.nextBoolean();
      String[] words = isSpam ? spam : ham;
      StringBuilder sb = new StringBuilder();
      for (int w = 0, len = 3 + r.nextInt(6); w < len; w++) {
        sb.append(words[r.nextInt(words.length)]).append(' ');
      }
      var node = m.createObjectNode().put("text", sb.toString().trim());
      if (labelled) {
        node.put("label", isSpam ? "spam" : "ham");
      }
      lines.add(m.writeValueAsString(node));
    }
    Path p = dir.resolve(name);
    Files.write(p, lines);
    return p;
  }

  @Test
  void labelledJsonHasEveryMetric() throws Exception {
    Path s = jsonl("s.jsonl", 60, 1, true);
    Path r = jsonl("r.jsonl", 70, 2, true);
    CliRun.Outcome run = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic", s.toString(), "--real",
        r.toString(), "--label-field", "label", "--embedder", "test-hash", "--json");
    assertThat(run.code()).as(run.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(run.out());
    assertThat(j.fieldNames()).toIterable().startsWith(
        "fid", "precision", "recall", "mauve", "downstream_accuracy");
    assertThat(j.get("fid").asDouble()).isGreaterThanOrEqualTo(0.0);
    assertThat(j.get("precision").asDouble()).isBetween(0.0, 1.0);
    assertThat(j.get("mauve").asDouble()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
    assertThat(j.get("downstream_accuracy").asDouble()).isGreaterThan(0.95);
    assertThat(j.get("downstream_per_class")).hasSize(2);
    assertThat(j.get("synthetic_count").asInt()).isEqualTo(60);
    assertThat(j.get("real_count").asInt()).isEqualTo(70);
    assertThat(j.get("embedder").asText()).isEqualTo("test-hash");
    assertThat(j.has("length_wasserstein1")).isTrue();
    assertThat(j.has("self_similarity_synthetic")).isTrue();
  }

  private Path texts(String name, List<String> texts) throws IOException {
    ObjectMapper m = new ObjectMapper();
    List<String> lines = new ArrayList<>();
    for (String t : texts) {
      lines.add(m.writeValueAsString(m.createObjectNode().put("text", t)));
    }
    return Files.write(dir.resolve(name), lines);
  }

  /**
   * A small real set (12 records in the 16-dimensional test embedding, as 20 are in MiniLM's 384; 5
   * distinct texts: at most 4 dimensions after centring) is read in every dimension it has instead
   * of refused ("components must be at most the reference's rank"),
   * and stderr says so; without --embedder stderr names the embedder used.
   */
  @Test
  void aSmallRealSetClampsTheFidComponentsAndSaysSo() throws Exception {
    List<String> distinct = new ArrayList<>();
    for (String l : Files.readAllLines(jsonl("d.jsonl", 5, 5, false))) {
      distinct.add(new ObjectMapper().readTree(l).get("text").asText());
    }
    List<String> realTexts = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      realTexts.add(distinct.get(i % 5));
    }
    Path real = texts("small-real.jsonl", realTexts);
    Path s = jsonl("s.jsonl", 20, 9, false);
    CliRun.Outcome run = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic", s.toString(), "--real", real.toString(),
        "--embedder", "test-hash", "--json");
    assertThat(run.code()).as(run.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(run.out());
    int used = j.get("fid_components").asInt();
    assertThat(used).isBetween(1, 4);
    assertThat(j.get("fid_projected").asDouble()).isFinite().isGreaterThanOrEqualTo(0.0);
    assertThat(run.err()).contains("evaluate: FID read in the real set's " + used + " leading principal components,"
        + " not --fid-components 16");
    assertThat(run.err()).doesNotContain("embedding with"); // --embedder was chosen
  }

  @Test
  void withoutEmbedderStderrNamesTheDefaultOne() throws Exception {
    Providers named = Providers.builder().add(new HashProvider(Locality.LOCAL) {
      @Override
      public String name() {
        return EvaluateCommand.DEFAULT_EMBEDDER;
      }
    }).build();
    Path s = jsonl("s.jsonl", 30, 1, false);
    Path r = jsonl("r.jsonl", 30, 2, false);
    CliRun.Outcome run = run(named, "evaluate", "--synthetic", s.toString(), "--real", r.toString(), "--json");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.err()).contains("evaluate: embedding with test-hash (the default").contains("--embedder NAME");
  }

  @Test
  void theDemosReadingsTheDuplicatesAndThePublicBaselineAreReported() throws Exception {
    Path real = jsonl("r.jsonl", 80, 2, false);
    // Synthetic: 40 texts of the real kind, 5 of them exact copies of another.
    ObjectMapper m = new ObjectMapper();
    List<String> synth = new ArrayList<>();
    for (String l : Files.readAllLines(jsonl("s.jsonl", 35, 7, false))) {
      synth.add(m.readTree(l).get("text").asText());
    }
    for (int i = 0; i < 5; i++) {
      synth.add(synth.get(i));
    }
    Path s = texts("s2.jsonl", synth);
    // Public: text of another vocabulary, far from the real records.
    List<String> pub = new ArrayList<>();
    String[] other = {"river", "mountain", "forest", "valley", "ocean", "desert", "island", "glacier"};
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 60; i++) {
      pub.add(other[r.nextInt(8)] + " " + other[r.nextInt(8)] + " " + other[r.nextInt(8)] + " " + other[r.nextInt(8)]);
    }
    Path p = texts("p.jsonl", pub);
    CliRun.Outcome run = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic", s.toString(), "--real", real.toString(),
        "--public", p.toString(), "--fid-components", "4", "--embedder", "test-hash", "--json");
    assertThat(run.code()).as(run.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(run.out());
    assertThat(j.get("fid_components").asInt()).isEqualTo(4);
    assertThat(j.get("fid_projected").asDouble()).isGreaterThanOrEqualTo(0.0);
    assertThat(j.get("kid_standard_error").asDouble()).isGreaterThan(0.0);
    assertThat(j.get("distinct").asInt()).isLessThanOrEqualTo(35);
    assertThat(j.get("exact_duplicates").asInt()).isGreaterThanOrEqualTo(5);
    assertThat(j.get("near_duplicate_threshold").asDouble()).isEqualTo(0.95);
    assertThat(j.get("public_baseline").get("size").asInt()).isEqualTo(40);
    // Text of the real kind beats text of another vocabulary, on both readings.
    assertThat(j.get("fid_gain_over_public").asDouble()).isGreaterThan(0.0);
    assertThat(j.get("kid_gain_over_public").asDouble()).isGreaterThan(0.0);
    assertThat(j.get("public_baseline").get("fid_projected").asDouble())
        .isEqualTo(j.get("fid_projected").asDouble() + j.get("fid_gain_over_public").asDouble(),
            org.assertj.core.data.Offset.offset(1e-12));
    CliRun.Outcome text = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic", s.toString(), "--real", real.toString(),
        "--public", p.toString(), "--embedder", "test-hash");
    assertThat(text.out()).contains("FID, 16 components").contains("KID").contains("gain over public")
        .contains("exact copies");
  }

  @Test
  void unlabelledGivesNullAccuracyAndTextOutputWorks() throws Exception {
    Path s = jsonl("s.jsonl", 30, 3, false);
    Path r = jsonl("r.jsonl", 30, 4, false);
    CliRun.Outcome run = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic", s.toString(), "--real",
        r.toString(), "--embedder", "test-hash", "--json");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(new ObjectMapper().readTree(run.out()).get("downstream_accuracy").isNull()).isTrue();
    CliRun.Outcome text = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic", s.toString(), "--real",
        r.toString(), "--embedder", "test-hash");
    assertThat(text.code()).isZero();
    assertThat(text.out()).contains("FID").contains("MAUVE").contains("n/a (no --label-field)");
  }

  @Test
  void defaultEmbedderIsLookedUpByName() throws Exception {
    Path s = jsonl("s.jsonl", 10, 1, false);
    CliRun.Outcome run = run(Providers.builder().build(), "evaluate", "--synthetic", s.toString(), "--real",
        s.toString(), "--json");
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("no text embedder named 'all-minilm-l6-v2'");
    assertThat(run.err().lines().count()).isEqualTo(1);
  }

  @Test
  void badInputIsOneLineAndExitCode2() throws Exception {
    Path s = jsonl("s.jsonl", 10, 1, false);
    CliRun.Outcome missing = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic",
        dir.resolve("nope.jsonl").toString(), "--real", s.toString(), "--embedder", "test-hash");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).startsWith("error: --synthetic file not found");
    CliRun.Outcome remote = run(hashOnly(Locality.REMOTE), "evaluate", "--synthetic", s.toString(),
        "--real", s.toString(), "--embedder", "test-hash");
    assertThat(remote.code()).isEqualTo(2);
    assertThat(remote.err()).contains("REMOTE").contains("allowRemoteEmbedder");
    CliRun.Outcome noLabel = run(hashOnly(Locality.LOCAL), "evaluate", "--synthetic", s.toString(),
        "--real", s.toString(), "--embedder", "test-hash", "--label-field", "label");
    assertThat(noLabel.code()).isEqualTo(2);
    assertThat(noLabel.err()).contains("label").doesNotContain("win").doesNotContain("meeting");
  }

  /** A deterministic bag-of-words embedder (16 hashed buckets, unit norm). */
  private static class HashProvider implements TextEmbedderProvider {
    private final Locality locality;

    HashProvider(Locality locality) {
      this.locality = locality;
    }

    @Override
    public String name() {
      return "test-hash";
    }

    @Override
    public Locality locality() {
      return locality;
    }

    @Override
    public TextEmbedder create(ProviderConfig config) {
      return new TextEmbedder() {
        @Override
        public String name() {
          return "test-hash";
        }

        @Override
        public int dimension() {
          return 16;
        }

        @Override
        public boolean normalized() {
          return true;
        }

        @Override
        public Locality locality() {
          return locality;
        }

        @Override
        public float[][] embed(List<String> texts) {
          float[][] out = new float[texts.size()][16];
          for (int i = 0; i < out.length; i++) {
            out[i][0] = 0.01f;
            for (String w : texts.get(i).toLowerCase(Locale.ROOT).split("\\W+")) {
              if (!w.isEmpty()) {
                out[i][Math.floorMod(w.hashCode() * 0x9E3779B1, 16)] += 1;
              }
            }
            double norm = 0;
            for (float v : out[i]) {
              norm += v * v;
            }
            for (int j = 0; j < 16; j++) {
              out[i][j] /= (float) Math.sqrt(norm);
            }
          }
          return out;
        }
      };
    }
  }
}
