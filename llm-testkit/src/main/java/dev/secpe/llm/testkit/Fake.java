package dev.secpe.llm.testkit;

import dev.secpe.llm.Locality;
import java.util.Objects;

/**
 * What both fakes share, written once: a name, the locality they claim, and the {@link FaultPlan}
 * that counts their calls and fails some of them; and the settings their builders take for these
 * ({@link Settings}).
 */
abstract class Fake {

  final String name;
  final Locality locality;
  final FaultInjector faults;

  Fake(Settings<?> settings) {
    this.name = settings.name;
    this.locality = settings.locality;
    this.faults = new FaultInjector(settings.faults);
  }

  /** The name. */
  public final String name() {
    return name;
  }

  /** The claimed locality. */
  public final Locality locality() {
    return locality;
  }

  /** Calls so far (each embed, and each generation request, is one). */
  public final long calls() {
    return faults.calls();
  }

  /** Injected failures so far. */
  public final long injectedFailures() {
    return faults.failures();
  }

  /**
   * The settings of every fake: a name (default "fake"), the locality it claims (default {@link
   * Locality#LOCAL}) and the faults to inject (default none). Each fake's builder extends it.
   *
   * @param <B> the builder
   */
  abstract static class Settings<B extends Settings<B>> {
    String name = "fake";
    Locality locality = Locality.LOCAL;
    FaultPlan faults = FaultPlan.none();

    Settings() {}

    abstract B self();

    /** The name; default "fake". */
    public B name(String value) {
      Objects.requireNonNull(value, "name");
      if (value.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      this.name = value;
      return self();
    }

    /** The claimed locality (REMOTE to exercise the privacy guard); default LOCAL. */
    public B locality(Locality value) {
      this.locality = Objects.requireNonNull(value, "locality");
      return self();
    }

    /** The faults to inject; default none. */
    public B faults(FaultPlan value) {
      this.faults = Objects.requireNonNull(value, "faults");
      return self();
    }

    /** {@code value} if it is at least {@code min}, else an {@link IllegalArgumentException} naming {@code option}. */
    static int atLeast(int min, int value, String option) {
      if (value < min) {
        throw new IllegalArgumentException(option + " must be >= " + min + ", got " + option + "=" + value);
      }
      return value;
    }
  }
}
