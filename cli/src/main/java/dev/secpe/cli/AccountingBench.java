package dev.secpe.cli;

import dev.secpe.accounting.pld.PldAccountant;
import dev.secpe.accounting.pld.PldOptions;
import dev.secpe.accounting.pld.PrivacyLossDistribution;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench accounting}: the refined PLD accountant on the PRV accountant's reference cases
 * (Gopi, Lee, Wutschitz 2021: Poisson-subsampled Gaussian, q = 0.001, 1,000 steps, delta = 1e-6,
 * sigma 0.8, 1.5, 3) and on DP-SGD at CTCL's PubMed setting: the upper and lower bound, their
 * relative gap, the interval chosen, the value the fixed interval 1e-3 gives, and the seconds per
 * query (each query is timed once after a warm-up query).
 */
final class AccountingBench {

  private AccountingBench() {}

  /** Published PRV upper bounds for sigma 0.8, 1.5, 3 (as cited in issue 14). */
  private static final double[][] PRV = {{0.8, 0.478}, {1.5, 0.0998}, {3.0, 0.0476}};

  static Map<String, Object> run() {
    Map<String, Object> out = new LinkedHashMap<>();
    List<Map<String, Object>> cases = new ArrayList<>();
    query(0.001, 1000, 1.5, 1e-6); // warm-up: class loading and JIT
    for (double[] c : PRV) {
      Map<String, Object> row = query(0.001, 1000, c[0], 1e-6);
      row.put("prv_published_upper", c[1]);
      cases.add(row);
    }
    // DP-SGD at CTCL's PubMed setting (Table 9): batch 4096 of 75,316 records, 2,000 steps.
    cases.add(query(4096.0 / 75316, 2000, 3.01, 1.0316e-6));
    out.put("cases", cases);
    return out;
  }

  private static Map<String, Object> query(double q, int steps, double sigma, double delta) {
    PldAccountant.Composition c =
        o -> PrivacyLossDistribution.poissonSubsampledGaussian(sigma, q, o).selfCompose(steps);
    long t0 = System.nanoTime();
    PldAccountant.Bounds b = PldAccountant.epsilon(c, delta);
    double seconds = (System.nanoTime() - t0) / 1e9;
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("sampling_rate", q);
    row.put("steps", steps);
    row.put("sigma", sigma);
    row.put("delta", delta);
    row.put("epsilon_upper", b.upper());
    row.put("epsilon_lower", b.lower());
    row.put("relative_gap", b.relativeGap());
    row.put("interval", b.interval());
    row.put("epsilon_fixed_interval_1e-3", c.at(PldOptions.withInterval(1e-3)).epsilon(delta));
    row.put("seconds_per_query", seconds);
    return row;
  }
}
