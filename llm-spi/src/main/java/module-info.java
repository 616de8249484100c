/**
 * The SecPE LLM service-provider interface: generators, embedders, their light providers
 * (discovered with {@link java.util.ServiceLoader}), prompt templates and the embedding cache.
 * JDK only.
 */
module dev.secpe.llm {
  requires static org.jspecify;
  exports dev.secpe.llm;
  exports dev.secpe.llm.spi;
  exports dev.secpe.llm.prompt;
  exports dev.secpe.llm.cache;

  uses dev.secpe.llm.spi.TextGeneratorProvider;
  uses dev.secpe.llm.spi.TextEmbedderProvider;
}
