/**
 * Adapters from LangChain4j to SecPE's provider interfaces: {@link
 * dev.secpe.llm.langchain4j.LangChain4jTextGenerator} wraps a LangChain4j {@code ChatModel}, {@link
 * dev.secpe.llm.langchain4j.LangChain4jTextEmbedder} an {@code EmbeddingModel}. Both are {@link
 * dev.secpe.llm.Locality#REMOTE} unless the caller declares the model {@link
 * dev.secpe.llm.Locality#LOCAL}; both run the model's blocking calls on an executor of the caller's
 * choosing, at most a set number at once, cancel them (by interruption) when the caller cancels or
 * a timeout passes, and report failures as {@link dev.secpe.llm.ProviderException}s whose messages
 * name the exception's type and HTTP status, never its message (which may quote the text).
 */
@NullMarked
package dev.secpe.llm.langchain4j;

import org.jspecify.annotations.NullMarked;
