package dev.secpe.accounting.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.accounting.Sensitivity;
import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A noise scale and a sensitivity are both positive numbers: passed in each other's place they
 * account a different mechanism with no error. Release's factories used to take (sensitivity,
 * sigma) where PrivacyLossDistribution takes (sigma, sensitivity); now the sensitivity is typed and
 * the noise comes first everywhere.
 */
class NoiseBeforeSensitivityTest {

  @SuppressWarnings("deprecation")
  @Test
  void typedFactoriesCostWhatTheHandCountSays() {
    Release g = Release.gaussian("g", "votes", 3.0, Sensitivity.l2(2.0));
    assertThat(g.cost()).isEqualTo(new PrivacyCost.Gaussian(1.5)); // sigma / sensitivity = 3 / 2
    assertThat(g.noiseScale()).isEqualTo(3.0);
    assertThat(g.sensitivity()).isEqualTo(2.0);
    Release l = Release.laplace("l", "hist", 4.0, Sensitivity.l1(1.0));
    assertThat(((PrivacyCost.Laplace) l.cost()).epsilon()).isEqualTo(0.25); // 1 / 4
    // the deprecated (sensitivity, noise) factories build the same releases
    assertThat(Release.gaussian("g", "votes", 2.0, 3.0)).isEqualTo(g);
    assertThat(Release.laplace("l", "hist", 1.0, 4.0)).isEqualTo(l);
  }

  @Test
  void theWrongNormIsRefusedNamingIt() {
    assertThatThrownBy(() -> Release.gaussian("g", "votes", 3.0, Sensitivity.l1(1.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Gaussian")
        .hasMessageContaining("sensitivity=L1(1.0)");
    assertThatThrownBy(() -> Release.laplace("l", "hist", 4.0, Sensitivity.l2(1.0)))
        .hasMessageContaining("sensitivity=L2(1.0)");
    assertThatThrownBy(() -> Sensitivity.l2(0.0)).hasMessageContaining("sensitivity");
    assertThatThrownBy(() -> Sensitivity.l2(Double.NaN)).hasMessageContaining("sensitivity");
  }

  /** The names a noise parameter goes by in this module. */
  private static final Set<String> NOISE = Set.of("sigma", "b", "scale", "noiseScale", "noiseMultiplier");

  /**
   * Every public method and constructor of the module that takes a double sensitivity and a double
   * noise parameter takes the noise first, unless it is deprecated. One exemption: Release's
   * canonical constructor, whose two numbers only label the report (its PrivacyCost argument is
   * what is accounted).
   */
  @Test
  void noPublicSignatureTakesTheSensitivityBeforeTheNoise() throws Exception {
    List<String> offenders = new ArrayList<>();
    int checked = 0;
    for (Class<?> c : moduleClasses()) {
      if (!Modifier.isPublic(c.getModifiers())) {
        continue;
      }
      List<Executable> all = new ArrayList<>(List.of(c.getDeclaredMethods()));
      all.addAll(List.of(c.getDeclaredConstructors()));
      for (Executable e : all) {
        if (!Modifier.isPublic(e.getModifiers()) || e.isAnnotationPresent(Deprecated.class)) {
          continue;
        }
        int sens = -1;
        int noise = -1;
        for (int i = 0; i < e.getParameterCount(); i++) {
          Parameter p = e.getParameters()[i];
          assertThat(p.isNamePresent()).as("compiled with -parameters: %s", e).isTrue();
          if (p.getType() == double.class && p.getName().equals("sensitivity")) {
            sens = i;
          } else if (p.getType() == double.class && NOISE.contains(p.getName())) {
            noise = i;
          }
        }
        if (sens >= 0 && noise >= 0) {
          checked++;
          boolean exempt = c == Release.class && e instanceof java.lang.reflect.Constructor;
          if (sens < noise && !exempt) {
            offenders.add(e.toString());
          }
        }
      }
    }
    assertThat(offenders).as("signatures with the sensitivity before the noise").isEmpty();
    // the scan saw the signatures it is about (PLD's gaussian/laplace, PrivacyCost.Laplace, ...)
    assertThat(checked).isGreaterThanOrEqualTo(5);
  }

  private static List<Class<?>> moduleClasses() throws IOException, ClassNotFoundException {
    Path classes = Path.of(Release.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    List<Class<?>> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String rel = classes.relativize(f).toString();
        if (rel.endsWith(".class") && !rel.endsWith("module-info.class") && !rel.endsWith("package-info.class")) {
          out.add(Class.forName(rel.substring(0, rel.length() - 6).replace('/', '.'), false,
              Release.class.getClassLoader()));
        }
      }
    }
    return out;
  }
}
