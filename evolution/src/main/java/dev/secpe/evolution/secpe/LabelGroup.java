package dev.secpe.evolution.secpe;

import dev.secpe.core.EmbeddingMatrix;

/**
 * One label group of a SecPE run, followed through it: its rows (which private records are sampled
 * into the noisy shift, which are SecPE's public part), its clusters (built once, on public data)
 * and its release (the noisy representatives, drawn once, or every round when re-releasing). SecPE
 * keeps one per label group (one in all when the data is unlabelled).
 */
final class LabelGroup {

  /** The group's index: its label's position in the run's labels (0 when unlabelled). */
  final int index;

  /** Its name in messages and the report: its label, or "(all)". */
  final String name;

  /**
   * The private records sampled into the noisy shift of eq. (7): all the group's records, or in the
   * split those that hold a detected secret (the paper's {@code D_pri}).
   */
  final int[] shiftRows;

  /**
   * In the split, the group's private records that hold no detected secret: SecPE's public part,
   * clustered and counted exactly (and, with secret-free votes, voting). Empty without the split.
   */
  final int[] secretFree;

  /** The public corpus's records that form (or, in the split, join) the group's clusters. */
  final int[] corpusRows;

  private Clusters clusters;
  private Release release;
  /**
   * Without the split, with the public-guided selection: the kept cluster of each of {@link
   * #corpusRows} (public data), so that their votes can guide the representatives' private mass.
   */
  private int[] corpusClusters = new int[0];

  LabelGroup(int index, String name, int[] shiftRows, int[] secretFree, int[] corpusRows) {
    this.index = index;
    this.name = name;
    this.shiftRows = shiftRows;
    this.secretFree = secretFree;
    this.corpusRows = corpusRows;
  }

  /** How many records the group's clusters are built on: its secret-free and corpus records. */
  int base() {
    return secretFree.length + corpusRows.length;
  }

  /** The group's clusters (after {@link #cluster}). */
  Clusters clusters() {
    if (clusters == null) {
      throw new IllegalStateException("label group " + name + " has no clusters yet");
    }
    return clusters;
  }

  void cluster(Clusters c) {
    clusters = c;
  }

  /** The kept cluster of each of {@link #corpusRows} (public-guided selection only; else empty). */
  int[] corpusClusters() {
    return corpusClusters;
  }

  void corpusClusters(int[] c) {
    corpusClusters = c;
  }

  /** The group's current release (after the first {@link #release(Release)}). */
  Release release() {
    if (release == null) {
      throw new IllegalStateException("label group " + name + " has no release yet");
    }
    return release;
  }

  void release(Release r) {
    release = r;
  }

  /**
   * The group's public clusters: k-means on its public part, the clusters it left empty dropped.
   *
   * @param centres the centres of the clusters kept (unit rows; none empty)
   * @param sizes per kept cluster, its members {@code n_k}: secret-free records and public corpus
   *     records
   * @param corpusMembers per kept cluster, how many of its members come from the public corpus (all
   *     of them without the split)
   * @param asked K as chosen for the group (given, or from the data)
   * @param emptyDropped how many of the K clusters k-means left empty (fewer distinct embeddings than
   *     K), dropped before the release
   * @param secretFreeClusters with secret-free votes, the kept cluster of each secret-free record of
   *     the group (in {@link LabelGroup#secretFree} order); empty otherwise
   */
  record Clusters(EmbeddingMatrix centres, int[] sizes, int[] corpusMembers, int asked, int emptyDropped,
      int[] secretFreeClusters) {

    /** The number of clusters kept. */
    int kept() {
      return sizes.length;
    }

    /** These clusters with the cluster of each secret-free record. */
    Clusters withSecretFreeClusters(int[] clusters) {
      return new Clusters(centres, sizes, corpusMembers, asked, emptyDropped, clusters);
    }
  }

  /**
   * The group's released representatives, as the votes use them.
   *
   * @param centres the noisy centres (unit rows, shrunk where asked), one per kept representative
   * @param counts the noisy counts {@code n~_k}
   * @param publicSizes the part of each {@code n~_k} that is not private data: {@code n_k} itself, or
   *     in the split the public corpus's members (the secret-free records are private data, public
   *     under this guarantee)
   * @param cluster the public cluster behind each representative
   */
  record Release(EmbeddingMatrix centres, double[] counts, double[] publicSizes, int[] cluster) {

    /** The number of representatives kept. */
    int size() {
      return counts.length;
    }

    /**
     * The estimated private mass of each representative, {@code n~_k - n_k}: the released count less
     * the public size it was built from (post-processing; the public size is public).
     */
    double[] privateMass() {
      double[] m = new double[counts.length];
      for (int k = 0; k < m.length; k++) {
        m[k] = counts[k] - publicSizes[k];
      }
      return m;
    }
  }
}
