package dev.secpe.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.secpe.accounting.pld.DpSgd;
import dev.secpe.accounting.secret.SecretNoiseResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.junit.jupiter.api.Test;

/**
 * docs/guide/privacy-math.md shows the regions of {@link PrivacyMath} (each block after a
 * {@code <!-- region NAME -->} comment equals that region), and each region's answer is checked
 * against a value computed here independently (closed forms with Commons Math's normal
 * distribution, or a published value).
 */
class PrivacyMathTest {

  private static final NormalDistribution N = new NormalDistribution(0, 1);

  @Test
  void thePageShowsTheCompiledRegions() throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    String page = Files.readString(root.resolve("docs/guide/privacy-math.md"));
    List<String> source = Files.readAllLines(Path.of("src/main/java/dev/secpe/examples/PrivacyMath.java"));
    Matcher m = Pattern.compile("<!-- region ([a-z0-9-]+) -->\\n```java\\n(.*?)\\n```", Pattern.DOTALL).matcher(page);
    List<String> shown = new ArrayList<>();
    while (m.find()) {
      shown.add(m.group(1));
      assertThat(m.group(2)).as("region %s", m.group(1)).isEqualTo(region(source, m.group(1)));
    }
    assertThat(shown).containsExactlyInAnyOrder("secret-to-gdp", "gdp-to-secret", "gdp-to-dp", "gaussian",
        "pe-noise", "t-releases", "dpsgd", "blowup", "secret-noise");
  }

  /** r(mu, p) = 1 - Phi(PhiInv(1 - p) - mu) (SecPE eq. 4). */
  private static double r(double mu, double p) {
    return 1 - N.cumulativeProbability(N.inverseCumulativeProbability(1 - p) - mu);
  }

  /** delta(eps) of mu-GDP (Dong, Roth and Su 2022, Corollary 2.13). */
  private static double delta(double mu, double eps) {
    return N.cumulativeProbability(-eps / mu + mu / 2) - Math.exp(eps) * N.cumulativeProbability(-eps / mu - mu / 2);
  }

  @Test
  void secretAndGdpConvertBothWaysOnTheSafeSide() {
    double mu = PrivacyMath.secretToGdp();
    assertThat(r(mu, 1e-4)).isLessThanOrEqualTo(1e-3).isCloseTo(1e-3, within(1e-8));
    assertThat(PrivacyMath.gdpToSecret()).isGreaterThanOrEqualTo(r(1.0, 1e-4)).isCloseTo(r(1.0, 1e-4), within(1e-10));
  }

  @Test
  void gdpToDpMatchesTheClosedForm() {
    double[] ed = PrivacyMath.gdpToDp();
    assertThat(delta(1.0, ed[0])).isLessThanOrEqualTo(1e-5).isCloseTo(1e-5, within(1e-8));
    assertThat(ed[1]).isCloseTo(delta(1.0, 1.0), within(1e-9));
  }

  @Test
  void gaussianSigmaMeetsTheBudget() {
    double[] s = PrivacyMath.gaussian();
    // Analytic Gaussian (Balle and Wang 2018): mu = 1/sigma must give delta(1) <= 1e-5, tightly.
    assertThat(delta(1 / s[0], 1.0)).isLessThanOrEqualTo(1e-5).isCloseTo(1e-5, within(1e-7));
    // Classic: sqrt(2 ln(1.25/delta)) / epsilon.
    assertThat(s[1]).isCloseTo(Math.sqrt(2 * Math.log(1.25 / 1e-5)) / 0.5, within(1e-9));
  }

  @Test
  void peNoiseComposesTenVotesToTheBudget() {
    double sigma = PrivacyMath.peNoise();
    double mu = Math.sqrt(10) / sigma;
    assertThat(delta(mu, 4.0)).isLessThanOrEqualTo(1e-5).isCloseTo(1e-5, within(1e-7));
  }

  @Test
  void tGaussianReleasesAgreeInGdpAndThePld() {
    double[] x = PrivacyMath.gaussianReleases();
    assertThat(x[0]).isCloseTo(Math.sqrt(10) / 5.0, within(1e-9));
    assertThat(delta(x[0], x[1])).isLessThanOrEqualTo(1e-5 * (1 + 1e-9));
    // The PLD's epsilon is an upper bound of the exact one, within its discretisation.
    assertThat(x[2]).isGreaterThanOrEqualTo(x[1] * (1 - 1e-6)).isCloseTo(x[1], within(0.01 * x[1]));
  }

  @Test
  void dpsgdAnswersAreEachOthersInverseAndBelowRdp() {
    double[] x = PrivacyMath.dpsgd();
    // The RDP accountant (Mironov et al.) is an upper bound of the tight PLD epsilon.
    double rdp = DpSgd.epsilon(60_000, 256, 1_000, 1.1, 1e-5, DpSgd.Accountant.RDP);
    assertThat(x[0]).isPositive().isLessThanOrEqualTo(rdp).isGreaterThan(0.5 * rdp);
    // The sigma for epsilon 1 meets it, and is within the solver's tolerance of the least one.
    assertThat(DpSgd.epsilon(60_000, 256, 1_000, x[1], 1e-5, DpSgd.Accountant.PLD)).isLessThanOrEqualTo(1.0)
        .isGreaterThan(0.99);
    // Epsilon 1 needs less noise than the epsilon of sigma 1.1 (about 0.6) did.
    assertThat(x[1]).isLessThan(1.1);
  }

  @Test
  void blowupAndSecretNoiseAreFinite() {
    // T = 3 releases at sigma 4, records sampled with probability 1 and 0.5 (c = 1): the shift S is
    // 1 or 2, so B(alpha) lies between the Gaussians' of shift 1 and shift 2 composed 3 times.
    double b = PrivacyMath.blowup();
    double upper = r(Math.sqrt(3) * 2.0 / 4.0, 1e-4);
    double lower = r(Math.sqrt(3) * 1.0 / 4.0, 1e-4);
    assertThat(b).isBetween(lower, upper * (1 + 1e-3));
    SecretNoiseResult noise = PrivacyMath.secretNoise();
    assertThat(noise.sigma()).isPositive().isFinite();
    assertThat(noise.records()).isEqualTo(4);
    assertThat(noise.secrets()).isEqualTo(2);
  }

  private static String region(List<String> lines, String name) {
    int start = -1;
    int end = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("// @start region=\"" + name + "\"")) {
        start = i;
      } else if (start >= 0 && end < 0 && lines.get(i).contains("// @end region=\"" + name + "\"")) {
        end = i;
      }
    }
    assertThat(start).as("region %s", name).isNotNegative();
    List<String> body = lines.subList(start + 1, end);
    int indent = body.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    return String.join("\n", body.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList());
  }
}
