package dev.secpe.llm.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * BERT's uncased WordPiece tokenizer in plain Java, configured from a Hugging Face {@code
 * tokenizer.json}: the one all-MiniLM-L6-v2 uses. It replaces the Hugging Face Rust tokenizer
 * (DJL's {@code ai.djl.huggingface:tokenizers}, 18 MB of natives for four platforms, and a
 * download at run time on the others), producing the same ids; {@code WordPieceTokenizerTest}
 * compares the two on the bundled corpus and on edge cases.
 *
 * <p>The pipeline, as the file declares it:
 *
 * <ol>
 *   <li>the special tokens ({@code added_tokens}, matched on the raw text) are cut out and map to
 *       their ids directly;
 *   <li>{@code BertNormalizer}: control characters (Unicode Cc, Cf and Co except tab, line feed
 *       and carriage return), NUL and U+FFFD are dropped and Unicode white space becomes a
 *       space; CJK ideographs are surrounded by spaces; accents are stripped (NFD, then non-spacing
 *       marks dropped); the text is lower-cased code point by code point;
 *   <li>{@code BertPreTokenizer}: split on white space (dropped) and on punctuation (ASCII
 *       punctuation and Unicode P*, each kept as its own word);
 *   <li>{@code WordPiece}: each word becomes its longest vocabulary prefix, then the longest
 *       {@code ##}-continuation, and so on; a word that cannot be covered, or is longer than {@code
 *       max_input_chars_per_word}, becomes the unknown token;
 *   <li>the word pieces are cut to {@code maxLength - 2} and framed by {@code [CLS]} and {@code
 *       [SEP]} ({@code TemplateProcessing}; every type id is 0).
 * </ol>
 *
 * <p>A file that asks for anything else (another normalizer, cased text, a pair template) is
 * refused, naming the field. Immutable and thread-safe.
 */
final class WordPieceTokenizer {

  private final Map<String, Integer> vocab;
  private final Map<String, Integer> specials; // added special tokens, matched on raw text
  private final int unkId;
  private final int clsId;
  private final int sepId;
  private final String continuation;
  private final int maxCharsPerWord;

  private WordPieceTokenizer(Map<String, Integer> vocab, Map<String, Integer> specials,
      String unk, String continuation, int maxCharsPerWord) {
    this.vocab = vocab;
    this.specials = specials;
    this.unkId = id(vocab, unk, "model.unk_token");
    this.clsId = id(vocab, "[CLS]", "post_processor");
    this.sepId = id(vocab, "[SEP]", "post_processor");
    this.continuation = continuation;
    this.maxCharsPerWord = maxCharsPerWord;
  }

  private static int id(Map<String, Integer> vocab, String token, String field) {
    Integer id = vocab.get(token);
    if (id == null) {
      throw new IllegalArgumentException(field + ": token " + token + " is not in the vocabulary");
    }
    return id;
  }

  /**
   * Reads a Hugging Face {@code tokenizer.json}.
   *
   * @throws IllegalArgumentException if the file describes a different pipeline (the message
   *     names the field and its value)
   */
  static WordPieceTokenizer fromJson(InputStream json) throws IOException {
    JsonNode root = new ObjectMapper().readTree(json);
    JsonNode norm = root.path("normalizer");
    expect(norm, "type", "BertNormalizer", "normalizer");
    expectFlag(norm, "clean_text", true);
    expectFlag(norm, "handle_chinese_chars", true);
    expectFlag(norm, "lowercase", true);
    JsonNode strip = norm.path("strip_accents");
    if (!(strip.isNull() || strip.isMissingNode() || strip.asBoolean(false))) {
      throw new IllegalArgumentException("normalizer.strip_accents must be null or true, got " + strip);
    }
    expect(root.path("pre_tokenizer"), "type", "BertPreTokenizer", "pre_tokenizer");
    JsonNode model = root.path("model");
    expect(model, "type", "WordPiece", "model");
    JsonNode post = root.path("post_processor");
    expect(post, "type", "TemplateProcessing", "post_processor");
    String single = post.path("single").toString();
    String want = "[{\"SpecialToken\":{\"id\":\"[CLS]\",\"type_id\":0}},{\"Sequence\":{\"id\":\"A\",\"type_id\":0}},"
        + "{\"SpecialToken\":{\"id\":\"[SEP]\",\"type_id\":0}}]";
    if (!single.equals(want)) {
      throw new IllegalArgumentException("post_processor.single must be [CLS] A [SEP], got " + single);
    }

    Map<String, Integer> vocab = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = model.path("vocab").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      vocab.put(e.getKey(), e.getValue().intValue());
    }
    if (vocab.isEmpty()) {
      throw new IllegalArgumentException("model.vocab is empty or missing");
    }
    Map<String, Integer> specials = new LinkedHashMap<>();
    for (JsonNode t : root.path("added_tokens")) {
      if (t.path("normalized").asBoolean(true) || t.path("single_word").asBoolean(false)
          || t.path("lstrip").asBoolean(false) || t.path("rstrip").asBoolean(false)) {
        throw new IllegalArgumentException(
            "added_tokens: only raw, exact-match tokens are supported, got " + t);
      }
      specials.put(t.path("content").asText(), t.path("id").intValue());
    }
    int maxChars = model.path("max_input_chars_per_word").asInt(100);
    return new WordPieceTokenizer(vocab, specials, model.path("unk_token").asText("[UNK]"),
        model.path("continuing_subword_prefix").asText("##"), maxChars);
  }

  private static void expect(JsonNode node, String field, String value, String where) {
    String got = node.path(field).asText(null);
    if (!value.equals(got)) {
      throw new IllegalArgumentException(where + "." + field + " must be " + value + ", got " + got);
    }
  }

  private static void expectFlag(JsonNode node, String field, boolean value) {
    JsonNode got = node.path(field);
    if (!got.isBoolean() || got.booleanValue() != value) {
      throw new IllegalArgumentException("normalizer." + field + " must be " + value + ", got " + got);
    }
  }

  /**
   * The token ids of {@code text}: {@code [CLS]}, at most {@code maxLength - 2} word pieces,
   * {@code [SEP]}.
   *
   * @param maxLength at least 2
   */
  long[] encode(String text, int maxLength) {
    Objects.requireNonNull(text, "text");
    if (maxLength < 2) {
      throw new IllegalArgumentException("maxLength must be >= 2, got maxLength=" + maxLength);
    }
    int budget = maxLength - 2;
    List<Integer> pieces = new ArrayList<>();
    int from = 0;
    while (from <= text.length() && pieces.size() < budget) {
      int[] hit = nextSpecial(text, from); // {start, end, id} or null
      int end = hit == null ? text.length() : hit[0];
      if (end > from) {
        for (String word : preTokenize(normalize(text.substring(from, end)))) {
          wordPieces(word, pieces);
        }
      }
      if (hit == null) {
        break;
      }
      pieces.add(hit[2]);
      from = hit[1];
    }
    int n = Math.min(budget, pieces.size());
    long[] ids = new long[n + 2];
    ids[0] = clsId;
    for (int i = 0; i < n; i++) {
      ids[i + 1] = pieces.get(i);
    }
    ids[n + 1] = sepId;
    return ids;
  }

  /** The leftmost (then longest) special token at or after {@code from}. */
  private int[] nextSpecial(String text, int from) {
    int[] best = null;
    for (Map.Entry<String, Integer> s : specials.entrySet()) {
      int at = text.indexOf(s.getKey(), from);
      if (at >= 0) {
        int end = at + s.getKey().length();
        if (best == null || at < best[0] || (at == best[0] && end > best[1])) {
          best = new int[] {at, end, s.getValue()};
        }
      }
    }
    return best;
  }

  /** BertNormalizer: clean, space out CJK, strip accents, lower-case. */
  static String normalize(String s) {
    StringBuilder clean = new StringBuilder(s.length() + 8);
    s.codePoints().forEach(cp -> {
      if (cp == 0 || cp == 0xFFFD || isControl(cp)) {
        return;
      }
      if (isWhiteSpace(cp)) {
        clean.append(' ');
      } else if (isCjk(cp)) {
        clean.append(' ').appendCodePoint(cp).append(' ');
      } else {
        clean.appendCodePoint(cp);
      }
    });
    String decomposed = Normalizer.normalize(clean, Normalizer.Form.NFD);
    StringBuilder out = new StringBuilder(decomposed.length());
    decomposed.codePoints().forEach(cp -> {
      if (Character.getType(cp) != Character.NON_SPACING_MARK) {
        out.appendCodePoint(Character.toLowerCase(cp));
      }
    });
    return out.toString();
  }

  /** BertPreTokenizer: words split on white space (dropped) and punctuation (kept alone). */
  static List<String> preTokenize(String s) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    s.codePoints().forEach(cp -> {
      if (isWhiteSpace(cp) || isPunctuation(cp)) {
        if (word.length() > 0) {
          words.add(word.toString());
          word.setLength(0);
        }
        if (!isWhiteSpace(cp)) {
          words.add(new String(Character.toChars(cp)));
        }
      } else {
        word.appendCodePoint(cp);
      }
    });
    if (word.length() > 0) {
      words.add(word.toString());
    }
    return words;
  }

  /** Greedy longest-match-first WordPiece; the whole word is the unknown token if any part fails. */
  private void wordPieces(String word, List<Integer> out) {
    int[] cps = word.codePoints().toArray();
    if (cps.length > maxCharsPerWord) {
      out.add(unkId);
      return;
    }
    int mark = out.size();
    int start = 0;
    while (start < cps.length) {
      Integer found = null;
      int end = cps.length;
      for (; end > start; end--) {
        String sub = new String(cps, start, end - start);
        found = vocab.get(start > 0 ? continuation + sub : sub);
        if (found != null) {
          break;
        }
      }
      if (found == null) {
        out.subList(mark, out.size()).clear();
        out.add(unkId);
        return;
      }
      out.add(found);
      start = end;
    }
  }

  /**
   * Unicode Cc, Cf and Co, as the Rust tokenizer counts them; tab, line feed and carriage return
   * count as white space instead. Unassigned code points (Cn) are kept, as the reference keeps them
   * (they make their word unknown). A lone surrogate, which UTF-8 cannot carry to the reference, is
   * dropped like U+FFFD.
   */
  private static boolean isControl(int cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r') {
      return false;
    }
    int t = Character.getType(cp);
    return t == Character.CONTROL || t == Character.FORMAT || t == Character.PRIVATE_USE
        || t == Character.SURROGATE;
  }

  /**
   * The Unicode White_Space property (not {@link Character#isWhitespace}, which leaves out the
   * no-break spaces and counts the information separators U+001C..U+001F).
   */
  static boolean isWhiteSpace(int cp) {
    return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680
        || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F
        || cp == 0x205F || cp == 0x3000;
  }

  /** ASCII punctuation (symbols such as $, + and ~ included) and Unicode categories P*. */
  static boolean isPunctuation(int cp) {
    if ((cp >= 0x21 && cp <= 0x2F) || (cp >= 0x3A && cp <= 0x40) || (cp >= 0x5B && cp <= 0x60)
        || (cp >= 0x7B && cp <= 0x7E)) {
      return true;
    }
    int t = Character.getType(cp);
    return t == Character.CONNECTOR_PUNCTUATION || t == Character.DASH_PUNCTUATION
        || t == Character.START_PUNCTUATION || t == Character.END_PUNCTUATION
        || t == Character.INITIAL_QUOTE_PUNCTUATION || t == Character.FINAL_QUOTE_PUNCTUATION
        || t == Character.OTHER_PUNCTUATION;
  }

  /** The CJK ideograph blocks BERT spaces out. */
  private static boolean isCjk(int cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF)
        || (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F)
        || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B920 && cp <= 0x2CEAF)
        || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
  }
}
