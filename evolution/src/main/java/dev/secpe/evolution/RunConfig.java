package dev.secpe.evolution;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** What every method's configuration has: the shared settings. */
interface RunConfig {

  /** The settings every method shares. */
  EvolutionSettings settings();

  /**
   * Checks a configuration's budget against its settings' privacy mode, for each method's compact
   * constructor: a private run needs one, a non-private run must have none. {@code name} is the
   * record component, named in the error.
   */
  static void requireBudgetMatches(EvolutionSettings settings, String name, @Nullable Object budget) {
    Objects.requireNonNull(settings, "settings");
    if (settings.privacy() instanceof PrivacyMode.NonPrivate && budget != null) {
      throw new IllegalArgumentException(name + " must be null in a non-private run, got " + name + "=" + budget);
    }
    if (settings.privacy() instanceof PrivacyMode.Private) {
      Objects.requireNonNull(budget, name);
    }
  }
}
