/**
 * Adapters from Spring AI to SecPE's provider interfaces: {@link
 * dev.secpe.llm.springai.SpringAiTextGenerator} wraps a Spring AI {@code ChatModel}, {@link
 * dev.secpe.llm.springai.SpringAiTextEmbedder} an {@code EmbeddingModel}, in the shape of the
 * LangChain4j adapters: {@link dev.secpe.llm.Locality#REMOTE} unless the caller declares the
 * model {@link dev.secpe.llm.Locality#LOCAL}; blocking calls on an executor of the caller's
 * choosing, at most a set number at once, interrupted when the caller cancels or a timeout passes;
 * failures reported as {@link dev.secpe.llm.ProviderException}s whose messages name the exception's
 * type only, never its message (which may quote the text).
 *
 * <p>On the module path this jar is the automatic module {@code dev.secpe.llm.springai}, a name its
 * manifest fixes: it has no descriptor, because Spring AI's jars have no module name of their own
 * (the JDK derives {@code spring.ai.model} from the file name), and a descriptor would have to
 * require that name. An application {@code requires dev.secpe.llm.springai}, which also gives it
 * Spring AI's automatic modules, and reads {@code dev.secpe.llm} through any other SecPE module it
 * requires (or {@code requires dev.secpe.llm}).
 */
@NullMarked
package dev.secpe.llm.springai;

import org.jspecify.annotations.NullMarked;
