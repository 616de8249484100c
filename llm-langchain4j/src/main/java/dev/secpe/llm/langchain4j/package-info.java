/**
 * Adapters from LangChain4j to SecPE's provider interfaces: {@link
 * dev.secpe.llm.langchain4j.LangChain4jTextGenerator} wraps a LangChain4j {@code ChatModel}, {@link
 * dev.secpe.llm.langchain4j.LangChain4jTextEmbedder} an {@code EmbeddingModel}. Both are {@link
 * dev.secpe.llm.Locality#REMOTE} unless the caller declares the model {@link
 * dev.secpe.llm.Locality#LOCAL}; both run the model's blocking calls on an executor of the caller's
 * choosing, at most a set number at once, cancel them (by interruption) when the caller cancels or
 * a timeout passes, and report failures as {@link dev.secpe.llm.ProviderException}s whose messages
 * name the exception's type and HTTP status, never its message (which may quote the text).
 *
 * <p>On the module path this jar is the automatic module {@code dev.secpe.llm.langchain4j}, a name
 * its manifest fixes: it has no descriptor, because LangChain4j's jars have no module name of their
 * own (the JDK derives {@code langchain4j.core} from the file name, which a later LangChain4j may
 * replace), and a descriptor would have to require that name. An application {@code requires
 * dev.secpe.llm.langchain4j}, which also gives it LangChain4j's automatic modules, and reads {@code
 * dev.secpe.llm} through any other SecPE module it requires (or {@code requires dev.secpe.llm}).
 */
@NullMarked
package dev.secpe.llm.langchain4j;

import org.jspecify.annotations.NullMarked;
