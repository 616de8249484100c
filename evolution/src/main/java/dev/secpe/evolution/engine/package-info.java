/**
 * The evolution engine shared by every method (internal: not exported by the module, no
 * compatibility promise). {@link dev.secpe.evolution.engine.Engine} owns the loop (initial
 * population, then per round embed, vote, select, vary), generation, timing, checkpoints and
 * resume; {@link dev.secpe.evolution.persist.ReleaseStore} is the only way a noisy value is drawn
 * (charged to the run's budget-limited ledger first, persisted right after); {@link
 * dev.secpe.evolution.engine.RunContext} is everything a {@link
 * dev.secpe.evolution.engine.Method} may use, private data only as embeddings, labels and exact
 * aggregates of the {@link dev.secpe.evolution.PrivateStore}. Steps more than one method uses
 * (selection rules, allocation, fill-in variation, the nearest-neighbour kernel, keyword
 * candidates) live here, so that no method package imports another.
 */
@NullMarked
package dev.secpe.evolution.engine;

import org.jspecify.annotations.NullMarked;
