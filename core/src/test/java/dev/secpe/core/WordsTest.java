package dev.secpe.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one tokenizer: words are runs of letters, lower-cased, each with where it stands. */
class WordsTest {

  @Test
  void eachWordComesWithItsPlaceInTheText() {
    String text = "Don't e-mail Ünïcode, 42x!";
    List<String> spans = new ArrayList<>();
    Words.forEachSpan(text, (w, start, end) -> spans.add(w + "@" + start + "-" + end + "=" + text.substring(start, end)));
    // By hand: D0 o1 n2 '3 t4 _5 e6 -7 m8 a9 i10 l11 _12 Ü13 n14 ï15 c16 o17 d18 e19 ,20 _21 4 2 x24 !25
    assertThat(spans).containsExactly(
        "don@0-3=Don", "t@4-5=t", "e@6-7=e", "mail@8-12=mail", "ünïcode@13-20=Ünïcode", "x@24-25=x");
    assertThat(Words.of(text)).containsExactly("don", "t", "e", "mail", "ünïcode", "x");
    assertThat(Words.count(text)).isEqualTo(6);
  }

  @Test
  void aLetterOutsideTheBasicPlaneIsOneLetterOfTwoChars() {
    String text = "a 𝔘b";  // U+1D518, a letter, two UTF-16 chars
    List<String> spans = new ArrayList<>();
    Words.forEachSpan(text, (w, start, end) -> spans.add(start + "-" + end));
    assertThat(spans).containsExactly("0-1", "2-5");
  }
}
