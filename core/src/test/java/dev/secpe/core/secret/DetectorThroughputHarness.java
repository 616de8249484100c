package dev.secpe.core.secret;

import dev.secpe.core.io.BundledCorpus;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Throughput of the built-in detectors on the bundled corpus's public texts, against another build
 * of this module's classes in the same process (e.g. the commit before a change to the detectors),
 * each loaded in its own class loader and called through the public API only. Not a test. Run:
 *
 * <pre>
 * ./mvnw -B -ntp -o -q test-compile -pl core
 * ./mvnw -B -ntp -o -q dependency:build-classpath -pl core -Dmdep.outputFile=/tmp/core.cp
 * java -cp core/target/test-classes:core/target/classes:$(cat /tmp/core.cp) \
 *     dev.secpe.core.secret.DetectorThroughputHarness /path/to/other/core/classes [rounds]
 * </pre>
 *
 * Prints, per detector, records per second for the other build ("before") and this one ("after")
 * and their ratio (above 1: this build is faster), and how many matches each found, on the texts
 * as they are and on the same texts with one non-ASCII character
 * (a right single quote) each, which takes every text off the ASCII fast path. Best of the rounds
 * (wall time: on a shared machine take many rounds).
 */
public final class DetectorThroughputHarness {

  private DetectorThroughputHarness() {}

  /** Runs the measurement. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: DetectorThroughputHarness OTHER_CLASSES_DIR [rounds]");
    }
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    List<String> texts = BundledCorpus.spamAssassin().publicPart().texts();
    List<String> curly = new ArrayList<>(texts.size());
    long chars = 0;
    int nonAscii = 0;
    for (String t : texts) {
      curly.add("\u2019" + t);
      chars += t.length();
      if (t.chars().anyMatch(c -> c >= 0x80)) {
        nonAscii++;
      }
    }
    System.out.printf(
        "%d texts, %.1f chars each on average, %d (%.0f%%) not pure ASCII%n",
        texts.size(), chars / (double) texts.size(), nonAscii, 100.0 * nonAscii / texts.size());

    ClassLoader after = DetectorThroughputHarness.class.getClassLoader();
    ClassLoader before = otherBuild(Path.of(args[0]));
    String[] names = {"pii-regex", "dictionary (40 words)", "random-words (40)", "composite pii + dictionary"};
    for (int d = 0; d < names.length; d++) {
      for (boolean offAscii : new boolean[] {false, true}) {
        List<String> set = offAscii ? curly : texts;
        Object b = detector(before, d, texts);
        Object a = detector(after, d, texts);
        double bestBefore = Double.MAX_VALUE;
        double bestAfter = Double.MAX_VALUE;
        long matchesBefore = 0;
        long matchesAfter = 0;
        for (int r = 0; r < rounds + 1; r++) { // round 0 warms up
          long t0 = System.nanoTime();
          matchesBefore = run(b, set);
          long t1 = System.nanoTime();
          matchesAfter = run(a, set);
          long t2 = System.nanoTime();
          if (r > 0) {
            bestBefore = Math.min(bestBefore, (t1 - t0) / 1e9);
            bestAfter = Math.min(bestAfter, (t2 - t1) / 1e9);
          }
        }
        System.out.printf(
            "%-28s %-10s before %9.0f rec/s  after %9.0f rec/s  after/before %.2f  (matches %d, %d)%n",
            names[d],
            offAscii ? "non-ASCII" : "as is",
            set.size() / bestBefore,
            set.size() / bestAfter,
            bestBefore / bestAfter,
            matchesBefore,
            matchesAfter);
      }
    }
  }

  /** This class path with this module's classes replaced by {@code classes}. */
  private static ClassLoader otherBuild(Path classes) throws Exception {
    List<URL> urls = new ArrayList<>();
    urls.add(classes.toUri().toURL());
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry).toAbsolutePath().normalize();
      if (p.endsWith(Path.of("core", "target", "classes"))
          || p.endsWith(Path.of("core", "target", "test-classes"))) {
        continue;
      }
      urls.add(p.toUri().toURL());
    }
    return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  private static Object detector(ClassLoader loader, int which, List<String> publicTexts)
      throws Exception {
    String pkg = "dev.secpe.core.secret.";
    Class<?> words = loader.loadClass(pkg + "RandomWordSecrets");
    Object builder = words.getMethod("builder").invoke(null);
    builder = builder.getClass().getMethod("publicTexts", List.class).invoke(builder, publicTexts);
    builder = builder.getClass().getMethod("count", int.class).invoke(builder, 40);
    Object randomWords = builder.getClass().getMethod("build").invoke(builder);
    @SuppressWarnings("unchecked")
    List<String> chosen = (List<String>) words.getMethod("words").invoke(randomWords);
    Object dictionary =
        loader.loadClass(pkg + "DictionaryDetector").getMethod("of", Collection.class).invoke(null, chosen);
    Object pii = loader.loadClass(pkg + "PiiDetector").getMethod("all").invoke(null);
    Class<?> iface = loader.loadClass(pkg + "SecretDetector");
    Object none = java.lang.reflect.Array.newInstance(iface, 1);
    java.lang.reflect.Array.set(none, 0, dictionary);
    Object composite =
        loader
            .loadClass(pkg + "SecretDetectors")
            .getMethod("composite", iface, none.getClass())
            .invoke(null, pii, none);
    return switch (which) {
      case 0 -> pii;
      case 1 -> dictionary;
      case 2 -> randomWords;
      default -> composite;
    };
  }

  private static long run(Object detector, List<String> texts) throws Exception {
    Method detect = detector.getClass().getMethod("detect", String.class);
    detect.setAccessible(true);
    long n = 0;
    for (String t : texts) {
      n += ((List<?>) detect.invoke(detector, t)).size();
    }
    return n;
  }
}
