package dev.secpe.evolution.persist;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.Label;
import dev.secpe.core.Provenance;
import dev.secpe.core.SyntheticText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and writes {@link Checkpoint}s as one JSON file, {@code checkpoint.json}, in a directory.
 * Writes are atomic and durable (a temporary file forced to the disk, moved over the old one, and
 * the directory forced), so a crash leaves either the old or the new checkpoint, never a torn one;
 * a write that fails (a full disk) removes its temporary file and leaves the old checkpoint. One
 * run at a time uses a directory: {@link #lock} holds {@code checkpoint.lock} for the whole run.
 */
public final class CheckpointStore {

/** The checkpoint's file name in its directory. */
  public static final String FILE = "checkpoint.json";
  /** The lock file a run holds in the directory ({@link #lock}). */
  public static final String LOCK = "checkpoint.lock";
  // 3: releases follow the privacy plan (ids and descriptions fixed at build()); a format-2
  // checkpoint's ledger would not match a plan, so it is refused by its format, with a clear message.
  private static final int FORMAT = 3;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private String integrity;

/** The checkpoints of the directory {@code dir} (created on the first lock). */
  public CheckpointStore(Path dir) {
    this.dir = dir;
  }

  /**
   * Takes the directory's lock for one run (waiting at most {@code wait}), creating the directory.
   *
   * @throws IllegalStateException if another run holds it
   */
  AutoCloseable lock(Duration wait, String holder) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the checkpoint directory " + dir + ": " + JournalFile.describe(e), e);
    }
    return FileLocks.exclusive(dir.resolve(LOCK), wait, "the checkpoint directory " + dir, holder);
  }

  /** The integrity digest of the checkpoint last read or written through this store, or null. */
  String integrity() {
    return integrity;
  }

/** The checkpoint file. */
  public Path file() {
    return dir.resolve(FILE);
  }

/** Whether a checkpoint has been written there. */
  public boolean exists() {
    return Files.isRegularFile(file());
  }

  /**
   * Writes {@code c} atomically and durably (the engine writes through {@link RunGuard#write},
   * which journals its digest).
   *
   * @return its integrity digest
   * @throws UncheckedIOException if it cannot be written; the previous checkpoint stays
   */
  String write(Checkpoint c) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("method", c.method());
    root.put("fingerprint", c.fingerprint());
    root.put("inputs", c.inputs());
    root.put("round", c.round());
    if (c.copiesLeftOut() > 0) {
      root.put("copiesLeftOut", c.copiesLeftOut());
    }
    if (!c.lineage().isEmpty()) {
      root.put("lineage", c.lineage());
    }
    if (!c.noise().isEmpty()) {
      root.put("noise", c.noise());
    }
    if (!c.detector().isEmpty()) {
      root.put("detector", c.detector());
    }
    ArrayNode pop = root.putArray("population");
    for (SyntheticText t : c.population()) {
      ObjectNode n = pop.addObject();
      n.put("id", t.id());
      n.put("text", t.text());
      t.label().ifPresent(l -> n.put("label", l.name()));
      n.put("round", t.provenance().round());
      ArrayNode parents = n.putArray("parents");
      t.provenance().parentIds().forEach(parents::add);
      n.put("operator", t.provenance().operator());
    }
    ArrayNode rel = root.putArray("releases");
    for (Release r : c.releases()) {
      rel.add(releaseToJson(r));
    }
    ObjectNode vals = root.putObject("values");
    c.values().forEach((k, v) -> {
      ArrayNode a = vals.putArray(k);
      for (double x : v) {
        a.add(x);
      }
    });
    String stated = digest(root);
    root.put("integrity", stated);
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, FILE, ".tmp");
      ByteBuffer bytes = ByteBuffer.wrap(JSON.writeValueAsBytes(root));
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        while (bytes.hasRemaining()) {
          ch.write(bytes);
        }
        ch.force(true);
      }
      try {
        Files.move(tmp, file(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file(), StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
      JournalFile.syncDirectory(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint to " + file() + ": " + JournalFile.describe(e)
          + "; the previous checkpoint is kept", e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // a full disk lets a file be deleted; nothing else to do
        }
      }
    }
    integrity = stated;
    return stated;
  }

/** Reads the checkpoint, checking its format and its integrity digest. */
  public Checkpoint read() {
    JsonNode root;
    try {
      root = JSON.readTree(file().toFile());
    } catch (IOException e) {
      throw new IllegalStateException(
          "checkpoint " + file() + " is damaged (" + e.getClass().getSimpleName()
              + "); refusing to resume rather than draw its releases again", e);
    }
    if (!(root instanceof ObjectNode obj)) {
      throw new IllegalStateException("checkpoint " + file() + " is damaged (not a JSON object)");
    }
    int format = root.path("format").asInt(-1);
    if (format != FORMAT) {
      throw new IllegalStateException(
          "checkpoint " + file() + " has format " + format + "; this version reads format " + FORMAT);
    }
    String stated = root.path("integrity").asText("");
    ObjectNode body = obj.deepCopy();
    body.remove("integrity");
    if (!digest(body).equals(stated)) {
      integrity = null;
      throw new IllegalStateException(
          "checkpoint " + file() + " fails its integrity check: it was edited or damaged after it"
              + " was written; refusing to resume rather than trust or redraw its releases");
    }
    integrity = stated;
    List<SyntheticText> pop = new ArrayList<>();
    for (JsonNode n : root.path("population")) {
      List<String> parents = new ArrayList<>();
      n.path("parents").forEach(p -> parents.add(p.asText()));
      Optional<Label> label =
          n.hasNonNull("label") ? Optional.of(Label.of(n.get("label").asText())) : Optional.empty();
      pop.add(
          new SyntheticText(
              n.path("id").asText(),
              n.path("text").asText(),
              label,
              new Provenance(n.path("round").asInt(), parents, n.path("operator").asText())));
    }
    List<Release> releases = new ArrayList<>();
    for (JsonNode n : root.path("releases")) {
      releases.add(releaseFromJson(n));
    }
    Map<String, double[]> values = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = root.path("values").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      values.put(e.getKey(), doubles(e.getValue()));
    }
    return new Checkpoint(
        root.path("method").asText(),
        root.path("fingerprint").asText(),
        root.path("inputs").asText(),
        root.path("round").asInt(),
        pop,
        releases,
        values,
        root.path("lineage").asText(""),
        root.path("copiesLeftOut").asLong(0),
        root.path("noise").asText(""),
        root.path("detector").asText(""));
  }

  /** SHA-256 (hex) of the node's JSON text, fields in insertion order. */
  private static String digest(JsonNode node) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(JSON.writeValueAsBytes(node)));
    } catch (NoSuchAlgorithmException | JsonProcessingException e) {
      throw new IllegalStateException("cannot digest checkpoint: " + e.getClass().getSimpleName(), e);
    }
  }

  private static double[] doubles(JsonNode a) {
    double[] v = new double[a.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = a.get(i).asDouble();
    }
    return v;
  }

  /** A release as the checkpoint and the privacy journal store it. */
  static ObjectNode releaseToJson(Release r) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", r.id());
    n.put("mechanism", r.mechanism());
    n.put("protects", r.protects());
    n.put("sensitivity", r.sensitivity());
    n.put("noiseScale", r.noiseScale());
    n.set("cost", costToJson(r.cost()));
    return n;
  }

  /** The release {@link #releaseToJson} stored. */
  static Release releaseFromJson(JsonNode n) {
    return new Release(
        n.path("id").asText(),
        n.path("mechanism").asText(),
        n.path("protects").asText(),
        n.path("sensitivity").asDouble(),
        n.path("noiseScale").asDouble(),
        costFromJson(n.path("cost")));
  }

  static ObjectNode costToJson(PrivacyCost cost) {
    ObjectNode n = JSON.createObjectNode();
    if (cost instanceof PrivacyCost.Gaussian g) {
      n.put("type", "gaussian").put("noiseMultiplier", g.noiseMultiplier());
    } else if (cost instanceof PrivacyCost.Laplace l) {
      n.put("type", "laplace").put("scale", l.scale()).put("sensitivity", l.sensitivity());
    } else if (cost instanceof PrivacyCost.SubsampledGaussian s) {
      n.put("type", "subsampled-gaussian")
          .put("noiseMultiplier", s.noiseMultiplier())
          .put("samplingRate", s.samplingRate())
          .put("steps", s.steps());
    } else if (cost instanceof PrivacyCost.SecretMixture m) {
      n.put("type", "secret-mixture").put("sigma", m.sigma()).put("shiftMultiplier", m.shiftMultiplier());
      if (m.secretSet() != null) {
        n.put("secretSet", m.secretSet());
      }
      ArrayNode per = n.putArray("shiftProbsPerSecret");
      for (double[] probs : m.shiftProbsPerSecret()) {
        ArrayNode a = per.addArray();
        for (double p : probs) {
          a.add(p);
        }
      }
    } else if (cost instanceof PrivacyCost.PureDp p) {
      n.put("type", "pure-dp").put("epsilon", p.epsilon());
    } else {
      throw new IllegalStateException("cannot checkpoint privacy cost " + cost.getClass().getName());
    }
    return n;
  }

  static PrivacyCost costFromJson(JsonNode n) {
    String type = n.path("type").asText();
    switch (type) {
      case "gaussian":
        return new PrivacyCost.Gaussian(n.path("noiseMultiplier").asDouble());
      case "laplace":
        return new PrivacyCost.Laplace(n.path("scale").asDouble(), n.path("sensitivity").asDouble());
      case "subsampled-gaussian":
        return new PrivacyCost.SubsampledGaussian(
            n.path("noiseMultiplier").asDouble(),
            n.path("samplingRate").asDouble(),
            n.path("steps").asInt());
      case "secret-mixture":
        JsonNode per = n.path("shiftProbsPerSecret");
        double[][] probs = new double[per.size()][];
        for (int j = 0; j < probs.length; j++) {
          probs[j] = doubles(per.get(j));
        }
        // Entries written before releases named their secrets have none: null, an unnamed set.
        return new PrivacyCost.SecretMixture(
            n.path("sigma").asDouble(), n.path("shiftMultiplier").asDouble(), probs,
            n.hasNonNull("secretSet") ? n.path("secretSet").asText() : null);
      case "pure-dp":
        return new PrivacyCost.PureDp(n.path("epsilon").asDouble());
      default:
        throw new IllegalStateException("checkpoint holds an unknown privacy cost type '" + type + "'");
    }
  }
}
