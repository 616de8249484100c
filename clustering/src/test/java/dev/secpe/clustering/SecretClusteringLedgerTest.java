package dev.secpe.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.BudgetExceededException;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.noise.NoiseSource;
import dev.secpe.accounting.noise.NoiseSources;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Secret clustering against the real {@link PrivacyLedger} and seeded {@link NoiseSources}. */
class SecretClusteringLedgerTest {

  /** Counts draws, delegating to the accounting module's reproducible test source. */
  static final class Counting implements NoiseSource {
    final NoiseSource inner = NoiseSources.reproducibleForTests(42);
    final AtomicInteger draws = new AtomicInteger();

    public double gaussian(double sigma) {
      draws.incrementAndGet();
      return inner.gaussian(sigma);
    }

    public void gaussian(double sigma, double[] out) {
      draws.incrementAndGet();
      inner.gaussian(sigma, out);
    }

    public double laplace(double b) {
      draws.incrementAndGet();
      return inner.laplace(b);
    }

    public long discreteGaussian(double sigma) {
      draws.incrementAndGet();
      return inner.discreteGaussian(sigma);
    }

    public long discreteLaplace(double b) {
      draws.incrementAndGet();
      return inner.discreteLaplace(b);
    }

    public boolean bernoulli(double p) {
      draws.incrementAndGet();
      return inner.bernoulli(p);
    }

    public boolean isPrivate() {
      return inner.isPrivate();
    }

    public String description() {
      return inner.description();
    }
  }

  private static SecretClustering.Builder builder(SecretClusteringTest.Fixture f, double sigma,
      NoiseSource noise, PrivacyLedger ledger) {
    return SecretClustering.builder()
        .publicClusters(Embeddings.of(f.centres), f.sizes)
        .secretNoise(SecretClusteringTest.noiseResult(sigma, f.rho, Math.sqrt(2)),
            SecretClusteringTest.secrets(f.n))
        .noise(noise).ledger(ledger).releaseId("secpe/clusters");
  }

  @Test
  void theReleaseIsOnTheLedgerOnceAndADuplicateIdIsRefusedBeforeAnyNoise() {
    SecretClusteringTest.Fixture f = new SecretClusteringTest.Fixture(9);
    PrivacyLedger ledger = PrivacyLedger.unlimited();
    Counting noise = new Counting();
    SecretClusteringResult res = builder(f, 3.0, noise, ledger).build()
        .release(Embeddings.of(f.priv));
    assertThat(ledger.contains("secpe/clusters")).isTrue();
    assertThat(ledger.releases()).hasSize(1);
    assertThat(ledger.releases().get(0).cost()).isInstanceOf(PrivacyCost.SecretMixture.class);
    assertThat(res.noiseIsPrivate()).isFalse();
    int before = noise.draws.get();
    assertThat(before).isGreaterThan(f.n);
    assertThatThrownBy(() -> builder(f, 3.0, noise, ledger).build()
            .release(Embeddings.of(f.priv)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(noise.draws.get()).isEqualTo(before);
  }

  @Test
  void aReleaseOverTheSecretBudgetIsRefusedAndDrawsNothing() {
    SecretClusteringTest.Fixture f = new SecretClusteringTest.Fixture(9);
    PrivacyLedger ledger = PrivacyLedger.withLimit(new SecretBudget(0.01, 0.02), 2);
    Counting noise = new Counting();
    assertThatThrownBy(() -> builder(f, 0.5, noise, ledger).build()
            .release(Embeddings.of(f.priv)))
        .isInstanceOf(BudgetExceededException.class);
    assertThat(noise.draws.get()).isZero();
    assertThat(ledger.releases()).isEmpty();
  }
}
