/**
 * An embedding cache keyed by content hash ({@link dev.secpe.llm.cache.CachingEmbedder}), in
 * memory and optionally on disk; the disk file holds hashes and vectors, never text.
 */
@NullMarked
package dev.secpe.llm.cache;

import org.jspecify.annotations.NullMarked;
