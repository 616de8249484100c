package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
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
}
