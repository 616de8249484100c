package dev.secpe.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyCost;
import dev.secpe.accounting.ledger.PrivacyGuarantee;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.io.DatasetReader;
import dev.secpe.evolution.PrivacyJournal;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code secpe privacy spent} and {@code secpe privacy limit}: a dataset's privacy journal. */
final class JournalCommands {

  private JournalCommands() {}

  /** The options that find a dataset's journal. */
  static final class Dataset {
    @Option(names = "--private", required = true, paramLabel = "FILE", description = "the private records (JSONL or CSV), as given to secpe run")
    Path privateFile;

    @Option(names = "--text-field", defaultValue = "text", description = "text field (default: ${DEFAULT-VALUE})")
    String textField;

    @Option(names = "--format", defaultValue = "auto", description = "auto, jsonl or csv (default: ${DEFAULT-VALUE})")
    String format;

    @Option(names = "--journal", paramLabel = "DIR", description = "the privacy journals (default: as secpe run)")
    Path journal;

    PrivateDataset read() {
      DatasetReader.Format f;
      try {
        f = DatasetReader.Format.valueOf(format.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--format must be auto, jsonl or csv, got --format " + format);
      }
      checkInput();
      DatasetReader reader = DatasetReader.builder().textField(textField).noLabel().format(f).build();
      return RunCommand.read("--private", () -> reader.readPrivate(privateFile));
    }

    /** Refuses a --private that is a directory or whose format its name does not tell. */
    void checkInput() {
      RunChecks.input("--private", privateFile, format);
    }

    /** --journal, or the per-user default. */
    Path root() {
      return journal != null ? journal : PrivacyJournal.defaultDirectory();
    }

    PrivacyJournal journal() {
      return PrivacyJournal.at(root());
    }

    /**
     * Refuses a journal directory that is missing (a typo in --journal would otherwise read as
     * "nothing spent") or is not a directory.
     */
    void requireExisting() {
      Path root = root();
      String option = journal != null ? "--journal" : "the default journal directory";
      if (!Files.exists(root)) {
        throw new IllegalArgumentException(
            option + ": no journal at " + root + " (no run was ever journalled there): check the path"
                + (journal != null ? "" : ", or give --journal DIR as given to secpe run"));
      }
      if (!Files.isDirectory(root)) {
        throw new IllegalArgumentException(
            option + " " + root + " is " + (Files.isRegularFile(root) ? "a regular file" : OutputPaths.kind(root)) + ", not the directory of the privacy journals:"
                + " give the --journal DIR given to secpe run");
      }
    }
  }

  /** A lifetime limit as JSON: its budget, when and by whom it was set. */
  static ObjectNode limit(PrivacyJournal.Limit l) {
    ObjectNode n = JsonOut.MAPPER.createObjectNode();
    l.dp().ifPresent(b -> n.put("epsilon", b.epsilon()).put("delta", b.delta()));
    l.secret().ifPresent(b -> n.put("p", b.p()).put("r", b.r()));
    return n.put("set", l.set().toString()).put("by", l.by());
  }

  /** The delta a total is given at: {@code delta}, else the limit's, else 1/(N ln N). */
  private static double delta(PrivacyJournal.History h, int records, Double delta) {
    double d = delta != null ? delta
        : h.limit().flatMap(PrivacyJournal.Limit::dp).map(DpBudget::delta)
            .orElse(DpBudget.deltaForDatasetSize(Math.max(2, records)));
    if (!(d > 0 && d < 1)) {
      throw new IllegalArgumentException("--delta must be in (0, 1), got --delta " + d);
    }
    return d;
  }

  /**
   * The prior a (p, r) total is given at ({@code p} null where there is none), where it came from
   * ({@code from}: "--p", "limit" or "journal"), and otherwise what would give one ({@code needs}).
   */
  private record Prior(Double p, String from, String needs) {}

  /**
   * {@code p}, else the limit's prior, else the one prior the dataset's SecPE runs journalled with
   * their budget; none where they journalled none or different ones ({@code needs} says which).
   */
  private static Prior prior(PrivacyJournal.History h, Double p) {
    if (p != null && !(p > 0 && p < 1)) {
      throw new IllegalArgumentException("--p must be in (0, 1), got --p " + p);
    }
    if (p != null) {
      return new Prior(p, "--p", null);
    }
    Optional<Double> limit = h.limit().flatMap(PrivacyJournal.Limit::secret).map(SecretBudget::p);
    if (limit.isPresent()) {
      return new Prior(limit.get(), "limit", null);
    }
    List<Double> journalled = h.priors();
    if (journalled.size() == 1) {
      return new Prior(journalled.get(0), "journal", null);
    }
    return new Prior(null, null, "--p (the prior of a secret): " + (journalled.isEmpty()
        ? "no SecPE run on this dataset journalled the prior of its budget"
        : "the SecPE runs on this dataset were given different priors ("
            + journalled.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")"));
  }

  /**
   * Puts {@code limit} and {@code spent} (every release the journal holds, composed at {@code
   * delta}, by default the limit's or else 1/(N ln N), and at the prior {@code p}, by default the
   * limit's, else the one the SecPE runs journalled; none without, and {@code per_secret} then says
   * in {@code r_needs} what would give r) into {@code out}, and returns the total. Releases drawn with
   * reproducible noise make the total unbounded ({@code epsilon} null, {@code bounded} false); a
   * total that cannot be composed says why in {@code not_composable} (which counts the secrets each
   * SecPE run protected, so a {@code shareable} report gets a reason without numbers); the
   * record-level and the per-secret releases are also given apart.
   */
  static PrivacyJournal.Total spentAndLimit(
      ObjectNode out, PrivacyJournal.History h, int records, Double delta, Double p, boolean shareable) {
    double d = delta(h, records, delta);
    Prior given = prior(h, p);
    Double prior = given.p();
    h.limit().ifPresentOrElse(l -> out.set("limit", limit(l)), () -> out.putNull("limit"));
    PrivacyJournal.Total t = h.total(d, prior == null ? 0.5 : prior);
    ObjectNode n = out.putObject("spent");
    n.put("releases", t.releases());
    guarantee(n, t.composed(), d, prior);
    n.put("bounded", t.bounded());
    n.put("unprotected_releases", t.unprotected());
    if (t.unprotected() > 0) {
      n.put("unbounded", PrivacyJournal.History.unboundedReason(t.unprotected()));
    }
    t.notComposable().ifPresent(why -> n.put("not_composable", shareable ? NOT_COMPOSABLE : why));
    if (h.limit().isPresent()) {
      t.overLimit().ifPresentOrElse(o -> n.put("over_limit", o), () -> n.putNull("over_limit"));
    }
    ObjectNode rec = n.putObject("record_level");
    PrivacyJournal.Subtotal r = t.recordLevel();
    rec.put("releases", r.releases()).put("unprotected_releases", r.unprotected());
    guarantee(rec, r.composed(), d, null);
    // Never a bounded figure for records a run used exactly, nor for records SecPE protected only
    // through its secret noise: what the record-level releases alone spent stays apart.
    rec.put("bounded", r.bounded()).put("exact_record_runs", r.exactRecordRuns())
        .put("secret_noise_runs", r.secretNoiseRuns());
    r.unbounded().ifPresent(why -> rec.put("unbounded", why));
    if (!r.bounded() && r.releases() > 0) {
      r.releasesAlone().ifPresent(g -> guarantee(rec.putObject("releases_alone"), Optional.of(g), d, null));
    }
    ObjectNode sec = n.putObject("per_secret");
    sec.put("releases", t.perSecret().releases()).put("unprotected_releases", t.perSecret().unprotected());
    t.perSecret().composed().ifPresentOrElse(g -> {
      g.gdp().ifPresent(mu -> sec.put("mu", mu.mu()));
      if (!shareable && t.perSecret().releases() > 0) {
        sec.put("secrets", g.r().length);
      }
      if (prior != null) {
        sec.put("p", prior).put("r", g.worstR()).put("p_from", given.from());
      } else if (t.perSecret().releases() > 0) {
        sec.putNull("p").putNull("r").put("r_needs", given.needs());
      }
    }, () -> sec.putNull("mu"));
    return t;
  }

  /** What a shareable report says of a total that cannot be composed (no secret counts). */
  static final String NOT_COMPOSABLE =
      "SecPE runs on this dataset protected different secret sets, whose (p, r) guarantees cannot be added;"
          + " see secpe privacy spent";

  private static void guarantee(ObjectNode n, Optional<PrivacyGuarantee> g, double delta, Double p) {
    if (g.isEmpty()) {
      n.putNull("epsilon").put("delta", delta);
      return;
    }
    n.put("epsilon", g.get().epsilon()).put("delta", g.get().delta());
    g.get().gdp().ifPresent(mu -> n.put("mu", mu.mu()));
    if (p != null) {
      n.put("p", p).put("r", Arrays.stream(g.get().r()).max().orElse(p));
    }
  }

  /** Warns on stderr of a total that is unbounded, cannot be composed, or passes its limit. */
  static void warn(PrintWriter err, PrivacyJournal.History h, PrivacyJournal.Total t) {
    if (t.unprotected() > 0) {
      err.println("warning: " + PrivacyJournal.History.unboundedReason(t.unprotected()));
    }
    t.notComposable().ifPresent(why -> err.println("warning: the total is not composable: " + why));
    if (t.overLimit().orElse(false)) {
      err.println("warning: what was spent on this dataset passes its lifetime limit ("
          + h.limit().orElseThrow().describe() + "): every further run on it is refused");
    }
    err.flush();
  }

  /** {@code secpe privacy spent}: every run and release the journal holds for a dataset. */
  @Command(
      name = "spent",
      mixinStandardHelpOptions = true,
      description = "What was spent on a private dataset, when and by which run (from its privacy journal), as JSON.")
  static final class Spent implements Callable<Integer> {
    @Mixin
    Dataset dataset = new Dataset();

    @Spec
    CommandSpec spec;

    @Option(names = "--delta", description = "the delta the composed epsilon is given at (default: the lifetime limit's, else 1/(N ln N))")
    Double delta;

    @Option(names = "--p", description = "the prior p the composed (p, r) is given at (default: the lifetime limit's; none without)")
    Double p;

    @Override
    public Integer call() {
      dataset.checkInput();
      dataset.requireExisting();
      PrivateDataset data = dataset.read();
      PrivacyJournal.History h = dataset.journal().history(data);
      ObjectNode out = JsonOut.MAPPER.createObjectNode();
      out.put("journal", h.file().toString());
      out.put("records", data.size());
      PrivacyJournal.Total t = spentAndLimit(out, h, data.size(), delta, p, false);
      ArrayNode runs = out.putArray("runs");
      for (PrivacyJournal.Run r : h.runs()) {
        ObjectNode n = runs.addObject();
        n.put("run", r.id()).put("lineage", r.lineage()).put("method", r.method()).put("resumed", r.resumed())
            .put("started", r.started().toString()).put("ended", r.ended().map(Object::toString).orElse(null))
            .put("status", r.status()).put("checkpoint", r.checkpoint().orElse(null)).put("user", r.user())
            .put("noise", r.noise());
        // A SecPE run journalled before runs recorded their mode: neither is known.
        if (r.mode().isEmpty()) {
          n.putNull("mode").putNull("exact_records");
        } else {
          n.put("mode", r.mode()).put("exact_records", r.exactRecords());
        }
        n.put("prior", r.prior().isPresent() ? r.prior().getAsDouble() : null);
        ArrayNode rel = n.putArray("releases");
        for (PrivacyJournal.Charge c : r.charges()) {
          Release x = c.release();
          ObjectNode cost = (ObjectNode) JsonOut.read(c.costJson());
          rel.addObject().put("time", c.time().toString()).put("id", x.id()).put("mechanism", x.mechanism())
              .put("protects", x.protects()).put("sensitivity", x.sensitivity())
              .put("noise_scale", x.noiseScale()).put("noiseScale", x.noiseScale())
              .put("kind", x.cost() instanceof PrivacyCost.SecretMixture ? "per-secret" : "record-level")
              .put("cost_type", cost.path("type").asText().replace('-', '_'))
              .set("cost", withReportSpelling(cost));
        }
      }
      ArrayNode repairs = out.putArray("repairs");
      h.repairs().forEach(repairs::add);
      warn(spec.commandLine().getErr(), h, t);
      return JsonOut.print(spec, out);
    }
  }

  /**
   * A release's cost as the journal writes it ({@code shiftMultiplier}, {@code "type":
   * "secret-mixture"}) with the run report's spelling of every key beside it ({@code
   * shift_multiplier}); the report's spelling of the type is the release's {@code cost_type}
   * ({@code secret_mixture}). The journal's keys stay for one release (CHANGELOG).
   */
  static ObjectNode withReportSpelling(ObjectNode cost) {
    ObjectNode out = cost.deepCopy();
    cost.fieldNames().forEachRemaining(k -> {
      String snake = CAMEL.matcher(k).replaceAll(m -> "_" + m.group().toLowerCase(Locale.ROOT));
      if (!snake.equals(k)) {
        out.set(snake, cost.get(k));
      }
    });
    return out;
  }

  private static final Pattern CAMEL = Pattern.compile("[A-Z]");

  /** {@code secpe privacy limit}: the lifetime budget of a dataset. */
  @Command(
      name = "limit",
      mixinStandardHelpOptions = true,
      description = "Set the lifetime budget of a private dataset in its privacy journal: a later run whose releases,"
          + " with every one spent before, would exceed it is refused before it draws.")
  static final class Limit implements Callable<Integer> {
    @Mixin
    Dataset dataset = new Dataset();

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    RunCommand.Budget budget;

    @Override
    public Integer call() {
      PrivateDataset data = dataset.read();
      PrivacyJournal j = dataset.journal();
      PrivacyJournal.History was = j.history(data);
      Optional<PrivacyJournal.Limit> before = was.limit();
      if (budget.dp != null) {
        j.limit(data, budget.dp.toBudget());
      } else {
        j.limit(data, budget.secret.toBudget());
      }
      PrivacyJournal.History h = j.history(data);
      ObjectNode out = JsonOut.MAPPER.createObjectNode();
      out.put("journal", h.file().toString());
      out.set("limit", limit(h.limit().orElseThrow()));
      out.put("runs", h.runs().size());
      before.ifPresentOrElse(l -> out.set("previous", limit(l)), () -> out.putNull("previous"));
      ObjectNode totals = JsonOut.MAPPER.createObjectNode();
      PrivacyJournal.Total t = spentAndLimit(totals, h, data.size(), null, null, false);
      out.set("spent", totals.get("spent"));
      PrintWriter err = spec.commandLine().getErr();
      h.repairs().subList(was.repairs().size(), h.repairs().size())
          .forEach(r -> err.println("warning: privacy journal repaired: " + r));
      err.println("lifetime limit of this dataset: " + before.map(PrivacyJournal.Limit::describe).orElse("none")
          + " -> " + h.limit().orElseThrow().describe() + "; spent so far over " + h.runs().size() + " run(s): "
          + inWords(totals.get("spent")));
      warn(err, h, t);
      return JsonOut.print(spec, out);
    }
  }

  /** What was spent, in a few words for the console. */
  private static String inWords(JsonNode spent) {
    String n = spent.path("releases").asInt() + " release(s), ";
    if (!spent.path("bounded").asBoolean()) {
      return n + (spent.path("unprotected_releases").asInt() > 0 ? "unbounded (reproducible noise)" : "not composable");
    }
    return n + "epsilon " + spent.path("epsilon").asDouble() + " at delta " + spent.path("delta").asDouble()
        + (spent.has("r") ? ", (p, r) = (" + spent.path("p").asDouble() + ", " + spent.path("r").asDouble() + ")" : "");
  }
}
