package dev.secpe.evolution.secpe;

import dev.secpe.accounting.SecretBudget;
import dev.secpe.accounting.secret.SecretNoise;
import dev.secpe.clustering.NonPositiveCountPolicy;
import dev.secpe.core.secret.SecretDetector;
import dev.secpe.evolution.EvolutionSettings;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What SecPE's steps read of a run's configuration, as plain values: the entry point ({@code
 * dev.secpe.evolution.SecPE}) builds them from its public, validated {@code Config}, so that
 * imports point one way, from the entry point to this package. The fields are the {@code Config}'s
 * of the same names.
 *
 * @param settings the shared settings
 * @param budget the (p, r) budget of every secret, null in a non-private run
 * @param detector finds the secrets, null only in a non-private run
 * @param clusters K, public clusters in total; 0 chooses K from the data ({@link ClustersPerGroup#autoClusters})
 * @param kmeansRestarts k-means restarts on the public embeddings
 * @param reReleasePerRound release the representatives every round
 * @param nonPositiveCountPolicy clusters whose noisy count is &lt;= 0
 * @param blowUpMethod the mixture blow-up's method
 * @param delta delta for the report's (epsilon, delta) line
 * @param paperTopN Algorithm 3's top-N selection as printed, instead of the allocated one
 * @param publicGuided without the split, the representatives' private mass is spread over the
 *     candidates their clusters' public records vote for (SecPE.SelectionMode.PUBLIC_GUIDED)
 * @param shrinkRepresentatives pull released centres towards their public centres
 * @param secretCap K of the contribution-bounded mode, 0 for the paper's calibration
 * @param secretFreeAsPublic the private records holding no detected secret join the public clusters
 *     with their exact counts (the paper's {@code D_pub}); only secret-holding records are sampled
 *     and noised
 * @param secretFreeVotes (with {@code secretFreeAsPublic}) the secret-free records also vote one by
 *     one, exactly, beside the noisy representatives of the secret-holding records
 * @param publicJoinsClusters (with {@code secretFreeAsPublic}) the public corpus joins the clusters
 *     too; without the split it always forms them
 * @param noSecrets the exception a run throws when the detector finds no secret, from the
 *     detector's name
 */
public record SecPEOptions(
    EvolutionSettings settings,
    @Nullable SecretBudget budget,
    @Nullable SecretDetector detector,
    int clusters,
    int kmeansRestarts,
    boolean reReleasePerRound,
    NonPositiveCountPolicy nonPositiveCountPolicy,
    SecretNoise.BlowUpMethod blowUpMethod,
    double delta,
    boolean paperTopN,
    boolean publicGuided,
    boolean shrinkRepresentatives,
    int secretCap,
    boolean secretFreeAsPublic,
    boolean secretFreeVotes,
    boolean publicJoinsClusters,
    Function<String, ? extends RuntimeException> noSecrets) {

  /** Checks the references (the values were validated by the entry point's configuration). */
  public SecPEOptions {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(nonPositiveCountPolicy, "nonPositiveCountPolicy");
    Objects.requireNonNull(blowUpMethod, "blowUpMethod");
    Objects.requireNonNull(noSecrets, "noSecrets");
  }
}
