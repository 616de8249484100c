/**
 * Providers that need no network and no API key: the in-process all-MiniLM-L6-v2 embedders
 * (fp32 and int8) on ONNX Runtime and the n-gram, splice and guided splice generators trained on public text.
 *
 * <p>The model files are resources of the langchain4j model jars (automatic modules); they are
 * read through the class loader, which sees them on the module path and the class path alike.
 */
module dev.secpe.llm.embedded {
  requires static org.jspecify;
  requires transitive dev.secpe.llm;
  requires dev.secpe.natives;
  requires com.fasterxml.jackson.databind;
  requires com.microsoft.onnxruntime;

  exports dev.secpe.llm.embedded;

  provides dev.secpe.llm.spi.TextEmbedderProvider with
      dev.secpe.llm.embedded.MiniLmEmbedderProvider,
      dev.secpe.llm.embedded.MiniLmQuantizedEmbedderProvider;
  provides dev.secpe.llm.spi.TextGeneratorProvider with
      dev.secpe.llm.embedded.NgramTextGeneratorProvider,
      dev.secpe.llm.embedded.SpliceTextGeneratorProvider,
      dev.secpe.llm.embedded.GuidedSpliceGeneratorProvider;
}
