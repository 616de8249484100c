package dev.secpe.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.accounting.DpBudget;
import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.ledger.PrivacyGuarantee;
import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.io.DatasetReader;
import dev.secpe.evolution.PrivacyJournal;
import dev.secpe.evolution.engine.CheckpointStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
        f = DatasetReader.Format.valueOf(format.toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--format must be auto, jsonl or csv, got --format " + format);
      }
      DatasetReader reader = DatasetReader.builder().textField(textField).noLabel().format(f).build();
      return RunCommand.read("--private", () -> reader.readPrivate(privateFile));
    }

    PrivacyJournal journal() {
      return PrivacyJournal.at(journal != null ? journal : PrivacyJournal.defaultDirectory());
    }
  }

  /** A lifetime limit as JSON: its budget, when and by whom it was set. */
  static ObjectNode limit(PrivacyJournal.Limit l) {
    ObjectNode n = JsonOut.MAPPER.createObjectNode();
    l.dp().ifPresent(b -> n.put("epsilon", b.epsilon()).put("delta", b.delta()));
    l.secret().ifPresent(b -> n.put("p", b.p()).put("r", b.r()));
    return n.put("set", l.set().toString()).put("by", l.by());
  }

  /**
   * Puts {@code limit} and {@code spent} (every release the journal holds, composed at {@code
   * delta}, by default the limit's or else 1/(N ln N), and at the prior {@code p}, by default the
   * limit's; none without) into {@code out}.
   */
  static void spentAndLimit(ObjectNode out, PrivacyJournal.History h, int records, Double delta, Double p) {
    double d = delta != null ? delta
        : h.limit().flatMap(PrivacyJournal.Limit::dp).map(DpBudget::delta)
            .orElse(DpBudget.deltaForDatasetSize(Math.max(2, records)));
    if (!(d > 0 && d < 1)) {
      throw new IllegalArgumentException("--delta must be in (0, 1), got --delta " + d);
    }
    Double prior = p != null ? p : h.limit().flatMap(PrivacyJournal.Limit::secret).map(SecretBudget::p).orElse(null);
    if (prior != null && !(prior > 0 && prior < 1)) {
      throw new IllegalArgumentException("--p must be in (0, 1), got --p " + prior);
    }
    h.limit().ifPresentOrElse(l -> out.set("limit", limit(l)), () -> out.putNull("limit"));
    out.set("spent", guarantee(h.spent(d, prior == null ? 0.5 : prior), prior, h.charged().size()));
  }

  private static ObjectNode guarantee(PrivacyGuarantee g, Double p, int releases) {
    ObjectNode n = JsonOut.MAPPER.createObjectNode();
    n.put("releases", releases);
    n.put("epsilon", g.epsilon()).put("delta", g.delta());
    g.gdp().ifPresent(mu -> n.put("mu", mu.mu()));
    if (p != null) {
      n.put("p", p).put("r", java.util.Arrays.stream(g.r()).max().orElse(p));
    }
    return n;
  }

  /** {@code secpe privacy spent}: every run and release the journal holds for a dataset. */
  @Command(
      name = "spent",
      mixinStandardHelpOptions = true,
      description = "What was spent on a private dataset, when and by which run (from its privacy journal), as JSON.")
  static final class Spent implements Callable<Integer> {
    @picocli.CommandLine.Mixin
    Dataset dataset = new Dataset();

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--delta", description = "the delta the composed epsilon is given at (default: the lifetime limit's, else 1/(N ln N))")
    Double delta;

    @Option(names = "--p", description = "the prior p the composed (p, r) is given at (default: the lifetime limit's; none without)")
    Double p;

    @Override
    public Integer call() {
      PrivateDataset data = dataset.read();
      PrivacyJournal.History h = dataset.journal().history(data);
      ObjectNode out = JsonOut.MAPPER.createObjectNode();
      out.put("journal", h.file().toString());
      out.put("records", data.size());
      spentAndLimit(out, h, data.size(), delta, p);
      ArrayNode runs = out.putArray("runs");
      for (PrivacyJournal.Run r : h.runs()) {
        ObjectNode n = runs.addObject();
        n.put("run", r.id()).put("lineage", r.lineage()).put("method", r.method()).put("resumed", r.resumed())
            .put("started", r.started().toString()).put("ended", r.ended().map(Object::toString).orElse(null))
            .put("status", r.status()).put("checkpoint", r.checkpoint().orElse(null)).put("user", r.user())
            .put("noise", r.noise());
        ArrayNode rel = n.putArray("releases");
        for (PrivacyJournal.Charge c : r.charges()) {
          Release x = c.release();
          rel.addObject().put("time", c.time().toString()).put("id", x.id()).put("mechanism", x.mechanism())
              .put("protects", x.protects()).put("noiseScale", x.noiseScale())
              .set("cost", CheckpointStore.costToJson(x.cost()));
        }
      }
      return JsonOut.print(spec, out);
    }
  }

  /** {@code secpe privacy limit}: the lifetime budget of a dataset. */
  @Command(
      name = "limit",
      mixinStandardHelpOptions = true,
      description = "Set the lifetime budget of a private dataset in its privacy journal: a later run whose releases,"
          + " with every one spent before, would exceed it is refused before it draws.")
  static final class Limit implements Callable<Integer> {
    @picocli.CommandLine.Mixin
    Dataset dataset = new Dataset();

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    RunCommand.Budget budget;

    @Override
    public Integer call() {
      PrivateDataset data = dataset.read();
      PrivacyJournal j = dataset.journal();
      if (budget.dp != null) {
        j.limit(data, new DpBudget(budget.dp.epsilon, budget.dp.delta));
      } else {
        j.limit(data, new SecretBudget(budget.secret.p, budget.secret.r));
      }
      PrivacyJournal.History h = j.history(data);
      ObjectNode out = JsonOut.MAPPER.createObjectNode();
      out.put("journal", h.file().toString());
      out.set("limit", limit(h.limit().orElseThrow()));
      out.put("runs", h.runs().size());
      return JsonOut.print(spec, out);
    }
  }
}
