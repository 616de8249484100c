package dev.secpe.cli;

import dev.secpe.core.PublicCorpus;
import dev.secpe.core.io.InputFiles;
import dev.secpe.core.secret.DictionaryDetector;
import dev.secpe.core.secret.NameDetector;
import dev.secpe.core.secret.PiiDetector;
import dev.secpe.core.secret.RandomWordSecrets;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.core.secret.SecretDetectors;
import dev.secpe.core.secret.SecretMatch;
import dev.secpe.llm.Locality;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code secpe run --method secpe --secrets SPEC}: what SecPE protects. SPEC is a comma-separated
 * list of
 *
 * <ul>
 *   <li>{@code pii}: e-mail addresses, phone numbers, card numbers and the other {@link
 *       PiiDetector} kinds (the default); not person names;
 *   <li>{@code names}: person names ({@link NameDetector}: a gazetteer of given names, titles,
 *       greetings and signatures); {@code pii,names} protects both;
 *   <li>{@code random-words[:COUNT]}: SecPE §4.2's secrets, the COUNT words (default {@value
 *       #DEFAULT_WORD_COUNT}) near the 20% frequency quantile of the PUBLIC text ({@link
 *       RandomWordSecrets}: choosing them spends no budget);
 *   <li>{@code terms:FILE}: the terms of a UTF-8 file, one per line (blank lines and lines starting
 *       with {@code #} ignored), matched as whole words, case-insensitively ({@link
 *       DictionaryDetector}).
 * </ul>
 *
 * Several entries combine: a record holds a secret if any entry finds one. The detector's name,
 * which the privacy report prints, says which entries ran and with which parameters (never the
 * terms: they may be sensitive themselves).
 */
final class SecretsOption {

  /** Words designated by a bare {@code random-words}. */
  static final int DEFAULT_WORD_COUNT = 20;

  private SecretsOption() {}

  /** What to build, checked before any private record is read. */
  record Spec(List<Entry> entries) {
    Spec {
      entries = List.copyOf(entries);
    }

    boolean needsPublic() {
      return entries.stream().anyMatch(e -> e.kind().equals("random-words"));
    }
  }

  /** One entry: kind, word count (random-words) or terms and their file name (terms). */
  record Entry(String kind, int count, List<String> terms, String file) {}

  /** One entry as written: its kind, word count (random-words) or terms file (terms, not read). */
  private record Written(String kind, int count, Path file) {}

  /**
   * The terms files SPEC names (not read), so that no output may replace one and a missing one is
   * said before anything is read; none for a SPEC that is absent or does not parse.
   */
  static List<Path> files(String spec) {
    List<Path> out = new ArrayList<>();
    if (spec != null && !spec.isBlank()) {
      for (String raw : spec.split(",")) {
        String item = raw.strip();
        if (item.startsWith("terms:") && item.length() > "terms:".length()) {
          out.add(Path.of(item.substring("terms:".length())));
        }
      }
    }
    return out;
  }

  /**
   * Checks SPEC's syntax without reading any file, so that a mistyped SPEC is said before the
   * inputs are looked at; fails with a message naming the option.
   */
  static void check(String spec) {
    written(spec);
  }

  /** SPEC's entries as written, checked; no file is read. */
  private static List<Written> written(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("--secrets: SPEC must not be empty (expected pii, names, random-words[:COUNT], terms:FILE)");
    }
    List<Written> out = new ArrayList<>();
    for (String raw : spec.split(",")) {
      String item = raw.strip();
      if (item.equals("pii") || item.equals("names")) {
        out.add(new Written(item, 0, null));
      } else if (item.equals("random-words") || item.startsWith("random-words:")) {
        int count = DEFAULT_WORD_COUNT;
        if (item.startsWith("random-words:")) {
          String c = item.substring("random-words:".length());
          try {
            count = Integer.parseInt(c);
          } catch (NumberFormatException e) {
            count = -1;
          }
          if (count < 1) {
            throw new IllegalArgumentException("--secrets: COUNT must be a positive integer, got " + item);
          }
        }
        out.add(new Written("random-words", count, null));
      } else if (item.startsWith("terms:")) {
        out.add(new Written("terms", 0, Path.of(item.substring("terms:".length()))));
      } else {
        throw new IllegalArgumentException(
            "--secrets: unknown entry '" + item + "' (expected pii, names, random-words[:COUNT], terms:FILE)");
      }
    }
    return out;
  }

  /** Parses and checks SPEC (reads terms files); fails with a message naming the option. */
  static Spec parse(String spec) {
    return parse(spec, InputFiles.DEFAULT_STALL_TIMEOUT);
  }

  /** As {@link #parse(String)}, waiting at most {@code readTimeout} for a terms file's data. */
  static Spec parse(String spec, Duration readTimeout) {
    List<Entry> out = new ArrayList<>();
    for (Written w : written(spec)) {
      if (w.kind().equals("terms")) {
        Path file = w.file();
        out.add(new Entry("terms", 0, readTerms(file, readTimeout),
            file.getFileName() == null ? file.toString() : file.getFileName().toString()));
      } else {
        out.add(new Entry(w.kind(), w.count(), List.of(), null));
      }
    }
    return new Spec(out);
  }

  private static List<String> readTerms(Path file, Duration readTimeout) {
    List<String> lines;
    try {
      lines = InputFiles.readAllLines(file, readTimeout);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "--secrets: cannot read terms file " + file + ": " + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : " " + e.getMessage()));
    }
    List<String> terms = new ArrayList<>();
    for (String line : lines) {
      String t = line.strip();
      if (!t.isEmpty() && !t.startsWith("#")) {
        terms.add(t);
      }
    }
    if (terms.isEmpty()) {
      throw new IllegalArgumentException("--secrets: terms file " + file + " holds no terms");
    }
    return terms;
  }

  /** The detector for {@code spec}; random words are counted on {@code pub} only. */
  static SecretDetector build(Spec spec, PublicCorpus pub) {
    List<SecretDetector> parts = new ArrayList<>();
    for (Entry e : spec.entries()) {
      switch (e.kind()) {
        case "pii" -> parts.add(PiiDetector.all());
        case "names" -> parts.add(NameDetector.create());
        case "random-words" -> {
          if (pub.isEmpty()) {
            throw new IllegalArgumentException(
                "--secrets random-words needs --public: the words are chosen from public text only");
          }
          RandomWordSecrets w = RandomWordSecrets.builder().publicCorpus(pub).count(e.count()).build();
          parts.add(named(w, "random-words(count=" + w.words().size() + ", quantile=0.2, public text)"));
        }
        default -> parts.add(
            named(DictionaryDetector.of(e.terms()), "terms(" + e.terms().size() + " from " + e.file() + ")"));
      }
    }
    SecretDetector d = parts.size() == 1 ? parts.get(0) : SecretDetectors.composite(parts);
    return parts.size() == 1 ? d : named(d, String.join(" + ", parts.stream().map(SecretDetector::name).toList()));
  }

  /** The same detector under a descriptive name. */
  private static SecretDetector named(SecretDetector d, String name) {
    return new Named(d, name);
  }

  /**
   * A detector under another name; serializable when the detector is, so that named detectors
   * run on Spark executors ({@code run --spark}).
   */
  private record Named(SecretDetector detector, String name) implements SecretDetector, Serializable {
    @Override
    public Locality locality() {
      return detector.locality();
    }

    @Override
    public List<SecretMatch> detect(String text) {
      return detector.detect(text);
    }

    /** The detector's own: the name given here changes nothing it finds. */
    @Override
    public String configuration() {
      return detector.configuration();
    }

    @Override
    public String toString() {
      return name.toLowerCase(Locale.ROOT);
    }
  }
}
