/**
 * Light provider interfaces discovered with {@link java.util.ServiceLoader}, their config, the
 * {@link dev.secpe.llm.spi.Providers} registry (an instance, never a static mutable registry) and
 * {@link dev.secpe.llm.spi.ConcurrencyLimiter}, the bounded, ordered, cancellable batch runner
 * generator and embedder implementations share, and {@link dev.secpe.llm.spi.BlockingTextGenerator}
 * and {@link dev.secpe.llm.spi.BlockingTextEmbedder}, the bases of adapters over client libraries
 * whose calls block (the LangChain4j and Spring AI adapters); {@link
 * dev.secpe.llm.spi.InProcessEmbedder} is the base of an embedder whose model runs in this process.
 */
@NullMarked
package dev.secpe.llm.spi;

import org.jspecify.annotations.NullMarked;
