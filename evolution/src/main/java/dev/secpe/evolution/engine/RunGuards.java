package dev.secpe.evolution.engine;

import dev.secpe.evolution.EvolutionSettings;
import dev.secpe.evolution.PrivacyJournal;
import dev.secpe.evolution.PrivateStore;
import dev.secpe.evolution.persist.RunGuard;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Opens a run's {@link RunGuard} from its settings: the one place the engine says what it asks of
 * persistence: a journal only for a private plan, and only then the dataset's key (a hash of
 * every record) and size.
 */
final class RunGuards {

  private RunGuards() {}

  /**
   * Locks the run's checkpoint directory, then opens its dataset's journal.
   *
   * @throws IllegalStateException if another run holds either, or the journal refuses the run
   */
  static RunGuard open(EvolutionSettings settings, Method method, RunKind kind, PrivateStore data) {
    Optional<Path> journal =
        method.plan().isPrivate() ? settings.journal().map(PrivacyJournal::directory) : Optional.empty();
    return RunGuard.open(new RunGuard.Request(
        method.name(),
        kind.mode(),
        kind.exactRecords(),
        journal,
        settings.journal().map(PrivacyJournal::lockWait).orElse(Duration.ZERO),
        settings.checkpointDir(),
        settings.noise().isPrivate(),
        kind.detector(),
        kind.prior(),
        method.plan().calibratedReleases(),
        journal.isPresent() ? data.datasetKey() : "",
        journal.isPresent() ? data.size() : 0));
  }
}
