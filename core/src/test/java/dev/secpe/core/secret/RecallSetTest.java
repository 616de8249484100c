package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The shipped recall set is what {@link RecallSetGenerator} writes, and is big enough. */
class RecallSetTest {

  @Test
  void theShippedSetIsTheGeneratorsOutput() throws IOException {
    String generated = RecallSetGenerator.generate();
    if (Boolean.getBoolean("recall.regenerate")) {
      // Run from core/ by Surefire: write the source resource, not target/test-classes.
      Files.writeString(
          Path.of("src/test/resources" + RecallSet.RESOURCE), generated, StandardCharsets.UTF_8);
    }
    if (!Boolean.getBoolean("recall.regenerate")) {
      String shipped;
      try (InputStream in = RecallSetTest.class.getResourceAsStream(RecallSet.RESOURCE)) {
        assertThat(in).as("test resource " + RecallSet.RESOURCE).isNotNull();
        shipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(shipped)
          .as("regenerate with -Drecall.regenerate=true (RecallSetGenerator's javadoc)")
          .isEqualTo(generated);
    }
    RecallSet set = RecallSet.parse(new ByteArrayInputStream(generated.getBytes(StandardCharsets.UTF_8)));
    assertThat(set.items()).hasSizeGreaterThanOrEqualTo(500);
    Map<String, Integer> perKind = new TreeMap<>();
    for (RecallSet.Item i : set.items()) {
      perKind.merge(i.familyKind(), 1, Integer::sum);
      if (!i.spans().isEmpty()) {
        assertThat(i.spans()).as(i.family()).anyMatch(s -> s.kind().equals(i.familyKind()));
      }
    }
    // Every kind the built-in detectors name has positives and near misses.
    for (String kind : new String[] {"email", "phone", "url", "ipv4", "ipv6", "card", "name"}) {
      assertThat(perKind.get(kind)).as(kind).isGreaterThanOrEqualTo(20);
      assertThat(set.items()).as(kind + " near misses")
          .anyMatch(i -> i.family().equals(kind + "/near-miss") && i.spans().isEmpty());
    }
  }
}
