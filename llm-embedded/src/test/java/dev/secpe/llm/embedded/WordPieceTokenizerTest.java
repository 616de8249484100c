package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pure-Java WordPiece against the reference it replaces: the Hugging Face Rust tokenizer (DJL's
 * binding, as MiniLmEmbedder used it: truncation on, no padding) reading the same tokenizer.json.
 * Every text of the bundled SpamAssassin sample (1,500 e-mails, long ones truncated) and a list of
 * edge cases must give the same ids; plus hand-counted cases that need no reference.
 */
class WordPieceTokenizerTest {

  private static final String JSON = "all-minilm-l6-v2-tokenizer.json";
  private static WordPieceTokenizer ours;
  private static HuggingFaceTokenizer reference;

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in = resource(JSON)) {
      ours = WordPieceTokenizer.fromJson(in);
    }
    try (InputStream in = resource(JSON)) {
      reference = HuggingFaceTokenizer.newInstance(in,
          Map.of("padding", "false", "truncation", "true", "maxLength", "256"));
    }
  }

  @AfterAll
  static void close() {
    reference.close();
  }

  private static InputStream resource(String name) {
    InputStream in = WordPieceTokenizerTest.class.getClassLoader().getResourceAsStream(name);
    assertThat(in).as(name).isNotNull();
    return in;
  }

  private static void assertSame(String text) {
    long[] want = reference.encode(text).getIds();
    long[] got = ours.encode(text, 256);
    assertThat(got).as("ids of %s", abbreviate(text)).containsExactly(want);
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }

  @Test
  void sameIdsAsTheRustTokenizerOnTheBundledCorpus() throws IOException {
    Path sample = Path.of("..", "data", "spamassassin-sample.jsonl.gz");
    ObjectMapper json = new ObjectMapper();
    List<String> texts = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(sample)), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        JsonNode rec = json.readTree(line);
        texts.add(rec.path("subject").asText() + "\n" + rec.path("text").asText());
      }
    }
    assertThat(texts).hasSize(1500);
    int truncated = 0;
    for (String t : texts) {
      assertSame(t);
      if (ours.encode(t, 256).length == 256) {
        truncated++;
      }
    }
    // the comparison covered the truncation path as well as short texts
    assertThat(truncated).isBetween(100, 1400);
  }

  @Test
  void sameIdsAsTheRustTokenizerOnEdgeCases() {
    String longWord = "a".repeat(101);
    List<String> cases = List.of(
        "", " ", "Hello, World!", "Hey friend!     How are you?!?",
        "naïve café résumé Ångström İstanbul ÉCOLE", "Straße ǅemal ﬁne",
        "野口里佳 Noguchi Rika", "한국어 텍스트 日本語のテキスト", "\uF900\uFA0E compat",
        "tab\there\nnew\r\nline\u000Bvt\u000Cff\u0085nel\u00A0nbsp\u2003em\u3000ideo",
        "zero\u200Bwidth soft\u00ADhyphen bom\uFEFF rtl\u200F nul\u0000x repl\uFFFDx",
        "unassigned\uDAC3\uDE39x \u0378 private\uE000use emoji 😀👍🏽 family 👨‍👩‍👧 flags 🇫🇷",
        "$100 + 5% = <tag> ^caret `tick` |pipe| ~tilde @at #hash & * _under_",
        "«quotes» „low“ ‘single’ — dash – en ¿qué? ¡sí! 。、「」",
        "ΣΊΣΥΦΟΣ σίσυφος ΟΔΥΣΣΕΥΣ", "unaffable unbelievable antidisestablishmentarianism",
        longWord, "a".repeat(100), "xqzjvkw xqzjvkwxqzjvkw",
        "[CLS] inside [SEP] text [MASK] and [UNK] [PAD]", "[cls] lower [SEP][SEP]x",
        "e-mail user@example.com http://www.example.com/a?b=c&d=e 555-123-4567",
        "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３", "x".repeat(3000) + " y", "word ".repeat(400));
    for (String c : cases) {
      assertSame(c);
    }
  }

  @Test
  void handCountedIds() throws IOException {
    // vocabulary ids read from the file itself, so these checks need no tokenizer
    JsonNode vocab;
    try (InputStream in = resource(JSON)) {
      vocab = new ObjectMapper().readTree(in).path("model").path("vocab");
    }
    long cls = vocab.get("[CLS]").asLong();
    long sep = vocab.get("[SEP]").asLong();
    long unk = vocab.get("[UNK]").asLong();
    assertThat(ours.encode("", 256)).containsExactly(cls, sep);
    // lower-cased, accent stripped, punctuation split off
    assertThat(ours.encode("Café!", 256))
        .containsExactly(cls, vocab.get("cafe").asLong(), vocab.get("!").asLong(), sep);
    // a word longer than max_input_chars_per_word (100) is one unknown token
    assertThat(ours.encode("a".repeat(101), 256)).containsExactly(cls, unk, sep);
    // truncation keeps [CLS], the first maxLength - 2 pieces and [SEP]
    long the = vocab.get("the").asLong();
    assertThat(ours.encode("the the the the the", 5)).containsExactly(cls, the, the, the, sep);
    // a special token in the text keeps its id instead of being split as punctuation
    assertThat(ours.encode("the [SEP] the", 256)).containsExactly(cls, the, sep, the, sep);
  }

  @Test
  void refusesAnotherPipelineNamingTheField() throws IOException {
    String json;
    try (InputStream in = resource(JSON)) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String cased = json.replaceFirst("\"lowercase\":\\s*true", "\"lowercase\": false");
    assertThat(cased).isNotEqualTo(json);
    assertThatThrownBy(() -> WordPieceTokenizer.fromJson(
        new ByteArrayInputStream(cased.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("normalizer.lowercase");
    String bpe = json.replaceFirst("\"type\":\\s*\"WordPiece\",\\s*\"unk_token\"", "\"type\": \"BPE\", \"unk_token\"");
    assertThat(bpe).isNotEqualTo(json);
    assertThatThrownBy(() -> WordPieceTokenizer.fromJson(
        new ByteArrayInputStream(bpe.getBytes(StandardCharsets.UTF_8))))
        .hasMessageContaining("model.type must be WordPiece");
    assertThatThrownBy(() -> ours.encode("x", 1)).hasMessageContaining("maxLength=1");
    assertThat(Arrays.toString(ours.encode("x", 2))).isEqualTo(
        Arrays.toString(new long[] {ours.encode("", 2)[0], ours.encode("", 2)[1]}));
  }
}
