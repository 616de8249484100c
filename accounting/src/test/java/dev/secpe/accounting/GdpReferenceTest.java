package dev.secpe.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the Gaussian-DP functions against 50-digit mpmath values from {@code
 * accounting/src/test/python/gdp_reference.py} (resource {@code reference/gdp_reference.csv}),
 * including on which side of the exact value each result lands.
 */
class GdpReferenceTest {

  static Stream<String> rows() throws IOException {
    List<String> out = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(
                GdpReferenceTest.class.getResourceAsStream("/reference/gdp_reference.csv"),
                StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (!line.isBlank() && !line.startsWith("#")) {
          out.add(line);
        }
      }
    }
    assertThat(out).hasSizeGreaterThan(150);
    return out.stream();
  }

  private static double d(String s) {
    return Double.parseDouble(s);
  }

  /** Relative error (absolute below 1e-300 in magnitude). */
  private static double rel(double actual, double expected) {
    return (actual - expected) / Math.max(Math.abs(expected), 1e-300);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void matchesMpmath(String line) {
    String[] row = line.split(",");
    String kind = row[0];
    double expected = d(row[row.length - 1]);
    switch (kind) {
      case "cdf" -> assertThat(Math.abs(rel(StandardNormal.cdf(d(row[1])), expected)))
          .as("Phi(%s)", row[1])
          .isLessThan(1e-13);
      case "logcdf" -> assertThat(Math.abs(rel(StandardNormal.logCdf(d(row[1])), expected)))
          .as("log Phi(%s)", row[1])
          .isLessThan(1e-13);
      case "quantile" -> assertThat(
              Math.abs(StandardNormal.quantile(d(row[1])) - expected)
                  / Math.max(1, Math.abs(expected)))
          .as("PhiInv(%s)", row[1])
          .isLessThan(1e-13);
      case "delta" -> {
        double got = Gdp.deltaAt(new GdpMu(d(row[1])), d(row[2]));
        assertThat(rel(got, expected))
            .as("delta(eps=%s; mu=%s) rounded up, tight", row[2], row[1])
            .isBetween(0.0, 1e-9);
      }
      case "epsilon" -> {
        double got = Gdp.epsilonAt(new GdpMu(d(row[1])), d(row[2]));
        assertThat(got - expected)
            .as("eps(delta=%s; mu=%s) on the safe side", row[2], row[1])
            .isBetween(0.0, 1e-9 * Math.max(1, expected));
      }
      case "secret_r" -> {
        double got = Gdp.secretR(new GdpMu(d(row[2])), d(row[1]));
        assertThat(rel(got, expected))
            .as("r(p=%s, mu=%s) rounded up", row[1], row[2])
            .isBetween(0.0, 1e-10);
      }
      case "secret_mu" -> {
        double got = Gdp.muFor(new SecretBudget(d(row[1]), d(row[2]))).mu();
        assertThat(got - expected)
            .as("mu(p=%s, r=%s) rounded down", row[1], row[2])
            .isBetween(-1e-9 * expected, 0.0);
      }
      case "lemma_c2" -> {
        double got = Gdp.lemmaC2(new DpBudget(d(row[1]), d(row[2])), d(row[3]));
        assertThat(Math.abs(rel(got, expected)))
            .as("Lemma C.2 r(eps=%s, delta=%s, p=%s)", row[1], row[2], row[3])
            .isLessThan(1e-10);
      }
      case "analytic_sigma" -> {
        double got = Calibration.analyticGaussianSigma(new DpBudget(d(row[1]), d(row[2])), 1.0);
        assertThat(rel(got, expected))
            .as("analytic sigma(eps=%s, delta=%s) rounded up", row[1], row[2])
            .isBetween(0.0, 1e-8);
      }
      case "augpe_sigma_pubmed_T10" -> {
        double delta = DpBudget.deltaForDatasetSize(75_316);
        assertThat(rel(delta, d(row[2]))).isLessThan(1e-14);
        double got = Calibration.privateEvolutionNoise(new DpBudget(d(row[1]), delta), 10).sigma();
        assertThat(rel(got, expected)).isBetween(0.0, 1e-8);
      }
      default -> throw new AssertionError("unknown kind " + kind);
    }
  }
}
