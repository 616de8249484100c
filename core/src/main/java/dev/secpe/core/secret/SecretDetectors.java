package dev.secpe.core.secret;

import dev.secpe.core.io.InputFiles;
import dev.secpe.llm.Locality;
import dev.secpe.llm.spi.ProviderConfig;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/** Factories for composite and service-backed detectors, and {@link SecretDetectorProvider} lookup. */
public final class SecretDetectors {

  private SecretDetectors() {}

  /**
   * A detector reporting the matches of every part, sorted by position. Its locality is {@link
   * Locality#REMOTE} if any part's is.
   *
   * @throws IllegalArgumentException if {@code parts} is empty
   */
  public static SecretDetector composite(List<? extends SecretDetector> parts) {
    List<SecretDetector> copy = List.copyOf(Objects.requireNonNull(parts, "parts"));
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("composite detector needs at least one part");
    }
    return new Composite(copy);
  }

  /** A composite of the given detectors. */
  public static SecretDetector composite(SecretDetector first, SecretDetector... more) {
    List<SecretDetector> all = new ArrayList<>();
    all.add(first);
    all.addAll(Arrays.asList(more));
    return composite(all);
  }

  /**
   * Adapts an external {@link PiiService}: each span becomes a match of kind {@code
   * type.toLowerCase()} whose value is the spanned text in the normalised view the built-in
   * detectors match on (NFKC, full case folding, default-ignorable code points removed, any
   * whitespace or decimal digit an ASCII one), whitespace runs collapsed to one space: "José
   * Quintanilla", "JOSÉ QUINTANILLA" with a no-break space, and an NFD spelling with a zero-width
   * space inside are one secret. The service itself receives the text as it is, and its spans are
   * in that text.
   * The detector has the service's locality. A span outside the text is an {@link
   * IllegalStateException} naming the span and the text length only.
   */
  public static SecretDetector fromPiiService(PiiService service) {
    return new ServiceDetector(Objects.requireNonNull(service, "service"));
  }

  /** Domain separation of {@link #digest}: a new tag when the digest's input changes its form. */
  private static final String DIGEST_TAG = "secpe-secret-detector-configuration-v1";

  /**
   * The digest a checkpoint and the privacy journal name {@code detector} by: {@code "sha256:"} and
   * the SHA-256 (hex) of a fixed tag, a newline and {@link SecretDetector#configuration()}. Two
   * detectors with the same digest find the same secrets; a display name may hide any change.
   *
   * <p>The digest reveals no term outright, but whoever can guess every term of a dictionary can
   * confirm the guess against it: it is written only to files the data holder keeps (checkpoints,
   * the journal), never to a report.
   */
  public static String digest(SecretDetector detector) {
    Objects.requireNonNull(detector, "detector");
    String conf = Objects.requireNonNull(detector.configuration(), "detector configuration");
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(DIGEST_TAG.getBytes(StandardCharsets.UTF_8));
      md.update((byte) '\n');
      md.update(conf.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  /**
   * One canonical, unambiguous string of a list of parts (each length-prefixed), for {@link
   * SecretDetector#configuration()}s built of several values: no choice of parts can make two
   * different lists give the same string.
   */
  public static String configurationOf(String kind, List<String> parts) {
    Objects.requireNonNull(kind, "kind");
    StringBuilder b = new StringBuilder(kind).append('[');
    for (String p : parts) {
      b.append(p.length()).append(':').append(p).append(';');
    }
    return b.append(']').toString();
  }

  /**
   * The providers found by {@link ServiceLoader} on the class path, sorted by name.
   *
   * @throws IllegalStateException if two providers share a name
   */
  public static List<SecretDetectorProvider> providers() {
    Map<String, SecretDetectorProvider> byName = new LinkedHashMap<>();
    for (SecretDetectorProvider p : ServiceLoader.load(SecretDetectorProvider.class)) {
      SecretDetectorProvider prev = byName.putIfAbsent(p.name(), p);
      if (prev != null) {
        throw new IllegalStateException(
            "two secret detector providers are named '"
                + p.name()
                + "': "
                + prev.getClass().getName()
                + " and "
                + p.getClass().getName());
      }
    }
    List<SecretDetectorProvider> out = new ArrayList<>(byName.values());
    out.sort(Comparator.comparing(SecretDetectorProvider::name));
    return List.copyOf(out);
  }

  /**
   * The provider called {@code name}.
   *
   * @throws IllegalArgumentException if there is none; the message lists the names found
   */
  public static SecretDetectorProvider provider(String name) {
    Objects.requireNonNull(name, "name");
    List<SecretDetectorProvider> all = providers();
    for (SecretDetectorProvider p : all) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "no secret detector provider named '"
            + name
            + "'; found: "
            + all.stream().map(SecretDetectorProvider::name).toList());
  }

  private record Composite(List<SecretDetector> parts) implements SecretDetector, Serializable {
    @Override
    public String name() {
      return "composite" + parts.stream().map(SecretDetector::name).toList();
    }

    @Override
    public Locality locality() {
      return parts.stream().allMatch(p -> p.locality() == Locality.LOCAL)
          ? Locality.LOCAL
          : Locality.REMOTE;
    }

    @Override
    public String configuration() {
      return configurationOf("composite", parts.stream().map(SecretDetector::configuration).toList());
    }

    @Override
    public List<SecretMatch> detect(String text) {
      Objects.requireNonNull(text, "text");
      List<SecretMatch> all = new ArrayList<>();
      TextView view = null; // built once for all the built-in parts
      for (SecretDetector d : parts) {
        if (d instanceof InProcessDetector builtIn) {
          if (view == null) {
            view = TextView.of(text);
          }
          all.addAll(builtIn.detect(view));
        } else {
          all.addAll(d.detect(text));
        }
      }
      all.sort(Comparator.comparingInt(SecretMatch::start).thenComparingInt(SecretMatch::end));
      return List.copyOf(all);
    }

    @Override
    public String toString() {
      return "CompositeDetector" + parts;
    }
  }

  private record ServiceDetector(PiiService service) implements SecretDetector {
    @Override
    public String name() {
      return service.name();
    }

    @Override
    public Locality locality() {
      return Objects.requireNonNull(service.locality(), "PII service locality");
    }

    @Override
    public String configuration() {
      // The service's own settings are beyond reach: its class and name stand for them.
      return configurationOf("pii-service", List.of(service.getClass().getName(), service.name()));
    }

    @Override
    public List<SecretMatch> detect(String text) {
      List<PiiService.PiiSpan> spans = service.find(text);
      List<SecretMatch> out = new ArrayList<>(spans.size());
      for (PiiService.PiiSpan s : spans) {
        if (s.end() > text.length()) {
          throw new IllegalStateException(
              "PII service '"
                  + service.name()
                  + "' returned span ["
                  + s.start()
                  + ", "
                  + s.end()
                  + ") outside a text of "
                  + text.length()
                  + " chars");
        }
        String value = DictionaryDetector.normalise(text.substring(s.start(), s.end()));
        if (value.isEmpty()) {
          continue;
        }
        out.add(
            new SecretMatch(s.type().toLowerCase(Locale.ROOT), value, s.start(), s.end()));
      }
      out.sort(Comparator.comparingInt(SecretMatch::start).thenComparingInt(SecretMatch::end));
      return List.copyOf(out);
    }

    @Override
    public String toString() {
      return "PiiServiceDetector[" + service.name() + ", " + locality() + "]";
    }
  }

  /** The built-in "pii-regex" provider. */
  public static final class PiiRegexProvider implements SecretDetectorProvider {
    /** For {@link ServiceLoader}. */
    public PiiRegexProvider() {}

    @Override
    public String name() {
      return "pii-regex";
    }

    @Override
    public SecretDetector create(ProviderConfig config) {
      String kinds = config.get("kinds").orElse("").strip();
      if (kinds.isEmpty()) {
        return PiiDetector.all();
      }
      EnumSet<PiiKind> set = EnumSet.noneOf(PiiKind.class);
      for (String k : kinds.split(",")) {
        String name = k.strip().toUpperCase(Locale.ROOT);
        try {
          set.add(PiiKind.valueOf(name));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "pii-regex: unknown kind '"
                  + k.strip()
                  + "' in config 'kinds'; known: "
                  + Arrays.toString(PiiKind.values()),
              null);
        }
      }
      return PiiDetector.of(set);
    }
  }

  /** The built-in "names" provider: {@link NameDetector} (no configuration). */
  public static final class NamesProvider implements SecretDetectorProvider {
    /** For {@link ServiceLoader}. */
    public NamesProvider() {}

    @Override
    public String name() {
      return "names";
    }

    @Override
    public SecretDetector create(ProviderConfig config) {
      return NameDetector.create();
    }
  }

  /** The built-in "dictionary" provider. */
  public static final class DictionaryProvider implements SecretDetectorProvider {
    /** For {@link ServiceLoader}. */
    public DictionaryProvider() {}

    @Override
    public String name() {
      return "dictionary";
    }

    @Override
    public SecretDetector create(ProviderConfig config) {
      String kind = config.get("kind").orElse("term");
      List<String> terms = new ArrayList<>();
      config
          .get("terms")
          .ifPresent(
              t -> {
                for (String s : t.split(",")) {
                  if (!s.isBlank()) {
                    terms.add(s);
                  }
                }
              });
      if (config.get("terms-file").isPresent()) {
        Path file = Path.of(config.get("terms-file").get());
        try {
          for (String line : InputFiles.readAllLines(file, InputFiles.DEFAULT_STALL_TIMEOUT)) {
            if (!line.isBlank()) {
              terms.add(line);
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("dictionary: cannot read terms-file " + file, e);
        }
      }
      if (terms.isEmpty()) {
        throw new IllegalArgumentException(
            "dictionary: config needs 'terms' (comma-separated) or 'terms-file'");
      }
      return DictionaryDetector.of(kind, terms);
    }
  }
}
