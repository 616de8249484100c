package dev.secpe.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Loads reference.json (made by src/test/python/reference.py; see the README beside it). */
final class Reference {

  private static JsonNode root;

  private Reference() {}

  static synchronized JsonNode get() {
    if (root == null) {
      try (InputStream in = Reference.class.getResourceAsStream("reference.json")) {
        root = new ObjectMapper().readTree(in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return root;
  }

  static double[][] matrix(JsonNode n) {
    double[][] out = new double[n.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = vector(n.get(i));
    }
    return out;
  }

  static double[] vector(JsonNode n) {
    double[] out = new double[n.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = n.get(i).asDouble();
    }
    return out;
  }

  static int[] ints(JsonNode n) {
    int[] out = new int[n.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = n.get(i).asInt();
    }
    return out;
  }

  static float[][] floats(JsonNode n) {
    double[][] d = matrix(n);
    float[][] out = new float[d.length][];
    for (int i = 0; i < d.length; i++) {
      out[i] = new float[d[i].length];
      for (int j = 0; j < d[i].length; j++) {
        out[i][j] = (float) d[i][j];
      }
    }
    return out;
  }
}
