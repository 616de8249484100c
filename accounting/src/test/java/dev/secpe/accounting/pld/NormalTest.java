package dev.secpe.accounting.pld;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.StandardNormal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The upper-tail quantile the PLD and SecretNoise use (-StandardNormal.quantile(p)) against
 * 50-digit mpmath, deep into the tail where Hipparchus' erfcInv alone fails (below 1e-16).
 */
class NormalTest {

  @ParameterizedTest(name = "p={0}")
  @ValueSource(strings = {"0.3", "0.01", "1e-5", "1e-10", "1e-15", "1e-16", "1e-17", "1e-20",
      "1e-50", "1e-100", "1e-200", "1e-300"})
  void upperQuantileMatchesMpmath(String p) {
    double exact = ReferenceValues.get("upper_quantile p=" + p);
    assertThat(-StandardNormal.quantile(Double.parseDouble(p)))
        .isCloseTo(exact, org.assertj.core.data.Percentage.withPercentage(1e-11));
  }
}
