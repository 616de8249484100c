package dev.secpe.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.io.DatasetReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/secpe run} ignored a {@code label} field silently unless {@code --label-field} was
 * given: it now says so on stderr, naming the field and never a value.
 */
class RunLabelFieldHintTest {

  @TempDir Path dir;

  @Test
  void aLabelFieldWithoutLabelFieldGetsAHintNamingNoValue() throws Exception {
    Path priv = Files.writeString(dir.resolve("p.jsonl"), "{\"text\":\"secret words here\",\"label\":\"topsecret\"}\n");
    Path pub = Files.writeString(dir.resolve("pub.jsonl"), "{\"text\":\"public words\"}\n");
    RunCommand c = new RunCommand();
    c.privateFile = priv;
    c.publicFile = pub;
    c.format = "auto";
    String err = hint(c);
    assertThat(err).contains("--private records have a 'label' field").contains("--label-field label")
        .doesNotContain("topsecret").doesNotContain("secret words");
    c.labelField = "label";
    assertThat(hint(c)).isEmpty();
  }

  @Test
  void csvHeadersAndFilesWithoutTheFieldAreRead() throws Exception {
    Path csv = Files.writeString(dir.resolve("p.csv"), "text,\"label\"\nhello,a\n");
    Path plain = Files.writeString(dir.resolve("q.jsonl"), "\n{\"text\":\"x\",\"labels\":1}\n");
    assertThat(RunChecks.hasLabelField(csv, DatasetReader.Format.AUTO)).isTrue();
    assertThat(RunChecks.hasLabelField(plain, DatasetReader.Format.AUTO)).isFalse();
    assertThat(RunChecks.hasLabelField(dir.resolve("missing.jsonl"), DatasetReader.Format.AUTO)).isFalse();
    RunCommand c = new RunCommand();
    c.privateFile = plain;
    c.format = "auto";
    assertThat(hint(c)).isEmpty();
  }

  private static String hint(RunCommand c) {
    StringWriter text = new StringWriter();
    try (PrintWriter err = new PrintWriter(text)) {
      RunChecks.labelFieldHint(c, err);
    }
    return text.toString();
  }
}
