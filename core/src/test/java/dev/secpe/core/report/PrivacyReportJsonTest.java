package dev.secpe.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.llm.Locality;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyReportJsonTest {

  @TempDir Path dir;

  private static PrivacyReport secpeReport() {
    PhaseTimings r1 = new PhaseTimings(Duration.ofMillis(1500), Duration.ofMillis(250), Duration.ofMillis(20));
    PhaseTimings r2 = new PhaseTimings(Duration.ofMillis(1000), Duration.ofMillis(250), Duration.ofMillis(30));
    return PrivacyReport.builder("secpe")
        .syntheticRecords(2000)
        .privateRecords(900)
        .mu(new GdpMu(0.75))
        .dp(new DpBudget(3.1, 1e-5))
        .secretBudget(new SecretBudget(1e-4, 1e-3))
        .sigma(2.5)
        .mechanisms(
            List.of(
                new Release(
                    "secpe/secret-clusters",
                    "Gaussian",
                    "cluster counts and centres",
                    1.0,
                    2.5,
                    new PrivacyCost.SecretMixture(2.5, Math.sqrt(2), new double[][] {{0.123456, 0.5}, {0.987654}})),
                new Release("augpe/round-1/votes", "Gaussian", "votes", 1.0, 3.0, new PrivacyCost.Gaussian(3.0))))
        .deviation("Counts and centres are released together: calibrated to shift sqrt(2)*S, not S.")
        .noise(NoiseMode.REPRODUCIBLE_NON_PRIVATE)
        .provider(new ProviderInfo("generator", "fake", "1.0", Locality.LOCAL))
        .timing(r1.plus(r2))
        .roundTiming(r1)
        .roundTiming(r2)
        .build();
  }

  /** The report's own toJson() is the JSON the CLI writes, the way a user finds it first. */
  @Test
  void theReportsToJsonIsTheCliJson() throws Exception {
    PrivacyReport r = secpeReport();
    assertThat(r.toJson()).isEqualTo(PrivacyReportJson.toJson(r));
    JsonNode j = new ObjectMapper().readTree(r.toJson());
    assertThat(j.get("method").asText()).isEqualTo("secpe");
    assertThat(j.get("records").asInt()).isEqualTo(2000);
  }

  @Test
  void writesTheShapeTheCliPromises() throws Exception {
    Path f = dir.resolve("report.json");
    PrivacyReportJson.write(secpeReport(), f);
    JsonNode j = new ObjectMapper().readTree(Files.readString(f));
    assertThat(j.get("method").asText()).isEqualTo("secpe");
    assertThat(j.get("records").asInt()).isEqualTo(2000);
    assertThat(j.get("private_records").asInt()).isEqualTo(900);
    JsonNode p = j.get("privacy");
    assertThat(p.get("mu").asDouble()).isEqualTo(0.75);
    assertThat(p.get("epsilon").asDouble()).isEqualTo(3.1);
    assertThat(p.get("delta").asDouble()).isEqualTo(1e-5);
    assertThat(p.get("p").asDouble()).isEqualTo(1e-4);
    assertThat(p.get("r").asDouble()).isEqualTo(1e-3);
    assertThat(p.get("sigma").asDouble()).isEqualTo(2.5);
    assertThat(j.get("noise").asText()).isEqualTo("reproducible_non_private");
    assertThat(j.get("private").asBoolean()).isFalse();
    JsonNode m0 = j.get("mechanisms").get(0);
    assertThat(m0.get("id").asText()).isEqualTo("secpe/secret-clusters");
    assertThat(m0.get("cost").get("type").asText()).isEqualTo("secret_mixture");
    assertThat(m0.get("cost").get("shift_multiplier").asDouble()).isEqualTo(Math.sqrt(2));
    assertThat(j.get("mechanisms").get(1).get("cost").get("noise_multiplier").asDouble()).isEqualTo(3.0);
    assertThat(j.get("deviations").get(0).asText()).contains("sqrt(2)");
    assertThat(j.get("providers").get(0).get("locality").asText()).isEqualTo("LOCAL");
    JsonNode t = j.get("timing");
    assertThat(t.get("generation_seconds").asDouble()).isEqualTo(2.5);
    assertThat(t.get("embedding_seconds").asDouble()).isEqualTo(0.5);
    assertThat(t.get("selection_seconds").asDouble()).isEqualTo(0.05);
    assertThat(t.get("rounds")).hasSize(2);
    assertThat(t.get("rounds").get(1).get("round").asInt()).isEqualTo(1);
  }

  // A report read alone must not pass for more than the run gives: SecPE's split names its
  // per-secret guarantee and that it used records exactly (issue 50, case 7).
  @Test
  void thePrivacyBlockNamesItsGuaranteeModeAndExactUse() throws Exception {
    PrivacyReport r = PrivacyReport.builder("secpe")
        .guarantee(new PrivacyReport.Guarantee("(p, r)-secret protection of each detected secret; records used exactly",
            "secpe-split", true))
        .build();
    JsonNode p = new ObjectMapper().readTree(PrivacyReportJson.toJson(r)).get("privacy");
    assertThat(p.get("guarantee").asText()).isEqualTo("(p, r)-secret protection of each detected secret; records used exactly");
    assertThat(p.get("mode").asText()).isEqualTo("secpe-split");
    assertThat(p.get("exact_records").asBoolean()).isTrue();
    assertThatThrownBy(() -> new PrivacyReport.Guarantee(" ", "secpe", false))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("statement=' '");
  }

  @Test
  void perSecretSamplingProbabilitiesStayOutOfTheReport() {
    String json = PrivacyReportJson.toJson(secpeReport());
    assertThat(json).doesNotContain("0.123456").doesNotContain("0.987654");
  }

  @Test
  void absentValuesAreNull() throws Exception {
    PrivacyReport r = PrivacyReport.builder("augpe").noise(NoiseMode.NONE).build();
    JsonNode j = new ObjectMapper().readTree(PrivacyReportJson.toJson(r));
    assertThat(j.get("privacy").get("mu").isNull()).isTrue();
    assertThat(j.get("privacy").get("sigma").isNull()).isTrue();
    assertThat(j.get("privacy").get("guarantee").isNull()).isTrue();
    assertThat(j.get("privacy").get("mode").isNull()).isTrue();
    assertThat(j.get("privacy").get("exact_records").isNull()).isTrue();
    assertThat(j.get("private_records").isNull()).isTrue();
    assertThat(j.get("private").asBoolean()).isFalse();
    assertThat(j.get("mechanisms")).isEmpty();
  }

  @Test
  void warningsAppearOnlyWhenThereAreAny() throws Exception {
    ObjectMapper m = new ObjectMapper();
    JsonNode none = m.readTree(PrivacyReportJson.toJson(PrivacyReport.builder("augpe").build()));
    assertThat(none.has("warnings")).isFalse();
    JsonNode some = m.readTree(PrivacyReportJson.toJson(
        PrivacyReport.builder("augpe").warning("noise swamps the votes").build()));
    assertThat(some.get("warnings")).hasSize(1);
    assertThat(some.get("warnings").get(0).asText()).isEqualTo("noise swamps the votes");
  }

  @Test
  void validationAndListeners() {
    assertThatThrownBy(() -> PrivacyReport.builder("x").sigma(Double.NaN).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sigma must be > 0, got sigma=NaN");
    assertThatThrownBy(() -> new PhaseTimings(Duration.ofSeconds(-1), Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("generation time must be >= 0");
    List<RunEvent> a = new ArrayList<>();
    List<RunEvent> b = new ArrayList<>();
    RunListener both = RunListener.all(List.of(a::add, b::add, RunListener.none()));
    RunEvent e = new RunEvent.RoundStarted(1, 5);
    both.onEvent(e);
    assertThat(a).containsExactly(e);
    assertThat(b).containsExactly(e);
    PhaseTimings t = PhaseTimings.ZERO.plus(Phase.SELECTION, Duration.ofSeconds(2));
    assertThat(t.seconds(Phase.SELECTION)).isEqualTo(2.0);
    assertThat(t.total()).isEqualTo(Duration.ofSeconds(2));
  }
}
