/**
 * OR-Tools GLOP and PDLP as {@link dev.secpe.accounting.secret.SecretLpSolver}s for large
 * SECRETNOISE programs.
 *
 * <p>OR-Tools' jars have no module name of their own (the JDK would derive {@code ortools.java}
 * from the file name, which a later OR-Tools may replace), so this descriptor does not require
 * them: this module is compiled reading the class path, and at its first solve it reads whichever
 * module holds OR-Tools' classes at run time: the class path's unnamed module, or the automatic
 * module of {@code ortools-java} where the application put that jar on the module path (resolved
 * there as every automatic module is once one is, or with {@code --add-modules}). OR-Tools' native
 * jar ({@code ortools-linux-x86-64} and the like) goes on the class path: its file name cannot
 * become a module name ({@code '64'} is not a Java identifier); OR-Tools finds its libraries
 * through the class loader either way.
 */
module dev.secpe.accounting.ortools {
  requires static org.jspecify;
  requires transitive dev.secpe.accounting;
  requires dev.secpe.natives;

  exports dev.secpe.accounting.ortools;

  provides dev.secpe.accounting.secret.SecretLpSolver with
      dev.secpe.accounting.ortools.GlopSecretLpSolver,
      dev.secpe.accounting.ortools.PdlpSecretLpSolver;
}
