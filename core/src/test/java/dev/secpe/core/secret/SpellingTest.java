package dev.secpe.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import dev.secpe.core.PrivacyGuard;
import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.llm.Locality;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 50, cases 3 and 4: one secret is one secret however it is spelled, and every built-in
 * detector finds it in every spelling its view makes one, at its place in the scanned text. Spans
 * are worked out by hand from the texts.
 */
class SpellingTest {

  private static PrivateDataset records(String... texts) {
    List<PrivateRecord> r = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      r.add(PrivateRecord.of("r" + i, texts[i]));
    }
    return PrivateDataset.of(r);
  }

  private static SecretIndex scan(SecretDetector d, String... texts) {
    return SecretIndex.scan(records(texts), d, PrivacyGuard.localOnly());
  }

  private static List<int[]> spans(List<SecretMatch> m) {
    return m.stream().map(x -> new int[] {x.start(), x.end()}).toList();
  }

  // Case 3: a dictionary secret is its term.

  @Test
  void fourSpellingsOfTwoTermsAreTwoSecrets() {
    DictionaryDetector d = DictionaryDetector.of(List.of("istanbul", "secretproj"));
    SecretIndex idx = scan(d, "İSTANBUL", "istanbul", "ſecretproj", "SECRETPROJ");
    assertThat(idx.secretCount()).isEqualTo(2);
    assertThat(idx.secretsOfRecord()).containsExactly(new int[] {0}, new int[] {0}, new int[] {1}, new int[] {1});
    assertThat(d.detect("İSTANBUL and ſecretproj"))
        .extracting(SecretMatch::value)
        .containsExactly("istanbul", "secretproj");
  }

  @Test
  void aDictionaryNamesNoSecretItHasNoTermFor() {
    List<String> terms = List.of("José Quintanilla", "Straße", "İzmir", "ﬁnance", "Ωmega", "x-ray 7");
    DictionaryDetector d = DictionaryDetector.of(terms);
    SplittableRandom rnd = new SplittableRandom(3);
    List<String> texts = new ArrayList<>();
    for (int trial = 0; trial < 300; trial++) {
      String t = terms.get(rnd.nextInt(terms.size()));
      texts.add("see " + respell(t, rnd) + ", and " + respell(t, rnd) + ".");
    }
    SecretIndex idx = scan(d, texts.toArray(String[]::new));
    assertThat(idx.secretCount()).isEqualTo(terms.size());
    assertThat(idx.recordsWithSecrets()).isEqualTo(texts.size());
    for (String text : texts) {
      assertThat(d.detect(text)).hasSize(2).extracting(SecretMatch::value).allMatch(d.terms()::contains);
    }
  }

  /** Another spelling: case, NFD, fullwidth, invisible characters, another space. */
  private static String respell(String term, SplittableRandom rnd) {
    String s =
        switch (rnd.nextInt(4)) {
          case 0 -> term.toUpperCase(java.util.Locale.ROOT);
          case 1 -> term.toLowerCase(java.util.Locale.ROOT);
          case 2 -> Normalizer.normalize(term, Normalizer.Form.NFD);
          default -> term;
        };
    StringBuilder b = new StringBuilder();
    int[] cps = s.codePoints().toArray();
    for (int k = 0; k < cps.length; k++) {
      int cp = cps[k];
      if (cp == ' ') {
        b.append(new String[] {" ", "\u00A0", "\u2003", "\u202F", "\u3000", "\n"}[rnd.nextInt(6)]);
        continue;
      }
      if (cp >= 'a' && cp <= 'z' && rnd.nextInt(4) == 0) {
        cp = cp - 'a' + 0xFF41; // fullwidth
      }
      b.appendCodePoint(cp);
      if (k + 1 < cps.length && Character.isLetter(cps[k + 1]) && rnd.nextInt(5) == 0) {
        b.append(new String[] {"\u200B", "\u00AD", "\u2060", "\uFEFF", "\u200D"}[rnd.nextInt(5)]);
      }
    }
    return b.toString();
  }

  // Case 4: every spelling of a term is found, where it stands.

  @Test
  void nfcAndNfdSpellingsMatchEachOther() {
    String nfc = "Jos\u00E9";
    String nfd = "Jose\u0301";
    DictionaryDetector composed = DictionaryDetector.of(List.of(nfc));
    DictionaryDetector decomposed = DictionaryDetector.of(List.of(nfd));
    // "I am Jose\u0301." : "Jose\u0301" is chars 5..10.
    assertThat(spans(composed.detect("I am " + nfd + "."))).containsExactly(new int[] {5, 10});
    assertThat(spans(decomposed.detect("I am " + nfc + "."))).containsExactly(new int[] {5, 9});
    assertThat(composed.terms()).isEqualTo(decomposed.terms());
  }

  @Test
  void anyUnicodeWhitespaceInsideATermMatches() {
    DictionaryDetector d = DictionaryDetector.of(List.of("José Quintanilla"));
    for (String space : List.of("\u00A0", "\u2003", "\u202F", "\u3000", "\u2028", "\u0085", " \t ")) {
      String text = "Dear José" + space + "Quintanilla,";
      List<SecretMatch> m = d.detect(text);
      assertThat(m).as("space U+%04X", (int) space.charAt(0)).hasSize(1);
      assertThat(m.get(0).value()).isEqualTo("josé quintanilla");
      assertThat(spans(m)).containsExactly(new int[] {5, text.length() - 1});
    }
  }

  @Test
  void invisibleCharactersInsideATermDoNotHideIt() {
    DictionaryDetector d = DictionaryDetector.of(List.of("secretproj"));
    // "the secret\u200Bproj plan": the term and the zero-width space are chars 4..15.
    assertThat(spans(d.detect("the secret\u200Bproj plan"))).containsExactly(new int[] {4, 15});
    assertThat(spans(d.detect("the sec\u00ADret\u2060proj plan"))).containsExactly(new int[] {4, 16});
    // A soft hyphen before the term is not part of its span.
    assertThat(spans(d.detect("\u00ADsecretproj"))).containsExactly(new int[] {1, 11});
  }

  @Test
  void fullwidthLettersAndLigaturesAreTheirLetters() {
    DictionaryDetector d = DictionaryDetector.of(List.of("example", "finance"));
    List<SecretMatch> m = d.detect("an ｅｘａｍｐｌｅ of ﬁnance");
    assertThat(m).extracting(SecretMatch::value).containsExactly("example", "finance");
    // "ｅｘａｍｐｌｅ" is chars 3..10; "ﬁnance" (the ligature one char) 14..20.
    assertThat(spans(m)).containsExactly(new int[] {3, 10}, new int[] {14, 20});
  }

  @Test
  void spansAreInTheTextAcrossSurrogatesAndLengthChanges() {
    DictionaryDetector d = DictionaryDetector.of(List.of("strasse", "sec"));
    // "𝐒𝐄𝐂" (mathematical bold, 2 chars each) at 3..9; "STRAẞE" at 11..17; "straße" at 19..25.
    String text = "on 𝐒𝐄𝐂, STRAẞE, straße.";
    List<SecretMatch> m = d.detect(text);
    assertThat(spans(m)).containsExactly(new int[] {3, 9}, new int[] {11, 17}, new int[] {19, 25});
    assertThat(m).extracting(SecretMatch::value).containsExactly("sec", "strasse", "strasse");
    assertThat(text.substring(11, 17)).isEqualTo("STRAẞE");
  }

  @Test
  void anEmailAddressIsOneSecretInEverySpelling() {
    PiiDetector d = PiiDetector.of(EnumSet.of(PiiKind.EMAIL));
    String[] spellings = {
      "ops@example.com",
      "OPS@Example.COM",
      "ｏｐｓ＠ｅｘａｍｐｌｅ．ｃｏｍ",
      "ops@exa\u200Bmple.com",
      "op\u00ADs@example.com",
      "ops\u2060@example.com"
    };
    for (String s : spellings) {
      String text = "mail " + s + " now";
      List<SecretMatch> m = d.detect(text);
      assertThat(m).as(s).hasSize(1);
      assertThat(m.get(0).value()).isEqualTo("ops@example.com");
      assertThat(spans(m)).containsExactly(new int[] {5, 5 + s.length()});
    }
    String[] texts = new String[spellings.length];
    for (int i = 0; i < spellings.length; i++) {
      texts[i] = "mail " + spellings[i];
    }
    assertThat(scan(d, texts).secretCount()).isEqualTo(1);
  }

  @Test
  void fullwidthAndOtherScriptDigitsAreDigits() {
    PiiDetector d = PiiDetector.of(EnumSet.of(PiiKind.PHONE));
    // Fullwidth "４１５-５５５-０１３４" and Arabic-Indic digits with ASCII hyphens.
    for (String s : List.of("４１５-５５５-０１３４", "٤١٥-٥٥٥-٠١٣٤", "415-555-0134")) {
      List<SecretMatch> m = d.detect("call " + s);
      assertThat(m).as(s).extracting(SecretMatch::value).containsExactly("+14155550134"); // E.164
      assertThat(spans(m)).containsExactly(new int[] {5, 17});
    }
  }

  /**
   * Names match on the normalised view, whose case is folded, but are told from common words by
   * the capitals of the text as written (merge of the view and the names detector).
   */
  @Test
  void namesAreFoundInEverySpellingAndStillNeedTheirCapitals() {
    NameDetector d = NameDetector.create();
    for (String s : List.of("Priya Patel", "Priya\u00A0Patel", "Priya\u2003Patel", "Pri\u00ADya Patel",
        "\uFF30\uFF52\uFF49\uFF59\uFF41 Patel", "PRIYA PATEL")) {
      List<SecretMatch> m = d.detect("Thanks to " + s + " for the notes.");
      assertThat(m).as(s).extracting(SecretMatch::value).containsExactly("priya patel");
      assertThat(spans(m)).as(s).containsExactly(new int[] {10, 10 + s.length()});
    }
    // Written in lower case it is two words to this detector, as before the view.
    assertThat(d.detect("thanks to priya patel for the notes.")).isEmpty();
  }

  @Test
  void randomWordsAreFoundInEverySpelling() {
    RandomWordSecrets w =
        RandomWordSecrets.builder()
            .publicTexts(List.of("Straße straße STRASSE road", "road lane"))
            .count(1)
            .quantile(0)
            .build();
    assertThat(w.words()).containsExactly("strasse");
    // "STRAẞE" at 0..6, "Stra\u00ADße" at 11..18, "ｓｔｒａｓｓｅ" at 23..30.
    List<SecretMatch> m = w.detect("STRAẞE and Stra\u00ADße and ｓｔｒａｓｓｅ");
    assertThat(m).extracting(SecretMatch::value).containsOnly("strasse");
    assertThat(spans(m)).containsExactly(new int[] {0, 6}, new int[] {11, 18}, new int[] {23, 30});
  }

  @Test
  void aServiceSpanIsNamedByItsNormalisedText() {
    // The service marks what follows "to: ", a name in four spellings.
    PiiService names =
        new PiiService() {
          @Override
          public String name() {
            return "names";
          }

          @Override
          public Locality locality() {
            return Locality.LOCAL;
          }

          @Override
          public List<PiiSpan> find(String text) {
            return List.of(new PiiSpan("PERSON", text.indexOf(':') + 2, text.length()));
          }
        };
    SecretIndex idx =
        scan(
            SecretDetectors.fromPiiService(names),
            "to: José Quintanilla",
            "to: JOSÉ\u00A0QUINTANILLA",
            "to: Jose\u0301 Quin\u200Btanilla",
            "to: ｊｏｓé  quintanilla");
    assertThat(idx.secretCount()).isEqualTo(1);
  }

  @Test
  void aCompositeReportsEachPartsMatchesInTheText() {
    SecretDetector both =
        SecretDetectors.composite(
            PiiDetector.of(EnumSet.of(PiiKind.EMAIL)), DictionaryDetector.of(List.of("falcon")));
    // "ＦＡＬＣＯＮ" at 0..6, the address at 10..26 (a zero-width space inside).
    List<SecretMatch> m = both.detect("ＦＡＬＣＯＮ to ops@exa\u200Bmple.com");
    assertThat(m).extracting(SecretMatch::kind).containsExactly("term", "email");
    assertThat(spans(m)).containsExactly(new int[] {0, 6}, new int[] {10, 26});
  }
}
