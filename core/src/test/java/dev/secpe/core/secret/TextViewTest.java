package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.util.VersionInfo;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * The detectors' text view, checked against ICU4J (the reference implementation of Unicode's
 * properties and normalisation forms) code point by code point, and its offsets against spans
 * worked out by hand.
 */
class TextViewTest {

  /** Java 17's Unicode version: the characters every supported JDK knows. */
  private static final VersionInfo JDK_UNICODE = VersionInfo.getInstance(13, 0);

  private static final Normalizer2 NFKC_CF = Normalizer2.getNFKCCasefoldInstance();
  private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();

  private static boolean knownToJdk(int cp) {
    return Character.isDefined(cp)
        && !(cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE)
        && UCharacter.getAge(cp).compareTo(JDK_UNICODE) <= 0;
  }

  @Test
  void ignorablesAreExactlyUnicodesDefaultIgnorableCodePoints() {
    assertThat(differences(UProperty.DEFAULT_IGNORABLE_CODE_POINT, TextView::isIgnorable)).isEmpty();
  }

  @Test
  void whiteSpaceIsExactlyUnicodesWhiteSpace() {
    assertThat(differences(UProperty.WHITE_SPACE, TextView::isWhiteSpace)).isEmpty();
  }

  /** The code points (hex) where {@code ours} and ICU's binary {@code property} disagree. */
  private static List<String> differences(int property, IntPredicate ours) {
    List<String> wrong = new ArrayList<>();
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      if (UCharacter.hasBinaryProperty(cp, property) != ours.test(cp)) {
        wrong.add(Integer.toHexString(cp));
      }
    }
    return wrong;
  }

  @Test
  void aSegmentStartsOnlyWhereIcuHasAnNfkcBoundary() {
    List<String> wrong = new ArrayList<>();
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      if (knownToJdk(cp)
          && !TextView.isIgnorable(cp)
          && !TextView.joinsPrevious(cp)
          && !NFKC.hasBoundaryBefore(cp)) {
        wrong.add(Integer.toHexString(cp));
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * The oracle: Unicode's NFKC_Casefold (which already removes default ignorables), then what the
   * view adds on purpose: the dot above dropped after i and j, dotless ı as i, any whitespace a
   * space, any decimal digit an ASCII one.
   */
  private static String oracle(String s) {
    StringBuilder b = new StringBuilder();
    NFKC_CF
        .normalize(s)
        .codePoints()
        .forEach(
            cp -> {
              if (cp == 0x131) {
                b.append('i');
              } else if (cp >= 0x80 && UCharacter.hasBinaryProperty(cp, UProperty.WHITE_SPACE)) {
                b.append(' ');
              } else if (UCharacter.getType(cp) == UCharacter.DECIMAL_DIGIT_NUMBER) {
                b.append((char) ('0' + UCharacter.digit(cp, 10)));
              } else {
                b.appendCodePoint(cp);
              }
            });
    return NFKC.normalize(b.toString().replace("i\u0307", "i").replace("j\u0307", "j"));
  }

  @Test
  void theViewIdentifiesExactlyTheCodePointsNfkcCasefoldIdentifies() {
    // Same classes, not same strings: ICU folds Cherokee to upper case, the JDK mappings to lower.
    Map<String, String> viewOfOracle = new HashMap<>();
    Map<String, String> oracleOfView = new HashMap<>();
    List<String> wrong = new ArrayList<>();
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      if (!knownToJdk(cp)) {
        continue;
      }
      String s = Character.toString(cp);
      String view = TextView.normalise(s);
      String oracle = oracle(s);
      String v = viewOfOracle.putIfAbsent(oracle, view);
      String o = oracleOfView.putIfAbsent(view, oracle);
      if ((v != null && !v.equals(view)) || (o != null && !o.equals(oracle))) {
        wrong.add(Integer.toHexString(cp));
      }
      if (!TextView.normalise(view).equals(view)) {
        wrong.add("not idempotent: " + Integer.toHexString(cp));
      }
    }
    assertThat(wrong).isEmpty();
  }

  /**
   * Unicode's form for compatibility caseless matching (Unicode 16.0 §3.13, D146): NFKD(fold(NFKD(
   * fold(NFD(X))))). Not NFKC_Casefold or a fold of X as it is: neither is closed under canonical
   * equivalence where U+0345 (ypogegrammeni, a mark that folds to a letter) meets other marks.
   * Applied here to the NFKD of a text: D146 folds U+0345 before it decomposes a halfwidth voiced
   * sound mark (U+FF9E, a letter that decomposes to a mark), so on the text as it is it would
   * order the two differently from its own result on the text's NFKD.
   */
  private static String compatibilityCaseless(String s) {
    String d = Normalizer.normalize(s, Normalizer.Form.NFD);
    d = Normalizer.normalize(UCharacter.foldCase(d, true), Normalizer.Form.NFKD);
    return Normalizer.normalize(UCharacter.foldCase(d, true), Normalizer.Form.NFKD);
  }

  @Test
  void equivalentSpellingsOfRandomTextsHaveOneView() {
    // Letters, marks, jamo, fullwidth, ligatures, ignorables, spaces, digits, Greek, Turkish i.
    int[] alphabet = {
      'a', 'A', 'e', 'E', 'i', 'I', 'j', 's', 'S', ' ', '.', '@', '1', 0xDF, 0x1E9E, 0x17F, 0x130,
      0x131, 0xE9, 0xC9, 0x301, 0x308, 0x307, 0x323, 0x3A3, 0x3C3, 0x3C2, 0x390, 0x1FB3, 0x345,
      0xFB01, 0xFF45, 0xFF20, 0xFF11, 0x663, 0x200B, 0x00AD, 0x200D, 0xFE0F, 0x2060, 0xFEFF, 0xA0,
      0x2003, 0x202F, 0x3000, 0x1100, 0x1161, 0x11A8, 0xAC00, 0xFF76, 0xFF9E, 0x1D400, 0x1F600,
      0x13A0, 0xAB70, 0x1F0, 0x4A, 0x30C
    };
    SplittableRandom rnd = new SplittableRandom(50);
    List<String> wrong = new ArrayList<>();
    for (int trial = 0; trial < 20_000; trial++) {
      StringBuilder b = new StringBuilder();
      int len = 1 + rnd.nextInt(8);
      for (int k = 0; k < len; k++) {
        b.appendCodePoint(alphabet[rnd.nextInt(alphabet.length)]);
      }
      String s = b.toString();
      String view = TextView.normalise(s);
      // The view removes ignorables first: spellings of the text without them are equivalent.
      StringBuilder visible = new StringBuilder();
      s.codePoints()
          .filter(cp -> !UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT))
          .forEach(visible::appendCodePoint);
      String base = visible.toString();
      for (String other :
          List.of(
              base,
              Normalizer.normalize(base, Normalizer.Form.NFD),
              Normalizer.normalize(base, Normalizer.Form.NFC),
              Normalizer.normalize(base, Normalizer.Form.NFKD),
              compatibilityCaseless(Normalizer.normalize(base, Normalizer.Form.NFKD)),
              view)) {
        if (!TextView.normalise(other).equals(view)) {
          wrong.add(hex(s) + " vs " + hex(other));
        }
      }
      TextView mapped = TextView.mapped(s);
      if (!mapped.text().equals(view)) {
        wrong.add("mapped differs: " + hex(s));
      }
      // Each view char comes from a span of the text whose own view holds it; spans never go back.
      int lastFrom = 0;
      for (int k = 0; k < view.length(); k++) {
        int[] sp = span(mapped, k, k + 1);
        if (sp[0] < lastFrom
            || sp[1] <= sp[0]
            || TextView.normalise(s.substring(sp[0], sp[1])).indexOf(view.charAt(k)) < 0) {
          wrong.add("span of view char " + k + ": " + hex(s));
        }
        lastFrom = sp[0];
      }
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void asciiFastPathGivesWhatTheSlowPathGives() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int trial = 0; trial < 5_000; trial++) {
      char[] c = new char[rnd.nextInt(30)];
      for (int k = 0; k < c.length; k++) {
        c[k] = (char) rnd.nextInt(0x80);
      }
      String s = new String(c);
      TextView fast = TextView.of(s);
      TextView slow = TextView.mapped(s);
      assertThat(fast.text()).isEqualTo(slow.text()).isEqualTo(s.toLowerCase(java.util.Locale.ROOT));
      for (int a = 0; a < s.length(); a++) {
        SecretMatch m = new SecretMatch("k", "v", a, a + 1);
        assertThat(slow.toText(m)).isEqualTo(fast.toText(m)).isEqualTo(m);
      }
    }
  }

  @Test
  void offsetsMapBackThroughExpansionsSurrogatesAndIgnorables() {
    // "ﬁ" (1 char) is "fi" in the view: both view chars come from text [0, 1).
    TextView lig = TextView.of("ﬁle x");
    assertThat(lig.text()).isEqualTo("file x");
    assertThat(span(lig, 0, 4)).containsExactly(0, 3); // "file" is "ﬁle"
    assertThat(span(lig, 1, 4)).containsExactly(0, 3); // "ile" starts inside "ﬁ": all of it
    assertThat(span(lig, 5, 6)).containsExactly(4, 5);
    // "ß" (1 char) is "ss"; "STRAẞE" with U+1E9E likewise.
    TextView ss = TextView.of("Straße!");
    assertThat(ss.text()).isEqualTo("strasse!");
    assertThat(span(ss, 0, 7)).containsExactly(0, 6);
    assertThat(span(ss, 7, 8)).containsExactly(6, 7);
    // "İ" (1 char) is "i" (1 char): the folded dot above is dropped.
    TextView dotted = TextView.of("İSTANBUL");
    assertThat(dotted.text()).isEqualTo("istanbul");
    assertThat(span(dotted, 0, 8)).containsExactly(0, 8);
    // Mathematical bold "𝐒𝐄" (2 chars each, surrogate pairs) is "se".
    TextView bold = TextView.of("x 𝐒𝐄𝐂 y");
    assertThat(bold.text()).isEqualTo("x sec y");
    assertThat(span(bold, 2, 5)).containsExactly(2, 8);
    assertThat(span(bold, 6, 7)).containsExactly(9, 10);
    // NFD "e" + U+0301 is one view char "é" from both text chars; a zero-width space inside a word
    // is gone from the view but inside the span; a soft hyphen before a word is outside it.
    TextView nfd = TextView.of("\u00ADJose\u0301 Q\u200Buin");
    assertThat(nfd.text()).isEqualTo("josé quin");
    assertThat(span(nfd, 0, 4)).containsExactly(1, 6);
    assertThat(span(nfd, 5, 9)).containsExactly(7, 12);
    // A no-break space is a space, one char for one.
    TextView nbsp = TextView.of("José\u00A0Q");
    assertThat(nbsp.text()).isEqualTo("josé q");
    assertThat(span(nbsp, 4, 5)).containsExactly(4, 5);
  }

  private static int[] span(TextView view, int start, int end) {
    SecretMatch m = view.toText(new SecretMatch("k", "v", start, end));
    return new int[] {m.start(), m.end()};
  }

  private static String hex(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints().forEach(cp -> b.append(Integer.toHexString(cp)).append(' '));
    return b.toString().trim();
  }
}
