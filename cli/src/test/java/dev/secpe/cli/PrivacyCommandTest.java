package dev.secpe.cli;

import static dev.secpe.cli.CliRun.execute;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.secpe.cli.CliRun.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The privacy calculator's contract, run in-process. */
class PrivacyCommandTest {

  static double field(Outcome r, String name) throws Exception {
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).isEmpty();
    JsonNode node = r.json();
    assertThat(node.size()).isEqualTo(1);
    return node.get(name).asDouble();
  }

  @Test
  void secretToGdpAndBack() throws Exception {
    // mpmath (accounting gdp_reference.csv): PhiInv(1 - 1e-4) - PhiInv(1 - 1e-3) = 0.62878417928786702
    double mu = field(execute("privacy", "secret-to-gdp", "--p", "1e-4", "--r", "1e-3"), "mu");
    assertThat(mu).isBetween(0.6287841792, 0.62878417928786702);
    double r = field(execute("privacy", "gdp-to-secret", "--p", "1e-4", "--mu", Double.toString(mu)), "r");
    assertThat(r).isBetween(0.999e-3, 1e-3);
  }

  @Test
  void gdpToDpBothWays() throws Exception {
    // mpmath (accounting gdp_reference.csv): mu = 1, delta = 1e-5 -> eps = 4.3771780956812246
    double eps = field(execute("privacy", "gdp-to-dp", "--mu", "1", "--delta", "1e-5"), "epsilon");
    assertThat(eps).isBetween(4.3771780956812246, 4.37717810);
    double delta = field(execute("privacy", "gdp-to-dp", "--mu", "1", "--epsilon", Double.toString(eps)), "delta");
    assertThat(delta).isBetween(0.99e-5, 1e-5);
  }

  @Test
  void gaussianAnalyticAndClassic() throws Exception {
    double analytic = field(execute("privacy", "gaussian", "--epsilon", "0.5", "--delta", "1e-5"), "sigma");
    double classic =
        field(execute("privacy", "gaussian", "--epsilon", "0.5", "--delta", "1e-5", "--method", "classic"), "sigma");
    assertThat(classic).isBetween(9.689610525, 9.68961053); // sqrt(2 ln 125000) / 0.5 = 9.6896105252...
    assertThat(analytic).isLessThan(classic).isGreaterThan(5);
    double scaled =
        field(execute("privacy", "gaussian", "--epsilon", "0.5", "--delta", "1e-5", "--sensitivity", "2"), "sigma");
    assertThat(scaled).isBetween(2 * analytic * (1 - 1e-9), 2 * analytic * (1 + 1e-9));
  }

  @Test
  void peNoiseMatchesAugPePublishedSigma() throws Exception {
    double delta = 1.0 / (75_316 * Math.log(75_316));
    double sigma =
        field(execute("privacy", "pe-noise", "--epsilon", "1", "--delta", Double.toString(delta),
            "--rounds", "10"), "sigma");
    assertThat(Math.round(sigma * 100) / 100.0).isEqualTo(13.25);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "privacy secret-to-gdp --p 0.001 --r 0.0001",
        "privacy secret-to-gdp --p 0.001",
        "privacy secret-to-gdp --p NaN --r 0.1",
        "privacy gdp-to-secret --p 1.5 --mu 1",
        "privacy gdp-to-dp --mu 1 --delta 1e-5 --epsilon 1",
        "privacy gdp-to-dp --mu 1",
        "privacy gdp-to-dp --mu -1 --delta 1e-5",
        "privacy gaussian --epsilon 2 --delta 1e-5 --method classic",
        "privacy gaussian --epsilon 1 --delta 1e-5 --method fancy",
        "privacy gaussian --epsilon abc --delta 1e-5",
        "privacy pe-noise --epsilon 1 --delta 1e-5 --rounds 0",
        "privacy pe-noise --epsilon 1 --delta 0 --rounds 3",
        "privacy",
        "privacy no-such-command"
      })
  void badInputExitsTwoWithOneLineOnStderr(String line) {
    Outcome r = execute(line.split(" "));
    assertThat(r.code()).as(line + " -> " + r.err()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip()).startsWith("error:").doesNotContain("\n").doesNotContain("\tat ");
  }

  @Test
  void messagesNameTheValue() {
    assertThat(execute("privacy", "secret-to-gdp", "--p", "0.001", "--r", "0.0001").err())
        .contains("r must exceed p, got p=0.001 r=1.0E-4");
    assertThat(execute("privacy", "gdp-to-dp", "--mu", "1", "--delta", "1e-5", "--epsilon", "1").err())
        .contains("mutually exclusive");
  }
}
