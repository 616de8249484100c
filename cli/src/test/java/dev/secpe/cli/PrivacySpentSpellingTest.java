package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.evolution.PrivacyJournal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code privacy spent} speaks the run report's spelling (issue 53), and states (p, r) without
 * {@code --p} where the dataset's SecPE runs journalled their prior.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrivacySpentSpellingTest {

  // fault: `privacy spent` wrote `noiseScale`, `shiftMultiplier`, `"type": "secret-mixture"` where the run report writes `noise_scale`, `shift_multiplier`, `"secret_mixture"` (issue 53)
  // holds: each release carries the report's spelling (`noise_scale`, `sensitivity`, `cost_type`, and every cost key as the report writes it) beside the old keys, kept for one release
  @Test
  void eachReleaseCarriesTheReportsSpellingBesideTheOldOne(@TempDir Path dir) throws Exception {
    FaultRun secpe = new FaultRun(dir);
    assertThat(CliRun.execute(secpe.secpe()).code()).isZero();
    FaultRun augpe = new FaultRun(Files.createDirectory(dir.resolve("augpe")));
    assertThat(augpe.run().code()).isZero();
    for (FaultRun f : List.of(secpe, augpe)) {
      JsonNode mechanism = FaultRun.JSON.readTree(f.dir.resolve("report.json").toFile()).path("mechanisms").get(0);
      JsonNode release = f.spent().path("runs").get(0).path("releases").get(0);
      assertThat(release.path("id").asText()).isEqualTo(mechanism.path("id").asText());
      assertThat(release.path("noise_scale").asDouble()).isEqualTo(mechanism.path("noise_scale").asDouble())
          .isEqualTo(release.path("noiseScale").asDouble()).isPositive();
      assertThat(release.path("sensitivity").asDouble()).isEqualTo(mechanism.path("sensitivity").asDouble());
      JsonNode reportCost = mechanism.path("cost");
      assertThat(release.path("cost_type").asText()).isEqualTo(reportCost.path("type").asText());
      JsonNode cost = release.path("cost");
      for (Iterator<String> k = reportCost.fieldNames(); k.hasNext(); ) {
        String key = k.next();
        if (!key.equals("type")) {
          assertThat(cost.path(key).asDouble()).as(key).isEqualTo(reportCost.path(key).asDouble());
        }
      }
    }
    JsonNode secret = secpe.spent().path("runs").get(0).path("releases").get(0);
    assertThat(secret.path("cost_type").asText()).isEqualTo("secret_mixture");
    assertThat(secret.path("cost").path("type").asText()).isEqualTo("secret-mixture"); // the old value, one release
    // SecPE's counts and centres move together: the shift multiplier is sqrt(2), in both spellings.
    assertThat(secret.path("cost").path("shift_multiplier").asDouble()).isEqualTo(Math.sqrt(2));
    assertThat(secret.path("cost").path("shiftMultiplier").asDouble()).isEqualTo(Math.sqrt(2));
    assertThat(secret.path("cost").path("shift_probs_per_secret").size())
        .isEqualTo(secret.path("cost").path("shiftProbsPerSecret").size()).isPositive();
  }

  // fault: `privacy spent` without `--p` gave `per_secret` a `mu` but no r, with nothing saying why (issue 53)
  // holds: a SecPE run journals the prior p of its budget; without `--p` or a limit the total is given at the prior the runs journalled (`p_from` "journal"), and where they journalled none or different ones `per_secret` says `"r": null` and in `r_needs` what p is needed
  @Test
  void withoutPTheJournalledPriorGivesR(@TempDir Path dir) throws Exception {
    FaultRun f = new FaultRun(dir);
    assertThat(CliRun.execute(f.secpe()).code()).isZero(); // --p 1e-4 --r 1e-3
    JsonNode spent = f.spent();
    assertThat(spent.path("runs").get(0).path("prior").asDouble()).isEqualTo(1e-4);
    JsonNode perSecret = spent.path("spent").path("per_secret");
    assertThat(perSecret.path("p").asDouble()).isEqualTo(1e-4);
    assertThat(perSecret.path("p_from").asText()).isEqualTo("journal");
    // One run calibrated to (p, r) = (1e-4, 1e-3): what it spent is within that r at that p.
    double r = perSecret.path("r").asDouble();
    assertThat(r).isGreaterThan(1e-4).isLessThanOrEqualTo(1e-3 * (1 + 1e-9));
    CliRun.Outcome given = CliRun.execute("privacy", "spent", "--private", f.privateFile.toString(), "--journal",
        f.journal.toString(), "--p", "1e-4");
    assertThat(given.json().path("spent").path("per_secret").path("r").asDouble()).isEqualTo(r);
    assertThat(given.json().path("spent").path("per_secret").path("p_from").asText()).isEqualTo("--p");

    // A second run given another prior: no one prior to state r at.
    List<String> other = f.secpe("--out", dir.resolve("s2.jsonl").toString(), "--report", dir.resolve("r2.json").toString());
    other.set(other.indexOf("--p") + 1, "1e-3");
    other.set(other.indexOf("--r") + 1, "1e-2");
    CliRun.Outcome second = CliRun.execute(other);
    assertThat(second.code()).as(second.err()).isZero();
    JsonNode two = f.spent().path("spent").path("per_secret");
    assertThat(two.path("mu").asDouble()).isPositive();
    assertThat(two.path("r").isNull()).as(two.toString()).isTrue();
    assertThat(two.path("r_needs").asText()).startsWith("--p (the prior of a secret)")
        .contains("different priors (1.0E-4, 0.001)");
  }

  @Test
  void aRunJournalledWithoutItsPriorLeavesRNullAndSaysWhy() {
    Release release = new Release("secpe/secret-clustering/all", "SecPE secret clustering", "counts", Math.sqrt(2), 2.0,
        new PrivacyCost.SecretMixture(2.0, Math.sqrt(2), new double[][] {{1.0}}, "set"));
    PrivacyJournal.Run old = new PrivacyJournal.Run("r1", "l1", "secpe", false, Instant.EPOCH,
        Optional.of(Instant.EPOCH), "finished", Optional.empty(), "me", PrivacyJournal.Run.SECURE,
        List.of(new PrivacyJournal.Charge(Instant.EPOCH, release)), "secpe", false, OptionalDouble.empty());
    PrivacyJournal.History h = new PrivacyJournal.History("key", Path.of("journal.jsonl"), 100, Optional.empty(),
        List.of(old), List.of());
    ObjectNode out = JsonOut.MAPPER.createObjectNode();
    JournalCommands.spentAndLimit(out, h, 100, null, null, false);
    JsonNode perSecret = out.path("spent").path("per_secret");
    assertThat(perSecret.path("mu").asDouble()).isPositive();
    assertThat(perSecret.path("r").isNull()).isTrue();
    assertThat(perSecret.path("r_needs").asText())
        .isEqualTo("--p (the prior of a secret): no SecPE run on this dataset journalled the prior of its budget");
  }
}
