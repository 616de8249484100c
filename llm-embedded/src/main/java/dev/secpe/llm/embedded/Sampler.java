package dev.secpe.llm.embedded;

import dev.secpe.llm.GenerationParams;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationResult.FinishReason;
import dev.secpe.llm.GenerationTask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates the text of one request: a single-use object holding the request's random stream,
 * sampling parameters and scratch space. Not thread-safe: it uses its thread's scratch space, so a thread runs one sampler at a time.
 *
 * <p>Each next-token draw forms a candidate set C (the {@code candidates} most frequent
 * continuations of every context level, the end token and the keywords), computes the exact
 * (label-mixed) Kneser–Ney probability of each candidate, applies keyword and length biases, then
 * temperature: C's tempered weights are rescaled to keep C's total mass, so temperature reshapes
 * the choice among plausible tokens while the remaining "tail" mass (1 - P(C)) stays as it is.
 * Top-p keeps the most likely candidates up to the requested share of the total mass; the tail
 * enters the nucleus only as a whole block, after every candidate. A tail draw is exact: rejection
 * sampling from the untempered model outside C.
 */
final class Sampler {
  private static final int TAIL_ATTEMPTS = 64;
  /** Least share of the candidate mass an unused, plausible keyword gets. */
  static final double KEYWORD_FLOOR = 0.05;

  private final NgramTextGenerator.Trained model;
  private final SplittableRandom rng;
  private final GenerationParams params;
  private final KneserNeyModel.Context global;
  private final KneserNeyModel.Context labelled;
  private final double lambda;
  private final int perLevel;

  private final NgramTextGenerator.Scratch scratch;
  private final int[] stamp;
  private int[] cand = new int[256];
  private double[] weight = new double[256];
  private int ncand;
  private final KneserNeyModel.IntSink addCandidate = this::addCandidate;

  private boolean wordsOnly;
  private int[] keywordIds = new int[0];
  private int directKeywords;
  private double[] keywordBoost = new double[0];

  Sampler(NgramTextGenerator.Trained model, String label, GenerationParams params, long seed) {
    this.model = model;
    this.params = params;
    this.rng = new SplittableRandom(seed);
    this.global = model.global.context();
    KneserNeyModel labelModel = label == null ? null : model.labels.get(label);
    this.labelled = labelModel == null ? null : labelModel.context();
    this.lambda = labelModel == null ? 0 : model.labelWeight;
    this.perLevel = model.candidates;
    this.scratch = model.scratch.get();
    this.stamp = scratch.stamp;
  }

  // ---------------------------------------------------------------- operators

  GenerationResult random(GenerationTask.Random task) {
    setKeywords(task.keywords());
    int target = task.targetWords();
    int max = params.maxTokens();
    int[] hist = new int[max + 1];
    List<String> out = new ArrayList<>();
    int words = 0;
    FinishReason reason = FinishReason.LENGTH;
    while (out.size() < max) {
      double eos = eosFactor(words, target, out.isEmpty() ? null : out.get(out.size() - 1));
      int w = next(hist, out.size(), eos);
      if (w == Vocabulary.EOS) {
        reason = FinishReason.STOP;
        break;
      }
      hist[out.size()] = w;
      out.add(model.vocabulary.word(w));
      if (model.isWord[w]) {
        words++;
      }
      useKeyword(w);
      if (target > 0 && words >= target + Math.max(5, target / 2)) {
        reason = FinishReason.STOP;
        break;
      }
    }
    return finish(out, reason, 0);
  }

  GenerationResult fillIn(String parent, double maskProbability, int targetWords, boolean wordsOnly,
      int fillCandidates) {
    List<String> tokens = WordTokenizer.tokenize(parent);
    int m = tokens.size();
    int[] ids = model.vocabulary.ids(tokens);
    this.wordsOnly = wordsOnly; // a masked word is refilled with words only
    boolean[] masked = new boolean[m];
    for (int i = 0; i < m; i++) {
      boolean eligible = !wordsOnly || WordTokenizer.isWord(tokens.get(i));
      // Draw for every token, eligible or not, so the mask of token i does not depend on others.
      double u = rng.nextDouble();
      masked[i] = eligible && u < maskProbability;
    }
    List<int[]> spans = new ArrayList<>(); // {start, end, newLength}
    for (int i = 0; i < m; ) {
      if (!masked[i]) {
        i++;
        continue;
      }
      int j = i;
      while (j < m && masked[j]) {
        j++;
      }
      spans.add(new int[] {i, j, j - i});
      i = j;
    }
    int words = WordTokenizer.countWords(tokens);
    int target = targetWords > 0 ? targetWords : words;
    int delta = target - words;
    if (delta > 0 && spans.isEmpty()) {
      int pos = rng.nextInt(m + 1);
      spans.add(new int[] {pos, pos, 0});
    }
    while (delta > 0) {
      spans.get(rng.nextInt(spans.size()))[2]++;
      delta--;
    }
    while (delta < 0) {
      int shrinkable = 0;
      for (int[] s : spans) {
        if (s[2] > 0) {
          shrinkable++;
        }
      }
      if (shrinkable == 0) {
        break;
      }
      int pick = rng.nextInt(shrinkable);
      for (int[] s : spans) {
        if (s[2] > 0 && pick-- == 0) {
          s[2]--;
          break;
        }
      }
      delta++;
    }
    return assemble(tokens, ids, spans, fillCandidates, m);
  }

  GenerationResult cross(String first, String second, int bridge, int fillCandidates) {
    List<String> a = WordTokenizer.tokenize(first);
    List<String> b = WordTokenizer.tokenize(second);
    if (rng.nextBoolean()) {
      List<String> t = a;
      a = b;
      b = t;
    }
    int ma = a.size();
    int mb = b.size();
    int i;
    int j;
    if (ma < 2 || mb < 2) {
      i = ma;
      j = 0;
    } else {
      int[] cutsA = cuts(a);
      int[] cutsB = cuts(b);
      i = cutsA[rng.nextInt(cutsA.length)];
      double want = (ma + mb) / 2.0 - i; // tokens wanted from b's tail
      // Among b's cuts whose length error is within 15% of the mean length of the best one,
      // pick one at random.
      double bestErr = Double.POSITIVE_INFINITY;
      for (int c : cutsB) {
        bestErr = Math.min(bestErr, Math.abs((mb - c) - want));
      }
      double slack = bestErr + 0.15 * (ma + mb) / 2.0;
      List<Integer> near = new ArrayList<>();
      for (int c : cutsB) {
        if (Math.abs((mb - c) - want) <= slack) {
          near.add(c);
        }
      }
      j = near.get(rng.nextInt(near.size()));
    }
    List<String> joined = new ArrayList<>(a.subList(0, i));
    joined.addAll(b.subList(j, mb));
    int[] ids = model.vocabulary.ids(joined);
    // Smooth the joint: the first tokens after the cut are re-sampled from the left part and
    // scored by the tokens that follow them.
    int replaced = Math.min(bridge, joined.size() - i);
    List<int[]> spans = new ArrayList<>();
    spans.add(new int[] {i, i + replaced, bridge});
    return assemble(joined, ids, spans, fillCandidates, ma + mb);
  }

  /** Cut positions of a token list: sentence ends, else phrase ends, else its middle third. */
  private static int[] cuts(List<String> t) {
    int m = t.size();
    List<Integer> sentence = new ArrayList<>();
    List<Integer> phrase = new ArrayList<>();
    for (int p = 1; p < m; p++) {
      String prev = t.get(p - 1);
      if (!WordTokenizer.isWord(prev)) {
        if (WordTokenizer.endsSentence(prev)) {
          sentence.add(p);
        } else if (WordTokenizer.endsPhrase(prev)) {
          phrase.add(p);
        }
      }
    }
    List<Integer> chosen = !sentence.isEmpty() ? sentence : phrase;
    if (chosen.isEmpty()) {
      int lo = Math.max(1, m / 3);
      int hi = Math.max(lo, (2 * m) / 3);
      chosen = new ArrayList<>();
      for (int p = lo; p <= hi && p < m; p++) {
        chosen.add(p);
      }
      if (chosen.isEmpty()) {
        chosen.add(Math.max(1, m - 1));
      }
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Copies the unmasked tokens and fills each span {start, end, newLength} by
   * sampling-importance-resampling: {@code fillCandidates} proposals from the forward model,
   * one kept with probability proportional to the likelihood of the tokens that follow the span.
   */
  private GenerationResult assemble(List<String> tokens, int[] ids, List<int[]> spans,
      int fillCandidates, int promptTokens) {
    int m = tokens.size();
    int extra = 0;
    for (int[] s : spans) {
      extra += s[2];
    }
    int max = params.maxTokens();
    int[] hist = new int[m + extra + model.global.order + 2];
    List<String> out = new ArrayList<>(m + extra);
    int si = 0;
    FinishReason reason = FinishReason.STOP;
    int i = 0;
    while (i <= m) {
      if (si < spans.size() && spans.get(si)[0] == i) {
        int[] s = spans.get(si++);
        int[] right = rightContext(ids, s[1], m, spans, si);
        int[] fill = fillSpan(hist, out.size(), s[2], right, fillCandidates);
        for (int w : fill) {
          if (out.size() >= max) {
            break;
          }
          hist[out.size()] = w;
          out.add(model.vocabulary.word(w));
        }
        i = s[1];
        continue;
      }
      if (i == m) {
        break;
      }
      if (out.size() >= max) {
        reason = FinishReason.LENGTH;
        break;
      }
      hist[out.size()] = ids[i];
      out.add(tokens.get(i));
      i++;
    }
    if (out.size() >= max && i < m) {
      reason = FinishReason.LENGTH;
    }
    return finish(out, reason, promptTokens);
  }

  /** Up to order-1 unmasked ids after a span (the end token if the document ends first). */
  private int[] rightContext(int[] ids, int from, int m, List<int[]> spans, int nextSpan) {
    int limit = nextSpan < spans.size() ? spans.get(nextSpan)[0] : m;
    int want = model.global.order - 1;
    int[] out = new int[want];
    int n = 0;
    for (int p = from; p < limit && n < want; p++) {
      out[n++] = ids[p];
    }
    if (n < want && limit == m) {
      out[n++] = Vocabulary.EOS;
    }
    return Arrays.copyOf(out, n);
  }

  private int[] fillSpan(int[] hist, int len, int spanLength, int[] right, int proposals) {
    if (spanLength == 0) {
      return new int[0];
    }
    int[][] fills = new int[proposals][spanLength];
    double[] score = new double[proposals];
    double total = 0;
    for (int r = 0; r < proposals; r++) {
      for (int t = 0; t < spanLength; t++) {
        int w = next(hist, len + t, 0.0);
        fills[r][t] = w;
        hist[len + t] = w;
      }
      double s = 1;
      int end = len + spanLength;
      for (int t = 0; t < right.length; t++) {
        s *= probability(hist, end + t, right[t]);
        hist[end + t] = right[t];
      }
      score[r] = s;
      total += s;
    }
    int chosen = proposals - 1;
    if (total > 0) {
      double u = rng.nextDouble() * total;
      double acc = 0;
      for (int r = 0; r < proposals; r++) {
        acc += score[r];
        if (u < acc) {
          chosen = r;
          break;
        }
      }
    } else {
      chosen = rng.nextInt(proposals);
    }
    System.arraycopy(fills[chosen], 0, hist, len, spanLength);
    return fills[chosen];
  }

  private GenerationResult finish(List<String> tokens, FinishReason reason, int promptTokens) {
    String text = WordTokenizer.detokenize(tokens);
    int cut = -1;
    for (String stop : params.stop()) {
      if (stop.isEmpty()) {
        continue;
      }
      int at = text.indexOf(stop);
      if (at >= 0 && (cut < 0 || at < cut)) {
        cut = at;
      }
    }
    if (cut >= 0) {
      text = text.substring(0, cut);
      reason = FinishReason.STOP;
    }
    return new GenerationResult(text, reason, promptTokens, tokens.size());
  }

  // ---------------------------------------------------------------- one token

  /**
   * Length steering towards {@code target} words: no end before the sentence end closest to the
   * target can be reached, the end forced at a sentence end once it is the closest, and
   * increasingly likely past the target.
   */
  private double eosFactor(int words, int target, String last) {
    if (target <= 0) {
      return 1;
    }
    double earliest = Math.max(0.6 * target, target - model.wordsPerSentence / 2);
    if (words < earliest) {
      return 0;
    }
    boolean sentenceEnd = last != null && !WordTokenizer.isWord(last)
        && WordTokenizer.endsSentence(last);
    if (sentenceEnd) {
      return 1000;
    }
    return words < target ? 1 : 4.0 * (1 + words - target);
  }

  private double probability(int[] hist, int len, int w) {
    global.set(hist, len, perLevel);
    double p = global.probability(w);
    if (labelled != null) {
      labelled.set(hist, len, perLevel);
      p = lambda * labelled.probability(w) + (1 - lambda) * p;
    }
    return p;
  }

  private void addCandidate(int w) {
    if (stamp[w] == scratch.stampValue) {
      return;
    }
    stamp[w] = scratch.stampValue;
    if (ncand == cand.length) {
      cand = Arrays.copyOf(cand, ncand * 2);
      weight = Arrays.copyOf(weight, ncand * 2);
    }
    cand[ncand++] = w;
  }

  /** Draws the next id after {@code hist[0..len)}; {@code eosFactor} scales P(end). */
  int next(int[] hist, int len, double eosFactor) {
    global.set(hist, len, perLevel);
    if (labelled != null) {
      labelled.set(hist, len, perLevel);
    }
    if (++scratch.stampValue == Integer.MAX_VALUE) {
      Arrays.fill(stamp, 0);
      scratch.stampValue = 1;
    }
    ncand = 0;
    addCandidate(Vocabulary.EOS);
    global.candidates(perLevel, addCandidate);
    if (labelled != null) {
      labelled.candidates(perLevel, addCandidate);
    }
    for (int k : keywordIds) {
      addCandidate(k);
    }
    double covered = 0;
    double mass = 0;
    for (int c = 0; c < ncand; c++) {
      int w = cand[c];
      double p = global.probability(w);
      if (labelled != null) {
        p = lambda * labelled.probability(w) + (1 - lambda) * p;
      }
      covered += p;
      if (w == Vocabulary.UNK || w == Vocabulary.BOS || (wordsOnly && !model.isWord[w]
          && w != Vocabulary.EOS)) {
        p = 0;
      } else if (w == Vocabulary.EOS) {
        p *= eosFactor;
      } else {
        p *= boost(w);
      }
      weight[c] = p;
      mass += p;
    }
    if (keywordIds.length > 0 && mass > 0) {
      // An unused keyword that has followed the current word in training gets at least a
      // KEYWORD_FLOOR share: it appears wherever the context allows, never where it does not.
      double floor = KEYWORD_FLOOR * mass;
      double added = 0;
      for (int c = 0; c < ncand; c++) {
        int w = cand[c];
        if (weight[c] < floor && isUnusedKeyword(w) && global.seenAfter(w)) {
          added += floor - weight[c];
          weight[c] = floor;
        }
      }
      mass += added;
    }
    double tail = Math.max(0, 1 - covered);
    double temperature = params.temperature();
    if (temperature == 0) {
      int best = -1;
      for (int c = 0; c < ncand; c++) {
        if (weight[c] > 0 && (best < 0 || weight[c] > weight[best])) {
          best = c;
        }
      }
      return best >= 0 ? cand[best] : sampleTail(eosFactor);
    }
    if (temperature != 1 && mass > 0) {
      double inv = 1 / temperature;
      double q = 0;
      for (int c = 0; c < ncand; c++) {
        weight[c] = weight[c] > 0 ? Math.pow(weight[c], inv) : 0;
        q += weight[c];
      }
      double scale = q > 0 ? mass / q : 0;
      for (int c = 0; c < ncand; c++) {
        weight[c] *= scale;
      }
    }
    double total = mass + tail;
    if (!(total > 0)) {
      return Vocabulary.EOS;
    }
    double topP = params.topP();
    if (topP < 1) {
      return sampleNucleus(mass, tail, topP, eosFactor);
    }
    double u = rng.nextDouble() * total;
    double acc = 0;
    for (int c = 0; c < ncand; c++) {
      acc += weight[c];
      if (u < acc) {
        return cand[c];
      }
    }
    return tail > 0 ? sampleTail(eosFactor) : lastPositive();
  }

  private int sampleNucleus(double mass, double tail, double topP, double eosFactor) {
    Integer[] order = new Integer[ncand];
    for (int c = 0; c < ncand; c++) {
      order[c] = c;
    }
    Arrays.sort(order, (x, y) -> Double.compare(weight[y], weight[x]));
    double total = mass + tail;
    double need = topP * total;
    double acc = 0;
    int kept = 0;
    while (kept < ncand && acc < need && weight[order[kept]] > 0) {
      acc += weight[order[kept]];
      kept++;
    }
    boolean withTail = acc < need && tail > 0;
    double pool = acc + (withTail ? tail : 0);
    double u = rng.nextDouble() * pool;
    double run = 0;
    for (int k = 0; k < kept; k++) {
      run += weight[order[k]];
      if (u < run) {
        return cand[order[k]];
      }
    }
    return withTail ? sampleTail(eosFactor) : (kept > 0 ? cand[order[kept - 1]] : Vocabulary.EOS);
  }

  private int lastPositive() {
    for (int c = ncand - 1; c >= 0; c--) {
      if (weight[c] > 0) {
        return cand[c];
      }
    }
    return Vocabulary.EOS;
  }

  private int sampleTail(double eosFactor) {
    for (int attempt = 0; attempt < TAIL_ATTEMPTS; attempt++) {
      boolean fromLabel = labelled != null && rng.nextDouble() < lambda;
      int w = fromLabel ? labelled.sample(rng) : global.sample(rng);
      if (stamp[w] != scratch.stampValue && w != Vocabulary.UNK && w != Vocabulary.BOS
          && w != Vocabulary.EOS && (!wordsOnly || model.isWord[w])) {
        return w;
      }
    }
    int best = -1;
    for (int c = 0; c < ncand; c++) {
      if (weight[c] > 0 && (best < 0 || weight[c] > weight[best])) {
        best = c;
      }
    }
    return best >= 0 ? cand[best] : (eosFactor > 0 ? Vocabulary.EOS : model.mostFrequentWord);
  }

  // ---------------------------------------------------------------- keywords

  private void setKeywords(List<String> keywords) {
    if (keywords.isEmpty()) {
      return;
    }
    List<Integer> ids = new ArrayList<>();
    List<Double> boosts = new ArrayList<>();
    double beta = model.keywordBoost;
    for (String k : keywords) {
      for (String t : WordTokenizer.tokenize(k)) {
        // Every case variant the vocabulary knows: "Linux", "linux" and "LINUX" all count.
        for (int id : model.caseVariants(t)) {
          if (!ids.contains(id)) {
            ids.add(id);
            boosts.add(beta);
          }
        }
      }
    }
    int direct = ids.size();
    directKeywords = direct;
    for (int d = 0; d < direct; d++) {
      for (int f : model.global.followers(ids.get(d), 3)) {
        if (f >= 3 && model.isWord[f] && !ids.contains(f)) {
          ids.add(f);
          boosts.add(Math.sqrt(beta));
        }
      }
    }
    keywordIds = ids.stream().mapToInt(Integer::intValue).toArray();
    keywordBoost = boosts.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private double boost(int w) {
    for (int k = 0; k < keywordIds.length; k++) {
      if (keywordIds[k] == w) {
        return keywordBoost[k];
      }
    }
    return 1;
  }

  private boolean isUnusedKeyword(int w) {
    for (int k = 0; k < keywordIds.length; k++) {
      if (keywordIds[k] == w) {
        return keywordBoost[k] > 1 && k < directKeywords;
      }
    }
    return false;
  }

  private void useKeyword(int w) {
    for (int k = 0; k < keywordIds.length; k++) {
      if (keywordIds[k] == w) {
        keywordBoost[k] = 1; // used: stop pushing it, so it is not repeated
      }
    }
  }
}
