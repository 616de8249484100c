/**
 * What a run writes to disk, and when (internal: not exported by the module, no compatibility
 * promise): the privacy journal of each dataset ({@link dev.secpe.evolution.persist.RunJournal}
 * over {@link dev.secpe.evolution.persist.JournalFile}), checkpoints ({@link
 * dev.secpe.evolution.persist.CheckpointStore}), the locks that keep one run per dataset and per
 * checkpoint directory, and {@link dev.secpe.evolution.persist.ReleaseStore}, the only way a noisy
 * value is drawn. Together they make a budget spent once: a release is charged before it is drawn
 * and never drawn twice.
 *
 * <p>Two doors lead in. The engine holds {@link dev.secpe.evolution.persist.RunGuard} for one run
 * and never sees the journal; {@link dev.secpe.evolution.PrivacyJournal} reads the journal back
 * as {@link dev.secpe.evolution.persist.JournalEntry} values ({@link
 * dev.secpe.evolution.persist.RunJournal#read}) and shares the rules of {@link
 * dev.secpe.evolution.persist.Spending}. The package imports nothing of the module above it.
 */
@NullMarked
package dev.secpe.evolution.persist;

import org.jspecify.annotations.NullMarked;
