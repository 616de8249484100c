package dev.secpe.accounting.pld;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reference values from {@code accounting/src/test/python/pld_reference.py} and
 * {@code quantile_reference.py} and {@code normal_reference.py} (mpmath/scipy, independent of the
 * Java), committed as {@code reference/pld_reference.csv}, {@code reference/quantile_reference.csv}
 * and {@code reference/normal_reference.csv}.
 */
public final class ReferenceValues {

  private static final Map<String, Double> VALUES = loadAll();

  private ReferenceValues() {}

  /** The value for {@code key}; fails loudly if the reference file lacks it. */
  public static double get(String key) {
    Double v = VALUES.get(key);
    if (v == null) {
      throw new IllegalStateException("no reference value for '" + key + "'");
    }
    return v;
  }

  /**
   * A secret-mixture case of {@code pld_reference.py} (its {@code cases}), the mechanism behind
   * the reference values {@code mixture_delta case=NAME} and {@code mixture_blowup case=NAME}:
   * noise sigma, the probability that each secret shifts the release, and the shift's scale.
   */
  public record MixtureCase(double sigma, double[] shiftProbs, double shiftScale) {}

  /** The mixture case {@code name} (A, B or C), as {@code pld_reference.py} defines it. */
  public static MixtureCase mixtureCase(String name) {
    return switch (name) {
      case "A" -> new MixtureCase(0.7, new double[] {0.1, 0.5, 0.9}, 1.0);
      case "B" -> new MixtureCase(2.0, new double[] {0.5, 0.9, 1.0}, Math.sqrt(2));
      case "C" -> new MixtureCase(1.5, new double[] {0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2}, 1.0);
      default -> throw new IllegalArgumentException("no mixture case '" + name + "' in pld_reference.py");
    };
  }

  private static Map<String, Double> loadAll() {
    Map<String, Double> out = new HashMap<>();
    load("/reference/pld_reference.csv", out);
    load("/reference/quantile_reference.csv", out);
    load("/reference/normal_reference.csv", out);
    return out;
  }

  private static void load(String resource, Map<String, Double> out) {
    try (InputStream in = ReferenceValues.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String line = r.readLine(); // header
      while ((line = r.readLine()) != null) {
        int comma = line.lastIndexOf(',');
        if (comma > 0) {
          out.put(line.substring(0, comma), Double.parseDouble(line.substring(comma + 1)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
