/**
 * Spring AI adapters: any Spring AI {@code ChatModel} as a SecPE {@link dev.secpe.llm.TextGenerator}
 * and any Spring AI {@code EmbeddingModel} as a {@link dev.secpe.llm.TextEmbedder}.
 *
 * <p>Spring AI's jars carry no module descriptor and no {@code Automatic-Module-Name}: on the
 * module path {@code spring-ai-model-VERSION.jar} is the automatic module {@code spring.ai.model}
 * (keep the jar's file name).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.secpe.llm.springai {
  requires static org.jspecify;
  requires transitive dev.secpe.llm;
  requires transitive spring.ai.model;

  exports dev.secpe.llm.springai;
}
