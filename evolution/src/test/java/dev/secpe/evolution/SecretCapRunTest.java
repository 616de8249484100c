package dev.secpe.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.secret.DictionaryDetector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SecPE's contribution-bounded mode end to end: sigma does not depend on the private data. */
class SecretCapRunTest {

  private static final List<String> TERMS = List.of("alphaword", "bravoword", "charlieword");

  /**
   * The example: records holding {a,b}, {b,c}, {a,c} and 60 without secrets; the
   * neighbour has secret a's records removed (docs/math-decisions.md §4), leaving {b,c}.
   */
  private static List<PrivateRecord> records(boolean withA) {
    List<PrivateRecord> out = new ArrayList<>();
    if (withA) {
      out.add(PrivateRecord.of("ab", "meeting notes alphaword and bravoword for the team"));
    }
    out.add(PrivateRecord.of("bc", "bravoword with charlieword in the contract draft"));
    if (withA) {
      out.add(PrivateRecord.of("ac", "alphaword charlieword shipment is delayed again"));
    }
    for (int i = 0; i < 60; i++) {
      out.add(PrivateRecord.of("p" + i, "routine message " + i + " about the weekly schedule and room " + (i % 7)));
    }
    return out;
  }

  private static SecPE.Builder builder(boolean withA) {
    return SecPE.builder()
        .privateData(PrivateDataset.of(records(withA)))
        .publicData(Fixtures.publicData(60))
        .generator(Fixtures.generator())
        .embedder(Fixtures.embedder())
        .syntheticSize(8)
        .iterations(1)
        .clusters(4)
        .seed(3)
        .budget(new SecretBudget(1e-4, 1e-3))
        .secrets(DictionaryDetector.of(TERMS));
  }

  private static double sigma(boolean withA, Integer cap) {
    SecPE.Builder b = builder(withA);
    if (cap != null) {
      b.secretCap(cap);
    }
    return b.build().run().report().sigma().orElseThrow();
  }

  @Test
  void withACapNeighbouringDatasetsGetTheSameSigmaWithoutOneTheyDoNot() {
    // The paper's calibration: removing secret a's records changes sigma (the report shows it).
    assertThat(sigma(true, null)).isNotEqualTo(sigma(false, null));
    // Capped: the same sigma, from (p, r, K) alone.
    assertThat(sigma(true, 2)).isEqualTo(sigma(false, 2));
    assertThat(sigma(true, 1)).isLessThan(sigma(true, 2));
    assertThat(sigma(true, 1)).isEqualTo(sigma(false, 1));
  }

  @Test
  void theCapIsValidatedAndNamedInTheReport() {
    assertThatThrownBy(() -> SecPE.builder().secretCap(0)).hasMessage("secretCap must be >= 1, got secretCap=0");
    SecPE run = builder(true).secretCap(3).build();
    assertThat(String.join(" ", run.run().report().deviations())).contains("secretCap K=3").doesNotContain("removing a secret can change sigma");
  }
}
