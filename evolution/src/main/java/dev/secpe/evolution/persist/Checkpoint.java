package dev.secpe.evolution.persist;

import dev.secpe.accounting.ledger.Release;
import dev.secpe.core.SyntheticText;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run persists after every release and every round: enough to resume without drawing any
 * release twice. It holds synthetic texts and noisy (already accounted) releases only — never
 * private text — but it is still a file of the data holder: the releases are only as private as
 * the run's guarantee.
 *
 * @param method "secpe", "augpe" or "dpga"
 * @param fingerprint the configuration it belongs to; a resume with another one is refused
 * @param inputs a digest of the private and public records it was made from; a resume with other
 *     records is refused
 * @param round the round whose input {@code population} is (0 = initial population)
 * @param population the candidates that enter {@code round}
 * @param releases the ledger, in charge order
 * @param values the noisy values of every release, by release id
 * @param lineage the chain of runs this checkpoint belongs to in the dataset's privacy journal
 *     (a fresh run starts one, each resume continues it); empty when the run kept no journal
 * @param copiesLeftOut generated texts left out so far because they stayed copies of the
 *     population's texts (for the report's warning, which a resumed run must give as well)
 * @param noise the noise its releases were drawn with, {@link #SECURE} or {@link #REPRODUCIBLE}
 *     ("" in a checkpoint written before it was recorded); a resume with the other is refused
 * @param detector the digest of the secret detector's whole configuration its releases protect
 *     ({@code SecretDetectors.digest}); "" for a method without a detector, and in a SecPE
 *     checkpoint written before it was recorded (which cannot show its detector, so is not resumed)
 */
public record Checkpoint(
    String method,
    String fingerprint,
    String inputs,
    int round,
    List<SyntheticText> population,
    List<Release> releases,
    Map<String, double[]> values,
    String lineage,
    long copiesLeftOut,
    String noise,
    String detector) {

  /** {@link #noise()} of a run with secure noise (as the privacy journal names it). */
  public static final String SECURE = "secure";

  /** {@link #noise()} of a run with reproducible (seeded, non-private) noise. */
  public static final String REPRODUCIBLE = "reproducible (not private)";

  /** Copies the collections. */
  public Checkpoint {
    noise = noise == null ? "" : noise;
    detector = detector == null ? "" : detector;
    population = List.copyOf(population);
    releases = List.copyOf(releases);
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    lineage = lineage == null ? "" : lineage;
  }
}
