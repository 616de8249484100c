package dev.secpe.accounting.ledger;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.GdpMu;
import dev.secpe.accounting.SecretBudget;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The releases a run will make, fixed from its configuration before any private record is read,
 * and the budget they must fit. A method turns its settings into a plan when it is built; the
 * plan's {@link #newLedger() ledger} then admits exactly the planned releases, each only while
 * the composition stays within the budget, so a release the plan does not name, or one with other
 * noise than planned, is refused when it is charged, before its noise is drawn.
 *
 * <p>A step is one of three kinds:
 *
 * <ul>
 *   <li>{@link Calibrated}: the release with its mechanism, sensitivity and noise, calibrated
 *       from the configuration; {@link Builder#build()} composes every calibrated release in
 *       order on a ledger limited to the budget and refuses a plan that does not fit (a {@link
 *       BudgetExceededException} naming the first release that does not fit);
 *   <li>{@link Covered}: a release drawn under the charge of an earlier one (DPGA's T vote rounds
 *       on one Poisson subsample are one subsampled Gaussian): never charged itself;
 *   <li>{@link SolvedFromData}: a release whose noise the method solves from the private data when
 *       it runs (SecPE's SECRETNOISE in the paper's mode): the plan fixes its id and mechanism,
 *       the ledger's limit guards its cost when it is charged.
 * </ul>
 *
 * <p>A non-private run's plan ({@link #nonPrivate()}) has no step, and its ledger admits no
 * release: the papers' r/p = infinity baseline draws no noise and protects nothing.
 *
 * <p>Immutable and thread-safe.
 */
public final class PrivacyPlan {

  /** One release of a plan. */
  public sealed interface Step permits Calibrated, Covered, SolvedFromData {
    /** The release id (unique within the plan). */
    String id();
  }

  /**
   * A release whose noise is calibrated from the configuration: the run charges exactly this
   * release.
   *
   * @param release the release
   */
  public record Calibrated(Release release) implements Step {
    /** Validates eagerly. */
    public Calibrated {
      Objects.requireNonNull(release, "release");
    }

    @Override
    public String id() {
      return release.id();
    }
  }

  /**
   * A release drawn under the charge of an earlier step, whose cost already includes it.
   *
   * @param id its id
   * @param coveringId the id of the earlier {@link Calibrated} or {@link SolvedFromData} step
   */
  public record Covered(String id, String coveringId) implements Step {
    /** Validates eagerly. */
    public Covered {
      requireId("id", id);
      requireId("coveringId", coveringId);
    }
  }

  /**
   * A release whose noise the run solves from the private data when it runs; the ledger admits it
   * under this id with this mechanism, within the budget.
   *
   * @param id its id
   * @param mechanism the mechanism the run's release must name ({@link Release#mechanism()})
   */
  public record SolvedFromData(String id, String mechanism) implements Step {
    /** Validates eagerly. */
    public SolvedFromData {
      requireId("id", id);
      Objects.requireNonNull(mechanism, "mechanism");
    }
  }

  private final String limit;
  private final Supplier<PrivacyLedger> limitedLedger;
  private final Map<String, Step> steps;

  private PrivacyPlan(String limit, Supplier<PrivacyLedger> limitedLedger, Map<String, Step> steps) {
    this.limit = limit;
    this.limitedLedger = limitedLedger;
    this.steps = steps;
  }

  /** The plan of a non-private run: no release; its ledger admits none. */
  public static PrivacyPlan nonPrivate() {
    return new PrivacyPlan("none (non-private)", PrivacyLedger::admittingNone, Map.of());
  }

  /** A plan whose releases must compose within (epsilon, delta). */
  public static Builder limitedTo(DpBudget budget) {
    Objects.requireNonNull(budget, "budget");
    return new Builder(budget.toString(), () -> PrivacyLedger.withLimit(budget));
  }

  /** A plan whose releases must compose within mu-GDP (pure-DP releases are refused). */
  public static Builder limitedTo(GdpMu budget) {
    Objects.requireNonNull(budget, "budget");
    return new Builder(budget.toString(), () -> PrivacyLedger.withLimit(budget));
  }

  /**
   * A plan whose releases must keep every secret's composed r at {@code budget.p()} within {@code
   * budget.r()}, however many secrets the private data turns out to hold.
   */
  public static Builder limitedToEverySecret(SecretBudget budget) {
    Objects.requireNonNull(budget, "budget");
    return new Builder(budget + " for every secret", () -> PrivacyLedger.withUniformLimit(budget));
  }

  /** Whether the plan releases anything (false for {@link #nonPrivate()}). */
  public boolean isPrivate() {
    return !steps.isEmpty();
  }

  /** The steps in the order the run makes them. */
  public List<Step> steps() {
    return List.copyOf(steps.values());
  }

  /** The step with this id, if the plan has one. */
  public Optional<Step> step(String id) {
    return Optional.ofNullable(steps.get(id));
  }

  /**
   * The calibrated release with this id.
   *
   * @throws IllegalArgumentException if the plan has no {@link Calibrated} step with this id
   */
  public Release calibrated(String id) {
    if (steps.get(id) instanceof Calibrated c) {
      return c.release();
    }
    throw new IllegalArgumentException(
        "the privacy plan has no calibrated release '" + id + "'" + (steps.containsKey(id) ? " (it is "
            + steps.get(id).getClass().getSimpleName() + ")" : "") + "; planned: " + steps.keySet());
  }

  /** The calibrated releases, in plan order. */
  public List<Release> calibratedReleases() {
    List<Release> out = new ArrayList<>();
    for (Step s : steps.values()) {
      if (s instanceof Calibrated c) {
        out.add(c.release());
      }
    }
    return out;
  }

  /** The budget, as text (for messages and reports). */
  public String limit() {
    return limit;
  }

  /**
   * A fresh ledger limited to the budget that admits only this plan's releases: charging a
   * release whose id the plan does not name, a {@link Covered} one, a {@link Calibrated} one with
   * other parameters than planned, or a {@link SolvedFromData} one with another mechanism throws
   * {@link IllegalStateException} and records nothing, before any noise is drawn. A non-private
   * plan's ledger admits no release ({@link BudgetExceededException}).
   */
  public PrivacyLedger newLedger() {
    return limitedLedger.get().following(this);
  }

  /**
   * Checks that a release may be charged under this plan (called by a ledger that follows it).
   *
   * @throws IllegalStateException if it may not
   */
  void admit(Release release) {
    Step s = steps.get(release.id());
    if (s == null) {
      throw new IllegalStateException(
          "release '" + release.id() + "' refused before any noise was drawn: it is not in the run's privacy"
              + " plan (planned: " + String.join(", ", steps.keySet()) + ")");
    }
    if (s instanceof Calibrated c && !c.release().equals(release)) {
      throw new IllegalStateException(
          "release '" + release.id() + "' refused before any noise was drawn: it differs from its planned"
              + " release (planned " + describe(c.release()) + ", charged " + describe(release) + ")");
    }
    if (s instanceof Covered c) {
      throw new IllegalStateException(
          "release '" + release.id() + "' refused: the plan draws it under the charge of '" + c.coveringId()
              + "', so it is never charged itself");
    }
    if (s instanceof SolvedFromData d && !d.mechanism().equals(release.mechanism())) {
      throw new IllegalStateException(
          "release '" + release.id() + "' refused before any noise was drawn: the plan expects mechanism '"
              + d.mechanism() + "', got '" + release.mechanism() + "'");
    }
  }

  /**
   * Checks that a finished run made exactly the planned releases: every {@link Calibrated} and
   * {@link SolvedFromData} step is among {@code charged} and every {@link Covered} step among
   * {@code coveredDrawn}, and nothing else is in either.
   *
   * @param charged the releases on the run's ledger
   * @param coveredDrawn the ids of the covered releases the run drew
   * @throws IllegalStateException naming what is missing and what is extra
   */
  public void checkFollowed(List<Release> charged, Collection<String> coveredDrawn) {
    Set<String> expectedCharged = new LinkedHashSet<>();
    Set<String> expectedCovered = new LinkedHashSet<>();
    for (Step s : steps.values()) {
      (s instanceof Covered ? expectedCovered : expectedCharged).add(s.id());
    }
    Set<String> gotCharged = new LinkedHashSet<>();
    charged.forEach(r -> gotCharged.add(r.id()));
    Set<String> gotCovered = new LinkedHashSet<>(coveredDrawn);
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    diff(expectedCharged, gotCharged, missing, extra);
    diff(expectedCovered, gotCovered, missing, extra);
    if (!missing.isEmpty() || !extra.isEmpty()) {
      throw new IllegalStateException(
          "the run did not follow its privacy plan: missing " + missing + ", not planned " + extra);
    }
  }

  private static void diff(Set<String> expected, Set<String> got, List<String> missing, List<String> extra) {
    for (String id : expected) {
      if (!got.contains(id)) {
        missing.add(id);
      }
    }
    for (String id : got) {
      if (!expected.contains(id)) {
        extra.add(id);
      }
    }
  }

  private static String describe(Release r) {
    return r.mechanism() + ", sensitivity " + r.sensitivity() + ", noise " + r.noiseScale() + ", " + r.cost();
  }

  private static void requireId(String name, String id) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException(name + " must be non-blank, got " + name + "=" + id);
    }
  }

  @Override
  public String toString() {
    return "PrivacyPlan[limit=" + limit + ", steps=" + steps.keySet() + "]";
  }

  /** Builds a plan step by step, in the order the run makes its releases. */
  public static final class Builder {
    private final String limit;
    private final Supplier<PrivacyLedger> limitedLedger;
    private final Map<String, Step> steps = new LinkedHashMap<>();

    private Builder(String limit, Supplier<PrivacyLedger> limitedLedger) {
      this.limit = limit;
      this.limitedLedger = limitedLedger;
    }

    /** A release calibrated from the configuration. */
    public Builder calibrated(Release release) {
      return add(new Calibrated(release));
    }

    /** A release drawn under the charge of the earlier step {@code coveringId}. */
    public Builder covered(String id, String coveringId) {
      Step covering = steps.get(coveringId);
      if (covering == null || covering instanceof Covered) {
        throw new IllegalArgumentException(
            "covered release '" + id + "' needs an earlier charged step '" + coveringId + "', got "
                + (covering == null ? "none" : "a covered one"));
      }
      return add(new Covered(id, coveringId));
    }

    /** A release whose noise the run solves from the private data. */
    public Builder solvedFromData(String id, String mechanism) {
      return add(new SolvedFromData(id, mechanism));
    }

    private Builder add(Step step) {
      if (steps.containsKey(step.id())) {
        throw new IllegalArgumentException("release id '" + step.id() + "' is planned twice");
      }
      steps.put(step.id(), step);
      return this;
    }

    /**
     * The plan, after composing its calibrated releases in order on a ledger limited to the
     * budget.
     *
     * @throws IllegalStateException if the plan has no step
     * @throws BudgetExceededException naming the first release that does not fit the budget
     */
    public PrivacyPlan build() {
      if (steps.isEmpty()) {
        throw new IllegalStateException("a private plan needs at least one release; use nonPrivate() for none");
      }
      PrivacyLedger ledger = limitedLedger.get();
      for (Step s : steps.values()) {
        if (s instanceof Calibrated c) {
          try {
            ledger.charge(c.release());
          } catch (BudgetExceededException e) {
            throw new BudgetExceededException(
                "the privacy plan does not fit the budget " + limit + ": release '" + c.id()
                    + "' (noise " + c.release().noiseScale() + ") exceeds it after " + ledger.releases().size()
                    + " earlier release(s); " + e.getMessage());
          }
        }
      }
      return new PrivacyPlan(limit, limitedLedger, Collections.unmodifiableMap(new LinkedHashMap<>(steps)));
    }
  }
}
