/**
 * Providers that need no network and no API key: {@link dev.secpe.llm.embedded.MiniLmEmbedder}, the
 * all-MiniLM-L6-v2 sentence embedder on ONNX Runtime, and three generators trained on public text
 * that implement the evolution operators (random, fill-in, rewrite, cross) of Aug-PE and
 * DPGA-TextSyn: {@link dev.secpe.llm.embedded.SpliceTextGenerator}, which recombines public
 * sentences (the best of them), {@link dev.secpe.llm.embedded.NgramTextGenerator}, a Kneser–Ney
 * n-gram generator, and {@link dev.secpe.llm.embedded.GuidedSpliceGenerator}, the splice generator
 * guided by an n-gram model that CTCL fine-tunes under DP. All are {@link
 * dev.secpe.llm.Locality#LOCAL} and discovered with {@link java.util.ServiceLoader} under the names
 * "all-minilm-l6-v2", "embedded-splice", "embedded-ngram" and "embedded-guided-splice"; the same
 * embedder with int8-quantised weights (faster, vectors close to the float32 ones) is the provider
 * "all-minilm-l6-v2-q".
 *
 * <p>No ONNX Runtime, DJL or LangChain4j type appears in a public signature.
 */
@NullMarked
package dev.secpe.llm.embedded;

import org.jspecify.annotations.NullMarked;
