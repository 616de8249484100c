package dev.secpe.evaluation;

import dev.secpe.llm.Locality;
import dev.secpe.llm.TextEmbedder;
import java.util.List;

/** A deterministic bag-of-words test embedder: word hashes into 16 buckets, unit norm. */
final class HashEmbedder implements TextEmbedder {

  private final Locality locality;

  HashEmbedder(Locality locality) {
    this.locality = locality;
  }

  @Override
  public String name() {
    return "hash-16";
  }

  @Override
  public int dimension() {
    return 16;
  }

  @Override
  public boolean normalized() {
    return true;
  }

  @Override
  public Locality locality() {
    return locality;
  }

  @Override
  public float[][] embed(List<String> texts) {
    float[][] out = new float[texts.size()][16];
    for (int i = 0; i < out.length; i++) {
      double norm = 0;
      out[i][0] = 0.01f;
      for (String w : texts.get(i).toLowerCase(java.util.Locale.ROOT).split("\\W+")) {
        if (!w.isEmpty()) {
          out[i][Math.floorMod(w.hashCode() * 0x9E3779B1, 16)] += 1;
        }
      }
      for (float v : out[i]) {
        norm += v * v;
      }
      for (int j = 0; j < 16; j++) {
        out[i][j] /= (float) Math.sqrt(norm);
      }
    }
    return out;
  }
}
