package dev.secpe.accounting.secret;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The linear programme (6) of SecPE: {@code max sum_i w_i} subject to {@code sum_{i in D_j} w_i <=
 * eta_j} and {@code 0 <= w_i <= 1}, reduced before any solver sees it, then solved piece by piece.
 *
 * <ul>
 *   <li>Records holding no secret take {@code w_i = 1}; a constraint with {@code eta_j >= |D_j|}
 *       is implied by the bounds and dropped.
 *   <li>The records holding only secret j appear in no other constraint, so they enter as one
 *       variable {@code u_j} in {@code [0, e_j]} (e_j their number). Afterwards {@code u_j} is
 *       laid out over them in record order as {@code 1, 1, ..., f, 0, ...}: the same objective
 *       and constraints as any other split, and the least sigma (a Poisson-binomial with the
 *       same mean on fewer records is less spread: three records sharing 0.629 need sigma 2.559,
 *       one record holding it 1.867). So no solver's choice among these equal optima moves sigma.
 *   <li>Records holding several secrets are variables of their own; they link constraints, and
 *       the constraints fall apart into connected pieces that are solved independently.
 * </ul>
 *
 * <p>Each piece goes to a {@link SecretLpSolver}: the pure-Java simplex for small pieces; for large
 * ones OR-Tools' GLOP/PDLP from {@code secpe-accounting-ortools} when it is on the class path, else
 * the pure-Java first-order method (optimal to a certified relative gap of 1e-5). The result is then made exactly feasible: a constraint a
 * solver left violated within its tolerance is scaled down onto its capacity, which can only lower
 * w and so keeps every other constraint feasible. Optimality is not a privacy matter: sigma is
 * calibrated to whatever rho comes out. Package-private.
 */
final class SecretLp {

  /** Above this many constraint non-zeros in one piece, {@code AUTO} prefers PDLP to GLOP. */
  static final long PDLP_ABOVE_NONZEROS = 250_000;

  /** Up to this many variables plus constraints in one piece, {@code AUTO} uses the pure-Java simplex. */
  static final int SIMPLEX_MAX_SIZE = 800;

  private SecretLp() {}

  /**
   * Solves the LP.
   *
   * @param recordsOfSecret for each secret j, the indices of the records that hold it (distinct)
   * @param eta the capacities eta_j (> 0)
   * @param recordCount the number of records
   * @return w for every record (1 for records holding no secret), exactly feasible
   */
  static double[] solve(int[][] recordsOfSecret, double[] eta, int recordCount, SecretNoise.LpSolver choice) {
    int m = recordsOfSecret.length;
    double[] w = new double[recordCount];
    Arrays.fill(w, 1.0);
    int[] held = new int[recordCount];
    for (int[] members : recordsOfSecret) {
      for (int i : members) {
        held[i]++;
      }
    }
    boolean[] active = new boolean[m];
    int[] exclusive = new int[m];
    for (int j = 0; j < m; j++) {
      active[j] = recordsOfSecret[j].length > 0 && eta[j] < recordsOfSecret[j].length;
      for (int i : recordsOfSecret[j]) {
        if (held[i] == 1) {
          exclusive[j]++;
        }
      }
    }
    // pieces: active secrets joined by the shared records they have in common
    int[] parent = new int[m];
    for (int j = 0; j < m; j++) {
      parent[j] = j;
    }
    int[] firstActive = new int[recordCount];
    Arrays.fill(firstActive, -1);
    for (int j = 0; j < m; j++) {
      if (!active[j]) {
        continue;
      }
      for (int i : recordsOfSecret[j]) {
        if (held[i] >= 2) {
          if (firstActive[i] < 0) {
            firstActive[i] = j;
          } else {
            union(parent, firstActive[i], j);
          }
        }
      }
    }
    Map<Integer, List<Integer>> pieces = new LinkedHashMap<>(); // root -> its active secrets
    for (int j = 0; j < m; j++) {
      if (active[j]) {
        pieces.computeIfAbsent(find(parent, j), r -> new ArrayList<>()).add(j);
      }
    }
    double[] u = new double[m];
    for (int j = 0; j < m; j++) {
      u[j] = exclusive[j]; // inactive constraints: every exclusive record keeps w = 1
    }
    for (List<Integer> piece : pieces.values()) {
      solvePiece(piece, recordsOfSecret, eta, held, exclusive, firstActive, w, u, choice);
    }
    // lay u_j out over secret j's exclusive records, in record order
    for (int j = 0; j < m; j++) {
      int[] own = Arrays.stream(recordsOfSecret[j]).filter(i -> held[i] == 1).sorted().toArray();
      double left = Math.max(0.0, u[j]);
      for (int i : own) {
        double v = Math.min(1.0, left);
        w[i] = v;
        left = Math.max(0.0, left - v);
      }
    }
    scaleOntoCapacities(recordsOfSecret, eta, w);
    return w;
  }

  /**
   * Makes {@code x} exactly feasible: each constraint {@code sum_{k in rows[j]} x_k <= b_j} left
   * violated (within a solver's tolerance) is scaled onto its capacity. Scaling only lowers x, so
   * constraints already met stay met.
   */
  static void scaleOntoCapacities(int[][] rows, double[] b, double[] x) {
    for (int j = 0; j < rows.length; j++) {
      double sum = 0;
      for (int k : rows[j]) {
        sum += x[k];
      }
      if (sum > b[j]) {
        double scale = b[j] / sum * (1 - 1e-15);
        for (int k : rows[j]) {
          x[k] *= scale;
        }
      }
    }
  }

  private static void solvePiece(
      List<Integer> secrets, int[][] recordsOfSecret, double[] eta, int[] held, int[] exclusive,
      int[] firstActive, double[] w, double[] u, SecretNoise.LpSolver choice) {
    // variables: the piece's shared records, then u_j for its secrets with exclusive records
    Map<Integer, Integer> varOfRecord = new LinkedHashMap<>();
    for (int j : secrets) {
      for (int i : recordsOfSecret[j]) {
        if (held[i] >= 2 && firstActive[i] >= 0) {
          varOfRecord.putIfAbsent(i, varOfRecord.size());
        }
      }
    }
    if (varOfRecord.isEmpty()) { // one secret whose records are all its own
      int j = secrets.get(0);
      u[j] = Math.min(exclusive[j], eta[j]);
      return;
    }
    int shared = varOfRecord.size();
    int[] varOfSecret = new int[secrets.size()];
    int n = shared;
    for (int s = 0; s < varOfSecret.length; s++) {
      varOfSecret[s] = exclusive[secrets.get(s)] > 0 ? n++ : -1;
    }
    double[] upper = new double[n];
    Arrays.fill(upper, 0, shared, 1.0);
    int[][] rows = new int[varOfSecret.length][];
    double[] capacity = new double[varOfSecret.length];
    for (int s = 0; s < varOfSecret.length; s++) {
      int j = secrets.get(s);
      int[] row = new int[recordsOfSecret[j].length - exclusive[j] + (varOfSecret[s] >= 0 ? 1 : 0)];
      int k = 0;
      for (int i : recordsOfSecret[j]) {
        if (held[i] >= 2) {
          row[k++] = varOfRecord.get(i);
        }
      }
      if (varOfSecret[s] >= 0) {
        upper[varOfSecret[s]] = exclusive[j];
        row[k] = varOfSecret[s];
      }
      rows[s] = row;
      capacity[s] = eta[j];
    }
    SecretLpProblem problem = new SecretLpProblem(upper, rows, capacity);
    SecretLpSolver solver = solver(choice, problem);
    double[] x = solver.solve(problem);
    if (x.length != n) {
      throw new IllegalStateException("SecretNoise LP (6): the solver returned " + x.length + " values for " + n + " variables");
    }
    if (solver.name().equals("PDLP")) { // a first-order end point: move to a vertex (see crossover)
      x = FirstOrderSecretLpSolver.crossover(problem, clampAll(x, problem.upper()));
    }
    for (Map.Entry<Integer, Integer> e : varOfRecord.entrySet()) {
      w[e.getKey()] = clamp(x[e.getValue()], 1.0);
    }
    for (int s = 0; s < varOfSecret.length; s++) {
      if (varOfSecret[s] >= 0) {
        int j = secrets.get(s);
        u[j] = clamp(x[varOfSecret[s]], exclusive[j]);
      }
    }
  }

  private static double[] clampAll(double[] x, double[] upper) {
    double[] out = new double[x.length];
    for (int k = 0; k < x.length; k++) {
      out[k] = clamp(x[k], upper[k]);
    }
    return out;
  }

  private static double clamp(double v, double upper) {
    return Double.isNaN(v) ? 0.0 : Math.min(upper, Math.max(0.0, v));
  }

  /** The solver for one piece under the user's choice. */
  static SecretLpSolver solver(SecretNoise.LpSolver choice, SecretLpProblem problem) {
    int size = problem.variables() + problem.capacity().length;
    switch (choice) {
      case SIMPLEX:
        return SimplexSecretLpSolver.INSTANCE;
      case FIRST_ORDER:
        return FirstOrderSecretLpSolver.INSTANCE;
      case GLOP:
      case PDLP:
        return installed(choice.name()).orElseThrow(() -> new IllegalStateException(
            "lpSolver " + choice + " needs OR-Tools: add the dependency dev.secpe:secpe-accounting-ortools"));
      case AUTO:
      default:
        if (size <= SIMPLEX_MAX_SIZE) {
          return SimplexSecretLpSolver.INSTANCE;
        }
        return installed(problem.nonZeros() > PDLP_ABOVE_NONZEROS ? "PDLP" : "GLOP")
            .orElse(FirstOrderSecretLpSolver.INSTANCE);
    }
  }

  /** A solver registered under {@code name} (GLOP, PDLP), if its module is on the class path. */
  static Optional<SecretLpSolver> installed(String name) {
    for (SecretLpSolver s : Installed.ALL) {
      if (s.name().equals(name)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** Solvers found once by {@link ServiceLoader}. */
  private static final class Installed {
    static final List<SecretLpSolver> ALL = load();

    private static List<SecretLpSolver> load() {
      List<SecretLpSolver> out = new ArrayList<>();
      ClassLoader cl = SecretLp.class.getClassLoader();
      for (SecretLpSolver s : ServiceLoader.load(SecretLpSolver.class, cl)) {
        out.add(s);
      }
      return List.copyOf(out);
    }
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  private static void union(int[] parent, int a, int b) {
    int ra = find(parent, a);
    int rb = find(parent, b);
    if (ra != rb) {
      parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
}
