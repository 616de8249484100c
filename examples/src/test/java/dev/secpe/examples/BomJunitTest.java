package dev.secpe.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM pins JUnit (Jupiter and the Platform) at the version the testkit is built with, the
 * parent's {@code junit.version}: a user who imports the BOM and adds {@code secpe-llm-testkit}
 * must not get jqwik's older Platform beside the newer Jupiter (which fails to start).
 */
class BomJunitTest {

  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

  @Test
  void bomPinsTheJunitTheTestkitIsBuiltWith() throws IOException {
    String parent = Files.readString(ROOT.resolve("pom.xml"));
    String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
    Matcher m = Pattern.compile("<junit.version>5\\.(\\d+\\.\\d+)</junit.version>").matcher(parent);
    assertThat(m.find()).as("the parent's junit.version").isTrue();
    String jupiter = "5." + m.group(1);
    String platform = "1." + m.group(1); // JUnit 5.x.y runs on Platform 1.x.y
    for (String a : new String[] {"junit-platform-engine", "junit-platform-commons", "junit-platform-launcher"}) {
      assertThat(bom).contains("<artifactId>" + a + "</artifactId><version>" + platform + "</version>");
    }
    for (String a : new String[] {"junit-jupiter", "junit-jupiter-api", "junit-jupiter-engine", "junit-jupiter-params"}) {
      assertThat(bom).contains("<artifactId>" + a + "</artifactId><version>" + jupiter + "</version>");
    }
  }
}
