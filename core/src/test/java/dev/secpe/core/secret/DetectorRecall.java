package dev.secpe.core.secret;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Recall and precision of secret detectors on the labelled {@link RecallSet}, per detector and per
 * spelling family, and the markdown tables docs/detector-recall.md shows.
 *
 * <p>A labelled secret is <b>found</b> when the detector reports a match of the secret's kind that
 * overlaps its span (in the split, that is what keeps the record away from exact use); its
 * <b>value agrees</b> when such a match also names it by the set's canonical value (one secret
 * however it is written). A match is <b>true</b> when it overlaps a labelled secret of its kind,
 * <b>false</b> otherwise (near misses, and text around real secrets). Recall = found / labelled;
 * precision = true / all matches.
 */
final class DetectorRecall {

  /** One detector under test: what it is called in the tables and the kinds it reports. */
  record Subject(String name, SecretDetector detector, Set<String> kinds) {}

  /** Counts for one subject over some items. */
  static final class Tally {
    int labelled;
    int found;
    int withValue;
    int valueAgrees;
    int matches;
    int trueMatches;
    int items;

    double recall() {
      return labelled == 0 ? Double.NaN : (double) found / labelled;
    }

    double precision() {
      return matches == 0 ? Double.NaN : (double) trueMatches / matches;
    }

    double valueAgreement() {
      return withValue == 0 ? Double.NaN : (double) valueAgrees / withValue;
    }

    int falseMatches() {
      return matches - trueMatches;
    }

    void add(Tally t) {
      labelled += t.labelled;
      found += t.found;
      withValue += t.withValue;
      valueAgrees += t.valueAgrees;
      matches += t.matches;
      trueMatches += t.trueMatches;
      items += t.items;
    }
  }

  /** The result of one subject: the whole set and each family. */
  record Result(Subject subject, Tally total, Map<String, Tally> byFamily) {}

  private DetectorRecall() {}

  static Result measure(Subject s, RecallSet set) {
    Tally total = new Tally();
    Map<String, Tally> byFamily = new LinkedHashMap<>();
    for (RecallSet.Item item : set.items()) {
      Tally t = score(s, item);
      total.add(t);
      byFamily.computeIfAbsent(item.family(), f -> new Tally()).add(t);
    }
    return new Result(s, total, byFamily);
  }

  /** The counts of one item. */
  static Tally score(Subject s, RecallSet.Item item) {
    Tally t = new Tally();
    t.items = 1;
    List<SecretMatch> ms = new ArrayList<>();
    for (SecretMatch m : s.detector().detect(item.text())) {
      if (s.kinds().contains(m.kind())) {
        ms.add(m);
      }
    }
    for (RecallSet.Span span : item.spans()) {
      if (!s.kinds().contains(span.kind())) {
        continue;
      }
      t.labelled++;
      boolean found = false;
      boolean agrees = false;
      for (SecretMatch m : ms) {
        if (m.kind().equals(span.kind()) && overlaps(m, span)) {
          found = true;
          agrees |= m.value().equals(span.value());
        }
      }
      if (found) {
        t.found++;
      }
      if (span.value() != null) {
        t.withValue++;
        if (agrees) {
          t.valueAgrees++;
        }
      }
    }
    for (SecretMatch m : ms) {
      t.matches++;
      for (RecallSet.Span span : item.spans()) {
        if (m.kind().equals(span.kind()) && overlaps(m, span)) {
          t.trueMatches++;
          break;
        }
      }
    }
    return t;
  }

  private static boolean overlaps(SecretMatch m, RecallSet.Span s) {
    return m.start() < s.end() && s.start() < m.end();
  }

  /** Record level, as the split sees it: which records {@code d} flags at all (any kind). */
  record Flags(int holders, int flaggedHolders, int clean, int flaggedClean) {}

  static Flags flags(SecretDetector d, Set<String> kinds, RecallSet set) {
    int holders = 0;
    int flaggedHolders = 0;
    int clean = 0;
    int flaggedClean = 0;
    for (RecallSet.Item item : set.items()) {
      boolean holds = item.spans().stream().anyMatch(s -> kinds.contains(s.kind()));
      boolean flagged = !d.detect(item.text()).isEmpty();
      if (holds) {
        holders++;
        flaggedHolders += flagged ? 1 : 0;
      } else if (item.spans().isEmpty()) {
        clean++;
        flaggedClean += flagged ? 1 : 0;
      }
    }
    return new Flags(holders, flaggedHolders, clean, flaggedClean);
  }

  static String pct(double x) {
    return Double.isNaN(x) ? "–" : String.format(Locale.ROOT, "%.1f %%", 100 * x);
  }

  /** | detector | labelled | found | recall | matches | precision | value agrees |. */
  static String summaryTable(List<Result> results) {
    StringBuilder b = new StringBuilder();
    b.append("| detector | labelled | found | recall | matches | precision | same value |\n");
    b.append("|---|---:|---:|---:|---:|---:|---:|\n");
    for (Result r : results) {
      Tally t = r.total();
      b.append(String.format(
          Locale.ROOT,
          "| %s | %d | %d | %s | %d | %s | %s |%n",
          r.subject().name(), t.labelled, t.found, pct(t.recall()), t.matches, pct(t.precision()),
          t.withValue == 0 ? "–" : t.valueAgrees + "/" + t.withValue));
    }
    return b.toString();
  }

  /**
   * | family | spellings | recall | same value | false matches | for each family, scored by the
   * result whose kinds include the family's kind.
   */
  static String familyTable(List<Result> results, RecallSet set) {
    StringBuilder b = new StringBuilder();
    b.append("| family | detector | spellings | labelled | recall | same value | false matches |\n");
    b.append("|---|---|---:|---:|---:|---:|---:|\n");
    Map<String, String> kindOf = new LinkedHashMap<>();
    for (RecallSet.Item i : set.items()) {
      kindOf.putIfAbsent(i.family(), i.familyKind());
    }
    for (Map.Entry<String, String> f : kindOf.entrySet()) {
      for (Result r : results) {
        if (!r.subject().kinds().contains(f.getValue())) {
          continue;
        }
        Tally t = r.byFamily().get(f.getKey());
        b.append(String.format(
            Locale.ROOT,
            "| %s | %s | %d | %d | %s | %s | %d |%n",
            f.getKey(), r.subject().name(), t.items, t.labelled,
            t.labelled == 0 ? "–" : t.found + "/" + t.labelled + " (" + pct(t.recall()) + ")",
            t.withValue == 0 ? "–" : t.valueAgrees + "/" + t.withValue,
            t.falseMatches()));
      }
    }
    return b.toString();
  }
}
