/**
 * A generator and an embedder for OpenAI-compatible HTTP endpoints (chat completions,
 * completions, embeddings), with endpoint balancing, bounded concurrency, retries with
 * full-jitter backoff honouring {@code Retry-After}, timeouts and counters. Registered with
 * {@link java.util.ServiceLoader} as "openai". Both are {@link dev.secpe.llm.Locality#REMOTE}; no
 * request body ever reaches a log line or an exception message.
 */
@NullMarked
package dev.secpe.llm.openai;

import org.jspecify.annotations.NullMarked;
