/**
 * LangChain4j adapters: any LangChain4j {@code ChatModel} as a SecPE {@link dev.secpe.llm.TextGenerator}
 * and any LangChain4j {@code EmbeddingModel} as a {@link dev.secpe.llm.TextEmbedder}.
 *
 * <p>LangChain4j's jars carry no module descriptor and no {@code Automatic-Module-Name}: on the
 * module path {@code langchain4j-core-VERSION.jar} is the automatic module {@code langchain4j.core}
 * (keep the jar's file name).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.secpe.llm.langchain4j {
  requires static org.jspecify;
  requires transitive dev.secpe.llm;
  requires transitive langchain4j.core;

  exports dev.secpe.llm.langchain4j;
}
