package dev.secpe.evolution.persist;

import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.PrivacyPlan;
import dev.secpe.accounting.ledger.Release;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The only way the engine draws a noisy release. A release is looked up by id first: a resumed run
 * gets back the very values it drew before and is never charged again; a new release is charged to
 * the ledger <em>before</em> its noise is drawn (so a refused release draws nothing), and is
 * persisted right after it is drawn, before anything else happens in the round.
 *
 * <p>Every release is a step of the run's {@link PrivacyPlan}: {@link #release(String, Supplier)}
 * charges the release the plan calibrated under that id, {@link #releaseSolved} one whose noise the
 * method solved from the private data, {@link #releaseCovered} draws one the plan covers by an
 * earlier charge. The ledger follows the plan ({@link PrivacyPlan#newLedger()}), so a release the
 * plan does not name is refused before its noise is drawn. A non-private run's plan has no step:
 * its exact values are kept (for resume) and nothing is charged.
 *
 * <p>Not thread-safe; the engine draws releases from one thread.
 */
public final class ReleaseStore {

  /** Persists the store and ledger (atomically) after every new release. */
  public interface Persister {
  /** Persists every release value drawn so far, by release id, before the value is used. */
    void persist(Map<String, double[]> values);
  }

  /**
   * Sees every draw: {@link #beforeDraw} before the noise is drawn (after the charge), {@link
   * #afterDraw} once drawn, before the values are stored, persisted or used. A privacy journal
   * witnesses the run this way; either may throw to stop the draw or the run.
   */
  public interface Witness {
    /**
     * Before {@code key}'s noise is drawn; {@code charged} is the release just charged, or null for
     * a covered one.
     */
    void beforeDraw(String key, Release charged);

    /** Right after {@code key}'s values were drawn. */
    void afterDraw(String key, double[] values);

    /** Sees nothing. */
    Witness NONE = new Witness() {
      @Override
      public void beforeDraw(String key, Release charged) {}

      @Override
      public void afterDraw(String key, double[] values) {}
    };
  }

  /** Separates a covered release's id from its covering release's id in the stored key. */
  static final String COVERED_BY = " covered by ";

  private final PrivacyPlan plan;
  private final PrivacyLedger ledger;
  private final Map<String, double[]> values;
  private final Persister persister;
  private final boolean accounted;
  private Consumer<Release> onCharged = r -> {};
  private Witness witness = Witness.NONE;
  private int drawn;
  private int reused;
  /** The id of the release being drawn right now, or null. */
  private String drawing;

  /**
   * A store for a run of {@code plan} charging {@code ledger} (the plan's, restored from a
   * checkpoint where the run resumes) and holding the {@code restored} values.
   *
   * @throws IllegalStateException if a restored value has no release on the ledger
   */
  public ReleaseStore(PrivacyPlan plan, PrivacyLedger ledger, Map<String, double[]> restored, Persister persister) {
    this.plan = Objects.requireNonNull(plan, "plan");
    this.accounted = plan.isPrivate();
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.values = new LinkedHashMap<>();
    restored.forEach((k, v) -> values.put(k, v.clone()));
    this.persister = Objects.requireNonNull(persister, "persister");
    for (String key : values.keySet()) {
      // A covered release is stored as "id covered by coveringId": its cost is the covering one's.
      int at = key.indexOf(COVERED_BY);
      String charged = at < 0 ? key : key.substring(at + COVERED_BY.length());
      if (accounted && !ledger.contains(charged)) {
        throw new IllegalStateException(
            "checkpoint is inconsistent: release '" + key + "' has values but "
                + (at < 0 ? "is not on the ledger" : "its covering release '" + charged + "' is not on the ledger"));
      }
    }
  }

  /** Called with each release right after it is charged and before its noise is drawn. */
  public ReleaseStore onCharged(Consumer<Release> listener) {
    this.onCharged = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /** Sees every draw of this store (default: none). */
  public ReleaseStore witness(Witness witness) {
    this.witness = Objects.requireNonNull(witness, "witness");
    return this;
  }

  /**
   * The noisy values of the release the plan calibrated under {@code id}: the stored ones if it
   * was drawn before, otherwise the planned release is charged, then drawn by {@code draw}, stored
   * and persisted.
   *
   * @throws IllegalArgumentException if the plan has no calibrated release {@code id} (nothing is
   *     drawn)
   */
  public double[] release(String id, Supplier<double[]> draw) {
    return charged(id, () -> plan.calibrated(id), draw);
  }

  /** {@link #release(String, Supplier)} of a typed value, stored through {@code codec}. */
  public <T> T release(String id, ReleaseCodec<T> codec, Supplier<T> draw) {
    return codec.decode(release(id, () -> codec.encode(draw.get())));
  }

  /**
   * The noisy values of a release whose noise the method solved from the private data (a {@link
   * PrivacyPlan.SolvedFromData} step): the stored ones if it was drawn before, otherwise {@code
   * release} (built lazily: a non-private run never builds it) is charged, then drawn, stored and
   * persisted.
   */
  public <T> T releaseSolved(String id, Supplier<Release> release, ReleaseCodec<T> codec, Supplier<T> draw) {
    return codec.decode(charged(id, release, () -> codec.encode(draw.get())));
  }

  private double[] charged(String id, Supplier<Release> release, Supplier<double[]> draw) {
    double[] known = values.get(id);
    if (known != null) {
      reused++;
      return known.clone();
    }
    Release r = null;
    if (accounted) {
      r = release.get();
      if (!r.id().equals(id)) {
        throw new IllegalArgumentException("release id mismatch: " + id + " vs " + r.id());
      }
      onCharged.accept(ledger.charge(r));
    }
    return drawAndStore(id, id, r, draw);
  }

  /**
   * A release the plan covers by an earlier charge ({@link PrivacyPlan.Covered}, e.g. T vote
   * rounds on one subsample): stored values if drawn before, otherwise drawn, stored and persisted
   * without a new charge; the covering release must already be on the ledger.
   */
  public double[] releaseCovered(String id, Supplier<double[]> draw) {
    String key = id;
    if (accounted) {
      if (!(plan.step(id).orElse(null) instanceof PrivacyPlan.Covered c)) {
        throw new IllegalStateException("release '" + id + "' is not a covered release of the run's privacy plan");
      }
      // Stored under a key that names the covering release, so that a resumed run can check the
      // checkpoint: the covered release is not on the ledger, its covering release is.
      key = id + COVERED_BY + c.coveringId();
      if (!values.containsKey(key) && !ledger.contains(c.coveringId())) {
        throw new IllegalStateException(
            "release '" + id + "' is covered by '" + c.coveringId() + "', which has not been charged");
      }
    }
    double[] known = values.get(key);
    if (known != null) {
      reused++;
      return known.clone();
    }
    return drawAndStore(id, key, null, draw);
  }

  /** {@link #releaseCovered(String, Supplier)} of a typed value, stored through {@code codec}. */
  public <T> T releaseCovered(String id, ReleaseCodec<T> codec, Supplier<T> draw) {
    return codec.decode(releaseCovered(id, () -> codec.encode(draw.get())));
  }

  private double[] drawAndStore(String id, String key, Release charged, Supplier<double[]> draw) {
    witness.beforeDraw(key, charged);
    double[] v = drawAs(id, draw);
    witness.afterDraw(key, v.clone());
    values.put(key, v.clone());
    drawn++;
    persister.persist(snapshot());
    return v;
  }

  private double[] drawAs(String id, Supplier<double[]> draw) {
    drawing = id;
    try {
      return draw.get();
    } finally {
      drawing = null;
    }
  }

  /** The id of the release whose noise is being drawn now, or null between releases. */
  public String drawing() {
    return drawing;
  }

  /** Whether releases are charged (false for a non-private baseline). */
  public boolean accounted() {
    return accounted;
  }

  /** The plan this store's releases follow. */
  public PrivacyPlan plan() {
    return plan;
  }

  /** Whether the release with this id has been drawn (now or in an earlier run). */
  public boolean has(String releaseId) {
    if (values.containsKey(releaseId)) {
      return true;
    }
    for (String key : values.keySet()) {
      if (key.startsWith(releaseId + COVERED_BY)) {
        return true;
      }
    }
    return false;
  }

  /** The ids of the covered releases drawn so far (here or before a resume). */
  public List<String> coveredDrawn() {
    List<String> out = new ArrayList<>();
    for (String key : values.keySet()) {
      int at = key.indexOf(COVERED_BY);
      if (at >= 0) {
        out.add(key.substring(0, at));
      }
    }
    return out;
  }

  /** A copy of every stored value, in draw order. */
  public Map<String, double[]> snapshot() {
    Map<String, double[]> copy = new LinkedHashMap<>();
    values.forEach((k, v) -> copy.put(k, v.clone()));
    return copy;
  }

  /** Releases drawn by this process. */
  public int drawnHere() {
    return drawn;
  }

  /** Releases served from the checkpoint. */
  public int reusedHere() {
    return reused;
  }
}
