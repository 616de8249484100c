package dev.secpe.core.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes a {@link PrivacyReport} as JSON:
 *
 * <pre>{@code
 * {"method": "secpe", "records": 2000, "private_records": 900,
 *  "privacy": {"mu": .., "epsilon": .., "delta": .., "p": .., "r": .., "sigma": ..,
 *              "guarantee": "..", "mode": "secpe-split", "exact_records": true},
 *  "noise": "secure", "private": true,
 *  "mechanisms": [{"id": .., "mechanism": .., "protects": .., "sensitivity": ..,
 *                  "noise_scale": .., "cost": {"type": "gaussian", "noise_multiplier": ..}}],
 *  "deviations": [".."],
 *  "warnings": [".."],          (only when there are any)
 *  "providers": [{"role": .., "name": .., "version": .., "locality": "LOCAL"}],
 *  "timing": {"generation_seconds": .., "embedding_seconds": .., "selection_seconds": ..,
 *             "total_seconds": .., "rounds": [{..}]},
 *  "embedding": {"texts": .., "seconds": .., "texts_per_second": .., "candidate_lookups": ..,
 *                "candidate_cache_hit_rate": ..}}   (when measured)
 * }</pre>
 *
 * Absent values are {@code null}. A {@link PrivacyCost.SecretMixture} is written as its sigma
 * and shift multiplier only: its per-secret sampling probabilities are derived from which records
 * hold which secret and stay out of reports.
 */
public final class PrivacyReportJson {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private PrivacyReportJson() {}

  /** The report as an indented JSON string. */
  public static String toJson(PrivacyReport report) {
    try {
      return JSON.writeValueAsString(toTree(report));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise privacy report", e);
    }
  }

  /** Writes the report to {@code file} (UTF-8), replacing it. */
  public static void write(PrivacyReport report, Path file) {
    try {
      Files.writeString(file, toJson(report) + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write privacy report to " + file, e);
    }
  }

  /** The report as a Jackson tree. */
  public static ObjectNode toTree(PrivacyReport r) {
    ObjectNode root = JSON.createObjectNode();
    root.put("method", r.method());
    root.put("records", r.syntheticRecords());
    if (r.privateRecords() >= 0) {
      root.put("private_records", r.privateRecords());
    } else {
      root.putNull("private_records");
    }
    ObjectNode privacy = root.putObject("privacy");
    putOrNull(privacy, "mu", r.mu().map(m -> m.mu()).orElse(null));
    putOrNull(privacy, "epsilon", r.dp().map(d -> d.epsilon()).orElse(null));
    putOrNull(privacy, "delta", r.dp().map(d -> d.delta()).orElse(null));
    putOrNull(privacy, "p", r.secretBudget().map(b -> b.p()).orElse(null));
    putOrNull(privacy, "r", r.secretBudget().map(b -> b.r()).orElse(null));
    putOrNull(privacy, "sigma", r.sigma().isPresent() ? r.sigma().getAsDouble() : null);
    r.guarantee().ifPresentOrElse(
        g -> privacy.put("guarantee", g.statement()).put("mode", g.mode()).put("exact_records", g.exactRecords()),
        () -> privacy.putNull("guarantee").putNull("mode").putNull("exact_records"));
    root.put("noise", r.noise().name().toLowerCase(Locale.ROOT));
    root.put("private", r.noise().isPrivate());
    ArrayNode mechanisms = root.putArray("mechanisms");
    for (Release rel : r.mechanisms()) {
      ObjectNode m = mechanisms.addObject();
      m.put("id", rel.id());
      m.put("mechanism", rel.mechanism());
      m.put("protects", rel.protects());
      m.put("sensitivity", rel.sensitivity());
      m.put("noise_scale", rel.noiseScale());
      cost(m.putObject("cost"), rel.cost());
    }
    ArrayNode deviations = root.putArray("deviations");
    r.deviations().forEach(deviations::add);
    if (!r.warnings().isEmpty()) {
      ArrayNode warnings = root.putArray("warnings");
      r.warnings().forEach(warnings::add);
    }
    ArrayNode providers = root.putArray("providers");
    for (ProviderInfo p : r.providers()) {
      ObjectNode o = providers.addObject();
      o.put("role", p.role());
      o.put("name", p.name());
      o.put("version", p.version());
      o.put("locality", p.locality().name());
    }
    ObjectNode timing = root.putObject("timing");
    timings(timing, r.timing());
    timing.put("total_seconds", r.timing().total().toNanos() / 1e9);
    ArrayNode rounds = timing.putArray("rounds");
    int i = 0;
    for (PhaseTimings t : r.roundTimings()) {
      ObjectNode o = rounds.addObject();
      o.put("round", i++);
      timings(o, t);
    }
    r.embedding().ifPresent(e -> {
      ObjectNode o = root.putObject("embedding");
      o.put("texts", e.texts());
      o.put("seconds", e.seconds());
      o.put("texts_per_second", e.textsPerSecond());
      o.put("candidate_lookups", e.candidateLookups());
      o.put("candidate_cache_hit_rate", e.candidateHitRate());
    });
    return root;
  }

  private static void timings(ObjectNode o, PhaseTimings t) {
    o.put("generation_seconds", t.seconds(Phase.GENERATION));
    o.put("embedding_seconds", t.seconds(Phase.EMBEDDING));
    o.put("selection_seconds", t.seconds(Phase.SELECTION));
  }

  private static void cost(ObjectNode o, PrivacyCost cost) {
    if (cost == null) {
      o.putNull("type");
      return;
    }
    if (cost instanceof PrivacyCost.Gaussian g) {
      o.put("type", "gaussian");
      o.put("noise_multiplier", g.noiseMultiplier());
    } else if (cost instanceof PrivacyCost.Laplace l) {
      o.put("type", "laplace");
      o.put("scale", l.scale());
      o.put("sensitivity", l.sensitivity());
    } else if (cost instanceof PrivacyCost.SubsampledGaussian s) {
      o.put("type", "subsampled_gaussian");
      o.put("noise_multiplier", s.noiseMultiplier());
      o.put("sampling_rate", s.samplingRate());
      o.put("steps", s.steps());
    } else if (cost instanceof PrivacyCost.SecretMixture s) {
      o.put("type", "secret_mixture");
      o.put("sigma", s.sigma());
      o.put("shift_multiplier", s.shiftMultiplier());
    } else if (cost instanceof PrivacyCost.PureDp p) {
      o.put("type", "pure_dp");
      o.put("epsilon", p.epsilon());
    } else {
      o.put("type", cost.getClass().getSimpleName().toLowerCase(Locale.ROOT));
    }
  }

  private static void putOrNull(ObjectNode o, String field, Double value) {
    if (value == null || !Double.isFinite(value)) {
      o.putNull(field);
    } else {
      o.put(field, value);
    }
  }
}
