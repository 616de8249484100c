package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class JsonOutTest {

  @Test
  void aFigureThatCouldNotBeComputedIsNullNotNaN() {
    CommandLine cl = SecpeCli.commandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("epsilon_fixed_interval_1e-3", Double.NaN);
    row.put("sigma", 0.5);
    row.put("rows", List.of(Map.of("gap", Double.NaN)));

    JsonOut.print(cl.getCommandSpec(), row);

    assertThat(out.toString().strip())
        .isEqualTo("{\"epsilon_fixed_interval_1e-3\":null,\"sigma\":0.5,\"rows\":[{\"gap\":null}]}");
  }

  @Test
  void nanIsNullInsideArraysTreesAndPrimitiveArraysToo() {
    ObjectNode tree = JsonOut.MAPPER.createObjectNode();
    tree.putArray("fid_per_round").add(0.5).add(Double.NaN).add(Float.NaN);
    tree.put("kid", Double.NaN);
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("doubles", new double[] {1.5, Double.NaN, -0.0});
    row.put("floats", new float[] {Float.NaN, 2.5f});
    row.put("boxed", List.of(Double.NaN, 2.0));
    row.put("tree", tree);

    assertThat(JsonOut.write(row))
        .isEqualTo("{\"doubles\":[1.5,null,-0.0],\"floats\":[null,2.5],\"boxed\":[null,2.0],"
            + "\"tree\":{\"fid_per_round\":[0.5,null,null],\"kid\":null}}");
  }

  @Test
  void aTreePrintedByACommandHasNoNaNEither() {
    CommandLine cl = SecpeCli.commandLine();
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    ObjectNode tree = JsonOut.MAPPER.createObjectNode();
    tree.putArray("xs").add(Double.NaN).add(1.0);

    JsonOut.print(cl.getCommandSpec(), tree);

    assertThat(out.toString().strip()).isEqualTo("{\"xs\":[null,1.0]}");
  }

  @Test
  void aPrettyPrintedFileAsTheDemoWritesHasNoNaN(@TempDir Path dir) throws Exception {
    ObjectNode root = JsonOut.MAPPER.createObjectNode();
    root.putArray("kid_per_round").add(Double.NaN).add(0.25);
    Path file = dir.resolve("results.json");

    JsonOut.MAPPER.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);

    assertThat(Files.readString(file)).doesNotContain("NaN");
    assertThat(JsonOut.MAPPER.readTree(file.toFile()).get("kid_per_round").get(0).isNull()).isTrue();
    assertThat(JsonOut.MAPPER.readTree(file.toFile()).get("kid_per_round").get(1).asDouble()).isEqualTo(0.25);
  }
}
