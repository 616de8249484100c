package dev.secpe.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.secpe.llm.spi.Providers;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other half of discovery: on the module path, the {@code provides} clauses of module-info
 * (not META-INF/services) register the providers, and service binding resolves the openai module
 * although nothing requires it. Compiles a tiny module and runs it in a fresh JVM.
 */
class ModulePathTest {

  @TempDir Path tmp;

  @Test
  void providersAreFoundOnTheModulePath() throws Exception {
    Path src = Files.createDirectories(tmp.resolve("src/check/check"));
    Files.writeString(tmp.resolve("src/check/module-info.java"), "module check { requires dev.secpe.llm; }");
    Files.writeString(src.resolve("Main.java"), String.join("\n",
        "package check;",
        "public class Main { public static void main(String[] a) {",
        "  var p = dev.secpe.llm.spi.Providers.installed();",
        "  System.out.println(p + \" \" + p.embedder(\"openai\").getClass().getModule().getName());",
        "} }"));
    String spi = location(Providers.class);
    Path out = tmp.resolve("out");
    int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null,
        "-d", out.toString(), "--module-path", spi, "--module-source-path", tmp.resolve("src").toString(),
        "-m", "check");
    assertThat(rc).isZero();
    String modulePath = String.join(File.pathSeparator, List.of(out.toString(), spi,
        location(OpenAiTextGenerator.class), location(ObjectMapper.class), location(JsonParser.class),
        location(JsonAutoDetect.class)));
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--module-path", modulePath, "-m", "check/check.Main").redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(output).contains("Providers{generators=[openai], embedders=[openai]} dev.secpe.llm.openai");
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
