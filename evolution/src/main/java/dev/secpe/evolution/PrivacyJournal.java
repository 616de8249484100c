package dev.secpe.evolution;

import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.BudgetExceededException;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyGuarantee;
import dev.secpe.accounting.ledger.PrivacyLedger;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.PrivateDataset;
import dev.secpe.evolution.persist.Checkpoint;
import dev.secpe.evolution.persist.JournalEntry;
import dev.secpe.evolution.persist.RunJournal;
import dev.secpe.evolution.persist.Spending;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The privacy odometer of every private dataset: one append-only journal per dataset, kept in a
 * directory across runs, that records each release (id, mechanism, cost) <em>before</em> its noise
 * is drawn, the noisy values right after they are drawn, and the digest of every checkpoint
 * written. Give one to a builder ({@code .journal(PrivacyJournal.atDefaultLocation())}) and the run
 * then:
 *
 * <ul>
 *   <li>holds the dataset's journal locked from start to end, so a second run on the same dataset
 *       (or the same checkpoint directory, which is locked with or without a journal) waits {@link
 *       #lockWait()} and is then refused, before it draws anything;
 *   <li>resumes only from the newest checkpoint its lineage wrote, with exactly the ledger and
 *       values the journal recorded: a rolled-back, edited, forged or foreign checkpoint is refused
 *       before anything is drawn, and releases drawn after the last checkpoint (a crash, a full
 *       disk) are served from the journal, so nothing is ever drawn twice;
 *   <li>is refused before a release whose cost would take the dataset past its lifetime budget
 *       ({@link #limit(PrivateDataset, DpBudget)}).
 * </ul>
 *
 * <p>What was spent is composed by {@link History#total(double, double)}: the record-level DP
 * releases and SecPE's per-secret ones also apart (the record-level part unbounded, never epsilon
 * 0, once a SecPE run used records exactly or protected secrets only: each run is journalled with
 * its mode, {@link Run#mode()}); releases drawn with reproducible (seeded)
 * noise count as unbounded (such a run is refused on a dataset with a lifetime budget, and a
 * resume cannot switch noise modes); SecPE runs that protected different secret sets cannot be
 * added, and the total says why.
 *
 * <p>Datasets are told apart by {@link PrivateDataset#datasetKey()} (the multiset of record texts
 * in Unicode NFC: order, ids, labels, format and normal form do not matter); a journal whose first
 * entry names another dataset is refused. Every entry is forced to the disk before the run
 * goes on, and entries are chained by SHA-256, so an accident (a crash, a torn write, a stray edit,
 * a checkpoint copied back) is detected. The journal cannot stand against someone who controls its
 * files: deleting a dataset's directory, or rewriting it with a consistent chain, forgets what was
 * spent (make the journal file append-only, {@code chattr +a}, which runs support, keep it where
 * run users cannot write, or back it up, if that matters). It holds noisy
 * values, which are as private as the run's outputs, and the dataset key; directories are created
 * readable by their owner only.
 *
 * <p>Without a journal (the builders' default) a run accounts its own releases only, and its
 * checkpoint is protected by its plain integrity digest. {@code bin/secpe run} always keeps one.
 * A non-private baseline spends nothing and is not journalled. Immutable and thread-safe.
 */
public final class PrivacyJournal {

  /** The system property that moves the default directory (tests, managed deployments). */
  public static final String DIRECTORY_PROPERTY = "secpe.journal.dir";

  private final Path directory;
  private final Duration lockWait;

  private PrivacyJournal(Path directory, Duration lockWait) {
    this.directory = directory;
    this.lockWait = lockWait;
  }

  /** The journals kept in {@code directory} (created on first use, owner-only). */
  public static PrivacyJournal at(Path directory) {
    Objects.requireNonNull(directory, "directory");
    if (directory.toString().isEmpty()) {
      throw new IllegalArgumentException("journal directory must not be empty, got ''");
    }
    return new PrivacyJournal(directory.toAbsolutePath().normalize(), Duration.ZERO);
  }

  /** The journals in {@link #defaultDirectory()}. */
  public static PrivacyJournal atDefaultLocation() {
    return at(defaultDirectory());
  }

  /**
   * The per-user default: the {@value #DIRECTORY_PROPERTY} system property if set, else {@code
   * $XDG_STATE_HOME/secpe/journal}, else {@code ~/.local/state/secpe/journal}.
   */
  public static Path defaultDirectory() {
    String p = System.getProperty(DIRECTORY_PROPERTY);
    if (p != null && !p.isBlank()) {
      return Path.of(p);
    }
    String state = System.getenv("XDG_STATE_HOME");
    Path base = state != null && !state.isBlank() ? Path.of(state) : Path.of(System.getProperty("user.home"), ".local", "state");
    return base.resolve("secpe").resolve("journal");
  }

  /**
   * The same journals, with runs waiting up to {@code wait} for another run on the same dataset or
   * checkpoint directory to end (default: none, the run is refused at once).
   */
  public PrivacyJournal lockWait(Duration wait) {
    Objects.requireNonNull(wait, "wait");
    if (wait.isNegative()) {
      throw new IllegalArgumentException("lockWait must be >= 0, got lockWait=" + wait);
    }
    return new PrivacyJournal(directory, wait);
  }

  /** Where the journals are. */
  public Path directory() {
    return directory;
  }

  /** How long a run waits for another run on its dataset or checkpoint. */
  public Duration lockWait() {
    return lockWait;
  }

  /** What the journal holds about {@code data}: every run, every charge, the lifetime budget. */
  public History history(PrivateDataset data) {
    return history(Objects.requireNonNull(data, "data").datasetKey());
  }

  /**
   * What the journal holds about the dataset {@code store} holds (keyed by {@link
   * PrivateStore#datasetKey()}, as a run on it is): every run, every charge, the lifetime budget.
   */
  public History history(PrivateStore store) {
    return history(Objects.requireNonNull(store, "store").datasetKey());
  }

  /** The history of the dataset {@code key}, read from its journal's entries in order. */
  private History history(String key) {
    Path file = RunJournal.fileOf(directory, key);
    int records = -1;
    Limit limit = null;
    List<JournalEntry.Run> started = new ArrayList<>();
    Map<String, List<Charge>> charges = new HashMap<>();
    Map<String, JournalEntry.End> ends = new HashMap<>();
    List<String> repairs = new ArrayList<>();
    for (JournalEntry e : RunJournal.read(directory, key)) {
      if (e instanceof JournalEntry.Dataset d) {
        records = d.records();
      } else if (e instanceof JournalEntry.Limit l) {
        limit = new Limit(l.set(), l.by(), l.dp(), l.secret());
      } else if (e instanceof JournalEntry.Run r) {
        started.add(r);
        charges.put(r.id(), new ArrayList<>());
      } else if (e instanceof JournalEntry.Charge c) {
        charges.computeIfAbsent(c.run(), r -> new ArrayList<>()).add(new Charge(c.time(), c.release()));
      } else if (e instanceof JournalEntry.End end) {
        ends.put(end.run(), end);
      } else if (e instanceof JournalEntry.Repair r) {
        repairs.add(r.time() + ": " + r.note());
      }
    }
    List<Run> runs = new ArrayList<>();
    for (JournalEntry.Run r : started) {
      Optional<JournalEntry.End> end = Optional.ofNullable(ends.get(r.id()));
      runs.add(new Run(
          r.id(), r.lineage(), r.method(), r.resumed(), r.started(), end.map(JournalEntry.End::time),
          end.map(JournalEntry.End::status).orElse("unfinished"), r.checkpoint(), r.user(), r.noise(),
          List.copyOf(charges.get(r.id())), r.mode().isEmpty() ? Run.modeOf(r.method()) : r.mode(), r.exactRecords(),
          r.prior()));
    }
    return new History(key, file, records, Optional.ofNullable(limit), runs, repairs);
  }

  /**
   * Sets the lifetime (epsilon, delta) budget of {@code data}: a later run whose releases, composed
   * with every release the journal holds for it, would exceed it is refused before the release is
   * drawn. The change is journalled (time, user); the latest limit applies.
   */
  public void limit(PrivateDataset data, DpBudget lifetime) {
    Objects.requireNonNull(lifetime, "lifetime");
    RunJournal.limit(directory, lockWait, data.datasetKey(), data.size(), lifetime, null);
  }

  /**
   * Sets a lifetime (p, r) budget of every secret in {@code data}, as {@link #limit(PrivateDataset,
   * DpBudget)}.
   */
  public void limit(PrivateDataset data, SecretBudget lifetime) {
    Objects.requireNonNull(lifetime, "lifetime");
    RunJournal.limit(directory, lockWait, data.datasetKey(), data.size(), null, lifetime);
  }

  @Override
  public String toString() {
    return "PrivacyJournal[" + directory + (lockWait.isZero() ? "" : ", wait " + lockWait) + "]";
  }

  /**
   * A lifetime budget as journalled.
   *
   * @param set when it was set
   * @param by the user who set it
   * @param dp an (epsilon, delta) budget, or empty
   * @param secret a (p, r) budget of every secret, or empty
   */
  public record Limit(Instant set, String by, Optional<DpBudget> dp, Optional<SecretBudget> secret) {

    /** An empty ledger that refuses a release taking it past this limit. */
    public PrivacyLedger ledger() {
      return journalled().ledger();
    }

    /** The limit in words: "epsilon E at delta D" or "(p, r) = (P, R)". */
    public String describe() {
      return journalled().describe();
    }

    private JournalEntry.Limit journalled() {
      return new JournalEntry.Limit(set, by, dp, secret);
    }
  }

  /**
   * One release charged to the dataset.
   *
   * @param time when it was journalled (before its noise was drawn)
   * @param release what was charged
   */
  public record Charge(Instant time, Release release) {

    /**
     * The release's privacy cost as the journal and checkpoints write it: a JSON object with its
     * {@code type} ("gaussian", "laplace", "subsampled-gaussian", "secret-mixture", "pure-dp") and
     * that mechanism's parameters, in the journal's spelling ({@code shiftMultiplier}); {@code bin/secpe
   * privacy spent} prints it with the run report's spelling beside it.
     */
    public String costJson() {
      return JournalEntry.costJson(release.cost());
    }
  }

  /**
   * One run on the dataset.
   *
   * @param id the run's id
   * @param lineage the chain of runs sharing its checkpoint
   * @param method "secpe", "augpe", "dpga" or "ctcl"
   * @param resumed whether it resumed a checkpoint
   * @param started when it started
   * @param ended when it ended, if it did
   * @param status "finished", "cancelled", "failed (Exception)" or "unfinished" (killed, or running)
   * @param checkpoint its checkpoint directory, if any
   * @param user the user who ran it
   * @param noise "secure" or "reproducible (not private)"
   * @param charges what it charged, in order
   * @param mode the method's mode: "secpe", "secpe-split" (SecPE's dataset split), "secpe-split-votes"
   *     (the split with secret-free votes), or for the methods with one mode their name; empty for a
   *     SecPE run journalled before runs recorded their mode (it may have been either)
   * @param exactRecords whether the run used private records exactly, without noise (SecPE's split:
   *     the records in which the detector found no secret); false where the mode is unknown
   * @param prior the prior p of a SecPE run's (p, r) budget; empty for the other methods and for a
   *     SecPE run journalled before runs recorded it
   */
  public record Run(
      String id,
      String lineage,
      String method,
      boolean resumed,
      Instant started,
      Optional<Instant> ended,
      String status,
      Optional<String> checkpoint,
      String user,
      String noise,
      List<Charge> charges,
      String mode,
      boolean exactRecords,
      OptionalDouble prior) {

    /** The noise value of a run drawn with secure noise; any other value protects nothing. */
    public static final String SECURE = Checkpoint.SECURE;

    /** Checks the values. */
    public Run {
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(prior, "prior");
    }

    /**
     * The mode of a run journalled without one: the method's name, or empty for SecPE's two modes.
     */
    static String modeOf(String method) {
      return SECPE.equals(method) ? "" : method;
    }

    /** Whether its guarantee is per secret (SecPE), not record-level DP. */
    public boolean perSecret() {
      return SECPE.equals(method);
    }

    /**
     * Whether its noise was secure. A run with reproducible (seeded) noise protects nothing: its
     * releases count as unbounded in every total.
     */
    public boolean secureNoise() {
      return SECURE.equals(noise);
    }
  }

  /** The method name of SecPE's runs, whose guarantee is per secret. */
  private static final String SECPE = "secpe";

  /**
   * A part of what was spent: the record-level releases (Aug-PE, DPGA, CTCL: (epsilon, delta),
   * mu-GDP) or the per-secret ones (SecPE: (p, r) for each secret found).
   *
   * <p>The record-level part is a bound on what the dataset's records spent only where every run on
   * the dataset gave record-level DP: a SecPE run in the dataset split used the records without a
   * detected secret exactly (no record-level bound holds), and a SecPE run without the split sampled
   * every record into sums noised for the secrets, a per-secret guarantee for which no record-level
   * bound is stated (its sigma is solved from which records hold which secret). Either makes the
   * record-level part unbounded, never epsilon 0; what its own releases compose stays in {@code
   * releasesAlone}.
   *
   * @param releases how many releases the part holds
   * @param unprotected how many of them were drawn with reproducible (seeded) noise: while there
   *     is one the part is unbounded
   * @param composed the part's bound: its releases drawn with secure noise, composed; empty where
   *     the part is unbounded or cannot be composed
   * @param exactRecordRuns runs that used private records exactly (SecPE's split); the record-level
   *     part only, else 0
   * @param secretNoiseRuns SecPE runs without the split (or journalled before runs recorded their
   *     mode), whose records were protected only through the secret noise; the record-level part
   *     only, else 0
   * @param releasesAlone the part's own releases composed, whatever runs of other kinds did (what
   *     Aug-PE, DPGA and CTCL runs spent); empty where one was drawn with reproducible noise or they
   *     cannot be composed
   * @param unbounded why the part has no bound, in words; empty where it has one
   */
  public record Subtotal(
      int releases,
      int unprotected,
      Optional<PrivacyGuarantee> composed,
      int exactRecordRuns,
      int secretNoiseRuns,
      Optional<PrivacyGuarantee> releasesAlone,
      Optional<String> unbounded) {

    /**
     * A part whose releases alone decide its bound (as every part was before runs journalled their
     * mode).
     */
    public Subtotal(int releases, int unprotected, Optional<PrivacyGuarantee> composed) {
      this(releases, unprotected, composed, 0, 0, composed,
          unprotected > 0 ? Optional.of(Spending.unboundedReason(unprotected)) : Optional.empty());
    }

    /** Checks the values. */
    public Subtotal {
      Objects.requireNonNull(composed, "composed");
      Objects.requireNonNull(releasesAlone, "releasesAlone");
      Objects.requireNonNull(unbounded, "unbounded");
    }

    /** Whether the part is a finite guarantee ({@link #composed()} is present). */
    public boolean bounded() {
      return composed.isPresent();
    }
  }

  /**
   * Everything spent on a dataset, as far as it can be composed.
   *
   * @param releases every release charged
   * @param unprotected how many were drawn with reproducible (seeded) noise, which protects
   *     nothing: each counts as an unbounded (infinite epsilon) release
   * @param composed every release composed into one guarantee; empty where the total is unbounded
   *     or cannot be composed
   * @param recordLevel the record-level DP releases, apart: unbounded where a SecPE run used
   *     records exactly (the split) or protected secrets only ({@link Subtotal})
   * @param perSecret SecPE's per-secret releases, apart
   * @param notComposable why the releases cannot be composed into one total, in words the user can
   *     act on (it counts the secrets each run protected: not for a shareable report)
   * @param overLimit whether the total passes the lifetime limit (true where it is unbounded);
   *     empty without a limit or where the total cannot be composed
   */
  public record Total(
      int releases,
      int unprotected,
      Optional<PrivacyGuarantee> composed,
      Subtotal recordLevel,
      Subtotal perSecret,
      Optional<String> notComposable,
      Optional<Boolean> overLimit) {

    /**
     * Whether the total is a finite guarantee: nothing unprotected, and every release composable.
     */
    public boolean bounded() {
      return composed.isPresent();
    }
  }

  /**
   * What a dataset's journal holds.
   *
   * @param datasetKey {@link PrivateDataset#datasetKey()}
   * @param file the journal file
   * @param records the number of records when the journal was started (-1 without a journal)
   * @param limit the lifetime budget, if one was set
   * @param runs every run, in order
   * @param repairs what runs repaired in the journal (a half-written last line cut off, or a
   *     complete one whose newline was lost completed), each with its time, in order
   */
  public record History(
      String datasetKey, Path file, int records, Optional<Limit> limit, List<Run> runs, List<String> repairs) {

    /** Copies the lists. */
    public History {
      runs = List.copyOf(runs);
      repairs = List.copyOf(repairs);
    }

    /**
     * Every release charged, in order (a release charged by a run that died before drawing it
     * included).
     */
    public List<Release> charged() {
      List<Release> out = new ArrayList<>();
      for (Run r : runs) {
        for (Charge c : r.charges()) {
          out.add(c.release());
        }
      }
      return out;
    }

    /**
     * The priors p the runs of per-secret guarantee (SecPE) that charged a release were given, each
     * once, in the order of the runs: one where they agree (the prior at which their (p, r) total
     * reads as the runs stated it), several where they differ, none where no such run journalled
     * one (the other runs' priors are not known: they were journalled before runs recorded it).
     */
    public List<Double> priors() {
      List<Double> out = new ArrayList<>();
      for (Run r : runs) {
        if (r.perSecret() && !r.charges().isEmpty() && r.prior().isPresent()
            && !out.contains(r.prior().getAsDouble())) {
          out.add(r.prior().getAsDouble());
        }
      }
      return List.copyOf(out);
    }

    /**
     * Everything spent on the dataset, composed by the ledger's accountants: epsilon at {@code
     * delta}, mu-GDP where every release is Gaussian, (p, r) at prior {@code p}.
     *
     * @throws IllegalStateException where the total is unbounded (releases drawn with reproducible
     *     noise) or cannot be composed, saying why ({@link #total(double, double)} tells the same
     *     without throwing)
     */
    public PrivacyGuarantee spent(double delta, double p) {
      Total t = total(delta, p);
      if (t.unprotected() > 0) {
        throw new IllegalStateException(unboundedReason(t.unprotected()));
      }
      return t.composed().orElseThrow(() -> new IllegalStateException(t.notComposable().orElseThrow()));
    }

    /**
     * Everything spent on the dataset: in one guarantee where it can be composed (as {@link
     * #spent(double, double)}), and apart for the record-level and the per-secret releases.
     * Releases drawn with reproducible (seeded) noise count as unbounded; SecPE runs that
     * protected different numbers of secrets cannot be added (a secret one run protected was not
     * protected by the other), and the total says so.
     */
    public Total total(double delta, double p) {
      List<Release> secure = new ArrayList<>();
      int all = 0;
      int unprotected = 0;
      int perSecret = 0;
      int perSecretUnprotected = 0;
      for (Run r : runs) {
        for (Charge c : r.charges()) {
          all++;
          boolean secret = c.release().cost() instanceof PrivacyCost.SecretMixture;
          perSecret += secret ? 1 : 0;
          if (r.secureNoise()) {
            secure.add(c.release());
          } else {
            unprotected++;
            perSecretUnprotected += secret ? 1 : 0;
          }
        }
      }
      List<Release> records = secure.stream().filter(x -> !(x.cost() instanceof PrivacyCost.SecretMixture)).toList();
      List<Release> secrets = secure.stream().filter(x -> x.cost() instanceof PrivacyCost.SecretMixture).toList();
      Optional<String> why = Spending.notComposable(secrets);
      Subtotal recordLevel = recordLevel(all - perSecret, unprotected - perSecretUnprotected, records, delta, p);
      Subtotal secretLevel = new Subtotal(perSecret, perSecretUnprotected,
          perSecretUnprotected > 0 || why.isPresent() ? Optional.empty() : Optional.of(compose(secrets, delta, p)));
      Optional<PrivacyGuarantee> composed =
          unprotected > 0 || why.isPresent() ? Optional.empty() : Optional.of(compose(secure, delta, p));
      Optional<Boolean> over = limit.isEmpty() || (why.isPresent() && unprotected == 0) ? Optional.empty()
          : Optional.of(unprotected > 0 || exceeds(limit.get(), secure));
      return new Total(all, unprotected, composed, recordLevel, secretLevel, why, over);
    }

    /**
     * The record-level part: bounded only where no run used records exactly (SecPE's split) and no
     * SecPE run protected secrets only, and no release was drawn with reproducible noise.
     */
    private Subtotal recordLevel(int releases, int unprotected, List<Release> secure, double delta, double p) {
      int exact = 0;
      int secretNoise = 0;
      int unknown = 0;
      for (Run r : runs) {
        if (r.exactRecords()) {
          exact++;
        } else if (r.perSecret()) {
          secretNoise++;
          unknown += r.mode().isEmpty() ? 1 : 0;
        }
      }
      List<String> why = new ArrayList<>();
      if (unprotected > 0) {
        why.add(Spending.unboundedReason(unprotected));
      }
      if (exact > 0) {
        why.add(exact + " run(s) used the records in which the detector found no secret exactly, without noise"
            + " (SecPE's dataset split, --secret-free-public): whether such a record is in the dataset, and what it"
            + " says, is not protected, so no record-level bound holds for the dataset (their guarantee is per"
            + " secret: per_secret)");
      }
      if (secretNoise > 0) {
        why.add(secretNoise + " SecPE run(s) without the split protected secrets, not records: every record was"
            + " sampled into sums noised for the secrets, and no record-level bound is stated for that noise (its"
            + " sigma is solved from which records hold which secret; their guarantee is per secret: per_secret)"
            + (unknown > 0 ? "; " + unknown + " of them were journalled before runs recorded their mode and may have"
                + " used records exactly" : ""));
      }
      Optional<PrivacyGuarantee> alone = unprotected > 0 ? Optional.empty() : Optional.of(compose(secure, delta, p));
      return new Subtotal(releases, unprotected, why.isEmpty() ? alone : Optional.empty(), exact, secretNoise, alone,
          why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why)));
    }

    private static PrivacyGuarantee compose(List<Release> releases, double delta, double p) {
      PrivacyLedger all = PrivacyLedger.unlimited();
      int i = 0;
      for (Release r : releases) {
        all.charge(new Release(++i + "/" + r.id(), r.mechanism(), r.protects(), r.sensitivity(), r.noiseScale(), r.cost()));
      }
      return all.guarantee(delta, p);
    }

    private static boolean exceeds(Limit l, List<Release> releases) {
      PrivacyLedger ledger = l.ledger();
      int i = 0;
      for (Release r : releases) {
        try {
          ledger.charge(new Release(++i + "/" + r.id(), r.mechanism(), r.protects(), r.sensitivity(), r.noiseScale(), r.cost()));
        } catch (BudgetExceededException e) {
          return true;
        }
      }
      return false;
    }

    /**
     * How many releases were drawn with reproducible (seeded) noise: each protects nothing and
     * counts as unbounded.
     */
    public int unprotected() {
      int n = 0;
      for (Run r : runs) {
        n += r.secureNoise() ? 0 : r.charges().size();
      }
      return n;
    }

    /**
     * Why the releases drawn with secure noise cannot be composed into one total, in words the
     * user can act on (it counts the secrets each SecPE run protected); empty where they can.
     */
    public Optional<String> notComposable() {
      List<Release> secure = new ArrayList<>();
      for (Run r : runs) {
        if (r.secureNoise()) {
          r.charges().forEach(c -> secure.add(c.release()));
        }
      }
      return Spending.notComposable(secure);
    }

    /** Why a total with {@code unprotected} releases drawn with reproducible noise is unbounded. */
    public static String unboundedReason(int unprotected) {
      return Spending.unboundedReason(unprotected);
    }
  }
}
