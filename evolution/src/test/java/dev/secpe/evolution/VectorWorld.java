package dev.secpe.evolution;

import dev.secpe.core.PrivateDataset;
import dev.secpe.core.PrivateRecord;
import dev.secpe.core.PublicCorpus;
import dev.secpe.core.PublicRecord;
import dev.secpe.llm.GenerationRequest;
import dev.secpe.llm.GenerationResult;
import dev.secpe.llm.GenerationTask;
import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import dev.secpe.llm.TextGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * A world where the answer is known: a "text" is a vector written out as numbers (plus optional
 * secret words), the embedder reads the vector back, and the generator works in embedding space.
 * RANDOM draws from the public Gaussian mixture; a variation (fill-in, rewrite) is the parent plus
 * a small Gaussian step. The private data comes from a shifted mixture, so the best a method can
 * do is move its population from the public mixture towards the private one, and how far it got
 * is measured exactly by the Fréchet distance between the two sets.
 */
final class VectorWorld {

  /** Dimension of the raw vectors. */
  static final int DIM = 8;

  /** Components of both mixtures. */
  static final int COMPONENTS = 4;

  /** Per-coordinate standard deviation of a variation step. */
  static final double STEP = 0.25;

  private static final double PUBLIC_SD = 0.6;
  private static final double PRIVATE_SD = 0.4;
  private static final double[] PUBLIC_WEIGHTS = {0.25, 0.25, 0.25, 0.25};
  private static final double[] PRIVATE_WEIGHTS = {0.4, 0.3, 0.2, 0.1};

  private VectorWorld() {}

  /** Public centre c: 2 e_c. */
  static double[] publicCentre(int c) {
    double[] v = new double[DIM];
    v[c] = 2.0;
    return v;
  }

  /** Private centre c: 2 e_c + 1.2 e_{4+c} (a shift into directions the public data lacks). */
  static double[] privateCentre(int c) {
    double[] v = publicCentre(c);
    v[COMPONENTS + c] = 1.2;
    return v;
  }

  static double[] samplePublic(SplittableRandom rng) {
    return sample(rng, PUBLIC_WEIGHTS, false);
  }

  static double[] samplePrivate(SplittableRandom rng) {
    return sample(rng, PRIVATE_WEIGHTS, true);
  }

  private static double[] sample(SplittableRandom rng, double[] weights, boolean shifted) {
    double u = rng.nextDouble();
    int c = 0;
    for (double acc = weights[0]; u > acc && c < weights.length - 1; acc += weights[++c]) {}
    double[] centre = shifted ? privateCentre(c) : publicCentre(c);
    double sd = shifted ? PRIVATE_SD : PUBLIC_SD;
    double[] v = new double[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = centre[j] + sd * gaussian(rng);
    }
    return v;
  }

  static double gaussian(SplittableRandom rng) {
    // Box-Muller; test randomness only.
    double u1 = 1.0 - rng.nextDouble();
    double u2 = rng.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  static String encode(double[] v, String words) {
    StringBuilder sb = new StringBuilder("v");
    for (double x : v) {
      sb.append(' ').append(String.format(Locale.ROOT, "%.5f", x));
    }
    if (!words.isEmpty()) {
      sb.append(" | ").append(words);
    }
    return sb.toString();
  }

  static double[] decode(String text) {
    String[] parts = text.split(" ");
    if (!parts[0].equals("v")) {
      throw new IllegalArgumentException("not a vector text");
    }
    double[] v = new double[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = Double.parseDouble(parts[1 + j]);
    }
    return v;
  }

  /** Unit rows (what the engine compares). */
  static double[][] unitRows(List<String> texts) {
    double[][] out = new double[texts.size()][];
    for (int i = 0; i < out.length; i++) {
      double[] v = decode(texts.get(i));
      double n = 0;
      for (double x : v) {
        n += x * x;
      }
      n = Math.sqrt(n);
      for (int j = 0; j < v.length; j++) {
        v[j] /= n;
      }
      out[i] = v;
    }
    return out;
  }

  /** {@code n} public records. */
  static PublicCorpus publicData(int n, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    List<PublicRecord> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(PublicRecord.of("pub-" + i, encode(samplePublic(rng), "")));
    }
    return PublicCorpus.of(out);
  }

  /**
   * {@code n} private records; {@code secrets} secret words, each held by one to three random
   * records (sparse, as in SecPE's random-word task). Secret words are "secretword" + index.
   */
  static PrivateDataset privateData(int n, int secrets, long seed) {
    List<String> texts = privateTexts(n, secrets, seed);
    List<PrivateRecord> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(PrivateRecord.of("priv-" + i, texts.get(i)));
    }
    return PrivateDataset.of(out);
  }

  /** The texts of {@link #privateData}: test code that plays the evaluator reads them directly. */
  static List<String> privateTexts(int n, int secrets, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    String[] words = new String[n];
    java.util.Arrays.fill(words, "");
    for (int s = 0; s < secrets; s++) {
      int holders = 1 + rng.nextInt(3);
      for (int h = 0; h < holders; h++) {
        int i = rng.nextInt(n);
        words[i] = (words[i] + " " + secretWord(s)).strip();
      }
    }
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(encode(samplePrivate(rng), words[i]));
    }
    return out;
  }

  static String secretWord(int s) {
    return "secretword" + s;
  }

  static List<String> secretWords(int secrets) {
    List<String> out = new ArrayList<>();
    for (int s = 0; s < secrets; s++) {
      out.add(secretWord(s));
    }
    return out;
  }

  /** Reads the vector back (secret words are ignored). */
  static final class Embedder implements TextEmbedder {
    @Override
    public String name() {
      return "vector-world";
    }

    @Override
    public int dimension() {
      return DIM;
    }

    @Override
    public boolean normalized() {
      return false;
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public float[][] embed(List<String> texts) {
      float[][] out = new float[texts.size()][DIM];
      for (int i = 0; i < out.length; i++) {
        double[] v = decode(texts.get(i));
        for (int j = 0; j < DIM; j++) {
          out[i][j] = (float) v[j];
        }
      }
      return out;
    }
  }

  /** RANDOM draws from the public mixture; every variation is a Gaussian step from the parent. */
  static final class Generator implements TextGenerator {
    @Override
    public String name() {
      return "vector-world";
    }

    @Override
    public Locality locality() {
      return Locality.LOCAL;
    }

    @Override
    public CompletableFuture<List<GenerationResult>> generateAsync(List<GenerationRequest> requests) {
      List<GenerationResult> out = new ArrayList<>(requests.size());
      for (GenerationRequest r : requests) {
        SplittableRandom rng = new SplittableRandom(r.params().seed().orElseThrow());
        GenerationTask t = r.task();
        double[] v;
        if (t instanceof GenerationTask.FillIn x) {
          v = step(decode(x.parent()), rng);
        } else if (t instanceof GenerationTask.Rewrite x) {
          v = step(decode(x.parent()), rng);
        } else if (t instanceof GenerationTask.Cross x) {
          v = step(mid(decode(x.first()), decode(x.second())), rng);
        } else {
          v = samplePublic(rng);
        }
        out.add(new GenerationResult(encode(v, ""), GenerationResult.FinishReason.STOP, 1, 1));
      }
      return CompletableFuture.completedFuture(out);
    }

    private static double[] step(double[] v, SplittableRandom rng) {
      double[] out = v.clone();
      for (int j = 0; j < out.length; j++) {
        out[j] += STEP * gaussian(rng);
      }
      return out;
    }

    private static double[] mid(double[] a, double[] b) {
      double[] out = new double[a.length];
      for (int j = 0; j < a.length; j++) {
        out[j] = (a[j] + b[j]) / 2;
      }
      return out;
    }
  }
}
