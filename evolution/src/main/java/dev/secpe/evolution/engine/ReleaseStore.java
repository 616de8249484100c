package dev.secpe.evolution.engine;

import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The only way the engine draws a noisy release. A release is looked up by id first: a resumed run
 * gets back the very values it drew before and is never charged again; a new release is charged to
 * the ledger <em>before</em> its noise is drawn (so a refused release draws nothing), and is
 * persisted right after it is drawn, before anything else happens in the round.
 *
 * <p>Not thread-safe; the engine draws releases from one thread.
 */
public final class ReleaseStore {

  /** Persists the store and ledger (atomically) after every new release. */
  public interface Persister {
    void persist(Map<String, double[]> values);
  }

  /** Separates a covered release's id from its covering release's id in the stored key. */
  static final String COVERED_BY = " covered by ";

  private final PrivacyLedger ledger;
  private final Map<String, double[]> values;
  private final Persister persister;
  private final boolean accounted;
  private java.util.function.Consumer<Release> onCharged = r -> {};
  private int drawn;
  private int reused;
  /** The id of the release being drawn right now, or null. */
  private String drawing;

  public ReleaseStore(PrivacyLedger ledger, Map<String, double[]> restored, Persister persister) {
    this(ledger, restored, persister, true);
  }

  /**
   * A store; {@code accounted = false} is for non-private baselines, whose exact values are kept
   * but never charged.
   */
  public ReleaseStore(
      PrivacyLedger ledger, Map<String, double[]> restored, Persister persister, boolean accounted) {
    this.accounted = accounted;
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
  public ReleaseStore onCharged(java.util.function.Consumer<Release> listener) {
    this.onCharged = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * The noisy values of release {@code id}: the stored ones if it was drawn before, otherwise the
   * release (built lazily: a non-private baseline never builds it) is charged, then drawn by {@code
   * draw}, stored and persisted.
   */
  public double[] release(String id, Supplier<Release> release, Supplier<double[]> draw) {
    double[] known = values.get(id);
    if (known != null) {
      reused++;
      return known.clone();
    }
    if (accounted) {
      Release r = release.get();
      if (!r.id().equals(id)) {
        throw new IllegalArgumentException("release id mismatch: " + id + " vs " + r.id());
      }
      onCharged.accept(ledger.charge(r));
    }
    double[] v = drawAs(id, draw);
    values.put(id, v.clone());
    drawn++;
    persister.persist(snapshot());
    return v;
  }

  /**
   * For a mechanism that charges the ledger itself (secret clustering): the stored values if the
   * release with {@code id} was drawn before, otherwise {@code chargeAndDraw} runs, which must
   * charge {@code id} to the ledger before drawing; its values are stored and persisted.
   */
  public double[] releaseChargedBy(String id, Supplier<double[]> chargeAndDraw) {
    double[] known = values.get(id);
    if (known != null) {
      reused++;
      return known.clone();
    }
    double[] v = drawAs(id, chargeAndDraw);
    if (accounted && !ledger.contains(id)) {
      throw new IllegalStateException("release '" + id + "' was drawn without being charged to the ledger");
    }
    if (accounted) {
      ledger.releases().stream().filter(r -> r.id().equals(id)).forEach(onCharged);
    }
    values.put(id, v.clone());
    drawn++;
    persister.persist(snapshot());
    return v;
  }

  /**
   * A release whose cost was charged in advance under {@code coveringId} (e.g. T vote rounds on one
   * subsample): stored values if drawn before, otherwise drawn, stored and persisted without a new
   * charge; the covering release must already be on the ledger.
   */
  public double[] releaseCoveredBy(String id, String coveringId, Supplier<double[]> draw) {
    // Stored under a key that names the covering release, so that a resumed run can check the
    // checkpoint: the covered release is not on the ledger, its covering release is.
    String key = id + COVERED_BY + coveringId;
    double[] known = values.get(key);
    if (known != null) {
      reused++;
      return known.clone();
    }
    if (accounted && !ledger.contains(coveringId)) {
      throw new IllegalStateException(
          "release '" + id + "' is covered by '" + coveringId + "', which has not been charged");
    }
    double[] v = drawAs(id, draw);
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
