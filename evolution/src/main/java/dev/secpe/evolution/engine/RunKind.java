package dev.secpe.evolution.engine;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What a run's checkpoint, its privacy-journal entries and its report say of the run beyond its
 * method and configuration digest: its mode, whether it used private records exactly, its secret
 * detector and the guarantee it gives.
 *
 * @param mode the method's mode: for SecPE {@code "secpe"}, {@code "secpe-split"} (the dataset
 *     split) or {@code "secpe-split-votes"} (the split with secret-free votes); for the methods
 *     with one mode, their name
 * @param exactRecords whether the run used private records exactly, without noise (SecPE's split
 *     clusters, counts and, with votes, lets vote the records without a detected secret): no
 *     record-level bound then holds for the dataset
 * @param detector the digest of the secret detector's whole configuration ({@code
 *     SecretDetectors.digest}: terms, patterns, options, rules version), empty for a method without
 *     one; a resume with another is refused, whatever the detector's display name
 * @param guarantee the guarantee a private run gives, in one sentence, for its report
 * @param prior the prior p of the run's (p, r) budget, journalled with a run whose guarantee is per
 *     secret so that what the dataset spent can be stated as (p, r) without asking for p; empty for
 *     a method of record-level DP
 */
public record RunKind(String mode, boolean exactRecords, String detector, String guarantee, OptionalDouble prior) {

  /** The guarantee of Aug-PE, DPGA and CTCL. */
  public static final String RECORD_LEVEL =
      "record-level differential privacy: (epsilon, delta) and mu-GDP for any one private record";

  /** What a non-private run guarantees. */
  public static final String NONE = "none: a non-private baseline, nothing is protected";

  /** SecPE's per-secret guarantee, said once for both modes. */
  private static final String PER_SECRET = "(p, r)-secret protection of each detected secret";

  /** Checks the values. */
  public RunKind {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(detector, "detector");
    Objects.requireNonNull(guarantee, "guarantee");
    Objects.requireNonNull(prior, "prior");
    if (mode.isBlank()) {
      throw new IllegalArgumentException("mode must not be blank");
    }
  }

  /** A method of record-level DP with one mode, {@code method}, and no secret detector. */
  public static RunKind recordLevel(String method) {
    return new RunKind(method, false, "", RECORD_LEVEL, OptionalDouble.empty());
  }

  /**
   * A run whose guarantee is per secret (SecPE): with {@code exactRecords} the records in which the
   * detector found no secret were used exactly; without, every record was sampled into sums noised
   * for the secrets, and no record-level bound is stated for that noise. {@code prior} is the p of
   * its (p, r) budget (empty for a non-private baseline, which has none).
   */
  public static RunKind perSecret(String mode, boolean exactRecords, String detector, OptionalDouble prior) {
    return new RunKind(mode, exactRecords, detector, exactRecords
        ? PER_SECRET + "; the records in which the detector found no secret were used exactly, without noise"
            + " (clustered and counted, and with secret-free votes voting): no record-level bound, and a secret"
            + " the detector missed is published exactly"
        : PER_SECRET + "; no record-level bound: every record was sampled into sums noised for the secrets,"
            + " so records are protected only through that noise", prior);
  }
}
