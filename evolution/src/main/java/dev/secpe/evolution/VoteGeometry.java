package dev.secpe.evolution;

/**
 * How "nearest candidate" is measured when private records (or SecPE's released representatives)
 * vote for synthetic candidates. The choice is applied per label group and per round, to every
 * vote against the candidates: Aug-PE's and DPGA's private votes, SecPE's representative votes
 * and its allocation of candidates to representatives.
 *
 * <p>Neither geometry changes the privacy accounting: the candidates' mean is computed from
 * synthetic text only (public), so centring is a public transformation applied before the vote,
 * and each private record still casts the same votes with the same weight (L2 sensitivity 1).
 */
public enum VoteGeometry {

  /** Cosine similarity of the embeddings as given: the rule of the PE, Aug-PE and SecPE papers. */
  COSINE,

  /**
   * Cosine similarity after subtracting, from both sides, the mean embedding of the label group's
   * candidates in the current round (centring, as Suzuki et al. 2013, "Centering similarity
   * measures to reduce hubs", EMNLP). Sentence embeddings are anisotropic: with plain cosine a few
   * generic candidates near the centre of everything are the nearest neighbour of many records
   * ("hubs") and collect votes that say little about where the private data is, so the survivors'
   * mean drifts away from the private mean. Centring removes the shared direction. On the bundled
   * e-mails (non-private Aug-PE, 3 seeds) it cut the distance between the survivors' and the
   * private mean by a factor of about 3 and the round-0 FID from 0.024 to 0.015; see docs/method-findings.md.
   * Degenerate cases: when a candidate lies at the mean (a group with one candidate, or with
   * identical candidates) the group votes by plain cosine that round; a private record at the mean
   * votes by plain cosine alone. Both rules leave each record's vote a function of its own
   * embedding and the public candidates only.
   */
  CENTRED
}
