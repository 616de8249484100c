package dev.secpe.accounting.secret;

import dev.secpe.accounting.StandardNormal;

import dev.secpe.accounting.Preconditions;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.pld.PldOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * SecPE Algorithm 1 (SECRETNOISE): sampling probabilities {@code rho} from the linear program
 * (6) and the least noise {@code sigma} such that, for every secret j, the blow-up of the
 * dominating pair N(c * S_j, sigma^2)^{xT} vs N(0, sigma^2)^{xT} at p_j is at most r_j, where
 * {@code S_j ~ PoissonBinomial(rho_i : i holds s_j)} and {@code c} is the shift multiplier
 * (sqrt(2) when both counts and centres are released, docs/math-decisions.md §4).
 *
 * <p>Deviations from the paper's text, all from docs/math-decisions.md §3: the LP objective is {@code max sum_i
 * w_i} (the printed {@code max w_i} is a typo); {@code rho_i = w_i / max_k w_k} (the printed
 * formula also divides by {@code sum w}, which makes the expected sample size about 1); records
 * holding no secret get {@code w_i = 1} and do not enter the LP. Each {@code sigma_j} is exact for
 * T = 1 and PLD-based for T > 1 ({@link MixtureBlowUp}); secrets whose records carry the same
 * multiset of {@code rho} and the same budget share one solve.
 *
 * <p>Use {@link #builder()}.
 */
public final class SecretNoise {

  private SecretNoise() {}

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The sigma of the contribution-bounded mode ({@link Builder#secretCap}) for one budget: the
   * least sigma with which {@code cap} records that are all sampled, each shifting the release by
   * {@code shiftMultiplier}, meet (p, r) over {@code rounds} releases. It depends on these values
   * alone, not on the data, so a run can plan it before reading any private record; {@link
   * Builder#solve()} in the capped mode returns this sigma for a uniform budget.
   */
  public static double cappedSigma(
      SecretBudget budget, int cap, int rounds, double shiftMultiplier, BlowUpMethod method, PldOptions options) {
    Objects.requireNonNull(budget, "budget");
    Preconditions.checkPositive("secretCap", cap);
    Preconditions.checkPositive("rounds", rounds);
    Preconditions.checkPositive("shiftMultiplier", shiftMultiplier);
    return leastSigma(allSampled(cap), shiftMultiplier, rounds, budget, Objects.requireNonNull(method, "method"),
        Objects.requireNonNull(options, "options"));
  }

  private static double[] allSampled(int cap) {
    double[] ones = new double[cap];
    Arrays.fill(ones, 1.0);
    return ones;
  }

  private static double leastSigma(
      double[] shiftProbs, double shiftMultiplier, int rounds, SecretBudget budget, BlowUpMethod method, PldOptions options) {
    return method == BlowUpMethod.EXACT
        ? MixtureBlowUp.leastSigma(shiftProbs, shiftMultiplier, rounds, budget, options)
        : MixtureBlowUp.singleGaussianSigma(shiftProbs, shiftMultiplier, rounds, budget);
  }

  /** How the blow-up of the mixture pair is computed. */
  public enum BlowUpMethod {
    /** Exact for T = 1 (Neyman–Pearson on the mixture); PLD accountant for T > 1. The default. */
    EXACT,
    /** The paper's single-Gaussian approximation of the mixture. Not a guarantee; opt-in only. */
    SINGLE_GAUSSIAN_APPROXIMATION
  }

  /**
   * Which solver handles the LP (6) (each connected piece of it, after the reduction SecretLp
   * describes). The LP only shapes rho; sigma is calibrated to the rho it returns, so a
   * less-than-optimal LP solution costs utility, never privacy.
   */
  public enum LpSolver {
    /**
     * The pure-Java simplex for pieces of up to 800 variables plus constraints; larger ones go to
     * GLOP (PDLP above 250,000 non-zeros) when {@code secpe-accounting-ortools} is on the class
     * path, else to {@link #FIRST_ORDER}. The default.
     */
    AUTO,
    /**
     * The library's own simplex (exact: an optimal vertex; a dense tableau, so for small and
     * medium pieces).
     */
    SIMPLEX,
    /**
     * The pure-Java primal-dual hybrid gradient method: linear memory, always feasible, optimal to
     * a certified relative duality gap of 1e-5 (or the best it reached in 200,000 iterations).
     */
    FIRST_ORDER,
    /** OR-Tools GLOP (primal/dual simplex, exact); needs {@code secpe-accounting-ortools}. */
    GLOP,
    /**
     * OR-Tools PDLP (first-order, relative optimality tolerance 1e-4, scales to very large
     * instances); needs {@code secpe-accounting-ortools}.
     */
    PDLP
  }

  /** Builder; validates each value as it is set and the combination in {@link #solve()}. */
  public static final class Builder {
    private List<int[]> secretsOfRecord;
    private int secretCount = -1;
    private SecretBudget uniform;
    private List<SecretBudget> perSecret;
    private int rounds = 1;
    private double shiftMultiplier = Double.NaN;
    private BlowUpMethod method = BlowUpMethod.EXACT;
    private PldOptions pldOptions = PldOptions.defaults();
    private LpSolver lpSolver = LpSolver.AUTO;
    private int cap;
    private long[] priority;

    Builder() {}

    /**
     * The secrets each record holds: {@code secretsOfRecord.get(i)} lists the indices (0-based,
     * below {@code secretCount}) of the secrets record i contains; an empty array for none.
     */
    public Builder records(List<int[]> secretsOfRecord, int secretCount) {
      Objects.requireNonNull(secretsOfRecord, "secretsOfRecord");
      if (secretCount < 0) {
        throw new IllegalArgumentException("secretCount must be >= 0, got secretCount=" + secretCount);
      }
      List<int[]> copy = new ArrayList<>(secretsOfRecord.size());
      for (int i = 0; i < secretsOfRecord.size(); i++) {
        int[] s = Objects.requireNonNull(secretsOfRecord.get(i), "secretsOfRecord[" + i + "]");
        for (int j : s) {
          if (j < 0 || j >= secretCount) {
            throw new IllegalArgumentException(
                "secret index must be in [0, secretCount), got record=" + i + " secret=" + j
                    + " secretCount=" + secretCount);
          }
        }
        copy.add(s.clone());
      }
      this.secretsOfRecord = copy;
      this.secretCount = secretCount;
      return this;
    }

    /** One budget for every secret. */
    public Builder uniformBudget(SecretBudget budget) {
      Objects.requireNonNull(budget, "budget");
      if (perSecret != null) {
        throw new IllegalStateException("uniformBudget conflicts with budgets already set");
      }
      this.uniform = budget;
      return this;
    }

    /** A budget per secret (index j of the list is secret j). */
    public Builder budgets(List<SecretBudget> perSecret) {
      Objects.requireNonNull(perSecret, "perSecret");
      if (uniform != null) {
        throw new IllegalStateException("budgets conflicts with uniformBudget already set");
      }
      for (int j = 0; j < perSecret.size(); j++) {
        Objects.requireNonNull(perSecret.get(j), "perSecret[" + j + "]");
      }
      this.perSecret = List.copyOf(perSecret);
      return this;
    }

    /** Number of releases T of the same mechanism (1 when released once, docs/math-decisions.md §5). */
    public Builder rounds(int t) {
      this.rounds = Preconditions.checkPositive("rounds", t);
      return this;
    }

    /** Shift multiplier c: 1 for a count release alone, sqrt(2) for counts and centres. */
    public Builder shiftMultiplier(double c) {
      this.shiftMultiplier = Preconditions.checkPositive("shiftMultiplier", c);
      return this;
    }

    /** Blow-up method; {@link BlowUpMethod#EXACT} by default. */
    public Builder blowUpMethod(BlowUpMethod method) {
      this.method = Objects.requireNonNull(method, "method");
      return this;
    }

    /** Accuracy of the PLD accountant used when {@code rounds > 1}; defaults otherwise. */
    public Builder pldOptions(PldOptions options) {
      this.pldOptions = Objects.requireNonNull(options, "options");
      return this;
    }

    /** The LP solver; {@link LpSolver#AUTO} by default. */
    public Builder lpSolver(LpSolver solver) {
      this.lpSolver = Objects.requireNonNull(solver, "solver");
      return this;
    }

    /**
     * Contribution-bounded mode (not in the paper; {@code docs/math-decisions.md} §9): no LP, and
     * at most {@code k} records of any one secret are sampled, so that sigma follows from (p, r,
     * k, c, T) alone and not from which records hold which secret.
     *
     * <ul>
     *   <li>A record holding no secret is always sampled ({@code rho = 1}).
     *   <li>A record holding two or more distinct secrets is never sampled ({@code rho = 0}): if
     *       it were, removing one secret's records would change which records another secret
     *       keeps, and the output by more than k records.
     *   <li>Of the records holding exactly secret j, the k of least {@code priority} (ties by
     *       position) are sampled ({@code rho = 1}), the others never.
     * </ul>
     *
     * <p>Under the adjacency of §4 (the records holding a secret are removed), a neighbour changes
     * exactly that secret's sampled records, at most k, each shifting the release by at most c;
     * every other record keeps its key and its relative position. So sigma is the least with
     * which a shift of {@code c k} (T times) meets (p, r): {@code c k sqrt(T) / mu}, mu from SecPE
     * eq. (4), when T = 1.
     *
     * @param k the most records of one secret that are sampled (>= 1)
     * @param priority one key per record that is a function of the record alone (e.g. a keyed
     *     hash of its content), never of its position or of other records
     */
    public Builder secretCap(int k, long[] priority) {
      this.cap = Preconditions.checkPositive("secretCap", k);
      this.priority = Objects.requireNonNull(priority, "priority").clone();
      return this;
    }

    /** Solves the LP and calibrates sigma. */
    public SecretNoiseResult solve() {
      if (secretsOfRecord == null) {
        throw new IllegalStateException("records(...) must be set before solve()");
      }
      if (uniform == null && perSecret == null) {
        throw new IllegalStateException("uniformBudget(...) or budgets(...) must be set before solve()");
      }
      if (Double.isNaN(shiftMultiplier)) {
        throw new IllegalStateException(
            "shiftMultiplier(...) must be set explicitly (1 for counts, sqrt(2) for counts and centres)");
      }
      if (perSecret != null && perSecret.size() != secretCount) {
        throw new IllegalStateException(
            "budgets has " + perSecret.size() + " entries but secretCount=" + secretCount);
      }
      int n = secretsOfRecord.size();
      int m = secretCount;
      // invert: records of each secret (a record listing a secret twice counts once)
      int[] counts = new int[m];
      for (int[] s : secretsOfRecord) {
        for (int j : distinct(s)) {
          counts[j]++;
        }
      }
      int[][] members = new int[m][];
      for (int j = 0; j < m; j++) {
        members[j] = new int[counts[j]];
      }
      int[] fill = new int[m];
      for (int i = 0; i < n; i++) {
        for (int j : distinct(secretsOfRecord.get(i))) {
          members[j][fill[j]++] = i;
        }
      }
      if (cap > 0) {
        return capped(members, n, m);
      }
      double[] eta = new double[m];
      for (int j = 0; j < m; j++) {
        SecretBudget b = budget(j);
        eta[j] = upperQuantile(b.p()) - upperQuantile(b.r()); // eq. (4): mu
      }
      double[] w = SecretLp.solve(members, eta, n, lpSolver);
      double maxW = 0;
      for (double v : w) {
        maxW = Math.max(maxW, v);
      }
      double[] rho = new double[n];
      double expected = 0;
      if (maxW > 0) {
        for (int i = 0; i < n; i++) {
          rho[i] = Math.min(1.0, w[i] / maxW);
          expected += rho[i];
        }
      }
      // one solve per distinct (sorted rho multiset, budget); the solves are independent and
      // run in parallel (each builds its own PLD, nothing is shared)
      CacheKey[] keys = new CacheKey[m];
      Map<CacheKey, double[]> unique = new LinkedHashMap<>();
      for (int j = 0; j < m; j++) {
        double[] probs = new double[members[j].length];
        for (int k = 0; k < probs.length; k++) {
          probs[k] = rho[members[j][k]];
        }
        Arrays.sort(probs);
        keys[j] = new CacheKey(probs, budget(j));
        unique.putIfAbsent(keys[j], new double[1]);
      }
      unique.entrySet().parallelStream().forEach(e -> {
        CacheKey key = e.getKey();
        e.getValue()[0] = leastSigma(key.sortedRho, key.budget);
      });
      double[] sigmas = new double[m];
      double sigma = 0;
      for (int j = 0; j < m; j++) {
        sigmas[j] = unique.get(keys[j])[0];
        sigma = Math.max(sigma, sigmas[j]);
      }
      return new SecretNoiseResult(sigma, sigmas, w, rho, expected, rounds, shiftMultiplier);
    }

    /** The least sigma for one secret's shift probabilities and budget, by the chosen method. */
    private double leastSigma(double[] shiftProbs, SecretBudget budget) {
      return SecretNoise.leastSigma(shiftProbs, shiftMultiplier, rounds, budget, method, pldOptions);
    }

    /** The contribution-bounded mode: see {@link #secretCap}. */
    private SecretNoiseResult capped(int[][] members, int n, int m) {
      if (priority.length != n) {
        throw new IllegalStateException(
            "secretCap priority must have one key per record, got priority=" + priority.length + " records=" + n);
      }
      double[] rho = new double[n];
      int[] held = new int[n];
      for (int i = 0; i < n; i++) {
        held[i] = distinct(secretsOfRecord.get(i)).length;
        rho[i] = held[i] == 0 ? 1.0 : 0.0;
      }
      for (int j = 0; j < m; j++) {
        Integer[] single =
            Arrays.stream(members[j]).filter(i -> held[i] == 1).boxed().toArray(Integer[]::new);
        Arrays.sort(single, (a, b) -> priority[a] != priority[b] ? Long.compare(priority[a], priority[b]) : Integer.compare(a, b));
        for (int x = 0; x < Math.min(cap, single.length); x++) {
          rho[single[x]] = 1.0;
        }
      }
      double[] worst = allSampled(cap);
      Map<SecretBudget, Double> byBudget = new LinkedHashMap<>();
      double[] sigmas = new double[m];
      double sigma = 0;
      for (int j = 0; j <= m; j++) {
        // j == m: with no secret found, the sigma any secret would need (not revealing that none was)
        SecretBudget b = j < m ? budget(j) : uniform;
        if (b == null) {
          continue;
        }
        double s =
            byBudget.computeIfAbsent(b, x -> leastSigma(worst, x));
        if (j < m) {
          sigmas[j] = s;
        }
        sigma = Math.max(sigma, s);
      }
      double expected = 0;
      for (double v : rho) {
        expected += v;
      }
      return new SecretNoiseResult(sigma, sigmas, rho, rho, expected, rounds, shiftMultiplier, cap);
    }

    private SecretBudget budget(int j) {
      return uniform != null ? uniform : perSecret.get(j);
    }

    private static int[] distinct(int[] s) {
      if (s.length < 2) {
        return s;
      }
      return Arrays.stream(s).distinct().toArray();
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("SecretNoise.Builder{");
      if (secretsOfRecord != null) {
        sb.append("records=").append(secretsOfRecord.size()).append(", secrets=").append(secretCount).append(", ");
      }
      if (uniform != null) {
        sb.append("budget=").append(uniform).append(", ");
      }
      if (perSecret != null) {
        sb.append("budgets=").append(perSecret.size()).append(", ");
      }
      sb.append("rounds=").append(rounds);
      if (!Double.isNaN(shiftMultiplier)) {
        sb.append(", shiftMultiplier=").append(shiftMultiplier);
      }
      return sb.append(", method=").append(method).append('}').toString();
    }
  }

  private static final class CacheKey {
    private final double[] sortedRho;
    private final SecretBudget budget;
    private final int hash;

    CacheKey(double[] sortedRho, SecretBudget budget) {
      this.sortedRho = sortedRho;
      this.budget = budget;
      this.hash = 31 * Arrays.hashCode(sortedRho) + budget.hashCode();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof CacheKey k && Arrays.equals(sortedRho, k.sortedRho) && budget.equals(k.budget);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** Phi^{-1}(1 - p), accurate for small p (no 1 - p is formed). */
  private static double upperQuantile(double p) {
    return -StandardNormal.quantile(p);
  }
}
