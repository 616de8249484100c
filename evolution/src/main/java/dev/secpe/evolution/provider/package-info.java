/**
 * The run's calls to its providers (internal: not exported by the module, no compatibility
 * promise): {@link dev.secpe.evolution.provider.ProviderCalls} runs one call under a timeout per
 * attempt, retries and cancellation; {@link dev.secpe.evolution.provider.TimedEmbedder} puts the
 * run's embedder under it; {@link dev.secpe.evolution.provider.OneOffEmbedding} reports the one-off
 * embedding's progress (counts only). It imports nothing of the module above it: the engine hands
 * it plain values.
 */
@NullMarked
package dev.secpe.evolution.provider;

import org.jspecify.annotations.NullMarked;
