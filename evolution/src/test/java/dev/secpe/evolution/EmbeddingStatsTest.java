package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.report.EmbeddingStats;
import dev.secpe.core.report.PrivacyReportJson;
import org.junit.jupiter.api.Test;

/** The report says where embedding time went: texts sent, throughput, the candidate cache. */
class EmbeddingStatsTest {

  @Test
  void survivorsComeFromTheCacheAndTheReportSaysSo() {
    RunResult r =
        AugPE.builder()
            .privateData(Fixtures.privateData(40))
            .publicData(Fixtures.publicData(30))
            .labels(Fixtures.released())
            .generator(Fixtures.generator())
            .embedder(Fixtures.embedder())
            .syntheticSize(8)
            .variations(2)
            .iterations(3)
            .nonPrivate()
            .build()
            .run();
    EmbeddingStats e = r.report().embedding().orElseThrow();
    // Round 0 votes on N_syn x L = 16 random texts; rounds 1 and 2 on 8 survivors + 16 children.
    assertThat(e.candidateLookups()).isEqualTo(16 + 24 + 24);
    // Rounds 1 and 2 carry the 8 survivors of the round before: at least 16 lookups are hits.
    assertThat(e.candidateHits()).isGreaterThanOrEqualTo(16).isLessThan(e.candidateLookups());
    assertThat(e.texts()).isEqualTo(40 + e.candidateLookups() - e.candidateHits());
    assertThat(e.seconds()).isPositive();
    assertThat(PrivacyReportJson.toJson(r.report()))
        .contains("\"embedding\"", "\"texts_per_second\"", "\"candidate_cache_hit_rate\"");
  }
}
