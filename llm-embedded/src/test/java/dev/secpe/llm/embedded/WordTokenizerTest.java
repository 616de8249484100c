package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class WordTokenizerTest {

  @Test
  void keepsEmailsUrlsNumbersAndContractionsWhole() {
    assertThat(WordTokenizer.tokenize(
            "Mail Jane.Doe+spam@mail.example.co.uk, or call +1 555-0100 at 10:30; it's 12.5% off!"))
        .containsExactly("Mail", "Jane.Doe+spam@mail.example.co.uk", ",", "or", "call", "+1",
            "555-0100", "at", "10:30", ";", "it's", "12.5%", "off", "!");
    assertThat(WordTokenizer.tokenize("See https://example.org/a?b=1. Then www.test.com..."))
        .containsExactly("See", "https://example.org/a?b=1", ".", "Then", "www.test.com", "...");
    assertThat(WordTokenizer.tokenize("A well-known café (Zürich) 2024/03/01"))
        .containsExactly("A", "well-known", "café", "(", "Zürich", ")", "2024/03/01");
  }

  @Test
  void detokenizeRestoresOrdinarySpacing() {
    for (String s : List.of(
        "Hello, world! How are you?",
        "The price (in euros) is 12.5% higher: see \"the report\" today.",
        "Write to bob@example.com; it's fine.",
        "Wait... what?!")) {
      assertThat(WordTokenizer.detokenize(WordTokenizer.tokenize(s))).isEqualTo(s);
    }
  }

  @Test
  void countsWordsAndSentenceEnds() {
    List<String> t = WordTokenizer.tokenize("One two, three. Four!");
    assertThat(WordTokenizer.countWords(t)).isEqualTo(4);
    assertThat(WordTokenizer.endsSentence(".")).isTrue();
    assertThat(WordTokenizer.endsPhrase(",")).isTrue();
  }

  @Property(tries = 200)
  void wordsSeparatedBySpacesRoundTrip(
      @ForAll @Size(min = 1, max = 12) List<@AlphaChars @StringLength(min = 1, max = 8) String> words) {
    String text = String.join(" ", words);
    assertThat(WordTokenizer.tokenize(text)).isEqualTo(words);
    assertThat(WordTokenizer.detokenize(words)).isEqualTo(text);
  }

  @Property(tries = 200)
  void tokensNeverContainWhitespaceAndCoverEveryNonSpaceCharacter(@ForAll String text) {
    List<String> tokens = WordTokenizer.tokenize(text);
    int nonSpace = 0;
    for (int i = 0; i < text.length(); i++) {
      nonSpace += Character.isWhitespace(text.charAt(i)) || Character.isSpaceChar(text.charAt(i)) ? 0 : 1;
    }
    int covered = 0;
    for (String t : tokens) {
      assertThat(t).isNotEmpty().doesNotContainAnyWhitespaces();
      covered += t.length();
    }
    assertThat(covered).isLessThanOrEqualTo(nonSpace);
  }

  @Test
  void repeatedMarksStaySeparateTokensAfterARoundTrip() {
    // Seen in a fill-in: "restaurant" "," "," came back as the single token ",,".
    List<String> tokens = List.of("the", "restaurant", ",", ",", "which", "(", "(", "x", ")", ")", "!", "!!");
    assertThat(WordTokenizer.tokenize(WordTokenizer.detokenize(tokens))).isEqualTo(tokens);
  }

  @Property(tries = 300)
  void punctuationRunsRoundTrip(@ForAll @Size(max = 12) List<@net.jqwik.api.constraints.StringLength(min = 1, max = 3) @net.jqwik.api.constraints.Chars({',', '.', '!', '?', ';', ':', '(', ')', '-'}) String> marks) {
    // Only runs of one mark are tokens: map each generated string to a run of its first char.
    List<String> tokens = marks.stream().map(s -> String.valueOf(s.charAt(0)).repeat(s.length())).toList();
    assertThat(WordTokenizer.tokenize(WordTokenizer.detokenize(tokens))).isEqualTo(tokens);
  }
}
