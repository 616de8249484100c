package dev.secpe.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.accounting.pld.ReferenceValues;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link StandardNormal} (Cody's rational approximations) against 50-digit mpmath
 * ({@code accounting/src/test/python/normal_reference.py}): the CDF, its logarithm and the Mills
 * ratio to a relative 1e-14, on both sides of the ends of Cody's three ranges and down to
 * {@code Phi(x) ~ 1e-300}.
 */
class StandardNormalTest {

  private static final double REL = 1e-14;

  @ParameterizedTest(name = "x={0}")
  @ValueSource(strings = {"-37", "-30", "-20", "-12", "-8.2924", "-6", "-5.6569", "-5.6568", "-4",
      "-3", "-2", "-1.5", "-1", "-0.6745", "-0.6744", "-0.5", "-0.01", "-1e-9", "0", "1e-9", "0.3",
      "0.6744", "0.6745", "1", "2", "3", "5.6568", "5.6569", "7", "8.2924", "9"})
  void cdfAndItsLogarithmMatchMpmath(String x) {
    double z = Double.parseDouble(x);
    double cdf = ReferenceValues.get("cdf x=" + x);
    double log = ReferenceValues.get("logcdf x=" + x);
    assertThat(StandardNormal.cdf(z)).isCloseTo(cdf, Offset.offset(REL * cdf));
    assertThat(StandardNormal.sf(-z)).isCloseTo(cdf, Offset.offset(REL * cdf));
    assertThat(StandardNormal.logCdf(z))
        .isCloseTo(log, Offset.offset(REL * Math.max(Math.abs(log), 1e-300) + 1e-16 * cdf));
  }

  @ParameterizedTest(name = "t={0}")
  @ValueSource(strings = {"-3", "-1", "-0.5", "0", "0.25", "0.6744", "0.6745", "1", "2.5", "4",
      "5.6568", "5.6569", "8", "15", "30", "1000", "1e6"})
  void millsRatioMatchesMpmath(String t) {
    double exact = ReferenceValues.get("mills t=" + t);
    assertThat(StandardNormal.millsRatio(Double.parseDouble(t)))
        .isCloseTo(exact, Offset.offset(REL * exact));
  }
}
