/**
 * Providers that need no network and no API key: {@link dev.secpe.llm.embedded.MiniLmEmbedder}, the
 * all-MiniLM-L6-v2 sentence embedder on ONNX Runtime, and {@link
 * dev.secpe.llm.embedded.NgramTextGenerator}, a Kneser–Ney n-gram generator trained on public text
 * that implements the evolution operators (random, fill-in, rewrite, cross) of Aug-PE and
 * DPGA-TextSyn. Both are {@link dev.secpe.llm.Locality#LOCAL} and discovered with {@link
 * java.util.ServiceLoader} under the names "all-minilm-l6-v2" and "embedded-ngram"; the same
 * embedder with int8-quantised weights (faster, vectors close to the float32 ones) is the provider
 * "all-minilm-l6-v2-q".
 *
 * <p>No ONNX Runtime, DJL or LangChain4j type appears in a public signature.
 */
@NullMarked
package dev.secpe.llm.embedded;

import org.jspecify.annotations.NullMarked;
