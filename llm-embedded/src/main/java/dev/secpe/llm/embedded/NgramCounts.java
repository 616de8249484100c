package dev.secpe.llm.embedded;

/**
 * The sufficient statistic of a Kneser–Ney model: counts of the highest-order n-grams of every
 * training document (documents padded with {@code order - 1} start tokens and one end token).
 * Every lower-order statistic is derived from this table, so a bound on what one document adds
 * here bounds its influence on the whole model.
 *
 * <p>Built for a later DP fine-tuning step (CTCL §3.3): {@link #documentContribution(int[], int)}
 * returns one document's n-grams in isolation, so a caller can clip that contribution (at most
 * {@code m} n-grams, each counted at most once) before {@link #add(long[])}, and add calibrated
 * noise to the aggregate before the model is derived from it. {@link DpFineTuning} does it.
 */
final class NgramCounts {
  final int order;
  final LongIntMap counts;
  private int documents;

  NgramCounts(int order) {
    this.order = order;
    this.counts = new LongIntMap(1 << 12);
  }

  /** Packs {@code ids[from..from+len)} into a key, the first id in the highest bits. */
  static long pack(int[] ids, int from, int len) {
    long key = 0;
    for (int i = 0; i < len; i++) {
      key = (key << Vocabulary.BITS) | ids[from + i];
    }
    return key;
  }

  /** The n-grams (packed) one document contributes: exactly {@code ids.length + 1} of them. */
  static long[] documentContribution(int[] ids, int order) {
    int[] padded = new int[ids.length + order];
    for (int i = 0; i < order - 1; i++) {
      padded[i] = Vocabulary.BOS;
    }
    System.arraycopy(ids, 0, padded, order - 1, ids.length);
    padded[padded.length - 1] = Vocabulary.EOS;
    long[] out = new long[ids.length + 1];
    for (int i = 0; i < out.length; i++) {
      out[i] = pack(padded, i, order);
    }
    return out;
  }

  /** Adds one document's n-grams. */
  void add(long[] contribution) {
    for (long key : contribution) {
      counts.add(key, 1);
    }
    documents++;
  }

  /** Adds a raw (key, count) pair, as read back from a saved model. */
  void addCount(long key, int count) {
    counts.add(key, count);
  }

  void setDocuments(int documents) {
    this.documents = documents;
  }

  int documents() {
    return documents;
  }
}
