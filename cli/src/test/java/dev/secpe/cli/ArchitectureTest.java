package dev.secpe.cli;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.secpe.core.PrivateTexts;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules of docs/architecture.md, checked on the compiled classes of every library module
 * the command line puts on its class path (all but the CUDA kernel and the two LLM framework
 * adapters, which no module imports): no package depends on itself through others, and the
 * evolution loop does not reach into the persistence it is handed.
 */
class ArchitectureTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.secpe");
  }

  @Test
  void theLibraryModulesAreOnTheImportedPath() {
    // Without them the rules below would pass on nothing.
    for (String type :
        new String[] {
          "dev.secpe.accounting.ledger.PrivacyLedger",
          "dev.secpe.core.PrivateDataset",
          "dev.secpe.clustering.KMeans",
          "dev.secpe.evolution.PrivacyJournal",
          "dev.secpe.evolution.engine.Engine",
          "dev.secpe.evolution.persist.RunJournal",
          "dev.secpe.evaluation.Evaluation",
          "dev.secpe.llm.spi.Providers",
          "dev.secpe.spark.SparkPrivateStore",
          "dev.secpe.cli.RunCommand"
        }) {
      assertThat(classes.contain(type)).as(type).isTrue();
    }
  }

  @Test
  void noPackageDependsOnItselfThroughOthers() {
    EvaluationResult result =
        slices()
            .assignedFrom(PACKAGES)
            .should()
            .beFreeOfCycles()
            // The gate: private text reaches a secret detector only through PrivateTexts.detect,
            // beside the only reader of a private text's content (PrivateText.reveal, package-private
            // in core's root), while the secret package scans datasets of the root. The gate's call
            // into the detector's interface is the one arrow that points back, on purpose.
            .ignoreDependency(
                JavaClass.Predicates.equivalentTo(PrivateTexts.class),
                JavaClass.Predicates.resideInAPackage("dev.secpe.core.secret"))
            .evaluate(classes);
    assertThat(result.getFailureReport().getDetails()).isEmpty();
  }

  /** The entry points of evolution's exported package: they hand work to the engine and the methods. */
  private static final Set<String> ENTRY_POINTS =
      Set.of("SecPE", "AugPE", "DPGA", "CTCL", "Runs", "EvolutionBuilder");

  /**
   * Each package is a slice, except evolution's exported package, which is two: its entry points
   * ({@link #ENTRY_POINTS}), which hand work down to the engine and the method packages, and the
   * rest, the shared values those read (settings, the private store, the journal's odometer;
   * docs/architecture.md, "The engine"). So an entry point may import the engine, and the engine a
   * shared value, but a shared value that reached the engine would close a circle.
   */
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
          String pkg = c.getPackageName();
          if (!pkg.startsWith("dev.secpe")) {
            return SliceIdentifier.ignore();
          }
          if (pkg.equals("dev.secpe.evolution")) {
            String top = c.getName().substring(pkg.length() + 1).split("\\$")[0];
            return SliceIdentifier.of(ENTRY_POINTS.contains(top) ? "evolution (entry points)" : "evolution (shared values)");
          }
          return SliceIdentifier.of(pkg);
        }

        @Override
        public String getDescription() {
          return "packages of dev.secpe (evolution's exported package: entry points, shared values)";
        }
      };
}
