package dev.secpe.llm.openai;

/**
 * Counters of one generator or embedder since it was created (a consistent-enough snapshot; each
 * field is exact, fields are read one after another).
 *
 * @param calls logical calls (one per generation request or embeddings batch) started
 * @param succeeded calls that completed with a result
 * @param failed calls that ended with an exception (after retries)
 * @param httpRequests HTTP attempts sent, retries included
 * @param retries attempts that were retries
 * @param rateLimited responses with status 429
 * @param promptTokens prompt (input) tokens reported by the server
 * @param completionTokens completion tokens reported by the server
 */
public record OpenAiStats(
    long calls,
    long succeeded,
    long failed,
    long httpRequests,
    long retries,
    long rateLimited,
    long promptTokens,
    long completionTokens) {}
