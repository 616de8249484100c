package dev.secpe.evolution.persist;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.BudgetExceededException;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.UUID;

/**
 * One run's use of a dataset's privacy journal ({@link JournalFile}), held locked from the start of
 * the run to its end. What it journals, each entry forced to the disk before the run goes on:
 *
 * <ul>
 *   <li>{@code run}: the run starts (its id, the lineage of checkpoints it continues, its method,
 *       its {@code mode} and whether it uses private records exactly, {@code exactRecords}, and for
 *       SecPE its secret detector's digest, {@code detector}, and the prior p of its (p, r) budget,
 *       {@code prior});
 *   <li>{@code charge}: a release (id, mechanism, cost, and the detector's digest where the run has
 *       one) is charged, <em>before</em> its noise is
 *       drawn; {@code draw} the same for a release an earlier charge covers; refused here, before
 *       the draw, where the dataset's lifetime budget would be exceeded;
 *   <li>{@code drawn}: the noisy values of a release, right after they are drawn and before they are
 *       used, stored or checkpointed: a release drawn is never lost, so never drawn twice;
 *   <li>{@code checkpoint}: the digest of each checkpoint written, so that a resumed checkpoint must
 *       be the newest one this lineage wrote (a rolled-back, edited or foreign one is refused);
 *   <li>{@code end}: how the run ended.
 * </ul>
 *
 * <p>A lineage is the chain of runs that share one checkpoint: a fresh run starts one, each {@code
 * --resume} continues it.
 */
public final class RunJournal implements AutoCloseable {

  private final JournalFile file;
  private final String run = UUID.randomUUID().toString();
  private final PrivacyLedger lifetime; // null without a lifetime limit
  private final String limitText;
  private String lineage;
  private RunGuard.Request request;
  private boolean ended;

  private RunJournal(JournalFile file, PrivacyLedger lifetime, String limitText) {
    this.file = file;
    this.lifetime = lifetime;
    this.limitText = limitText;
  }

  /**
   * Opens (creating it if needed) the journal of the dataset {@code key} of {@code records}
   * records under {@code root}, locked for this run.
   *
   * @throws IllegalStateException if another run holds it, it is damaged, or the dataset's
   *     lifetime budget is already spent
   */
  static RunJournal open(Path root, Duration wait, String key, int records, String holder) {
    JournalFile f = JournalFile.openLocked(root, key, wait, holder);
    try {
      startDataset(f, key, records);
      Optional<JournalEntry.Limit> limit = latestLimit(f.entries());
      PrivacyLedger lifetime = limit.map(JournalEntry.Limit::ledger).orElse(null);
      String text = limit.map(JournalEntry.Limit::describe).orElse(null);
      if (lifetime != null) {
        int unprotected = unprotected(f.entries());
        if (unprotected > 0) {
          throw new IllegalStateException(
              "the lifetime budget of this dataset (" + text + ") is already spent: "
                  + Spending.unboundedReason(unprotected) + "; nothing was drawn (see secpe privacy spent)");
        }
        Optional<String> why = Spending.notComposable(charges(f.entries()));
        if (why.isPresent()) {
          throw new IllegalStateException(
              "the lifetime budget of this dataset (" + text + ") cannot be checked, so no run is accounted against it: "
                  + why.get() + "; nothing was drawn (see secpe privacy spent)");
        }
        try {
          lifetime.restore(charges(f.entries()));
        } catch (BudgetExceededException e) {
          throw new IllegalStateException(
              "the lifetime budget of this dataset (" + text + ") is already spent by the runs in its privacy"
                  + " journal " + f.file() + "; nothing was drawn (see secpe privacy spent)");
        }
      }
      return new RunJournal(f, lifetime, text);
    } catch (RuntimeException e) {
      f.close();
      throw e;
    }
  }

  /** What opening the journal repaired (a torn last line), in words; empty if nothing. */
  List<String> repairs() {
    return file.repairs();
  }

  /** Where the journal is. */
  Path file() {
    return file.file();
  }

  /** The lineage this run continues or starts. */
  String lineage() {
    return lineage;
  }

  /**
   * Journals the start of a fresh run (a new lineage), after checking that the releases it plans
   * fit the dataset's lifetime budget.
   */
  void fresh(RunGuard.Request run) {
    refuseUnprotected(run.noise());
    this.request = run;
    begin(UUID.randomUUID().toString(), run.checkpointDir(), false);
    checkPlanned(run.planned());
  }

  /**
   * Checks a checkpoint to resume from against the journal and journals the resumed run: the
   * checkpoint must be the newest one its lineage wrote (or the one written right after it, which
   * the run that wrote it had no time to confirm), its ledger and values exactly those journalled.
   * Returns the checkpoint with every release drawn after it was written (kept in the journal)
   * added, so that none of them is drawn again.
   *
   * @param integrity the digest the checkpoint file states (verified against its content)
   * @param run this run: its noise and secret detector must be the lineage's
   * @throws IllegalStateException if it disagrees with the journal: nothing has been drawn
   */
  Checkpoint resume(Checkpoint c, String integrity, Path where, RunGuard.Request run) {
    String noise = run.noise();
    String detector = run.detector();
    String lin = c.lineage();
    if (lin == null || lin.isEmpty()) {
      throw new IllegalStateException(
          "checkpoint " + where + " was written without a privacy journal, so what it holds cannot be checked"
              + " against what was drawn; refusing to resume under the journal " + file.file());
    }
    List<ObjectNode> mine = new ArrayList<>();
    for (ObjectNode e : file.entries()) {
      if (lin.equals(e.path("lineage").asText())) {
        mine.add(e);
      }
    }
    if (mine.stream().noneMatch(e -> e.path("type").asText().equals("run"))) {
      throw new IllegalStateException(
          "checkpoint " + where + " belongs to a run this dataset's privacy journal (" + file.file() + ") has"
              + " never seen: it was written for other private records or under another journal, or forged;"
              + " refusing to resume (nothing was drawn)");
    }
    Map<String, ObjectNode> charges = new LinkedHashMap<>();
    Map<String, double[]> drawn = new LinkedHashMap<>();
    Map<String, ObjectNode> drawnEntry = new LinkedHashMap<>();
    List<ObjectNode> checkpoints = new ArrayList<>();
    for (ObjectNode e : mine) {
      switch (e.path("type").asText()) {
        case "charge" -> charges.put(e.path("release").path("id").asText(), e);
        case "drawn" -> {
          drawn.put(e.path("key").asText(), JournalFile.decode(e.path("values").asText()));
          drawnEntry.put(e.path("key").asText(), e);
        }
        case "checkpoint" -> checkpoints.add(e);
        default -> { }
      }
    }
    ObjectNode newest = checkpoints.isEmpty() ? null : checkpoints.get(checkpoints.size() - 1);
    if (newest != null && !newest.path("integrity").asText().equals(integrity)) {
      for (int i = 0; i < checkpoints.size() - 1; i++) {
        ObjectNode older = checkpoints.get(i);
        if (older.path("integrity").asText().equals(integrity)) {
          throw new IllegalStateException(
              "checkpoint " + where + " is an older checkpoint of its run (written " + older.path("time").asText()
                  + "); the privacy journal records a newer one (written " + newest.path("time").asText() + ", "
                  + (newest.path("values").asInt() - older.path("values").asInt()) + " release(s) later): it was"
                  + " rolled back or put back, and resuming from it could draw again what was drawn; restore the"
                  + " newest checkpoint (nothing was drawn)");
        }
      }
    }
    // Every value the checkpoint holds must be one the journal recorded, in the order it was drawn.
    List<String> order = new ArrayList<>(drawn.keySet());
    int k = 0;
    for (Map.Entry<String, double[]> v : c.values().entrySet()) {
      double[] was = drawn.get(v.getKey());
      if (was == null) {
        throw forged(where, "holds values of release '" + v.getKey() + "' that the journal never recorded as drawn");
      }
      if (!Arrays.equals(was, v.getValue())) {
        throw forged(where, "holds values of release '" + v.getKey() + "' that differ from those drawn "
            + drawnEntry.get(v.getKey()).path("time").asText());
      }
      if (k >= order.size() || !order.get(k).equals(v.getKey())) {
        throw forged(where, "holds the drawn releases in another order than they were drawn");
      }
      k++;
    }
    if (newest != null && (c.values().size() < newest.path("values").asInt() || c.round() < newest.path("round").asInt())) {
      throw new IllegalStateException(
          "checkpoint " + where + " holds " + c.values().size() + " release(s) at round " + c.round() + ", but its run"
              + " wrote a checkpoint with " + newest.path("values").asInt() + " at round " + newest.path("round").asInt()
              + " (" + newest.path("time").asText() + "): it was rolled back or replaced, and resuming from it could"
              + " draw again what was drawn; restore the newest checkpoint (nothing was drawn)");
    }
    // Its ledger must be the journal's charges, in order.
    List<String> charged = new ArrayList<>(charges.keySet());
    for (int i = 0; i < c.releases().size(); i++) {
      Release r = c.releases().get(i);
      ObjectNode j = charges.get(r.id());
      if (j == null || i >= charged.size() || !charged.get(i).equals(r.id()) || !releaseJson(r).equals(j.path("release"))) {
        throw forged(where, "holds a ledger that differs from the releases the journal charged (at '" + r.id() + "')");
      }
    }
    // Releases drawn after the checkpoint was written are served from the journal, never drawn again.
    Map<String, double[]> values = new LinkedHashMap<>(c.values());
    for (int i = c.values().size(); i < order.size(); i++) {
      values.put(order.get(i), drawn.get(order.get(i)));
    }
    List<Release> releases = new ArrayList<>(c.releases());
    for (int i = c.releases().size(); i < charged.size(); i++) {
      String id = charged.get(i);
      if (values.containsKey(id)) {
        releases.add(releaseFrom(charges.get(id).path("release")));
      }
    }
    String before = "";
    String detectedBy = "";
    for (ObjectNode e : mine) {
      if (e.path("type").asText().equals("run")) {
        before = e.path("noise").asText();
        detectedBy = e.path("detector").asText("");
      }
    }
    if (!before.equals(noise)) {
      throw noiseSwitched(where, before, noise);
    }
    if (!detectedBy.equals(detector)) {
      throw detectorChanged(where, detectedBy, detector);
    }
    refuseUnprotected(noise);
    this.request = run;
    begin(lin, Optional.of(where.getParent()), true);
    if (newest == null || !newest.path("integrity").asText().equals(integrity)) {
      // Written right after the newest one the journal holds, by a run that died before confirming it.
      checkpointed(integrity, c.round(), c.values().size());
    }
    List<Release> left = new ArrayList<>();
    for (Release r : run.planned()) {
      if (!charges.containsKey(r.id())) {
        left.add(r);
      }
    }
    checkPlanned(left);
    return new Checkpoint(
        c.method(), c.fingerprint(), c.inputs(), c.round(), c.population(), releases, values, lin, c.copiesLeftOut(),
        c.noise(), c.detector());
  }

  /**
   * The refusal of a resume whose secret detector is not the one the checkpoint's releases protect
   * (compared by the digest of its whole configuration: another terms file under the same name and
   * with as many terms differs), or whose checkpoint or journal cannot show which one that was. The
   * message names neither the terms nor the digest: the detector's configuration may be sensitive.
   */
  static IllegalStateException detectorChanged(Path where, String before, String now) {
    String what = before.isEmpty()
        ? "was written before checkpoints and the privacy journal recorded the secret detector its releases protect"
            + " (a digest of its whole configuration), so it cannot show that this run's detector is that one"
        : now.isEmpty()
            ? "was written by a run with a secret detector, and this run has none"
            : "protects the secrets of another secret detector: the secret detector's configuration changed (its"
                + " terms, patterns or options; a terms file of the same name and with as many terms is another"
                + " detector), and its releases would be reported as protecting secrets they never covered";
    return new IllegalStateException(
        "checkpoint " + where + " " + what + "; refusing to resume: resume with the --secrets"
            + " (SecPE.Builder.secrets) the run started with, or start a fresh run in another checkpoint"
            + " directory (nothing was drawn)");
  }

  /**
   * The refusal of a resume that would switch noise modes: secure after reproducible would call
   * private the releases it reuses; reproducible after secure would make a run part private.
   */
  static IllegalStateException noiseSwitched(Path where, String before, String now) {
    return new IllegalStateException(
        "checkpoint " + where + " was drawn with " + before + " noise, and this run would go on with " + now
            + " noise: " + (Checkpoint.SECURE.equals(now)
                ? "its report would call private the releases it reuses, which seeded noise does not protect"
                : "a run cannot be part private, part reproducible")
            + "; resume with the noise it started with (bin/secpe run --reproducible-noise SEED, in the library"
            + " NoiseSources.reproducibleForTests, for reproducible noise; neither for secure noise), or start a"
            + " fresh run in another checkpoint directory (nothing was drawn)");
  }

  private IllegalStateException forged(Path where, String what) {
    return new IllegalStateException(
        "checkpoint " + where + " disagrees with the privacy journal " + file.file() + ": it " + what
            + "; it was edited, forged or belongs to another run; refusing to resume (nothing was drawn)");
  }

  private void begin(String lin, Optional<Path> checkpoint, boolean resumed) {
    this.lineage = lin;
    ObjectNode e = entry("run").put("method", request.method()).put("mode", request.mode())
        .put("exactRecords", request.exactRecords()).put("resumed", resumed).put("noise", request.noise())
        .put("user", System.getProperty("user.name", "?")).put("pid", ProcessHandle.current().pid());
    if (!request.detector().isEmpty()) {
      e.put("detector", request.detector());
    }
    request.prior().ifPresent(p -> e.put("prior", p));
    checkpoint.ifPresent(p -> e.put("checkpoint", p.toAbsolutePath().normalize().toString()));
    file.append(e);
  }

  /**
   * Refuses a run with reproducible (seeded) noise on a dataset with a lifetime budget: its
   * releases protect nothing, so they count as unbounded and would pass any budget.
   */
  private void refuseUnprotected(String noise) {
    if (lifetime != null && !Checkpoint.SECURE.equals(noise)) {
      throw new IllegalStateException(
          "this dataset has a lifetime budget (" + limitText + "), and this run draws reproducible (seeded) noise"
              + " (--reproducible-noise, NoiseSources.reproducibleForTests), which protects nothing: its releases"
              + " would count as unbounded and pass any budget; run it with secure noise (without"
              + " --reproducible-noise), or on data that is not private (nothing was drawn)");
    }
  }

  /** Refuses a run whose planned releases would take the dataset past its lifetime budget. */
  private void checkPlanned(List<Release> planned) {
    if (lifetime == null || planned.isEmpty()) {
      return;
    }
    PrivacyLedger trial = latestLimit(file.entries()).orElseThrow().ledger();
    List<Release> all = new ArrayList<>(charges(file.entries()));
    for (Release r : planned) {
      all.add(renamed(r, "planned/" + r.id()));
    }
    Optional<String> apart = Spending.notComposable(all);
    if (apart.isPresent()) {
      throw new IllegalStateException(
          "the lifetime budget of this dataset (" + limitText + ") cannot be checked with this run's planned releases: "
              + apart.get() + "; nothing was drawn");
    }
    try {
      trial.restore(all);
    } catch (BudgetExceededException e) {
      throw new IllegalStateException(
          "this run would take the dataset past its lifetime budget (" + limitText + "): its planned releases,"
              + " with those already spent (secpe privacy spent), exceed it; nothing was drawn");
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "the lifetime budget of this dataset (" + limitText + ") cannot be checked with this run's planned releases: "
              + e.getMessage() + "; nothing was drawn");
    }
  }

  /**
   * Journals {@code key} before its noise is drawn: the charge of {@code release}, or (null) the
   * draw of a covered release. A charge this lineage journalled already and never drew (its run
   * died before the draw was kept) is not charged again.
   *
   * @throws BudgetExceededException past the dataset's lifetime budget (nothing drawn)
   */
  void beforeDraw(String key, Release release) {
    ObjectNode pending = null;
    for (ObjectNode e : file.entries()) {
      if (lineage.equals(e.path("lineage").asText()) && e.path("type").asText().equals("drawn")
          && e.path("key").asText().equals(key)) {
        throw new IllegalStateException(
            "release '" + key + "' was drawn before (privacy journal " + file.file() + ", entry " + e.path("seq").asLong()
                + "): refusing to draw it twice");
      }
      if (lineage.equals(e.path("lineage").asText())
          && (release == null ? e.path("type").asText().equals("draw") && e.path("key").asText().equals(key)
              : e.path("type").asText().equals("charge") && e.path("release").path("id").asText().equals(key))) {
        pending = e;
      }
    }
    if (pending != null && (release == null || releaseJson(release).equals(pending.path("release")))) {
      file.append(entry("redraw").put("key", key).put("note",
          "journalled at entry " + pending.path("seq").asLong() + " and never kept: the run that drew it died first"));
      return;
    }
    if (release == null) {
      file.append(entry("draw").put("key", key));
      return;
    }
    if (lifetime != null) {
      // The ledger composes an unnamed secret set (journalled before releases named theirs) with a
      // named one by count; the journal does not: it cannot show they are the same secrets. (The
      // journal's own entries were checked when it was opened; only a per-secret release can part.)
      Optional<String> apart = Optional.empty();
      if (release.cost() instanceof PrivacyCost.SecretMixture) {
        List<Release> with = new ArrayList<>(charges(file.entries()));
        with.add(release);
        apart = Spending.notComposable(with);
      }
      if (apart.isPresent()) {
        throw new BudgetExceededException(
            "release " + release.id() + " refused before its noise was drawn: the lifetime budget of this dataset ("
                + limitText + ") cannot be checked with it: " + apart.get());
      }
      try {
        lifetime.charge(renamed(release, lineage + "/" + file.entries().size() + "/" + release.id()));
      } catch (BudgetExceededException e) {
        throw new BudgetExceededException(
            "release " + release.id() + " refused before its noise was drawn: it would take the dataset past its"
                + " lifetime budget (" + limitText + ") set in the privacy journal " + file.file());
      } catch (IllegalArgumentException e) {
        throw new BudgetExceededException(
            "release " + release.id() + " refused before its noise was drawn: the lifetime budget of this dataset ("
                + limitText + ") cannot be checked with it: " + e.getMessage());
      }
    }
    ObjectNode e = entry("charge");
    e.set("release", releaseJson(release));
    if (!request.detector().isEmpty()) {
      e.put("detector", request.detector());
    }
    file.append(e);
  }

  /** Journals the values just drawn for {@code key}, before they are used. */
  void afterDraw(String key, double[] values) {
    file.append(entry("drawn").put("key", key).put("values", JournalFile.encode(values)));
  }

  /** Journals a checkpoint written: its digest, round and number of stored values. */
  void checkpointed(String integrity, int round, int values) {
    file.append(entry("checkpoint").put("integrity", integrity).put("round", round).put("values", values));
  }

  /** Journals the end of the run: "finished", or how it failed (the exception's class only). */
  void end(Throwable failure) {
    if (ended || lineage == null) {
      return;
    }
    ended = true;
    String status = failure == null ? "finished"
        : failure instanceof java.util.concurrent.CancellationException ? "cancelled"
        : "failed (" + failure.getClass().getSimpleName() + ")";
    try {
      file.append(entry("end").put("status", status));
    } catch (RuntimeException e) {
      if (failure == null) {
        throw e;
      }
      failure.addSuppressed(e);
    }
  }

  @Override
  public void close() {
    file.close();
  }

  private ObjectNode entry(String type) {
    ObjectNode e = JournalFile.json().createObjectNode().put("type", type).put("run", run);
    if (lineage != null) {
      e.put("lineage", lineage);
    }
    return e;
  }

  // ---- what the journal holds, for PrivacyJournal ----------------------------------------------

  /** The journal file of the dataset {@code key} under {@code root} (which need not exist). */
  public static Path fileOf(Path root, String key) {
    return JournalFile.dirOf(root, key).resolve(JournalFile.FILE);
  }

  /**
   * Every entry the journal of the dataset {@code key} under {@code root} holds that says what was
   * spent, in order (none if it has no journal).
   */
  public static List<JournalEntry> read(Path root, String key) {
    List<JournalEntry> out = new ArrayList<>();
    for (ObjectNode e : JournalFile.read(root, key)) {
      String run = e.path("run").asText();
      switch (e.path("type").asText()) {
        case "dataset" -> out.add(new JournalEntry.Dataset(e.path("records").asInt(-1)));
        case "limit" -> out.add(limitOf(e));
        case "run" -> out.add(new JournalEntry.Run(
            run, e.path("lineage").asText(), e.path("method").asText(), e.path("resumed").asBoolean(),
            Instant.parse(e.path("time").asText()), Optional.ofNullable(e.path("checkpoint").textValue()),
            e.path("user").asText(), e.path("noise").asText(), e.path("mode").asText(""),
            e.path("exactRecords").asBoolean(false),
            e.hasNonNull("prior") ? OptionalDouble.of(e.path("prior").asDouble()) : OptionalDouble.empty()));
        case "charge" -> out.add(
            new JournalEntry.Charge(run, Instant.parse(e.path("time").asText()), releaseFrom(e.path("release"))));
        case "end" -> out.add(new JournalEntry.End(run, Instant.parse(e.path("time").asText()), e.path("status").asText()));
        case "repair" -> out.add(new JournalEntry.Repair(e.path("time").asText(), e.path("note").asText()));
        default -> { }
      }
    }
    return out;
  }

  /**
   * Journals a lifetime budget for the dataset {@code key} of {@code records} records (one of dp,
   * secret).
   */
  public static void limit(Path root, Duration wait, String key, int records, DpBudget dp, SecretBudget secret) {
    try (JournalFile f = JournalFile.openLocked(root, key, wait, "secpe privacy limit")) {
      startDataset(f, key, records);
      ObjectNode e = JournalFile.json().createObjectNode().put("type", "limit").put("by", System.getProperty("user.name", "?"));
      if (dp != null) {
        e.put("epsilon", dp.epsilon()).put("delta", dp.delta());
      } else {
        e.put("p", secret.p()).put("r", secret.r());
      }
      f.append(e);
    }
  }

  /** The first entry of a new journal: which dataset it accounts for. */
  private static void startDataset(JournalFile f, String key, int records) {
    if (f.entries().isEmpty()) {
      f.append(JournalFile.json().createObjectNode().put("type", "dataset").put("key", key).put("records", records));
    }
  }

  private static Optional<JournalEntry.Limit> latestLimit(List<ObjectNode> entries) {
    JournalEntry.Limit limit = null;
    for (ObjectNode e : entries) {
      if (e.path("type").asText().equals("limit")) {
        limit = limitOf(e);
      }
    }
    return Optional.ofNullable(limit);
  }

  private static JournalEntry.Limit limitOf(ObjectNode e) {
    Instant at = Instant.parse(e.path("time").asText());
    String by = e.path("by").asText();
    return e.has("epsilon")
        ? new JournalEntry.Limit(at, by, Optional.of(new DpBudget(e.path("epsilon").asDouble(), e.path("delta").asDouble())), Optional.empty())
        : new JournalEntry.Limit(at, by, Optional.empty(), Optional.of(new SecretBudget(e.path("p").asDouble(), e.path("r").asDouble())));
  }

  /**
   * How many releases the journal holds from runs with reproducible (seeded) noise: each protects
   * nothing and counts as unbounded.
   */
  private static int unprotected(List<ObjectNode> entries) {
    Set<String> seeded = runs(entries, false);
    return (int) entries.stream()
        .filter(e -> e.path("type").asText().equals("charge") && seeded.contains(e.path("run").asText()))
        .count();
  }

  /** The runs journalled with secure noise ({@code secure}), or with any other noise. */
  private static Set<String> runs(List<ObjectNode> entries, boolean secure) {
    Set<String> out = new HashSet<>();
    for (ObjectNode e : entries) {
      if (e.path("type").asText().equals("run") && Checkpoint.SECURE.equals(e.path("noise").asText()) == secure) {
        out.add(e.path("run").asText());
      }
    }
    return out;
  }

  /**
   * Every release charged in the journal by a run with secure noise (the others are unbounded:
   * {@link #unprotected}), each under an id unique in the journal.
   */
  private static List<Release> charges(List<ObjectNode> entries) {
    Set<String> secure = runs(entries, true);
    List<Release> out = new ArrayList<>();
    for (ObjectNode e : entries) {
      if (e.path("type").asText().equals("charge") && secure.contains(e.path("run").asText())) {
        Release r = releaseFrom(e.path("release"));
        out.add(renamed(r, e.path("lineage").asText() + "/" + e.path("seq").asLong() + "/" + r.id()));
      }
    }
    return out;
  }

  private static Release renamed(Release r, String id) {
    return new Release(id, r.mechanism(), r.protects(), r.sensitivity(), r.noiseScale(), r.cost());
  }

  private static ObjectNode releaseJson(Release r) {
    return CheckpointStore.releaseToJson(r);
  }

  private static Release releaseFrom(JsonNode n) {
    return CheckpointStore.releaseFromJson(n);
  }
}
