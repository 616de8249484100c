package dev.secpe.accounting.ortools;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;
import dev.secpe.accounting.secret.SecretLpProblem;

/** One OR-Tools MPSolver run of the reduced LP (6); shared by the GLOP and PDLP solvers. */
final class OrToolsLp {

  private OrToolsLp() {}

  static double[] solve(SecretLpProblem problem, boolean pdlp) {
    OrToolsNatives.load();
    String name = pdlp ? "PDLP" : "GLOP";
    MPSolver solver = MPSolver.createSolver(name);
    if (solver == null) {
      throw new IllegalStateException("OR-Tools " + name + " solver is not available");
    }
    try {
      double[] upper = problem.upper();
      int[][] rows = problem.rows();
      double[] capacity = problem.capacity();
      MPVariable[] vars = new MPVariable[upper.length];
      for (int k = 0; k < vars.length; k++) {
        vars[k] = solver.makeNumVar(0.0, upper[k], "");
      }
      for (int j = 0; j < rows.length; j++) {
        MPConstraint c = solver.makeConstraint(Double.NEGATIVE_INFINITY, capacity[j], "");
        for (int k : rows[j]) {
          c.setCoefficient(vars[k], 1.0);
        }
      }
      MPObjective obj = solver.objective();
      for (MPVariable v : vars) {
        obj.setCoefficient(v, 1.0);
      }
      obj.setMaximization();
      if (pdlp) {
        solver.setSolverSpecificParametersAsString(
            "termination_criteria { simple_optimality_criteria {"
                + " eps_optimal_relative: 1e-4 eps_optimal_absolute: 1e-4 } }");
      }
      MPSolver.ResultStatus status = solver.solve();
      if (status != MPSolver.ResultStatus.OPTIMAL && !(pdlp && status == MPSolver.ResultStatus.FEASIBLE)) {
        throw new IllegalStateException("SecretNoise LP (6) was not solved to optimality by " + name + ": " + status);
      }
      double[] x = new double[vars.length];
      for (int k = 0; k < x.length; k++) {
        x[k] = vars[k].solutionValue();
      }
      return x;
    } finally {
      solver.delete();
    }
  }
}
