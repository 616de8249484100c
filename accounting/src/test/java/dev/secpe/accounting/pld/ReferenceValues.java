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
