package dev.secpe.core.secret;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The normalised view of a text that every built-in detector matches on, and where each char of
 * the view came from in the text, so that a match found in the view is reported at its place in
 * the text. One spelling of a text and another give the same view when they differ only in:
 *
 * <ul>
 *   <li><b>Unicode form</b>: compatibility normalisation (NFKC), so NFC and NFD spellings, fullwidth
 *       letters and digits ("ｅｘａｍｐｌｅ", "＠"), ligatures ("ﬁ"), superscripts and the like are one;
 *   <li><b>case</b>: full case folding ("ß", "ẞ" and "SS" are "ss"; "ſ" is "s"; Greek final and
 *       medial sigma are one), plus the Turkish i: "İ", "I", "ı" and "i" are all "i" (a combining
 *       dot above right after "i" or "j" is dropped: these letters already carry their dot);
 *   <li><b>invisible characters</b>: every Default_Ignorable_Code_Point is removed (zero-width space,
 *       ZWJ and ZWNJ, soft hyphen, word joiner, byte-order mark, bidirectional controls, variation
 *       selectors, tags, Hangul fillers, ...), also inside a word;
 *   <li><b>whitespace</b>: every Unicode White_Space character that NFKC leaves outside ASCII
 *       (next line U+0085, ogham space, line and paragraph separators) becomes a space U+0020, so
 *       the view's whitespace is ASCII whitespace only (NFKC already makes the no-break, em, thin,
 *       narrow no-break and ideographic spaces a space);
 *   <li><b>digits</b>: a decimal digit of any script (general category Nd, e.g. Arabic-Indic "٣")
 *       becomes its ASCII digit.
 * </ul>
 *
 * <p>The view is built segment by segment: a segment is a character with a normalisation boundary
 * before it and the combining marks (and conjoining Hangul jamo) that follow it. A char of the view
 * comes from the whole segment it was made from; a match in the view is reported from the start of
 * its first char's segment to the end of its last char's, so a span that begins or ends inside a
 * character's expansion (one "f" of "ﬁ") covers that whole character. Ignorable characters inside
 * a match lie inside the reported span; those before or after it do not. A pure-ASCII text is its
 * own view, lower-cased, with every offset unchanged (the fast path: no table, no copy of offsets).
 *
 * <p>Case folding and NFKC come from the JDK ({@link String#toLowerCase}, {@link
 * String#toUpperCase}, {@link Normalizer}), so the Unicode version is the JDK's (13 on Java 17, 15
 * on Java 21). A test checks, code point by code point, that the view identifies exactly what
 * Unicode's NFKC_Casefold identifies, apart from "ı" with "i" and the dropped dot above, and that the
 * ignorable table is Unicode's Default_Ignorable_Code_Point.
 *
 * <p>Not done, and so not caught by the built-in detectors: homoglyphs across scripts (Cyrillic "а"
 * for Latin "a"), accents dropped or added ("Jose" for "José"), leetspeak, a word split by spaces
 * or punctuation, digits spelled out. And since an ignorable character is removed, it never
 * separates words: "foo", a zero-width space and "secret" are the one word "foosecret" in the
 * view.
 */
final class TextView {

  /**
   * The version of the view's rules: every built-in detector's {@link
   * SecretDetector#configuration()} names it, so any change to them changes the detectors' digest.
   */
  static final int VERSION = 1;

  private final String text;
  private final String original;
  private final int originalLength;
  // Where the view came from, as runs; null when the view keeps every offset (the ASCII fast path).
  private final Runs runs;

  private TextView(String text, String original, Runs runs) {
    this.text = text;
    this.original = original;
    this.originalLength = original.length();
    this.runs = runs;
  }

  /** The view of {@code text}. */
  static TextView of(String text) {
    if (isAscii(text)) {
      return new TextView(asciiLower(text), text, null);
    }
    return mapped(text);
  }

  /** The view's text only: what a configured term or a secret's value is normalised to. */
  static String normalise(String text) {
    if (isAscii(text)) {
      return asciiLower(text);
    }
    return build(text, null);
  }

  /** The view built char by char, as for non-ASCII text (the fast path's reference in tests). */
  static TextView mapped(String text) {
    Runs runs = new Runs();
    String view = build(text, runs);
    runs.end(view.length());
    return new TextView(view, text, runs);
  }

  /** The view. */
  String text() {
    return text;
  }

  /**
   * The scanned text behind the view's span {@code [start, end)} (non-empty), as written: for a
   * detector that needs what the view folds away, the case of a name. What it reads there decides
   * nothing about which text it matches, only how it weighs a match the view found.
   */
  String original(int start, int end) {
    SecretMatch m = toText(new SecretMatch("span", "span", start, end));
    return original.substring(m.start(), m.end());
  }

  /**
   * The span of the text that the view's span {@code [start, end)} came from: {@code match}'s kind
   * and value with its offsets mapped back.
   */
  SecretMatch toText(SecretMatch match) {
    if (runs == null) {
      return match;
    }
    int start = match.start();
    int end = match.end();
    int s;
    int e;
    if (start == end) {
      s = start < text.length() ? runs.from(start) : originalLength;
      e = s;
    } else {
      s = runs.from(start);
      e = runs.to(end - 1);
    }
    return new SecretMatch(match.kind(), match.value(), s, e);
  }

  private static boolean isAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** {@code text}, pure ASCII, lower-cased (the JDK's own loop over a Latin-1 string). */
  private static String asciiLower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }

  private static boolean isAsciiUpper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  private static String build(String text, Runs runs) {
    int n = text.length();
    char[] out = new char[n + 16];
    int len = 0;
    int i = 0;
    while (i < n) {
      // A run of ASCII chars, each a segment of its own, lower-cased in bulk; the last one before
      // a non-ASCII char goes the general way, since a combining mark may follow it.
      int j = i;
      while (j < n && text.charAt(j) < 0x80) {
        j++;
      }
      int bulkEnd = j < n ? j - 1 : j;
      if (bulkEnd > i) {
        out = room(out, len, bulkEnd - i);
        if (runs != null) {
          runs.oneToOne(len, i);
        }
        for (int k = i; k < bulkEnd; k++) {
          char c = text.charAt(k);
          out[len++] = isAsciiUpper(c) ? (char) (c + ('a' - 'A')) : c;
        }
        i = bulkEnd;
        continue;
      }
      int cp = text.codePointAt(i);
      int next = i + Character.charCount(cp);
      if (isIgnorable(cp)) {
        i = next;
        continue;
      }
      // The segment: this character and every following one that joins it (ignorables skipped).
      int end = next;
      boolean single = true;
      int k = next;
      while (k < n) {
        int d = text.codePointAt(k);
        int after = k + Character.charCount(d);
        if (!isIgnorable(d)) {
          if (!joinsPrevious(d)) {
            break;
          }
          single = false;
          end = after;
        }
        k = after;
      }
      String mapped = single ? ofCodePoint(cp) : ofSegment(text.substring(i, end));
      if (runs != null && !mapped.isEmpty()) {
        if (end == i + 1 && mapped.length() == 1) {
          runs.oneToOne(len, i);
        } else {
          runs.segment(len, i, end);
        }
      }
      out = room(out, len, mapped.length());
      mapped.getChars(0, mapped.length(), out, len);
      len += mapped.length();
      i = end;
    }
    return new String(out, 0, len);
  }

  /** {@code buf}, or a larger copy, with room for {@code more} chars after {@code len}. */
  private static char[] room(char[] buf, int len, int more) {
    return len + more <= buf.length ? buf : Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
  }

  /** The view of one code point, cached. */
  private static String ofCodePoint(int cp) {
    String[] page = Cache.page(cp);
    int k = cp & Cache.PAGE_MASK;
    String v = page[k];
    if (v == null) {
      v = ofSegment(Character.toString(cp));
      page[k] = v; // a benign race: every thread computes the same immutable string
    }
    return v;
  }

  /**
   * The view of one segment: ignorables removed; compatibility caseless form (NFKD, full case
   * folding, NFKD, and once more if that changed anything: Unicode's D146); the dot above on "i"
   * and "j" dropped; NFKC; ignorables removed again (NFKC makes some: U+3164 is U+1160); then
   * whitespace and digits made ASCII. Folding decomposed text keeps a mark where canonical order
   * puts it ("ᾳ" with a diaeresis folds to "α", the diaeresis, "ι", as its NFD does).
   */
  private static String ofSegment(String segment) {
    String nfkd = Normalizer.normalize(withoutIgnorables(segment), Normalizer.Form.NFKD);
    String folded = fold(nfkd);
    if (folded.equals(segment) && segment.codePointCount(0, segment.length()) == 1) {
      // One code point that neither decomposes nor folds (most CJK, symbols, emoji): itself,
      // unless it is whitespace or a digit to make ASCII.
      int cp = segment.codePointAt(0);
      if (!isWhiteSpace(cp) && Character.getType(cp) != Character.DECIMAL_DIGIT_NUMBER) {
        return segment;
      }
    }
    String caseless = Normalizer.normalize(folded, Normalizer.Form.NFKD);
    if (!caseless.equals(folded)) {
      caseless = Normalizer.normalize(fold(caseless), Normalizer.Form.NFKD);
    }
    String again =
        withoutIgnorables(
            Normalizer.normalize(withoutDotAboveOnIj(caseless), Normalizer.Form.NFKC));
    StringBuilder out = new StringBuilder(again.length());
    for (int k = 0; k < again.length(); ) {
      int cp = again.codePointAt(k);
      if (cp >= 0x80 && isWhiteSpace(cp)) {
        out.append(' ');
      } else if (cp >= 0x80 && Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER) {
        out.append((char) ('0' + Character.digit(cp, 10)));
      } else {
        out.appendCodePoint(cp);
      }
      k += Character.charCount(cp);
    }
    return out.toString();
  }

  /** {@code s} with every code point case-folded ({@link #fold(int)}). */
  private static String fold(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2);
    for (int k = 0; k < s.length(); ) {
      int cp = s.codePointAt(k);
      if (cp < 0x80) {
        b.append(isAsciiUpper((char) cp) ? (char) (cp + ('a' - 'A')) : (char) cp);
      } else {
        b.append(fold(cp));
      }
      k += Character.charCount(cp);
    }
    return b.toString();
  }

  /**
   * {@code nfkd} without the combining dots above (U+0307) that follow an "i" or a "j" with only
   * marks between that canonical ordering puts before them (as Unicode's After_Soft_Dotted: none of
   * combining class 0 or 230). "İ" folds to "i" and a dot above; "i" already has its dot.
   */
  private static String withoutDotAboveOnIj(String nfkd) {
    if (nfkd.indexOf('\u0307') < 0) {
      return nfkd;
    }
    StringBuilder b = new StringBuilder(nfkd);
    for (int k = 0; k < b.length(); k++) {
      char c = b.charAt(k);
      if (c != 'i' && c != 'j') {
        continue;
      }
      int m = k + 1;
      while (m < b.length()) {
        int cp = b.codePointAt(m);
        if (cp == 0x307) {
          b.deleteCharAt(m); // and any further one: "i" with two dots above is "i" too
          continue;
        }
        if (!sortsBeforeDotAbove(cp)) {
          break;
        }
        m += Character.charCount(cp);
      }
    }
    return b.toString();
  }

  /**
   * Whether canonical ordering puts {@code mark} (a decomposed code point) before a dot above, i.e.
   * its combining class lies strictly between 0 and 230: the JDK does not expose combining classes,
   * but its NFD reorders by them.
   */
  private static boolean sortsBeforeDotAbove(int mark) {
    String m = Character.toString(mark);
    return Normalizer.normalize("a\u0307" + m, Normalizer.Form.NFD).equals("a" + m + "\u0307");
  }

  /**
   * Full case folding of one code point through the JDK's full case mappings: lower, upper, lower
   * ("ẞ" lower-cases to "ß", which upper-cases to "SS"; "ſ" and "ς" upper-case to "S" and "Σ").
   * One code point at a time, so that no context rule (final sigma) applies.
   */
  private static String fold(int cp) {
    return Character.toString(cp)
        .toLowerCase(Locale.ROOT)
        .toUpperCase(Locale.ROOT)
        .toLowerCase(Locale.ROOT);
  }

  private static String withoutIgnorables(String s) {
    int k = 0;
    while (k < s.length() && !isIgnorable(s.codePointAt(k))) {
      k += Character.charCount(s.codePointAt(k));
    }
    if (k == s.length()) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int m = 0; m < s.length(); ) {
      int cp = s.codePointAt(m);
      if (!isIgnorable(cp)) {
        b.appendCodePoint(cp);
      }
      m += Character.charCount(cp);
    }
    return b.toString();
  }

  /**
   * Whether a character joins the segment before it, i.e. has no NFKC normalisation boundary
   * before it: a combining mark, a conjoining Hangul vowel or trailing consonant, or a character
   * whose compatibility decomposition starts with one (the halfwidth katakana voiced sound marks).
   * A test checks that every other character has ICU's NFKC boundary before it.
   */
  static boolean joinsPrevious(int cp) {
    if (cp < 0x300) {
      return false;
    }
    byte[] page = Cache.joinsPage(cp);
    int k = cp & Cache.PAGE_MASK;
    byte j = page[k];
    if (j == 0) {
      j = computeJoins(cp) ? (byte) 2 : (byte) 1;
      page[k] = j;
    }
    return j == 2;
  }

  private static boolean computeJoins(int cp) {
    if (isMarkOrVowelOrTrailing(cp)) {
      return true;
    }
    String d = Normalizer.normalize(Character.toString(cp), Normalizer.Form.NFKD);
    return !d.isEmpty() && isMarkOrVowelOrTrailing(d.codePointAt(0));
  }

  private static boolean isMarkOrVowelOrTrailing(int cp) {
    int t = Character.getType(cp);
    return t == Character.NON_SPACING_MARK
        || t == Character.COMBINING_SPACING_MARK
        || t == Character.ENCLOSING_MARK
        || (cp >= 0x1160 && cp <= 0x11FF)
        || (cp >= 0xD7B0 && cp <= 0xD7FF);
  }

  /** Unicode's White_Space property (as {@code \p{IsWhite_Space}} in {@link java.util.regex.Pattern}). */
  static boolean isWhiteSpace(int cp) {
    if (cp <= 0x20) {
      return cp == 0x20 || (cp >= 0x09 && cp <= 0x0D);
    }
    if (cp == 0x85) {
      return true;
    }
    int t = Character.getType(cp);
    return t == Character.SPACE_SEPARATOR
        || t == Character.LINE_SEPARATOR
        || t == Character.PARAGRAPH_SEPARATOR;
  }

  /**
   * Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 16.0; the
   * property is stable: its ranges include the code points reserved for future ignorables).
   */
  static boolean isIgnorable(int cp) {
    if (cp < 0xAD) {
      return false;
    }
    if (cp < 0x10000) {
      int k = Arrays.binarySearch(BMP_IGNORABLE_STARTS, (char) cp);
      int range = k >= 0 ? k : -k - 2;
      return range >= 0 && cp <= BMP_IGNORABLE_ENDS[range];
    }
    return (cp >= 0x1BCA0 && cp <= 0x1BCA3)
        || (cp >= 0x1D173 && cp <= 0x1D17A)
        || (cp >= 0xE0000 && cp <= 0xE0FFF);
  }

  private static final char[] BMP_IGNORABLE_STARTS = {
    0x00AD, 0x034F, 0x061C, 0x115F, 0x17B4, 0x180B, 0x200B, 0x202A, 0x2060, 0x3164, 0xFE00, 0xFEFF,
    0xFFA0, 0xFFF0
  };
  private static final char[] BMP_IGNORABLE_ENDS = {
    0x00AD, 0x034F, 0x061C, 0x1160, 0x17B5, 0x180F, 0x200F, 0x202E, 0x206F, 0x3164, 0xFE0F, 0xFEFF,
    0xFFA0, 0xFFF8
  };

  /**
   * Per-code-point results, in pages of 256 code points allocated as a text first needs them. The
   * races are benign: a page or an entry computed twice holds the same values.
   */
  private static final class Cache {
    static final int PAGE_BITS = 8;
    static final int PAGE_MASK = (1 << PAGE_BITS) - 1;
    private static final int PAGES = (Character.MAX_CODE_POINT + 1) >> PAGE_BITS;
    private static final AtomicReferenceArray<String[]> VIEW = new AtomicReferenceArray<>(PAGES);
    // 0 not yet known, 1 a boundary, 2 joins the previous character.
    private static final AtomicReferenceArray<byte[]> JOINS = new AtomicReferenceArray<>(PAGES);

    static String[] page(int cp) {
      return page(VIEW, cp, () -> new String[PAGE_MASK + 1]);
    }

    static byte[] joinsPage(int cp) {
      return page(JOINS, cp, () -> new byte[PAGE_MASK + 1]);
    }

    private static <T> T page(AtomicReferenceArray<T> pages, int cp, Supplier<T> empty) {
      int p = cp >> PAGE_BITS;
      T page = pages.get(p);
      if (page == null) {
        pages.compareAndSet(p, null, empty.get());
        page = pages.get(p);
      }
      return page;
    }
  }

  /**
   * Where the view came from, as runs of view chars: a one-to-one run maps its k-th char to the
   * text's char at its start plus k; a segment run maps every one of its chars to the segment's
   * whole span. A mostly-ASCII text has a few runs, not one entry per char.
   */
  private static final class Runs {
    private int[] viewStart = new int[8];
    private int[] textStart = new int[8];
    private int[] textEnd = new int[8]; // -1 for a one-to-one run
    private int size;

    /** View char {@code v} is text char {@code t}. */
    void oneToOne(int v, int t) {
      if (size > 0 && textEnd[size - 1] < 0) {
        int r = size - 1;
        if (v - viewStart[r] == t - textStart[r]) {
          return; // extends the open one-to-one run (no gap in view or text)
        }
      }
      add(v, t, -1);
    }

    /** The view chars from {@code v} on (up to the next run) come from text [start, end). */
    void segment(int v, int start, int end) {
      add(v, start, end);
    }

    /** Closes the runs: a view of {@code length} chars. */
    void end(int length) {
      add(length, -1, -1); // a sentinel: the binary search's upper end
    }

    private void add(int v, int start, int end) {
      if (size == viewStart.length) {
        viewStart = Arrays.copyOf(viewStart, size * 2);
        textStart = Arrays.copyOf(textStart, size * 2);
        textEnd = Arrays.copyOf(textEnd, size * 2);
      }
      viewStart[size] = v;
      textStart[size] = start;
      textEnd[size] = end;
      size++;
    }

    /** The run holding view char {@code v}. */
    private int run(int v) {
      int k = Arrays.binarySearch(viewStart, 0, size - 1, v);
      return k >= 0 ? k : -k - 2;
    }

    /** The first text char view char {@code v} came from. */
    int from(int v) {
      int r = run(v);
      return textEnd[r] < 0 ? textStart[r] + (v - viewStart[r]) : textStart[r];
    }

    /** One past the last text char view char {@code v} came from. */
    int to(int v) {
      int r = run(v);
      return textEnd[r] < 0 ? textStart[r] + (v - viewStart[r]) + 1 : textEnd[r];
    }
  }
}
