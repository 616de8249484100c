package com.example.consumer;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.List;
import java.util.Locale;

/**
 * A user's own embedder: hashed bag of words, L2-normalised.
 *
 * <p>This project is built against the installed SecPE artifacts as a user would build it, so it
 * is self-contained on purpose: the accessors every {@link TextEmbedder} has, and the
 * normalisation, repeat what the library's embedders write rather than borrow its internals.
 */
public final class HashingEmbedder implements TextEmbedder {
  private static final int DIM = 64;

  @Override
  public String name() {
    return "hashing";
  }

  @Override
  public int dimension() {
    return DIM;
  }

  @Override
  public boolean normalized() {
    return true;
  }

  @Override
  public Locality locality() {
    return Locality.LOCAL;
  }

  @Override
  public float[][] embed(List<String> texts) {
    float[][] out = new float[texts.size()][DIM];
    for (int i = 0; i < texts.size(); i++) {
      for (String w : texts.get(i).toLowerCase(Locale.ROOT).split("\\W+")) {
        if (!w.isEmpty()) {
          out[i][Math.floorMod(w.hashCode(), DIM)] += 1;
        }
      }
      out[i][0] += 1e-3f; // never a zero vector
      double s = 0;
      for (float v : out[i]) {
        s += v * v;
      }
      for (int k = 0; k < DIM; k++) {
        out[i][k] /= (float) Math.sqrt(s);
      }
    }
    return out;
  }
}
