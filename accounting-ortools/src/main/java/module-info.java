/**
 * OR-Tools GLOP and PDLP as {@link dev.secpe.accounting.secret.SecretLpSolver}s for large
 * SECRETNOISE programs.
 *
 * <p>On the module path, put OR-Tools' native jar ({@code ortools-linux-x86-64} and the like) on
 * the class path: its file name cannot become a module name ({@code '64'} is not a Java
 * identifier); OR-Tools finds its libraries through the class loader either way.
 */
module dev.secpe.accounting.ortools {
  requires static org.jspecify;
  requires transitive dev.secpe.accounting;
  requires ortools.java;
  requires dev.secpe.natives;

  exports dev.secpe.accounting.ortools;

  provides dev.secpe.accounting.secret.SecretLpSolver with
      dev.secpe.accounting.ortools.GlopSecretLpSolver,
      dev.secpe.accounting.ortools.PdlpSecretLpSolver;
}
