package dev.secpe.llm.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class KneserNeyModelTest {

  private static KneserNeyModel model(List<String> docs, int order, Vocabulary[] vocabOut) {
    List<List<String>> tokens = new ArrayList<>();
    for (String d : docs) {
      tokens.add(WordTokenizer.tokenize(d));
    }
    Vocabulary v = Vocabulary.build(tokens, 1, Vocabulary.MAX_SIZE);
    NgramCounts counts = new NgramCounts(order);
    for (List<String> t : tokens) {
      counts.add(NgramCounts.documentContribution(v.ids(t), order));
    }
    vocabOut[0] = v;
    return new KneserNeyModel(counts, v.size());
  }

  /**
   * Hand computation (Chen &amp; Goodman 1998, interpolated Kneser–Ney, one discount) for the
   * corpus "a b", "a c", "b c" with order 2. Padded bigram counts: (&lt;s&gt;,a)=2, (c,&lt;/s&gt;)=2
   * and five singletons, so D = n1/(n1 + 2 n2) = 5/9. Continuation counts N1+(. w): a=1, b=2,
   * c=2, &lt;/s&gt;=2 (total 7). Context "a" has c(a .)=2 over 2 types, so P(b|a) = (1-D)/2 +
   * D*(2/2)*(2/7) = 8/21, P(a|a) = D*(1/7) = 5/63, P(&lt;/s&gt;|a) = D*(2/7) = 10/63.
   */
  @Example
  void matchesAHandComputedBigramModel() {
    Vocabulary[] v = new Vocabulary[1];
    KneserNeyModel m = model(List.of("a b", "a c", "b c"), 2, v);
    int a = v[0].id("a");
    int b = v[0].id("b");
    int c = v[0].id("c");
    KneserNeyModel.Context ctx = m.context();
    ctx.set(new int[] {a}, 1, 24);
    assertThat(ctx.probability(b)).isCloseTo(8.0 / 21, within(1e-12));
    assertThat(ctx.probability(c)).isCloseTo(8.0 / 21, within(1e-12));
    assertThat(ctx.probability(a)).isCloseTo(5.0 / 63, within(1e-12));
    assertThat(ctx.probability(Vocabulary.EOS)).isCloseTo(10.0 / 63, within(1e-12));
    assertThat(ctx.probability(Vocabulary.BOS)).isZero();
    // Start of a document: context <s> saw a (2) and b (1): P(a|<s>) = (2-D)/3 + D*(2/3)*(1/7).
    ctx.set(new int[0], 0, 24);
    double d = 5.0 / 9;
    assertThat(ctx.probability(a)).isCloseTo((2 - d) / 3 + d * 2 / 3 * (1.0 / 7), within(1e-12));
  }

  @Example
  void aDocumentContributesExactlyItsLengthPlusOneNgrams() {
    int[] ids = {5, 6, 7, 8, 9};
    for (int order = 2; order <= 4; order++) {
      long[] c = NgramCounts.documentContribution(ids, order);
      assertThat(c).hasSize(ids.length + 1);
      // The last n-gram ends with the end token; the first starts with order-1 start tokens.
      assertThat(c[c.length - 1] & ((1L << Vocabulary.BITS) - 1)).isEqualTo(Vocabulary.EOS);
      assertThat(c[0] >>> (Vocabulary.BITS)).isEqualTo(NgramCounts.pack(new int[] {1, 1, 1}, 0, order - 1));
    }
  }

  private static final Vocabulary[] VOCAB = new Vocabulary[1];
  private static final List<String> DOCS = TestCorpus.texts(60, 9);
  private static final KneserNeyModel[] MODELS = {
    model(DOCS, 2, VOCAB), model(DOCS, 3, VOCAB), model(DOCS, 4, VOCAB)
  };

  /**
   * The distribution is proper for every context (sums to 1 over the vocabulary), and the
   * per-thread scatter of the top continuations gives exactly the probabilities of plain hash
   * lookups (scatter 1 forces lookups for all but one word per level).
   */
  @Property(tries = 60)
  void probabilitiesSumToOneAndDoNotDependOnTheScatterSize(
      @ForAll @IntRange(min = 0, max = 2) int which,
      @ForAll @IntRange(min = 0, max = 119) int doc,
      @ForAll @IntRange(min = 0, max = 40) int prefix) {
    KneserNeyModel m = MODELS[which];
    int[] ids = VOCAB[0].ids(WordTokenizer.tokenize(DOCS.get(doc)));
    int len = Math.min(prefix, ids.length);
    KneserNeyModel.Context full = m.context();
    full.set(ids, len, 1000);
    double[] p = new double[m.vocabularySize];
    double sum = 0;
    for (int w = 0; w < p.length; w++) {
      p[w] = full.probability(w);
      sum += p[w];
    }
    assertThat(sum).isCloseTo(1.0, within(1e-9));
    full.set(ids, len, 1);
    for (int w = 0; w < p.length; w++) {
      assertThat(full.probability(w)).isEqualTo(p[w]);
    }
  }
}
