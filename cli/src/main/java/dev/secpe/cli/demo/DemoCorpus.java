package dev.secpe.cli.demo;

import dev.secpe.core.Label;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.io.BundledCorpus;
import dev.secpe.core.io.DatasetReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * A corpus the demo runs on: public text (the generator's and SecPE's clusters' only source),
 * labelled private records, and the label names. Six ship with the command line, each with a
 * different shift between public and private text (data/README.md says how each was made):
 *
 * <ul>
 *   <li>{@code spamassassin}: the bundled e-mails ({@link BundledCorpus}), by default split so that
 *       the private side is a niche of the public one (newer mailing-list traffic and spam);
 *   <li>{@code sotu}: State of the Union passages, public 1853-1932, private 1981-2020, labelled by
 *       party: a shift of era;
 *   <li>{@code fortunes}: fortune cookies, private = the "computers" and "science" files, public =
 *       a broad sample of every other file in which those two topics are 3%: another domain, and a
 *       niche inside a broad public set;
 *   <li>{@code speeches}, {@code cookies} and {@code packages}: SecPE's own regime, 3,400 private
 *       records each (3,000 vote once the demo holds 400 out): State of the Union passages of
 *       1945-2020 labelled by period against public addresses of 1790-1944, four fortune files
 *       against the others, and Debian package descriptions of four archive sections against the
 *       other sections.
 * </ul>
 *
 * <p>The demo's settings were chosen on the first; the others were added to judge the methods on
 * data nobody tuned them on.
 *
 * @param name the name {@code --corpus} takes
 * @param description one line for the report
 * @param publicData the public side
 * @param privateData every private record (the demo holds some of them out)
 * @param labels the label names of the private records
 */
public record DemoCorpus(
    String name, String description, PublicCorpus publicData, PrivateDataset privateData, SortedSet<Label> labels) {

  /** The names {@link #named} takes. */
  public static final List<String> NAMES =
      List.of("spamassassin", "sotu", "fortunes", "speeches", "cookies", "packages");

  private static final String RESOURCES = "/dev/secpe/cli/data/";

  /**
   * The corpus called {@code name}; {@code split} applies to {@code spamassassin} only (lists, era
   * or random, see {@link DemoRunner#data}).
   *
   * @throws IllegalArgumentException naming the option for an unknown name or split
   */
  public static DemoCorpus named(String name, String split) {
    return switch (name) {
      case "spamassassin" -> spamAssassin(split);
      case "sotu" -> fromResource(
          "sotu", true,
          "State of the Union passages; public: addresses of 1853-1932, private: 1981-2020; label: party");
      case "fortunes" -> fromResource(
          "fortunes", false,
          "fortune cookies; private: the computers and science files; public: every other file, those two"
              + " topics at 3%; label: file");
      case "speeches" -> fromResource(
          "speeches", false,
          "State of the Union passages, SecPE's regime (3,400 private); public: addresses of 1790-1944,"
              + " private: 1945-2020; label: period (cold war to 1991, or after)");
      case "cookies" -> fromResource(
          "cookies", false,
          "fortune cookies, SecPE's regime (3,400 private); private: the people, definitions, cookie and"
              + " politics files; public: the other files; label: file");
      case "packages" -> fromResource(
          "packages", false,
          "Debian package descriptions, SecPE's regime (3,400 private); private: the devel, games, net and"
              + " science sections; public: the other sections; label: section");
      default -> throw new IllegalArgumentException(
          "--corpus takes " + String.join(", ", NAMES) + ", got corpus=" + name);
    };
  }

  private static DemoCorpus spamAssassin(String split) {
    BundledCorpus corpus = BundledCorpus.spamAssassin();
    BundledCorpus.Split parts =
        switch (split) {
          case "lists" -> corpus.byMailingLists();
          case "era" -> corpus.byEra();
          case "random" -> new BundledCorpus.Split(corpus.publicPart(), corpus.privatePart());
    default -> throw new IllegalArgumentException("--split takes lists, era or random, got split=" + split);
        };
    return new DemoCorpus(
        "spamassassin",
        "SpamAssassin e-mails, split " + split,
        parts.publicPart(),
        parts.privatePart(),
        new TreeSet<>(List.of(BundledCorpus.HAM, BundledCorpus.SPAM)));
  }

  private static DemoCorpus fromResource(String name, boolean publicLabelled, String description) {
    DatasetReader reader = DatasetReader.builder().labelField("label").build();
    DatasetReader publicReader = publicLabelled ? reader : DatasetReader.builder().noLabel().build();
    PublicCorpus pub =
        read(name + "-public.jsonl.gz", in -> publicReader.readPublic(in, name, DatasetReader.Format.JSONL));
    PrivateDataset priv =
        read(name + "-private.jsonl.gz", in -> reader.readPrivate(in, name, DatasetReader.Format.JSONL));
    SortedSet<Label> labels = new TreeSet<>();
    priv.records().forEach(r -> labels.add(r.label().orElseThrow(
        () -> new IllegalStateException(name + ": private record " + r.id() + " has no label"))));
    return new DemoCorpus(name, description, pub, priv, labels);
  }

  private static <T> T read(String file, Function<InputStream, T> parse) {
    String resource = RESOURCES + file;
    try (InputStream in = DemoCorpus.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("class-path resource " + resource + " is missing from the command line's jar");
      }
      return parse.apply(new GZIPInputStream(in));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
