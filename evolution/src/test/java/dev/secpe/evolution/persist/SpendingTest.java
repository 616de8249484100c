package dev.secpe.evolution.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.Release;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When the journal adds SecPE releases secret by secret: only over the same named secret set.
 * Each case is a pair of releases of two secrets each, so a rule by count alone would add them all.
 */
class SpendingTest {

  private static Release mixture(String id, String secretSet) {
    return new Release(id, "SecretMixture", "t", 1, 4.0,
        new PrivacyCost.SecretMixture(4.0, 1, new double[][] {{1.0}, {0.5}}, secretSet));
  }

  @Test
  void theSameNamedSetComposes() {
    assertThat(Spending.notComposable(List.of(mixture("a", "s1"), mixture("b", "s1")))).isEmpty();
  }

  @Test
  void asManyButOtherSecretsDoNot() {
    assertThat(Spending.notComposable(List.of(mixture("a", "s1"), mixture("b", "s2"))))
        .hasValueSatisfying(w -> assertThat(w)
            .contains("protected different secret sets (2 secrets each, but not the same ones)")
            .doesNotContain("journalled before"));
  }

  @Test
  void aSetJournalledBeforeSetsWereNamedIsNotShownToBeANamedOne() {
    assertThat(Spending.notComposable(List.of(mixture("a", null), mixture("b", "s1"))))
        .hasValueSatisfying(w -> assertThat(w).contains("not the same ones, or not shown to be"));
  }

  @Test
  void unnamedSetsComposeByCountAsTheyDidWhenJournalled() {
    assertThat(Spending.notComposable(List.of(mixture("a", null), mixture("b", null)))).isEmpty();
  }

  @Test
  void recordLevelReleasesNeverPartTheTotal() {
    Release gaussian = new Release("g", "Gaussian", "t", 1, 2.0, new PrivacyCost.Gaussian(2.0));
    assertThat(Spending.notComposable(List.of(gaussian, mixture("a", "s1"), gaussian))).isEmpty();
  }
}
