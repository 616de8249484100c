/**
 * The evolution loop shared by every method (internal: not exported by the module, no
 * compatibility promise). {@link dev.secpe.evolution.engine.Engine} owns the loop (initial
 * population, then per round embed, vote, select, vary), generation, timing and the decision to
 * resume; {@link dev.secpe.evolution.engine.RunContext} is everything a {@link
 * dev.secpe.evolution.engine.Method} may use, private data only as embeddings, labels and exact
 * aggregates of the {@link dev.secpe.evolution.PrivateStore}, and noisy values only through its
 * {@link dev.secpe.evolution.persist.ReleaseStore}. Steps more than one method uses (selection
 * rules, allocation, fill-in variation, keyword candidates) live here, so that no method package
 * imports another; the nearest-neighbour kernel they count with lives in {@code kernel}, below
 * both the public face and the engine. What is written to disk lives in {@code persist}, which
 * the engine reaches through {@link dev.secpe.evolution.persist.RunGuard} only;
 * provider calls under the run's control live in {@code provider}.
 */
@NullMarked
package dev.secpe.evolution.engine;

import org.jspecify.annotations.NullMarked;
