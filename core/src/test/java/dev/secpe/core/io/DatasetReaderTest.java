package dev.secpe.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.secpe.core.Label;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateText;
import dev.secpe.core.PublicCorpus;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetReaderTest {

  /** A string that must never appear in an error message. */
  private static final String PLANTED = "PLANTED-Zq9 patient John Roe SSN 078-05-1120";

  @TempDir Path dir;

  private Path write(String name, String content) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  @Test
  void readsJsonlWithCustomFields() throws IOException {
    Path f =
        write(
            "d.jsonl",
            "{\"uid\": \"a\", \"body\": \"first mail\", \"cls\": \"spam\"}\n"
                + "\n"
                + "{\"uid\": 7, \"body\": \"second\", \"cls\": 3, \"extra\": [1,2]}\n");
    PrivateDataset d =
        DatasetReader.builder().textField("body").labelField("cls").idField("uid").build().readPrivate(f);
    assertThat(d.size()).isEqualTo(2);
    assertThat(d.get(0).id()).isEqualTo("a");
    assertThat(d.get(1).id()).isEqualTo("7");
    assertThat(d.get(0).label()).contains(Label.of("spam"));
    assertThat(d.get(1).label()).contains(Label.of("3"));
    assertThat(d.get(0).text()).isEqualTo(PrivateText.of("first mail"));
    assertThat(d.isLabelled()).isTrue();
  }

  @Test
  void idsDefaultToLineNumbers() throws IOException {
    Path f = write("d.jsonl", "{\"text\": \"x\"}\n\n{\"text\": \"y\"}\n");
    PublicCorpus c = DatasetReader.defaults().readPublic(f);
    assertThat(c.records()).extracting(r -> r.id()).containsExactly("line-1", "line-3");
    assertThat(c.texts()).containsExactly("x", "y");
  }

  @Test
  void invalidJsonNamesTheLineButNeverQuotesIt() throws IOException {
    Path f =
        write(
            "p.jsonl",
            "{\"text\": \"fine\"}\n{\"text\": \"fine too\"}\n{\"text\": \"" + PLANTED + "\" oops}\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(f))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageStartingWith(f + ": line 3: not valid JSON")
        .hasMessageNotContaining("PLANTED")
        .hasMessageNotContaining("John")
        .hasNoCause();
    // An unquoted private token makes Jackson name the token in its own message.
    Path g = write("q.jsonl", "{\"text\": PLANTEDtoken}\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(g))
        .hasMessageContaining("line 1: not valid JSON")
        .hasMessageNotContaining("PLANTED");
  }

  @Test
  void missingOrMistypedTextNamesLineAndField() throws IOException {
    Path f =
        write(
            "p.jsonl",
            "{\"body\": \"ok\"}\n{\"body\": \"ok\"}\n{\"title\": \"" + PLANTED + "\"}\n");
    DatasetReader r = DatasetReader.builder().textField("body").build();
    assertThatThrownBy(() -> r.readPrivate(f))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessage(f + ": line 3: field 'body' missing, null or blank")
        .satisfies(
            e -> {
              DatasetFormatException d = (DatasetFormatException) e;
              assertThat(d.line()).isEqualTo(3);
              assertThat(d.field()).contains("body");
            });
    Path g = write("n.jsonl", "{\"body\": {\"nested\": \"" + PLANTED + "\"}}\n");
    assertThatThrownBy(() -> r.readPrivate(g))
        .hasMessage(g + ": line 1: field 'body' is not a string (got object)");
    Path h = write("a.jsonl", "[\"" + PLANTED + "\"]\n");
    assertThatThrownBy(() -> r.readPrivate(h))
        .hasMessage(h + ": line 1: expected a JSON object, got array");
  }

  @Test
  void missingLabelIsAnErrorWhenALabelFieldIsSet() throws IOException {
    Path f = write("p.jsonl", "{\"text\": \"a\", \"label\": \"x\"}\n{\"text\": \"" + PLANTED + "\"}\n");
    assertThatThrownBy(() -> DatasetReader.builder().labelField("label").build().readPrivate(f))
        .hasMessageStartingWith(f + ": line 2: field 'label' missing")
        .hasMessageNotContaining("PLANTED");
  }

  @Test
  void skipPolicySkipsRecordsWithoutTextAndReportsTheirLines() throws IOException {
    Path f =
        write(
            "p.jsonl",
            "{\"text\": \"a\"}\n{\"text\": null}\n{\"text\": \"   \"}\n{\"other\": 1}\n{\"text\": \"b\"}\n");
    List<Integer> skipped = new ArrayList<>();
    PrivateDataset d =
        DatasetReader.builder()
            .missingText(MissingTextPolicy.SKIP)
            .onSkipped(skipped::add)
            .build()
            .readPrivate(f);
    assertThat(d.size()).isEqualTo(2);
    assertThat(skipped).containsExactly(2, 3, 4);
    // Text of the wrong type is never "missing": it is always an error.
    Path g = write("t.jsonl", "{\"text\": 12}\n");
    assertThatThrownBy(
            () -> DatasetReader.builder().missingText(MissingTextPolicy.SKIP).build().readPrivate(g))
        .hasMessageContaining("field 'text' is not a string (got number)");
  }

  @Test
  void emptyPrivateSetIsRejected() throws IOException {
    Path f = write("e.jsonl", "\n\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(f))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("private dataset must not be empty");
    Path g = write("s.jsonl", "{\"text\": \"\"}\n");
    assertThatThrownBy(
            () -> DatasetReader.builder().missingText(MissingTextPolicy.SKIP).build().readPrivate(g))
        .hasMessageContaining("no records with text");
    assertThat(DatasetReader.defaults().readPublic(f).isEmpty()).isTrue();
  }

  @Test
  void duplicateIdsNameBothLines() throws IOException {
    Path f = write("d.jsonl", "{\"id\": \"x\", \"text\": \"a\"}\n{\"id\": \"x\", \"text\": \"" + PLANTED + "\"}\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(f))
        .hasMessage(f + ": line 2: duplicate id (first used on line 1)");
  }

  @Test
  void trailingGarbageOnALineIsAnError() throws IOException {
    Path f = write("d.jsonl", "{\"text\": \"a\"} {\"text\": \"" + PLANTED + "\"}\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(f))
        .hasMessageContaining("line 1: not valid JSON")
        .hasMessageNotContaining("PLANTED");
  }

  @Test
  void readsGzipByContentAndCsvWithQuotedMultiLineFields() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write("{\"text\": \"zipped\"}\n".getBytes(StandardCharsets.UTF_8));
    }
    Path z = dir.resolve("z.jsonl.gz");
    Files.write(z, bytes.toByteArray());
    assertThat(DatasetReader.defaults().readPublic(z).texts()).containsExactly("zipped");

    Path c =
        write(
            "d.csv",
            "id,text,label\n1,plain,ham\n2,\"quoted, with comma\nand a newline\",spam\n3,\"say \"\"hi\"\"\",ham\n");
    PublicCorpus pc = DatasetReader.builder().labelField("label").build().readPublic(c);
    assertThat(pc.texts())
        .containsExactly("plain", "quoted, with comma\nand a newline", "say \"hi\"");
    assertThat(pc.records().get(1).label()).contains(Label.of("spam"));
  }

  @Test
  void aByteOrderMarkIsIgnored() throws IOException {
    Path c = write("bom.csv", "\uFEFFid,text\n1,hello\n");
    assertThat(DatasetReader.defaults().readPublic(c).records().get(0).id()).isEqualTo("1");
    Path j = write("bom.jsonl", "\uFEFF{\"text\": \"hi\"}\n");
    assertThat(DatasetReader.defaults().readPublic(j).texts()).containsExactly("hi");
  }

  @Test
  void csvErrorsNameLineAndField() throws IOException {
    Path noColumn = write("a.csv", "id,body\n1,x\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(noColumn))
        .hasMessage(noColumn + ": line 1: header has no column 'text'; columns: [id, body]");
    Path missing = write("b.csv", "id,text\n1,ok\n2,\n3,\"" + PLANTED + "\"\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(missing))
        .hasMessage(missing + ": line 3: field 'text' missing, null or blank");
    Path broken = write("c.csv", "id,text\n1,ok\n2,\"" + PLANTED + "\n");
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(broken))
        .isInstanceOf(DatasetFormatException.class)
        .hasMessageContaining("malformed CSV")
        .hasMessageNotContaining("PLANTED");
  }

  @Test
  void streamsAndFormatChecks() {
    byte[] data = "{\"text\": \"s\"}\n".getBytes(StandardCharsets.UTF_8);
    PrivateDataset d =
        DatasetReader.defaults()
            .readPrivate(new ByteArrayInputStream(data), "stdin", DatasetReader.Format.JSONL);
    assertThat(d.size()).isEqualTo(1);
    assertThatThrownBy(() -> DatasetReader.defaults().readPrivate(Path.of("data.txt")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot tell the format of 'data.txt'");
    assertThatThrownBy(() -> DatasetReader.builder().textField("x").labelField("x").build())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> DatasetReader.builder().textField(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("textField must not be blank");
  }
}
