/**
 * OpenAI-compatible text generator and embedder, registered as service providers named "openai".
 */
module dev.secpe.llm.openai {
  requires static org.jspecify;
  requires transitive dev.secpe.llm;
  requires java.net.http;
  requires com.fasterxml.jackson.databind;

  exports dev.secpe.llm.openai;

  provides dev.secpe.llm.spi.TextGeneratorProvider with dev.secpe.llm.openai.OpenAiGeneratorProvider;
  provides dev.secpe.llm.spi.TextEmbedderProvider with dev.secpe.llm.openai.OpenAiEmbedderProvider;
}
