package dev.secpe.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.secpe.llm.spi.Providers;
import dev.secpe.llm.spi.TextEmbedderProvider;
import dev.secpe.llm.spi.TextGeneratorProvider;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code secpe providers [--json]}: the generator and embedder providers installed. */
@Command(
    name = "providers",
    mixinStandardHelpOptions = true,
    description = "List the installed text generator and embedder providers.")
final class ProvidersCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print JSON: {\"generators\": [...], \"embedders\": [...]}.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Providers providers = Providers.installed();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode root = mapper.createObjectNode();
      ArrayNode gens = root.putArray("generators");
      for (TextGeneratorProvider p : providers.generators()) {
        gens.addObject().put("name", p.name()).put("locality", p.locality().name());
      }
      ArrayNode embs = root.putArray("embedders");
      for (TextEmbedderProvider p : providers.embedders()) {
        embs.addObject().put("name", p.name()).put("locality", p.locality().name());
      }
      out.println(mapper.writeValueAsString(root));
    } else {
      out.println("generators:");
      providers.generators().forEach(p -> out.println("  " + p.name() + " (" + p.locality() + ")"));
      out.println("embedders:");
      providers.embedders().forEach(p -> out.println("  " + p.name() + " (" + p.locality() + ")"));
    }
    out.flush();
    return 0;
  }
}
